// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan/auto.c - when a run of several passes may stop, and in which order
 * ab's sides run: -n auto's looks and its test that every cell is known
 * well enough, and the A B / B A order of each cell (plan/ab.h). See
 * plan.h.
 */
#include <errno.h>
#include <math.h>
#include "plan/ab.h"
#include "lib/infer.h"
#include "core/figures.h"

/*
 * A fair coin for one cell and one block of two passes, from the run's
 * seed: splitmix64's finaliser over the three, so that neighbouring
 * cells and blocks get unrelated coins. Pure: the order is known again
 * from the seed the result files record.
 */
static int ab_coin(uint32_t seed, int cell, int block)
{
	uint64_t z = ((uint64_t)seed << 32) ^ ((uint64_t)(uint32_t)cell << 12) ^
		     (uint64_t)(uint32_t)block;

	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (int)((z ^ (z >> 31)) >> 63);
}

/*
 * The cell's own index (plan_cell() runs every other pass backwards) and
 * its pass: passes go in blocks of two, and in each block a coin picks A B
 * then B A, or B A then A B, for each cell. An even number of pairs is
 * balanced exactly, as ABBA was; an odd one (-n auto's looks at 3 and 5)
 * has one pair more of one order, which the coin makes as likely A B as
 * B A, so that an order effect (the second of a pair slower: caches, the
 * page cache, the CPU's temperature) no longer leans every cell the same
 * way (doc/compare.txt: the false marks it cost ABBA).
 */
int plan_ab_first(const struct plan *p, uint32_t seed, int i)
{
	int pass = i / p->per_pass, c = i % p->per_pass;

	if (pass % 2)
		c = p->per_pass - 1 - c;
	return ab_coin(seed, c, pass / 2) ^ (pass & 1);
}

int plan_ab_order(const struct plan *p, uint32_t seed, char *buf, size_t n)
{
	int i;

	if (!n || (size_t)p->cells >= n)
		return -ENOSPC;
	for (i = 0; i < p->cells; i++)
		buf[i] = plan_ab_first(p, seed, i) ? 'B' : 'A';
	buf[i] = '\0';
	return 0;
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
