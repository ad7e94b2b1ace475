// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan/auto.c - when a run of several passes may stop, and in which order
 * ab's sides run: -n auto's looks and its test that every cell is known
 * well enough, and the A B / B A order of each cell. See plan.h.
 */
#include <math.h>
#include "plan/ab.h"
#include "lib/infer.h"
#include "core/figures.h"

/*
 * The cell's own index (plan_cell() runs every other pass backwards) and
 * its pass: each cell alternates A B and B A from pass to pass, and the
 * side in effect carries over from one cell to the next (A B, B A, ...).
 */
int plan_ab_first(const struct plan *p, int i)
{
	int pass = i / p->per_pass, c = i % p->per_pass;

	if (pass % 2)
		c = p->per_pass - 1 - c;
	return (c + pass) & 1;
}

/*
 * -n auto looks at 3 passes, then each time half as many again, and at
 * the last: few looks, so that the alpha each gets stays large.
 */
bool plan_look(const struct plan *p, int passes)
{
	int at = AUTO_REPEATS_MIN;

	if (passes >= p->repeats)
		return true;
	if (!p->auto_repeats)
		return false;
	while (at < passes)
		at += (at + 1) / 2;
	return at == passes;
}

int plan_nlooks(const struct plan *p)
{
	int i, n = 0;

	for (i = 1; i <= p->repeats; i++)
		n += plan_look(p, i);
	return n;
}

int plan_lat_decisions(int *f, int max)
{
	int i, n = 0;

	for (i = 0; i < F_COUNT && n < max; i++)
		if (fig_decides(&figures[i]) && figures[i].unit == FU_NS)
			f[n++] = i;
	return n;
}

double plan_auto_limit(void)
{
	return log1p(AUTO_HALF_WIDTH_PCT / 100);
}

int plan_auto_walk(const struct plan *p, const struct result *res, int n,
		   int (*fn)(const struct plan_auto_cell *c, void *ctx),
		   void *ctx)
{
	int lat[8], nlat = plan_lat_decisions(lat, 8), s, l, i, r;
	struct plan_auto_cell c;
	double m, sd;

	for (s = 0; s < p->nsims; s++)
		for (l = 0; l < p->nloads; l++) {
			if (!plan_has(p->sims[s], p->loads[l]))
				continue;
			c.sim = p->sims[s];
			c.load = p->loads[l];
			for (i = 0; i < nlat; i++) {
				c.fig = lat[i];
				c.k = row_spread(res, n, c.sim, c.load,
						 (enum fig_id)c.fig, &m, &sd);
				c.half = c.k < 2 ? NAN :
					 inf_t_quantile(0.975, c.k - 1) * sd /
					 sqrt(c.k);
				r = fn(&c, ctx);
				if (r < 0)
					return r;
				if (r > 0)
					break;
			}
		}
	return 0;
}

/* The settling test, for one cell's figure: see plan_auto_settled(). */
static int settled_one(const struct plan_auto_cell *c, void *ctx)
{
	const int *floor = ctx;

	/* a cell that never measures cannot narrow */
	if (!c->k && *floor)
		return 1;
	if (c->k < AUTO_REPEATS_MIN || !(c->half <= plan_auto_limit()))
		return -1;
	return 0;
}

bool plan_auto_settled(const struct plan *p, const struct result *res,
		       int n)
{
	int floor = n >= AUTO_REPEATS_MIN * p->per_pass;

	return !plan_auto_walk(p, res, n, settled_one, &floor);
}
