// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/progress.c - the run's length, as a person reads it (declared
 * in output.h): each cell's run-to-run noise and the repeats and -t that
 * would find a 10 % change (the advice after a run), what -n auto left
 * unsettled (plan/auto.c decides), the progress line on a terminal and
 * --dry-run's plan.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "outputs/output.h"
#include "lib/base.h"
#include "lib/infer.h"
#include "core/noise.h"

/* A cell's expected time: its duration and about 0.3 s of set-up. */
#define CELL_OVERHEAD_NS	(300 * NSEC_PER_MSEC)

/* The coefficient of variation, in %, of a lognormal of log-SD sd. */
static double cv_pct(double sd)
{
	return 100 * sqrt(expm1(sd * sd));
}

/*
 * Repeats per file for compare to find a change of 10 % in 80 % of
 * runs: significant among tests (a lone change: alpha / tests, every
 * cell's decision figures), with its interval beyond compare's 5 %. 0
 * when more than 1000.
 */
static int repeats_for(double sd, int tests)
{
	double a = 0.05 / (tests > 0 ? tests : 1);
	int n;

	for (n = 3; n <= 1000 && sd >= 0; n++) {
		double df = 2.0 * n - 2, se = sd * sqrt(2.0 / n);
		double t80 = inf_t_quantile(0.8, df);

		if (log(1.10) >= (inf_t_quantile(1 - a / 2, df) + t80) * se &&
		    log(1.10 / 1.05) >= (inf_t_quantile(0.975, df) + t80) * se)
			return n;
	}
	return 0;
}

/* Every decision figure of every cell: the family compare adjusts. */
static int decision_tests(const struct plan *p)
{
	int i, n = 0;

	for (i = 0; i < F_COUNT; i++)
		n += fig_decides(&figures[i]);
	return n * p->per_pass;
}

/* How much longer than -t the advice tries cells: 1, 2, 4, 8 times. */
#define LENGTHS		4

/* One figure's advice: the noise of a cell's figure, repeats per length. */
static void cell_advice(struct out_console *con, const struct fig_noise *nz,
			const struct plan *p, const char *sim,
			const char *load, int *need)
{
	char at[LENGTHS][12], split[96];
	int j;

	for (j = 0; j < LENGTHS; j++) {
		need[j] = repeats_for(fig_noise_at(nz, 1 << j),
				      decision_tests(p));
		snprintf(at[j], sizeof(at[j]), need[j] ? "%d" : ">1000",
			 need[j]);
	}
	/*
	 * The parts of the noise add up as variances of the log: their
	 * shares of it. A cell's sampling estimated above what the runs
	 * showed in all is said so, not cut to fit.
	 */
	if (isnan(nz->within) || !(nz->total > 0))
		snprintf(split, sizeof(split), "no split");
	else if (nz->within > nz->total)
		snprintf(split, sizeof(split), "all in the cell: its "
			 "sampling alone, %.1f %%, is above it", cv_pct(nz->within));
	else
		snprintf(split, sizeof(split), "%3.0f %% between runs, %3.0f %% "
			 "in the cell", 100 * nz->between * nz->between /
			 (nz->total * nz->total), 100 * nz->within *
			 nz->within / (nz->total * nz->total));
	out_printf(con, "%-9s %-9s %-4s %6.1f %% (%s); -n %s %s %s %s\n", sim,
		   load, figures[nz->f].key, cv_pct(nz->total), split, at[0],
		   at[1], at[2], at[3]);
}

void out_variation(struct out_console *con, const struct result *res, int n)
{
	const struct plan *p = con->plan;
	double secs = (double)p->cfg.duration_ns / NSEC_PER_SEC, cost;
	int worst[LENGTHS] = { -1, -1, -1, -1 }, s, l, j, best = -1, few = 0;
	int between_bound = 0;

	int lat[8], nlat = plan_lat_decisions(lat, 8), k;

	out_printf(con, "\nRun-to-run noise of each cell's latency decision "
		   "figures (what compare judges\nit on, with its misses, "
		   "lows and CPU): the coefficient of variation over "
		   "the\nrepeats, and the shares of its variance (of the log) "
		   "that differ between runs,\nwhich a longer cell keeps, and "
		   "that the cell's own sampling adds, which a cell m\ntimes "
		   "as long divides by m; then the repeats each file needs to "
		   "find a 10 %%\nchange of it at -t %g, %g, %g and %g:\n",
		   secs, 2 * secs, 4 * secs, 8 * secs);
	for (s = 0; s < p->nsims; s++)
		for (l = 0; l < p->nloads; l++)
			for (k = 0; k < nlat; k++) {
				struct fig_noise nz;
				int need[LENGTHS];

				if (!plan_has(p->sims[s], p->loads[l]) ||
				    fig_noise_of(res, n, p->sims[s],
						 p->loads[l], lat[k], &nz))
					break;
				if (nz.k < 3) {
					out_printf(con, "%-9s %-9s %d "
						   "measured repeats: too few "
						   "to tell\n",
						   p->sims[s]->name,
						   p->loads[l]->name, nz.k);
					few++;
					fig_noise_free(&nz);
					break;
				}
				cell_advice(con, &nz, p, p->sims[s]->name,
					    p->loads[l]->name, need);
				/* many repeats even when long: the runs
				 * differ */
				between_bound += (!need[LENGTHS - 1] ||
						  need[LENGTHS - 1] > 20) &&
						 nz.between > nz.total / M_SQRT2;
				fig_noise_free(&nz);
				/* -1: no cell yet; 0: one needs over 1000 */
				for (j = 0; j < LENGTHS; j++)
					if (!need[j])
						worst[j] = 0;
					else if (worst[j] && need[j] > worst[j])
						worst[j] = need[j];
			}
	/* the least machine time over the lengths every cell can do */
	for (j = 0, cost = INFINITY; j < LENGTHS && !few; j++) {
		double c = worst[j] * p->per_pass *
			   ((1 << j) * secs + (double)CELL_OVERHEAD_NS /
			    NSEC_PER_SEC);

		if (worst[j] > 0 && c < cost) {
			cost = c;
			best = j;
		}
	}
	if (best < 0)
		out_printf(con, "No -t of these lets 1000 repeats find a 10 "
			   "%% change in every cell.\n");
	if (between_bound)
		out_printf(con, "In %d figure%s the noise is mostly between "
			   "runs, which a longer -t keeps: what\ndiffers from "
			   "run to run (the host's steal, CPU placement) is "
			   "the machine's;\n`interbench ab` measures A and B "
			   "side by side, so that it falls on both alike.\n",
			   between_bound, between_bound == 1 ? "" : "s");
	if (best < 0)
		return;
	out_printf(con, "Soonest to find a 10 %% change in every cell: -t %g "
		   "-n %d, about %.0f min a file", (1 << best) * secs,
		   worst[best], cost / 60);
	if (best && worst[0] > 0)
		out_printf(con, " (at -t %g: -n %d, about %.0f min)", secs,
			   worst[0], worst[0] * p->per_pass *
			   (secs + (double)CELL_OVERHEAD_NS / NSEC_PER_SEC) /
			   60);
	out_printf(con, "\n");
}

/* One line of out_unsettled(): a cell's figure not yet known well enough. */
static int unsettled_one(const struct plan_auto_cell *c, void *ctx)
{
	struct out_console *con = ctx;
	double half = c->half, limit = plan_auto_limit();

	if (c->k < 2) {
		out_printf(con, "  %s/%s: %d measured repeats\n",
			   c->sim->name, c->load->name, c->k);
		return 1;
	}
	if (half <= limit)
		return 0;
	/* the half width falls as one over the root of n */
	out_printf(con, "  %s/%s: %s latency known to +/-%.1f %%; about %.0f "
		   "repeats would know it to %g %%\n", c->sim->name,
		   c->load->name, figures[c->fig].key, expm1(half) * 100,
		   ceil(c->k * (half / limit) * (half / limit)),
		   AUTO_HALF_WIDTH_PCT);
	return 0;
}

void out_unsettled(struct out_console *con, const struct result *res, int n)
{
	plan_auto_walk(con->plan, res, n, unsettled_one, con);
}

void out_progress(const struct plan *p, int done, const struct sim_desc *s,
		  const struct load_desc *l)
{
	uint64_t per = p->cfg.duration_ns + CELL_OVERHEAD_NS;
	uint64_t left = (uint64_t)(p->cells - done) * per;

	if (!isatty(STDERR_FILENO))
		return;
	if (!s) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K[%d/%d] %s under %s, about %llu s left",
		done + 1, p->cells, s->name, l->name,
		(unsigned long long)(left / NSEC_PER_SEC));
}

static void to_stdout(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void to_stdout(void *ctx, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void out_plan(const struct plan *p)
{
	double secs = (double)p->cells *
		      (double)(p->cfg.duration_ns + CELL_OVERHEAD_NS) /
		      NSEC_PER_SEC;
	int s, l;

	printf("Would run %d cells (%d per pass, %d pass%s) of %.3g s: about "
	       "%.0f s\n", p->cells, p->per_pass, p->repeats,
	       p->repeats > 1 ? "es" : "",
	       (double)p->cfg.duration_ns / NSEC_PER_SEC, secs);
	for (s = 0; s < p->nsims; s++)
		for (l = 0; l < p->nloads; l++)
			if (plan_has(p->sims[s], p->loads[l]))
				printf("  %s under %s\n", p->sims[s]->name,
				       p->loads[l]->name);
	plan_notes(p, false, to_stdout, NULL);
}
