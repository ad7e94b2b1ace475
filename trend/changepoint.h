/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trend/changepoint.h - change points in a series of result files, for
 * `interbench trend`: the best split of a stretch into two means, tested
 * by permutation, over a family of series grouped by cell whose false
 * findings are controlled cells first. Pure, as lib/infer.c: no files,
 * no clocks, no output, and its random permutations come from a seed, so
 * a result repeats.
 *
 * A series is one figure of one cell over the files, oldest first; a
 * file's repeats are its samples (the run is the unit), so a change can
 * only fall between two files. The statistic of a split after the first
 * m of n values is
 *
 *	n / (m (n - m)) (S_m - m S / n)^2
 *
 * (S_m the sum of the first m, S of all): the squared standardised
 * cumulative sum, the share of the spread the two sides' means explain,
 * the likelihood ratio of one shift of the mean. The best split of a
 * stretch of files is tested by permuting its values (each
 * permutation's best split against the one observed), drawn until
 * stop_after permutations reach it or max_perms are drawn (Besag and
 * Clifford's sequential p-value, so a stretch with nothing in it costs a
 * few dozen permutations). A permutation costs O(n): E-divisive means
 * (Matteson and James 2014, Apache Otava), which interbench 0.40 used,
 * costs O(n^2) and took minutes over a farm's thousand nights.
 *
 * Every series' whole-span p-value is then judged with the others, cells
 * first (inf_holm_groups: Simes over a cell's figures, Holm over the
 * cells, BH within a cell found), so one true change counts once and
 * cannot lower the bar for other cells; a series found is split again on
 * each side of its change, at its cell's bar (the largest p found among
 * its cell's series), until nothing more is found. Each change is then
 * measured between its neighbours: the mean of the files from the change
 * before it to it, against the files from it to the next, with Welch's
 * interval.
 *
 * A lasting change needs several files on a side; one file that stands
 * out among good ones (a night with a stall) is no change point. Each
 * file is therefore also held against the other files of its stretch
 * (between the changes found): its mean against the median of theirs,
 * in units of a night's noise, which is the larger of the repeats' own
 * (their pooled SD over the others, divided by sqrt of its repeats) and
 * the others' spread between them (1.4826 times their means' MAD), plus
 * the median's own error (pi / 2 times a mean's variance over their
 * number). The ratio is taken as Student's t on the pooled repeats'
 * degrees of freedom; a cell's figures on one night are a group, judged
 * as the changes' cells are: with nothing wrong anywhere, the chance
 * that anything is flagged is at most alpha.
 */
#ifndef INTERBENCH_CHANGEPOINT_H
#define INTERBENCH_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

/* One series: x[start[k]] .. x[start[k + 1] - 1] are file k's values. */
struct cp_series {
	const double *x;
	const size_t *start;	/* nfiles + 1 offsets */
	int nfiles;
	int group;		/* its cell: series of one cell are a group */
	const int *file;	/* its k-th file's night; NULL: k */
};

struct cp_opts {
	double alpha;		/* Holm's over the cells (then BH within) */
	double level;		/* of the changes' intervals, e.g. 0.95 */
	int stop_after;		/* permutations reaching it before p is known */
	int max_perms;		/* 0: enough for the family's first bar */
	uint64_t seed;
};

/* A change found: between files file - 1 and file of series. */
struct cp_point {
	int series;
	int file;		/* the first file after it */
	int from, to;		/* the stretch it was found in: [from, to) */
	double q;		/* its statistic */
	double p;		/* its permutation p-value */
	double padj;		/* adjusted (cells first) for a series' first;
				 * else NaN */
	int perms;		/* permutations drawn */
	/*
	 * The change: mean after less mean before, each side from the
	 * change before it (or the first file) to the next (or the last),
	 * with Welch's interval at the level asked (NaN below 2 values).
	 */
	double before, after, d, lo, hi;
};

/*
 * The best split of files [from, to) of s and its p-value, with the
 * random state at *rng: 0, 1 when the stretch cannot be split (each side
 * needs a file and two values), or -ENOMEM.
 */
int cp_split(const struct cp_series *s, int from, int to, int max_perms,
	     int stop_after, uint64_t *rng, struct cp_point *out);

/*
 * The change points of ns series, sorted by series and file, into *out
 * (malloc'd; free it): how many, or -ENOMEM. *cut is the largest p of a
 * series found (0 when nothing was), *cells how many groups had a p.
 */
int cp_family(const struct cp_series *s, int ns, const struct cp_opts *o,
	      struct cp_point **out, double *cut, int *cells);

/* The max_perms that cp_family uses for ns series at alpha. */
int cp_perms_for(int ns, double alpha);

/* The fewest other files of its stretch a file is held against. */
#define CP_OUT_MIN_OTHERS	3

/* A file that stands out: file of series, against the others of its stretch. */
struct cp_outlier {
	int series;
	int file;
	int from, to;		/* its stretch, between changes: [from, to) */
	int others;		/* the other files it is held against */
	double mean;		/* its values' mean */
	double ref;		/* the median of the others' means */
	double d, se, df, t;	/* mean - ref, its standard error, t */
	double p, padj;		/* two-sided; adjusted, a cell's night first */
	double lo, hi;		/* d's interval at the level asked */
};

/*
 * The outlying files of ns series, whose change points (cp_family's,
 * sorted by series and file) are pt[0..npt-1], at alpha (a series'
 * group and file's night the group: Holm over them, BH within), with
 * intervals at level: how many, into *out (malloc'd; free it), or
 * -ENOMEM (-ERANGE: more groups times nights than an int holds). *tested
 * is how many files were tested, *groups how many groups they made: a
 * file needs CP_OUT_MIN_OTHERS others in its stretch, and the others two
 * degrees of freedom of repeats (two files of two repeats, or one of
 * three).
 */
int cp_outliers(const struct cp_series *s, int ns, const struct cp_point *pt,
		int npt, double alpha, double level, struct cp_outlier **out,
		int *tested, int *groups);

#endif
