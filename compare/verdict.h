/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/verdict.h - how compare judges result files: the statistics behind
 * its marks, without any output, so that they can be checked on data with a
 * known truth (tests/unit-verdict.c) as well as used.
 *
 * The run is the unit of replication: each metric of each cell is tested on
 * its per-repeat values (latencies and load rates as logarithms, so changes
 * are ratios; percentages as they are, in points). Two files: Welch's t-test
 * and interval (paired for ab's two files). Three or more: one-way ANOVA per
 * cell and metric, then Tukey-Kramer for every pair. Two more rows count
 * frames in every repeat: those later than CMP_LATE_TIMES the cell's typical
 * latency, and the deadlines missed, tested as counts whose spread between
 * runs is estimated (lib/count.h).
 *
 * Each test is moderated by default (limma's empirical Bayes): a metric's
 * variances (a count's dispersions) over the table's cells set a prior each
 * cell's own is shrunk to, worth at most the other rows' degrees of freedom.
 *
 * A cell is judged on its decision figures, what its users perceive
 * (FIG_DECIDE in the table of figures, less FIG_COUNTED, and the counts):
 * p50, p99 and max latency, the frames late, the deadlines missed, the 1 %
 * low FPS and % desired CPU. Their p-values, every cell's, are adjusted
 * together by Benjamini-Hochberg (one family: a table of identical kernels
 * gets any mark at most alpha of the time), in two directions apart: the
 * one-sided p for "worse" at alpha / 2, for "better" at alpha / 2, so that
 * true betters (loads at nice 19 helping every loaded cell) cannot let a
 * false worse through; every other figure is a family of its own, split the
 * same way, which marks rows but never a cell. A figure with no spread in
 * either file, or a count with nothing counted, is not a test.
 *
 * Each figure has one margin (cmp_row_bound), used both ways: it is marked
 * only when its adjusted p is at most alpha and its whole interval lies
 * beyond the margin, and within it only when its whole interval lies
 * inside. The margin: min_change for ratios (the p50: what a scheduler
 * change moves first), min_points for percentages; for the tail (p99, max)
 * the min change or CMP_EQUIV_PERIOD_PCT of the task's period, if wider;
 * for a count, min_points on B's rate less A's, whose interval is the
 * exact one the frames allow (a side that counted nothing is not [0, 0]).
 * A paired count is marked only when the pairs agree too: an exact sign
 * test over the pairs that differ (CMP_SIGN_P), so that one pair's burst
 * cannot carry it. A cell is worse when a decision figure is marked worse;
 * mixed when some are better and some worse (a trade-off); better when one
 * is better, none worse and every other is marked or within its margin;
 * unchanged only when every FIG_DECIDE figure lies within its margin (the
 * tail's also when the frames late do, unless a side's worst frame is
 * beyond the other's by more than the max's margin: a dropout); and else
 * inconclusive: the data could not tell.
 */
#ifndef INTERBENCH_VERDICT_H
#define INTERBENCH_VERDICT_H

#include <stdbool.h>
#include "core/resultfile.h"
#include "core/load.h"
#include "lib/count.h"

struct cmp_replication;

#define CMP_MIN_REPEATS	3	/* per file, for a verdict on a cell */
#define CMP_MAX_METRICS	(F_COUNT + WORK_KINDS)

struct cmp_opts {
	double alpha;		/* false discovery rate of the marks */
	double min_change;	/* %, for figures compared as ratios */
	double min_points;	/* percentage points, for % figures */
	double level;		/* of the intervals, e.g. 0.95 */
	int primary;		/* enum fig_id: every cell judged on it alone;
				 * -1: on its decision figures */
	/*
	 * The files are A and B of one `interbench ab` run: each repeat of
	 * a cell in one was measured beside the same repeat in the other,
	 * so they are compared as pairs (a paired t-test of the repeats
	 * both have), which cancels what drifted between pairs.
	 */
	bool paired;
	/*
	 * Moderated (limma's empirical Bayes; compare's default, --plain
	 * clears it): each figure's variances over the table's cells set a
	 * prior that each cell's own is shrunk to, worth d0 more degrees of
	 * freedom, d0 at most the other rows' own (doc/compare.txt says
	 * what it was measured to do).
	 */
	bool moderate;
	/*
	 * How the sides are replicated (compare/side.h): NULL for one file
	 * a side as before; with a side of one boot and a measured
	 * component, the tests are widened by it (widen.c).
	 */
	const struct cmp_replication *rep;
};

/*
 * A compared figure by its name (--primary): enum fig_id, or -1. The
 * names are the table's (figure_compare_names(), core/figtable.h).
 */
int cmp_fig_named(const char *name);

/*
 * Frames counted in each run, compared as counts (lib/count.h): the tail's
 * frames late, past CMP_LATE_TIMES the cell's typical latency (the median
 * of both sides' frames), and the misses' deadlines missed.
 */
enum cmp_count { CMP_NO_COUNT, CMP_LATE, CMP_MISSED };
#define CMP_LATE_TIMES	4

/*
 * The tail is told in what a task's user perceives: a p99 or max whose
 * interval lies within CMP_EQUIV_PERIOD_PCT % of the task's period (or
 * within the min change, whichever is wider) did not change for them, and
 * one that moved less than that is not marked either.
 */
#define CMP_EQUIV_PERIOD_PCT	2.0

/*
 * A paired count is marked only when at least this one-sided exact sign
 * test over the pairs that differ agrees: three pairs at the least, all
 * one way (doc/compare.txt, "The tail and the misses, counted").
 */
#define CMP_SIGN_P		0.125

/* One thing compared: a figure of the table, or a load's work rate. */
struct cmp_metric {
	char label[48];		/* "mean latency us", "load burn_loops/s" */
	int fig;		/* enum fig_id, or -1 */
	int work;		/* enum work_kind, or -1 */
	int count;		/* enum cmp_count: frames counted, or none */
	bool log;		/* compared as ratios */
	bool optional;		/* files may lack it: no row then */
	bool higher_better;
	bool decides;		/* tested for the cell's verdict */
	bool bounds;		/* its interval tells "unchanged" */
};

/* Does metric m decide the cells it is in, under o (--primary)? */
bool cmp_decides(const struct cmp_metric *m, const struct cmp_opts *o);

/* The metrics compare looks at, in order: how many (at most max). */
int cmp_metrics(struct cmp_metric *m, int max);

/* A metric's value in a repeat, on the scale it is compared on; NaN: none */
double cmp_value(const struct ok_repeat *r, const struct cmp_metric *m);

/* One metric of one cell, new against base. */
struct cmp_row {
	int metric;
	int na, nb;		/* repeats with a value */
	double base, cur;	/* geometric mean (ratios) or mean */
	double change;		/* % for ratios, points for percentages */
	double lo, hi;		/* its interval */
	double p, padj;		/* NaN: not tested */
	double df;		/* the test's degrees of freedom */
	double t_d, t_se, t_v;	/* the test's difference, its standard error
				 * and that per unit variance (1 / n paired) */
	int mark;		/* +1 worse, -1 better, 0 */
	bool decides;		/* the cell's verdict rests on it (and on the
				 * cell's other decision rows) */
	bool bounds;		/* its interval says whether it is unchanged */
	bool within;		/* ... and it lies within the bound */
	bool not_worse;		/* ... or at least its worse end does */
	/* Count rows: what was counted, and the dispersion the test took. */
	struct cnt_fit fit;
	double bound_us;	/* frames late: the latency they are past */
	double phi, phi_df;	/* the dispersion used, its degrees of freedom */
	double widened;		/* variance added by measured components */
	double dlo, dhi;	/* B's rate less A's, points: its interval, on
				 * which the count's margin is read */
	double flip_up, flip_down;	/* paired figures: the sign-flip
					 * p of B higher, of B lower */
	int up, down;		/* paired: the pairs whose B counted at a
				 * higher rate than its A, at a lower */
};

enum cmp_verdict {
	CV_UNCHANGED,		/* its interval within +/- the min change */
	CV_BETTER, CV_WORSE,
	CV_MIXED,		/* some decision figures better, some worse */
	CV_INCONCLUSIVE,	/* neither: the data cannot tell */
	CV_FEW,			/* fewer than CMP_MIN_REPEATS on a side */
	CV_LOST,		/* measured in base, not (or failed) in new */
	CV_NEVER,		/* measured in neither */
	CV_ADDED,		/* only in new */
};

/* Each verdict as the table says it: "worse", "too few repeats". */
extern const char *const cmp_verdict_names[CV_ADDED + 1];

struct cmp_cell {
	const struct file_cell *a, *b;	/* base's and new's, or NULL */
	enum cmp_verdict verdict;
	int row0, nrows;		/* its rows */
	double period_us;		/* its task's, or NaN: not recorded */
};

/* The geometric mean of new/base of one metric over a set of cells. */
struct cmp_sum {
	char task[32];			/* a simulator, or "all" */
	int metric, cells;
	int runs_a, runs_b;		/* runs with every cell measured */
	double change, lo, hi;		/* %; lo, hi NaN without runs */
};

struct cmp_pair {
	struct cmp_cell *cells;
	int ncells;
	struct cmp_row *rows;
	int nrows;
	struct cmp_sum *sums;
	int nsums;
	int count[CV_ADDED + 1];	/* cells by verdict */
};

/*
 * Compare file b with base a: 0, or -ENOMEM. m[0..nm-1] are the metrics.
 */
int cmp_pair_run(const struct result_file *a, const struct result_file *b,
		 const struct cmp_opts *o, const struct cmp_metric *m, int nm,
		 struct cmp_pair *out);
void cmp_pair_free(struct cmp_pair *c);
/*
 * How many pairs cmp_pair_run() has judged in this process: compare judges
 * each pair once, whatever it writes (tests/unit-judge.c counts them).
 */
unsigned long cmp_pairs_judged(void);

/*
 * What decided cell cc, into buf: its decision figures marked worse and
 * better with their changes ("worse: max latency +739.0 %; better: ...").
 * Empty when none is marked.
 */
void cmp_cell_why(const struct cmp_pair *c, const struct cmp_cell *cc,
		  const struct cmp_metric *m, char *buf, size_t n);

/* The tasks of c's cells, in their order: how many (at most max). */
int cmp_tasks(const struct cmp_pair *c, const char **task, int max);
/* How many of task's cells have each verdict, into count[CV_ADDED + 1]. */
void cmp_task_count(const struct cmp_pair *c, const char *task, int *count);

/*
 * The verdict of a set of cells (a task's, or the table's) from how many
 * have each verdict (count[CV_...]): "worse", "mixed" (a cell mixed, or
 * some better and some worse), "better", "unchanged" (every cell),
 * "not comparable" (none measured in both), else "undecided".
 */
const char *cmp_group_verdict(const int *count);

/*
 * Row r's margin, for its mark and for "unchanged" alike, on its own scale
 * (% for ratios, points for percentages and for a count's difference of
 * rates): the min change (points), or for the tail (p99, max latency)
 * CMP_EQUIV_PERIOD_PCT of the task's period (period_us; NaN: none) if
 * wider.
 */
double cmp_row_bound(const struct cmp_row *r, const struct cmp_metric *m,
		     const struct cmp_opts *o, double period_us);

/* Marks of an interval: +1 it lies above min, -1 below -min, else 0. */
int cmp_beyond(double lo, double hi, double min);

#endif
