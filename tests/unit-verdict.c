// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-verdict - compare's verdicts on pairs of made-up result files with
 * a known truth: how often a table of identical kernels (A/A) shows any
 * mark, and how often a real change is found.
 *
 * The made-up files are tests/synthtab.h's (shared with unit-sweep).
 * Each made-up run measures every cell of a 50-cell matrix: a run-to-run
 * factor (lognormal, 3 % SD by default) times 200 frames whose latencies
 * are lognormal (0.55 SD in the log): their mean varies by about 4 % from
 * run to run by themselves, so a cell's mean varies by 5 % in all (the
 * issue's "5 % run-to-run noise", printed with each table). From them
 * come the cell's mean, p50, p90, p99 and max, as interbench takes them; % of
 * deadlines met counts frames later than the deadline; Burn cells also
 * have a load rate. Cases:
 *   aa      A/A: no difference at all
 *   cell25  one cell 25 % slower (every frame)
 *   all10   every cell 10 % slower
 *   tail    one cell: 2 % of its frames 2 ms later (p99 and max, not the
 *           bulk): a tail-only change, as a stall makes
 *   met     one cell misses 3 % of its deadlines more
 *   median  one cell: every frame later by a quarter of the cell's typical
 *           latency, added (as a timer slack adds): its p50 moves 25 %,
 *           its max about 5 %: a change of the bulk
 *   trade   one cell: every frame 20 % sooner, and 2 % of them 2 ms later
 *           (a shorter slice): p50 better, the tail worse, a trade-off
 *   better  the cells of loads L7-L12 (under half) 40 % sooner, every
 *           frame, and no cell worse: a change that helps the loaded
 *           cells (nice 19 loads); a cell marked worse is a false one
 *   stS%Tms stalls: S % of cell 5's frames (each run's share varies by
 *           0.4 in the log: a stall meets runs differently) T ms later
 *   burst   A/A but for one run of B's cell 5 (its first), 15 to 40 of
 *           whose frames are 2 ms late: a burst of the host's, which a
 *           verdict must not read as the kernel's (an A/A in truth)
 *
 * Each run also keeps its frames' histogram, frames and frames met, and a
 * period 150 times its cell's typical latency (as Video's 16.7 ms is to
 * its 0.11 ms), for the counted rows and "unchanged". The oracle column
 * tests cell 5's one changed figure alone at alpha (p50; the frames late
 * for the tail, the trade-off and the 1 ms stalls; the max for the 10 ms
 * stalls; the deadlines missed for met): the limit of the data, which the
 * table's verdict is read against.
 *
 *
 * `interbench ab` measures A and B side by side: what drifts between pairs
 * (the host's load, the temperature) is shared by both members of a pair.
 * With DRIFT, each (cell, repeat) has a lognormal factor of that SD common
 * to A and B, on top of each run's own; paired, the files are judged as
 * compare judges ab's (paired t-test), and -n auto's stopping at looks 3,
 * 5, 8 and 10 with alpha shared among them is simulated too, with and
 * without --bisect (stop at the first look with a cell worse): how many
 * pairs it took, the cells unchanged at the end, and the pairs that found
 * cell 5 worse.
 *
 *   unit-verdict                  TAP: a small calibration with bounds
 *   unit-verdict TABLES [SD [FIG]] the rates for 1, 3, 5 and 10 repeats,
 *                                 judged on FIG if given (--primary)
 *                                 (bench/compare-calibration.sh)
 *   unit-verdict paired TABLES SD DRIFT
 *                                 separate runs against ab's pairs, with
 *                                 the drift between pairs, and -n auto
 *   unit-verdict plain ...        either, with each cell on its own spread
 *                                 (compare --plain; moderated is the
 *                                 default, as compare's)
 *   unit-verdict hetero ...       either, on cells whose noise differs
 *   unit-verdict cells=N ...      either, on the first N cells (6-52)
 *   unit-verdict order TABLES SD DRIFT WANDER
 *                                 ab's order inside a pair on A/A tables:
 *                                 the second run 0, 3, 10 % slower and
 *                                 drifting WANDER %, ABBA against the coin
 *   unit-verdict need TRIALS SD DRIFT
 *                                 "about N pairs would decide it" against
 *                                 fresh tables of N pairs
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "compare/compare.h"
#include "compare/verdict.h"
#include "core/load.h"
#include "plan/ab.h"
#include "stats.h"
#include "synthtab.h"

/*
 * What the oracle knows: the one row of cell 5 that its change moves,
 * tested alone at alpha (no other cell, no other figure): how far the
 * table's verdict is from the limit of the data.
 */
static int oracle_fig(enum truth t)
{
	switch (t) {
	case ST1_10: case ST5_10:
		return F_LAT_MAX;
	case TAIL: case TRADE: case ST1_1: case ST5_1: case BURST:
		return -CMP_LATE;
	case MET:
		return -CMP_MISSED;
	default:
		return F_LAT_P50;
	}
}

/* -1: cells judged on their decision figures, as compare does; or FIG */
static int primary = -1;
/* compare --moderate: the moderated t */
static bool moderate = true;
/* ab: judged as pairs (the drift a pair shares: drift_sd, synthtab.h) */
static bool paired;
/*
 * ab's order within a pair (order_table()): the second run of each pair
 * ORDER_EFF slower (caches, the page cache, the CPU's temperature), and
 * drift within the pair (log SD ORDER_WANDER), the second run's alone.
 * ORDER_NONE leaves every run as it was.
 */
enum order_way { ORDER_NONE, ORDER_ABBA, ORDER_COIN };
static enum order_way order_way;
static double order_eff, order_wander;

static void new_order(void);

/* What drifts between pairs: a new draw for each table, shared by A, B. */
static void new_drift(void)
{
	tab_drift();
	new_order();
}

struct tally {
	int tables;
	int any_mark;		/* tables with a cell marked */
	int any_row;		/* tables with a row marked, either family */
	int cell5_worse;	/* its verdict: worse */
	int cell5_better, cell5_mixed;
	int cell5_row;		/* a row of it marked worse, either family */
	int summary_worse, other_marks;
	int any_worse;		/* tables with a cell worse or mixed */
	int pairs;		/* -n auto: pairs measured, summed */
	int oracle;		/* cell 5's changed row alone, at alpha */
	int unchanged;		/* cells unchanged, summed over tables */
	int c5_found, c5_pairs;	/* -n auto: cell 5 found worse, and the
				 * pairs it took then, summed */
};

static void tally(struct tally *ty, const struct cmp_pair *p,
		  const struct cmp_metric *m, enum truth t);

static void one_table(struct tally *ty, int repeats, enum truth t,
		      double sd, const struct cmp_metric *m, int nm)
{
	static struct made a, b;
	struct cmp_opts o = { 0.05, 5, 1, 0.95, primary, paired, moderate,
			      NULL };
	struct cmp_pair p;

	/* side by side, a pair shares its drift; run apart, each its own */
	new_drift();
	make_file(&a, repeats, t, false, sd);
	if (!paired)
		new_drift();
	make_file(&b, repeats, t, true, sd);
	if (cmp_pair_run(&a.rf, &b.rf, &o, m, nm, &p))
		return;
	tally(ty, &p, m, t);
	cmp_pair_free(&p);
}

/*
 * ab -n auto on one pair of files: judged after 3, 5, 8 and 10 pairs,
 * each look at a quarter of alpha (as ab and compare do), stopping at
 * the first where every cell is decided (bisect: or a cell is worse, as
 * ab --bisect stops); the verdict is that look's. share: 1 for the naive
 * way, judging each look at the whole alpha.
 */
static void one_sequence(struct tally *ty, enum truth t, double sd,
			 const struct cmp_metric *m, int nm, int share,
			 bool bisect)
{
	static const int looks[] = { 3, 5, 8, 10 };
	static struct made a, b;
	struct cmp_opts o = { 0.05 / share, 5, 1, 1 - 0.05 / share, primary,
			      true, moderate, NULL };
	struct cmp_pair p;
	size_t l;
	int c, i, left = 1, worse;
	bool found = false;

	new_drift();
	make_file(&a, MAXREP, t, false, sd);
	make_file(&b, MAXREP, t, true, sd);
	for (l = 0; l < sizeof(looks) / sizeof(looks[0]) && left; l++) {
		for (c = 0; c < CELLS; c++)
			a.cells[c].n_ok = b.cells[c].n_ok = (size_t)looks[l];
		if (cmp_pair_run(&a.rf, &b.rf, &o, m, nm, &p))
			return;
		for (i = 0, left = 0, worse = 0; i < p.ncells; i++) {
			left += p.cells[i].verdict == CV_INCONCLUSIVE ||
				p.cells[i].verdict == CV_FEW;
			worse += p.cells[i].verdict == CV_WORSE ||
				 p.cells[i].verdict == CV_MIXED;
		}
		if (!found && p.cells[5].verdict == CV_WORSE) {
			found = true;
			ty->c5_found++;
			ty->c5_pairs += looks[l];
		}
		if (bisect && worse)
			left = 0;
		if (!left || l + 1 == sizeof(looks) / sizeof(looks[0])) {
			tally(ty, &p, m, t);
			ty->pairs += looks[l];
		}
		cmp_pair_free(&p);
	}
}

static void tally(struct tally *ty, const struct cmp_pair *pp,
		  const struct cmp_metric *m, enum truth t)
{
	const struct cmp_pair *p = pp;
	int i, j, k, of = oracle_fig(t);

	ty->tables++;
	for (i = 0; i < p->ncells; i++)
		ty->unchanged += p->cells[i].verdict == CV_UNCHANGED;
	/* the oracle: cell 5's changed row, worse at alpha, beyond 5 % */
	for (i = p->cells[5].row0; i < p->cells[5].row0 + p->cells[5].nrows;
	     i++) {
		const struct cmp_row *r = &p->rows[i];

		if (of >= 0 ? m[r->metric].fig != of :
		    m[r->metric].count != -of)
			continue;
		ty->oracle += r->p <= 0.05 && r->t_d > 0 &&
			      cmp_beyond(r->lo, r->hi, 5) > 0;
	}
	for (i = 0, j = 0; i < p->nrows; i++)
		j += p->rows[i].mark != 0;
	ty->any_row += j > 0;
	for (i = 0, j = 0; i < p->ncells; i++)
		j += p->cells[i].verdict == CV_WORSE ||
		     p->cells[i].verdict == CV_BETTER ||
		     p->cells[i].verdict == CV_MIXED;
	ty->any_mark += j > 0;
	for (i = 0, j = 0; i < p->ncells; i++)
		j += p->cells[i].verdict == CV_WORSE ||
		     p->cells[i].verdict == CV_MIXED;
	ty->any_worse += j > 0;
	ty->cell5_worse += p->cells[5].verdict == CV_WORSE;
	ty->cell5_better += p->cells[5].verdict == CV_BETTER;
	ty->cell5_mixed += p->cells[5].verdict == CV_MIXED;
	for (i = p->cells[5].row0, k = 0;
	     i < p->cells[5].row0 + p->cells[5].nrows; i++)
		k |= p->rows[i].mark > 0;
	ty->cell5_row += k;
	for (i = 0; i < p->ncells; i++)
		ty->other_marks += i != 5 &&
				   (p->cells[i].verdict == CV_WORSE ||
				    p->cells[i].verdict == CV_BETTER ||
				    p->cells[i].verdict == CV_MIXED);
	/* the summary describes: its interval above the min change */
	for (i = 0; i < p->nsums; i++)
		if (!strcmp(p->sums[i].task, "all") &&
		    m[p->sums[i].metric].fig == F_LAT_MEAN)
			ty->summary_worse += p->sums[i].lo > 5;
}

static struct tally calibrate(int tables, int repeats, enum truth t,
			      double sd)
{
	struct cmp_metric m[CMP_MAX_METRICS];
	int nm = cmp_metrics(m, CMP_MAX_METRICS), i;
	struct tally ty = { 0 };

	for (i = 0; i < tables; i++)
		one_table(&ty, repeats, t, sd, m, nm);
	return ty;
}

/*
 * With one run a side (no interval) the summary's point is the geometric
 * mean over the cells of each figure's own ratio: worked out here from
 * the rows compare made, figure by figure.
 */
static void summary_points(void)
{
	static struct made a, b;
	struct cmp_metric m[CMP_MAX_METRICS];
	int nm = cmp_metrics(m, CMP_MAX_METRICS), i, j, bad = 0, seen = 0;
	struct cmp_opts o = { 0.05, 5, 1, 0.95, F_LAT_MEAN, false, false,
			      NULL };
	struct cmp_pair p;

	new_drift();
	make_file(&a, 1, CELL25, false, 0.03);
	make_file(&b, 1, CELL25, true, 0.03);
	if (cmp_pair_run(&a.rf, &b.rf, &o, m, nm, &p)) {
		check(0, "compare ran");
		return;
	}
	for (i = 0; i < p.nsums; i++) {
		const struct cmp_sum *s = &p.sums[i];
		double sum = 0;
		int cells = 0;

		if (strcmp(s->task, "all"))
			continue;
		for (j = 0; j < p.nrows; j++)
			if (p.rows[j].metric == s->metric && p.rows[j].na &&
			    p.rows[j].nb) {
				sum += log(p.rows[j].cur) - log(p.rows[j].base);
				cells++;
			}
		seen++;
		bad += cells != s->cells ||
		       fabs(expm1(sum / cells) * 100 - s->change) > 1e-6;
	}
	check(seen >= 5 && !bad, "one run a side: each figure's summary is "
	      "its own cells' geometric mean (%d of %d wrong)", bad, seen);
	cmp_pair_free(&p);
}

static double pct(int k, int n)
{
	return n ? 100.0 * k / n : NAN;
}

/* How much a cell's figure fig varies from run to run, in all (%). */
static double total_sd(double sd, int fig)
{
	static struct made m;
	double sum = 0;
	int c, k;

	make_file(&m, MAXREP, AA, false, sd);
	for (c = 0; c < ncells; c++) {
		double mean = 0, ss = 0;

		for (k = 0; k < MAXREP; k++)
			mean += log(m.rep[c][k].v[fig]) / MAXREP;
		for (k = 0; k < MAXREP; k++)
			ss += pow(log(m.rep[c][k].v[fig]) - mean, 2);
		sum += sqrt(ss / (MAXREP - 1));
	}
	return 100 * sum / ncells;
}

static int report(int tables, double sd)
{
	static const int reps[] = { 1, 3, 5, 10 };
	size_t r;
	int t;

	printf("%d tables per case, run-to-run factor SD %.1f %% (a cell's "
	       "mean latency varies\nby %.1f %% from run to run in all, its "
	       "p90 by %.1f %%), %d cells, alpha 0.05,\nmin change 5 %% / 1 "
	       "point, judged on %s\n", tables, sd * 100,
	       total_sd(sd, F_LAT_MEAN), total_sd(sd, F_LAT_P90), ncells,
	       primary >= 0 ? figures[primary].label :
	       "each cell's decision figures");
	printf("%-8s %7s %10s %10s %10s %10s %10s %10s %10s %10s %10s %9s\n",
	       "case", "repeats", "cell mkd %", "row mkd %", "c5 worse %",
	       "c5 mixed %", "c5 bettr %", "c5 row %", "others %",
	       "all wrs %", "any wrs %", "oracle %");
	for (t = 0; t < NCASES; t++)
		for (r = 0; r < sizeof(reps) / sizeof(reps[0]); r++) {
			struct tally y = calibrate(tables, reps[r],
						   (enum truth)t, sd);

			printf("%-8s %7d %10.1f %10.1f %10.1f %10.1f %10.1f "
			       "%10.1f %10.2f %10.1f %10.1f %9.1f\n",
			       case_names[t],
			       reps[r], pct(y.any_mark, y.tables),
			       pct(y.any_row, y.tables),
			       pct(y.cell5_worse, y.tables),
			       pct(y.cell5_mixed, y.tables),
			       pct(y.cell5_better, y.tables),
			       pct(y.cell5_row, y.tables),
			       pct(y.other_marks, y.tables * (ncells - 1)),
			       pct(y.summary_worse, y.tables),
			       pct(y.any_worse, y.tables),
			       pct(y.oracle, y.tables));
		}
	return 0;
}

static struct tally sequences(int tables, enum truth t, double sd, int share,
			      bool bisect)
{
	struct cmp_metric m[CMP_MAX_METRICS];
	int nm = cmp_metrics(m, CMP_MAX_METRICS), i;
	struct tally ty = { 0 };

	for (i = 0; i < tables; i++)
		one_sequence(&ty, t, sd, m, nm, share, bisect);
	return ty;
}

/* Separate runs against ab's pairs, with drift between pairs. */
static int report_paired(int tables, double sd, double dsd)
{
	static const int reps[] = { 3, 5, 10 };
	static const enum truth cases[] = { AA, CELL25, ALL10, TAIL, ST1_10,
					    ST5_10 };
	size_t r, c;
	int way;

	drift_sd = dsd;
	printf("%d tables per case, each run's own factor SD %.1f %%, drift "
	       "between pairs SD %.1f %%,\n%d cells, alpha 0.05, min change "
	       "5 %%, judged on %s\n", tables, sd * 100, dsd * 100, ncells,
	       primary >= 0 ? figures[primary].label :
	       "each cell's decision figures");
	printf("%-8s %-22s %10s %10s %10s %10s %11s %9s\n", "case", "how",
	       "cell mkd %", "c5 worse %", "others %", "mean pairs",
	       "unchanged %", "c5 pairs");
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (way = 0; way < 2; way++)
			for (r = 0; r < sizeof(reps) / sizeof(reps[0]); r++) {
				struct tally y;
				char how[32];

				paired = way;
				y = calibrate(tables, reps[r], cases[c], sd);
				snprintf(how, sizeof(how), "%s, -n %d",
					 way ? "ab pairs" : "separate runs",
					 reps[r]);
				printf("%-8s %-22s %10.1f %10.1f %10.2f %10d "
				       "%11.1f\n", case_names[cases[c]], how,
				       pct(y.any_mark, y.tables),
				       pct(y.cell5_worse, y.tables),
				       pct(y.other_marks,
					   y.tables * (ncells - 1)), reps[r],
				       pct(y.unchanged, y.tables * ncells));
			}
		for (way = 0; way < 2; way++) {
			struct tally y = sequences(tables, cases[c], sd, 4,
						   way);

			printf("%-8s %-22s %10.1f %10.1f %10.2f %10.1f %11.1f "
			       "%9.1f\n", case_names[cases[c]], way ?
			       "-n auto, --bisect" : "ab -n auto, alpha/4",
			       pct(y.any_mark, y.tables),
			       pct(y.cell5_worse, y.tables),
			       pct(y.other_marks, y.tables * (ncells - 1)),
			       (double)y.pairs / y.tables,
			       pct(y.unchanged, y.tables * ncells),
			       y.c5_found ? (double)y.c5_pairs / y.c5_found :
			       NAN);
		}
	}
	return 0;
}

/*
 * Who ran second in each pair of a new table, as ab orders them: ABBA
 * (before the coin: B first when the cell's own index and its pass add up
 * odd), or plan_ab_first()'s coins, from a new seed for each table as each
 * ab run draws one. The second run gets the order effect and the drift
 * within its pair.
 */
static void new_order(void)
{
	struct plan q = { 0 };
	uint32_t seed;
	int c, k;

	memset(second, 0, sizeof(second));
	if (order_way == ORDER_NONE)
		return;
	q.per_pass = ncells;
	seed = (uint32_t)(uniform() * 4294967295.0);
	for (c = 0; c < ncells; c++)
		for (k = 0; k < MAXREP; k++) {
			/* its place in the run order: odd passes backwards */
			int i = k * ncells + (k % 2 ? ncells - 1 - c : c);
			int first = order_way == ORDER_ABBA ? (c + k) & 1 :
				    plan_ab_first(&q, seed, i);

			second[!first][c][k] = log1p(order_eff) +
					       order_wander * gauss();
		}
}

/*
 * An A/A table of ab's pairs in the order of order_way: tallied, and each
 * cell's p50 change added to lean[cell], whose mean over tables is the
 * way the order leans the cell (0 if it leans no way).
 */
static void order_table(struct tally *ty, double *lean, int repeats,
			double sd, const struct cmp_metric *m, int nm)
{
	static struct made a, b;
	struct cmp_opts o = { 0.05, 5, 1, 0.95, primary, true, moderate,
			      NULL };
	struct cmp_pair p;
	int i, j;

	new_drift();
	make_file(&a, repeats, AA, false, sd);
	make_file(&b, repeats, AA, true, sd);
	if (cmp_pair_run(&a.rf, &b.rf, &o, m, nm, &p))
		return;
	for (i = 0; i < p.ncells; i++)
		for (j = p.cells[i].row0;
		     j < p.cells[i].row0 + p.cells[i].nrows; j++)
			if (m[p.rows[j].metric].fig == F_LAT_P50)
				lean[i] += p.rows[j].change;
	tally(ty, &p, m, AA);
	cmp_pair_free(&p);
}

/* TABLES A/A tables of REPEATS pairs: the tally, and *lean: the mean over
 * cells of how far the order leans each (|its mean p50 change|, %). */
static struct tally order_calibrate(int tables, int repeats, double sd,
				    double *lean)
{
	struct cmp_metric m[CMP_MAX_METRICS];
	int nm = cmp_metrics(m, CMP_MAX_METRICS), i;
	double sum[CELLS] = { 0 };
	struct tally ty = { 0 };

	for (i = 0; i < tables; i++)
		order_table(&ty, sum, repeats, sd, m, nm);
	*lean = 0;
	for (i = 0; i < ncells; i++)
		*lean += fabs(sum[i] / tables) / ncells;
	return ty;
}

/*
 * ab's order inside a pair, on A/A tables: an order effect of 0, 3 and 10
 * % on the second run of each pair and drift within it, under ABBA and
 * under the coin, at 3, 5, 8 and 10 pairs and under -n auto.
 */
static int report_order(int tables, double sd, double dsd, double wander)
{
	static const int reps[] = { 3, 5, 8, 10 };
	static const double effs[] = { 0, 0.03, 0.10 };
	size_t r, e;
	int way;

	drift_sd = dsd;
	order_wander = wander;
	printf("%d A/A tables, each run's own factor SD %.1f %%, drift between "
	       "pairs SD %.1f %%,\ndrift within a pair SD %.1f %%, %d cells, "
	       "alpha 0.05, min change 5 %%\n", tables, sd * 100, dsd * 100,
	       wander * 100, ncells);
	printf("%-6s %-6s %-9s %10s %10s %10s %10s %11s\n", "order", "way",
	       "pairs", "cell mkd %", "cell wrs %", "cells %", "lean %",
	       "unchanged %");
	for (e = 0; e < sizeof(effs) / sizeof(effs[0]); e++)
		for (way = ORDER_ABBA; way <= ORDER_COIN; way++) {
			const char *name = way == ORDER_ABBA ? "ABBA" : "coin";
			struct tally y;
			double lean;

			order_way = (enum order_way)way;
			order_eff = effs[e];
			for (r = 0; r < sizeof(reps) / sizeof(reps[0]); r++) {
				y = order_calibrate(tables, reps[r], sd, &lean);
				printf("+%-4.0f%% %-6s %-9d %10.1f %10.1f "
				       "%10.2f %10.2f %11.1f\n",
				       effs[e] * 100, name, reps[r],
				       pct(y.any_mark, y.tables),
				       pct(y.any_worse, y.tables),
				       pct(y.other_marks + y.cell5_worse +
					   y.cell5_better + y.cell5_mixed,
					   y.tables * ncells), lean,
				       pct(y.unchanged, y.tables * ncells));
			}
			y = sequences(tables, AA, sd, 4, false);
			printf("+%-4.0f%% %-6s %-9s %10.1f %10.1f %10.2f %10s "
			       "%11.1f  (%.1f pairs)\n", effs[e] * 100, name,
			       "-n auto", pct(y.any_mark, y.tables),
			       pct(y.any_worse, y.tables),
			       pct(y.other_marks + y.cell5_worse +
				   y.cell5_better + y.cell5_mixed,
				   y.tables * ncells), "",
			       pct(y.unchanged, y.tables * ncells),
			       (double)y.pairs / y.tables);
		}
	order_way = ORDER_NONE;
	return 0;
}

/*
 * The TAP part's bounds on the order (doc/compare.txt has the rates of
 * 200 tables): with the second of each pair 10 % slower, 3 pairs lean
 * every cell by a third of it under ABBA, the same cells the same way in
 * every table; under the coin no cell leans, and the false marks stay
 * near alpha.
 */
static void order_checks(void)
{
	struct tally y;
	double abba, coin;

	drift_sd = 0.10;
	order_eff = 0.10;
	order_wander = 0.02;
	order_way = ORDER_ABBA;
	order_calibrate(60, 3, 0.03, &abba);
	order_way = ORDER_COIN;
	y = order_calibrate(60, 3, 0.03, &coin);
	check(coin <= 1.5 && abba >= 2 && coin < abba / 2,
	      "ab's order, the second of a pair 10 %% slower, 3 pairs: a "
	      "cell leans %.2f %% on average under the coin, %.2f %% under "
	      "ABBA", coin, abba);
	check(pct(y.any_mark, y.tables) <= 15,
	      "... and %.1f %% of A/A tables are marked under the coin (alpha "
	      "5 %%)", pct(y.any_mark, y.tables));
	order_way = ORDER_NONE;
	memset(second, 0, sizeof(second));
	drift_sd = 0;
}

/*
 * "About N pairs would decide it" against the truth: cell 5 worse by a
 * known 25 % (CELL25) in ab's pairs; from a table of PAIRS pairs whose
 * cell 5 is undecided, compare's need (at 80 %, and its range's ends at
 * 60 and 90 %), then a fresh table of each of those many pairs: is cell
 * 5 decided there? Needs past MAXREP pairs cannot be tried here: counted
 * apart (beyond).
 */
struct need_tally {
	int trials, undecided, beyond, never;
	int tried[3], decided[3];	/* at from, pairs, to */
	double sum[3];			/* the needs, summed */
};

static bool cell5_decided(int pairs, double sd, const struct cmp_metric *m,
			  int nm, struct cmp_pair *p, bool keep)
{
	static struct made a, b;
	struct cmp_opts o = { 0.05, 5, 1, 0.95, primary, true, moderate,
			      NULL };
	bool decided;

	new_drift();
	make_file(&a, pairs, CELL25, false, sd);
	make_file(&b, pairs, CELL25, true, sd);
	if (cmp_pair_run(&a.rf, &b.rf, &o, m, nm, p))
		return false;
	decided = p->cells[5].verdict != CV_INCONCLUSIVE &&
		  p->cells[5].verdict != CV_FEW;
	if (!keep)
		cmp_pair_free(p);
	return decided;
}

static struct need_tally need_check(int trials, int pairs, double sd)
{
	struct cmp_metric m[CMP_MAX_METRICS];
	struct cmp_opts o = { 0.05, 5, 1, 0.95, primary, true, moderate,
			      NULL };
	int nm = cmp_metrics(m, CMP_MAX_METRICS), i, k;
	struct need_tally t = { 0 };
	struct cmp_pair p, q;

	paired = true;
	for (i = 0; i < trials; i++) {
		struct cmp_need nd;
		int at[3];

		t.trials++;
		if (cell5_decided(pairs, sd, m, nm, &p, true)) {
			cmp_pair_free(&p);
			continue;
		}
		t.undecided++;
		cmp_cell_need(&p, &p.cells[5], m, &o, &nd);
		cmp_pair_free(&p);
		if (nd.pairs == CMP_NEED_NEVER || nd.pairs <= 0) {
			t.never++;
			continue;
		}
		at[0] = nd.from;
		at[1] = nd.pairs;
		at[2] = nd.to > 0 ? nd.to : 1000;
		if (at[2] > MAXREP) {
			t.beyond++;
			continue;
		}
		for (k = 0; k < 3; k++) {
			t.tried[k]++;
			t.sum[k] += at[k];
			t.decided[k] += cell5_decided(at[k], sd, m, nm, &q,
						      false);
		}
	}
	paired = false;
	return t;
}

static int report_need(int trials, double sd, double dsd)
{
	static const int from[] = { 3, 5 };
	size_t f;

	drift_sd = dsd;
	printf("cell 5 25 %% worse in ab's pairs, each run's own factor SD %.1f "
	       "%%, drift between\npairs SD %.1f %%, %d cells; from a table "
	       "with cell 5 undecided, the need at\n60, 80 and 90 %% chance "
	       "(the range's ends and \"about\"), then fresh tables of\n"
	       "that many pairs (at most %d here):\n", sd * 100, dsd * 100,
	       ncells, MAXREP);
	printf("%-6s %7s %9s %7s %7s %14s %14s %14s\n", "pairs", "trials",
	       "undecided", "never", "beyond", "60 %: N, dec %",
	       "80 %: N, dec %", "90 %: N, dec %");
	for (f = 0; f < sizeof(from) / sizeof(from[0]); f++) {
		struct need_tally t = need_check(trials, from[f], sd);
		int k;

		printf("%-6d %7d %9d %7d %7d", from[f], t.trials, t.undecided,
		       t.never, t.beyond);
		for (k = 0; k < 3; k++)
			printf("   %4.1f, %5.1f", t.tried[k] ? t.sum[k] /
			       t.tried[k] : NAN, pct(t.decided[k], t.tried[k]));
		printf("\n");
	}
	drift_sd = 0;
	return 0;
}

/*
 * The need's bound (doc/compare.txt has 200 trials): at the pairs
 * compare says would decide the cell with 80 % chance, from 3 pairs of
 * a 25 % change at 10 % run-to-run noise, fresh tables decide it in about
 * 80 %.
 */
static void need_checks(void)
{
	struct need_tally t;

	drift_sd = 0.10;
	/*
	 * From 5 pairs: from 3 the need is optimistic since the paired marks
	 * need their pairs to agree (51-61 % decide at its 80 % figure,
	 * doc/compare.txt); few trials qualify, so the bound is wide.
	 */
	t = need_check(100, 5, 0.10);
	check(t.tried[1] >= 15 && pct(t.decided[1], t.tried[1]) >= 45 &&
	      pct(t.decided[1], t.tried[1]) <= 98,
	      "about N pairs (80 %%), from 5: %d of %d fresh tables of N "
	      "pairs (%.1f on average) decide the cell",
	      t.decided[1], t.tried[1], t.tried[1] ? t.sum[1] / t.tried[1] :
	      NAN);
	drift_sd = 0;
}

int main(int argc, char **argv)
{
	struct tally y;
	int i;

	tab_init();
	for (; argc > 1; argc--, argv++)
		if (!strcmp(argv[1], "moderate"))
			moderate = true;
		else if (!strcmp(argv[1], "plain"))
			moderate = false;
		else if (!strcmp(argv[1], "hetero"))
			hetero = true;
		else if (!strncmp(argv[1], "cells=", 6) &&
			 atoi(argv[1] + 6) >= 6 && atoi(argv[1] + 6) <= CELLS)
			ncells = atoi(argv[1] + 6);
		else
			break;
	if (argc == 5 && !strcmp(argv[1], "need"))
		return report_need(atoi(argv[2]), atof(argv[3]) / 100,
				   atof(argv[4]) / 100);
	if (argc == 6 && !strcmp(argv[1], "order"))
		return report_order(atoi(argv[2]), atof(argv[3]) / 100,
				    atof(argv[4]) / 100, atof(argv[5]) / 100);
	if (argc == 5 && !strcmp(argv[1], "paired"))
		return report_paired(atoi(argv[2]), atof(argv[3]) / 100,
				     atof(argv[4]) / 100);
	if (argc > 1)
		primary = argc > 3 ? cmp_fig_named(argv[3]) : -1;
	if (argc > 1)
		return report(atoi(argv[1]), argc > 2 ? atof(argv[2]) / 100 :
			      0.03);
	summary_points();
	/*
	 * Bounds with room for chance (the rates measured with 200 tables
	 * are in doc/compare.txt): 1 SE is ~2-8 points here. Judged as
	 * compare judges by default: moderated.
	 */
	y = calibrate(200, 5, AA, 0.03);
	check(y.tables == 200 && pct(y.any_mark, y.tables) <= 7,
	      "A/A, 5 repeats: %.1f %% of tables with a cell marked (at "
	      "most 1 in 20 asked)", pct(y.any_mark, y.tables));
	check(pct(y.any_worse, y.tables) <= 5,
	      "... %.1f %% with a cell worse (at most alpha / 2 asked)",
	      pct(y.any_worse, y.tables));
	check(pct(y.any_row, y.tables) <= 12,
	      "... %.1f %% with a row marked, in either family",
	      pct(y.any_row, y.tables));
	y = calibrate(30, 1, AA, 0.03);
	check(y.any_mark == 0, "A/A, 1 repeat: no marks at all (%d)",
	      y.any_mark);
	y = calibrate(40, 3, AA, 0.10);
	check(pct(y.any_mark, y.tables) <= 15,
	      "A/A, 3 repeats, 10 %% run-to-run SD: %.1f %% of tables marked",
	      pct(y.any_mark, y.tables));
	hetero = true;
	y = calibrate(100, 5, AA, 0.03);
	check(pct(y.any_mark, y.tables) <= 8,
	      "A/A on cells whose noise differs (0.3 to 4.6 times), 5 "
	      "repeats: %.1f %% of tables marked", pct(y.any_mark, y.tables));
	hetero = false;
	y = calibrate(60, 5, CELL25, 0.03);
	check(pct(y.cell5_worse, y.tables) >= 80,
	      "one cell 25 %% worse, 5 repeats: found worse in %.1f %% (the "
	      "goal: 90)", pct(y.cell5_worse, y.tables));
	check(pct(y.other_marks, y.tables * (ncells - 1)) <= 1,
	      "... and the other cells left alone (%.2f %% marked)",
	      pct(y.other_marks, y.tables * (ncells - 1)));
	y = calibrate(40, 5, MEDIAN, 0.03);
	check(pct(y.cell5_worse, y.tables) >= 80 && !y.cell5_better,
	      "a median-only change (every frame later by a quarter of the "
	      "typical), 5 repeats: worse in %.1f %% (the goal: 90)",
	      pct(y.cell5_worse, y.tables));
	y = calibrate(40, 5, TAIL, 0.03);
	check(pct(y.cell5_worse, y.tables) >= 55 && !y.cell5_better,
	      "a tail-only change (2 %% of frames 2 ms later), 5 repeats: "
	      "the cell worse in %.1f %%, never better",
	      pct(y.cell5_worse, y.tables));
	y = calibrate(40, 3, ST5_10, 0.03);
	check(pct(y.cell5_worse, y.tables) >= 80,
	      "a stall (5 %% of frames 10 ms later), 3 repeats: worse in "
	      "%.1f %%", pct(y.cell5_worse, y.tables));
	y = calibrate(40, 10, TRADE, 0.03);
	check(pct(y.cell5_mixed, y.tables) >= 40 && !y.cell5_worse &&
	      !y.cell5_better,
	      "a trade-off (p50 20 %% better, 2 %% of frames 2 ms later), 10 "
	      "repeats: mixed in %.1f %%, better in %.1f %% (never: its tail "
	      "is not bounded), never worse alone",
	      pct(y.cell5_mixed, y.tables), pct(y.cell5_better, y.tables));
	y = calibrate(40, 5, MET, 0.03);
	check(pct(y.cell5_worse, y.tables) >= 70,
	      "3 %% more deadlines missed, 5 repeats: the cell worse in "
	      "%.1f %% (counted: a decision figure)",
	      pct(y.cell5_worse, y.tables));
	y = calibrate(60, 5, BETTER, 0.03);
	check(pct(y.any_worse, y.tables) <= 5 &&
	      pct(y.other_marks, y.tables * (ncells - 1)) >= 35,
	      "24 of 52 cells 40 %% better, none worse, 5 repeats: %.1f %% of "
	      "tables with a cell worse or mixed (30 %% when worse and better "
	      "were adjusted together); %.1f %% of the other cells marked",
	      pct(y.any_worse, y.tables),
	      pct(y.other_marks, y.tables * (ncells - 1)));
	y = calibrate(40, 5, ALL10, 0.03);
	check(pct(y.summary_worse, y.tables) >= 70,
	      "every cell 10 %% worse, 5 repeats: the summary's interval lies "
	      "above 5 %% in %.1f %%", pct(y.summary_worse, y.tables));
	/* ab: pairs share a 10 % drift that separate runs do not */
	drift_sd = 0.10;
	paired = true;
	y = calibrate(60, 5, AA, 0.03);
	check(pct(y.any_mark, y.tables) <= 15,
	      "ab pairs, A/A, 10 %% drift between pairs, 5 pairs: %.1f %% of "
	      "tables marked (alpha 5 %%)", pct(y.any_mark, y.tables));
	y = calibrate(40, 5, CELL25, 0.03);
	i = y.cell5_worse;
	check(pct(y.cell5_worse, y.tables) >= 70,
	      "ab pairs, one cell 25 %% worse, 5 pairs: found in %.1f %%",
	      pct(y.cell5_worse, y.tables));
	paired = false;
	y = calibrate(40, 5, CELL25, 0.03);
	check(i >= y.cell5_worse + 4,
	      "... separate runs with the same drift find it less often "
	      "(%d against %d of 40)", y.cell5_worse, i);
	paired = true;
	y = calibrate(100, 5, BURST, 0.03);
	paired = false;
	check(pct(y.cell5_worse, y.tables) <= 5,
	      "ab pairs, one pair's B with a burst of 15-40 late frames, "
	      "nothing else: cell worse in %.1f %% (at most alpha)",
	      pct(y.cell5_worse, y.tables));
	y = sequences(40, AA, 0.03, 4, false);
	check(pct(y.any_mark, y.tables) <= 10,
	      "ab -n auto, A/A: stopping at looks 3, 5, 8, 10 with alpha / 4 "
	      "marks %.1f %% of tables", pct(y.any_mark, y.tables));
	/* the frames late must be known within a point: fewer reach it */
	check(pct(y.unchanged, y.tables * ncells) >= 25,
	      "... and ends with %.1f %% of the cells unchanged (within 2 %% "
	      "of their period)", pct(y.unchanged, y.tables * ncells));
	y = sequences(40, ST5_10, 0.03, 4, true);
	check(pct(y.cell5_worse, y.tables) >= 85 && y.c5_found &&
	      (double)y.c5_pairs / y.c5_found <= 4,
	      "ab -n auto --bisect, a stall (5 %% of frames 10 ms): worse in "
	      "%.1f %%, after %.1f pairs on average",
	      pct(y.cell5_worse, y.tables),
	      y.c5_found ? (double)y.c5_pairs / y.c5_found : NAN);
	drift_sd = 0;
	order_checks();
	need_checks();
	return check_done();
}
