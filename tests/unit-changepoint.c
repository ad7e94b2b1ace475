// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-changepoint - `interbench trend`'s change points on series with a
 * known truth: the statistic worked by hand, the permutation p of a case
 * whose exact p is known, and the calibration issue 53 asks for: families
 * of C cells x FIGS figures, series of 12 files with 3 repeats each; with
 * nothing changing (how often anything is found), and with a 30 %% step
 * at file 8 in every figure of 1, 3 and 10 cells (how often a cell that
 * did not move is flagged, how often each moved cell is found there).
 *
 *	tests/unit-changepoint [families=N] [sigma=S] [cells=C] [step=PCT]
 *			       [between=S]
 *
 * prints the rates for other settings (bench/trend.sh calib); between
 * moves each file's values together by a log-SD of its own.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check.h"
#include "trend/changepoint.h"

#define FILES	12
#define REPS	3
#define FIGS	4	/* decision figures per cell (p50, p99, max, deadlines) */
#define MAXC	64

static uint64_t seed = 0x1234567;
/* the groups (cells, or a cell's nights) the last call tested */
static int cl;

static double unif(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return ((double)(seed >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static void hand(void)
{
	static const double x[] = { 0, 0, 1, 1 };
	static const size_t start[] = { 0, 2, 4 };
	struct cp_series s = { .x = x, .start = start, .nfiles = 2 };
	struct cp_point p;
	uint64_t rng = 7;
	int r;

	/* {0, 0} | {1, 1}: n / (m (n - m)) (S_m - m S / n)^2 = 4/4 (0 - 1)^2 */
	r = cp_split(&s, 0, 2, 30000, 1 << 30, &rng, &p);
	check(!r && p.file == 1, "the only split, at file 1 (r %d)", r);
	check_near(p.q, 1.0, 1e-12, "the statistic of {0,0} | {1,1}");
	/* 2 of the 6 arrangements of two 0s and two 1s reach Q = 2 */
	check_near(p.p, 1.0 / 3, 0.015, "its permutation p is 1/3");
	check(p.perms == 30000, "drawn to the cap: %d", p.perms);

	/* one file, or a side with one value: nothing to split */
	r = cp_split(&s, 0, 1, 100, 10, &rng, &p);
	check(r == 1, "one file cannot be split (r %d)", r);
	{
		static const double y[] = { 0, 1, 1 };
		static const size_t st3[] = { 0, 1, 3 };
		struct cp_series t = { .x = y, .start = st3, .nfiles = 2 };

		r = cp_split(&t, 0, 2, 100, 10, &rng, &p);
		check(r == 1, "a side of one value is not split (r %d)", r);
	}
}

/* A night's own log-SD (between=S): a file's shift, as a reboot's. */
static double between;

/*
 * A series of FILES files: value e^(sigma z), times 1 + step from file
 * at; with between, each file's values times e^(between z) as well.
 */
static void series(double *x, double sigma, double step, int at)
{
	int f, k;

	for (f = 0; f < FILES; f++) {
		double shift = between > 0 ? between * gauss() : 0;

		for (k = 0; k < REPS; k++)
			x[f * REPS + k] = sigma * gauss() + shift +
					  (f >= at ? log1p(step) : 0);
	}
}

/* Marked as trend marks it: its interval beyond 5 % either way. */
static int marked(const struct cp_point *p)
{
	return p->lo > log1p(0.05) || p->hi < log1p(-0.05);
}

/* What n families gave. */
struct fam {
	int flagged;		/* families with any point marked */
	int false_cell;		/* ... with one in a cell that did not move */
	int found;		/* moved cells with a point marked at file 8 */
	int misplaced;		/* moved cells marked only elsewhere */
	double fdr;		/* mean share of false cells among the marked */
};

/*
 * n families of cells x FIGS series, each cell a group; the first moved
 * cells step by step at file 8 in every figure.
 */
static void families(int n, int cells, int moved, double sigma, double step,
		     struct fam *r)
{
	static double x[MAXC * FIGS][FILES * REPS];
	static struct cp_series s[MAXC * FIGS];
	static size_t start[FILES + 1];
	struct cp_opts o = { .alpha = 0.05, .stop_after = 10 };
	int i, j, c, ns = cells * FIGS;

	for (i = 0; i <= FILES; i++)
		start[i] = (size_t)i * REPS;
	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		struct cp_point *pt;
		double cut;
		int np, at8[MAXC] = { 0 }, any[MAXC] = { 0 };
		int cells_marked = 0, false_ = 0;

		for (j = 0; j < ns; j++) {
			series(x[j], sigma, j / FIGS < moved ? step : 0, 8);
			s[j].x = x[j];
			s[j].start = start;
			s[j].nfiles = FILES;
			s[j].group = j / FIGS;
		}
		o.seed = (uint64_t)i * 977 + 1;
		np = cp_family(s, ns, &o, &pt, &cut, &cl);
		if (np < 0) {
			check(0, "cp_family: out of memory");
			return;
		}
		if (cl != cells) {
			check(0, "cp_family tested %d cells of %d", cl, cells);
			return;
		}
		for (j = 0; j < np; j++) {
			if (!marked(&pt[j]))
				continue;
			c = pt[j].series / FIGS;
			any[c] = 1;
			at8[c] |= pt[j].file == 8;
		}
		for (c = 0; c < cells; c++) {
			cells_marked += any[c];
			if (c < moved) {
				r->found += at8[c];
				r->misplaced += any[c] && !at8[c];
			} else {
				false_ += any[c];
			}
		}
		r->flagged += cells_marked > 0;
		r->false_cell += false_ > 0;
		if (cells_marked)
			r->fdr += (double)false_ / cells_marked;
		free(pt);
	}
	r->fdr /= n;
}

/* Outlying files as trend marks them: the interval beyond 5 %. */
static int out_marked(const struct cp_outlier *o)
{
	return o->lo > log1p(0.05) || o->hi < log1p(-0.05);
}

/*
 * n families as families() makes them, series 0 with either a step at
 * file 8 or one night (file 6, the 7th) 1 + night times the others, the
 * change points found first as trend does: counts families with any
 * outlying file marked (flagged), and with series 0's 7th file marked
 * worse (found); elsewhere counts those with an outlying file marked
 * anywhere but there, unmarked those with any found but none marked.
 */
static void outlier_families(int n, int cells, double sigma, double step,
			     double night, int *flagged, int *found,
			     int *elsewhere, int *unmarked)
{
	static double x[MAXC * FIGS][FILES * REPS];
	static struct cp_series s[MAXC * FIGS];
	static size_t start[FILES + 1];
	struct cp_opts o = { .alpha = 0.05, .stop_after = 10 };
	int i, j, k, ns = cells * FIGS;

	for (i = 0; i <= FILES; i++)
		start[i] = (size_t)i * REPS;
	*flagged = *found = *elsewhere = *unmarked = 0;
	for (i = 0; i < n; i++) {
		struct cp_point *pt;
		struct cp_outlier *out;
		double cut;
		int np, no, tested, any = 0, hit = 0, off = 0;

		for (j = 0; j < ns; j++) {
			series(x[j], sigma, j == 0 ? step : 0, 8);
			for (k = 0; j == 0 && k < REPS; k++)
				x[j][6 * REPS + k] += log1p(night);
			s[j].x = x[j];
			s[j].start = start;
			s[j].nfiles = FILES;
			s[j].group = j / FIGS;
		}
		o.seed = (uint64_t)i * 977 + 1;
		np = cp_family(s, ns, &o, &pt, &cut, &cl);
		no = np < 0 ? np : cp_outliers(s, ns, pt, np, 0.05, 0.95, &out,
					       &tested, &cl);
		if (no < 0) {
			check(0, "cp_family, cp_outliers: out of memory");
			free(pt);
			return;
		}
		for (j = 0; j < no; j++) {
			if (!out_marked(&out[j]))
				continue;
			any = 1;
			if (out[j].series == 0 && out[j].file == 6 &&
			    out[j].d > 0)
				hit = 1;
			else
				off = 1;
		}
		*flagged += any;
		*unmarked += no && !any;
		*found += hit;
		*elsewhere += off;
		free(pt);
		free(out);
	}
}

static void outlier_cases(void)
{
	/* 11 nights of 3 values near 0 and one at +1: only that one */
	static const double x[] = {
		0.01, -0.02, 0.00,  0.02, 0.01, -0.01,  -0.01, 0.00, 0.02,
		0.00, 0.01, -0.02,  1.01, 0.98, 1.00,   0.02, -0.01, 0.01,
		-0.02, 0.00, 0.01,  0.01, 0.02, -0.01,  0.00, -0.01, 0.02,
		0.01, 0.00, -0.02,  -0.01, 0.02, 0.00,  0.02, -0.02, 0.01,
	};
	static const size_t start[] = { 0, 3, 6, 9, 12, 15, 18, 21, 24, 27,
					30, 33, 36 };
	struct cp_series s = { .x = x, .start = start, .nfiles = 12 };
	struct cp_point step = { .series = 0, .file = 9 };
	struct cp_outlier *out;
	int n, tested;

	n = cp_outliers(&s, 1, NULL, 0, 0.05, 0.95, &out, &tested, &cl);
	check(cl == 12, "one cell's 12 nights are 12 groups (%d)", cl);
	check(n == 1 && out[0].file == 4 && tested == 12,
	      "one night 1.0 above the rest: found at file 4, 12 tested "
	      "(%d found, at %d, %d tested)", n, n > 0 ? out[0].file : -1,
	      tested);
	check(n == 1 && fabs(out[0].d - 1.0) < 0.03 && out[0].lo > 0.8 &&
	      out[0].others == 11 && fabs(out[0].ref) < 0.01,
	      "its difference from the others' median %.3f [%.3f, %.3f]",
	      n == 1 ? out[0].d : NAN, n == 1 ? out[0].lo : NAN,
	      n == 1 ? out[0].hi : NAN);
	free(out);
	/* a change at file 9 leaves 3 files after it: each has 2 others */
	n = cp_outliers(&s, 1, &step, 1, 0.05, 0.95, &out, &tested, &cl);
	check(n == 1 && out[0].file == 4 && out[0].to == 9 && tested == 9,
	      "a stretch of three is not tested (%d tested)", tested);
	free(out);
}

static void two_steps(void)
{
	static double x[FILES * REPS];
	static size_t start[FILES + 1];
	struct cp_series s = { .x = x, .start = start, .nfiles = FILES };
	struct cp_opts o = { .alpha = 0.05, .stop_after = 10, .seed = 3 };
	struct cp_point *pt, *again;
	double cut, cut2;
	int i, k, n, n2, same;

	for (i = 0; i <= FILES; i++)
		start[i] = (size_t)i * REPS;
	/* up 50 % at file 4, back down at file 9, little noise */
	for (i = 0; i < FILES; i++)
		for (k = 0; k < REPS; k++)
			x[i * REPS + k] = 0.02 * gauss() +
					  (i >= 4 && i < 9 ? log(1.5) : 0);
	n = cp_family(&s, 1, &o, &pt, &cut, &cl);
	check(n == 2 && pt[0].file == 4 && pt[1].file == 9,
	      "a rise at file 4 and a fall at file 9 are both found "
	      "(%d points, at %d and %d)", n, n > 0 ? pt[0].file : -1,
	      n > 1 ? pt[1].file : -1);
	check(n > 0 && !isnan(pt[0].padj) && n > 1 && isnan(pt[1].padj) &&
	      pt[1].p <= cut, "the first is adjusted, the second tested at "
	      "the threshold (cut %g)", cut);
	n2 = cp_family(&s, 1, &o, &again, &cut2, &cl);
	same = n2 == n && cut2 == cut;
	for (i = 0; same && i < n; i++)
		same = again[i].file == pt[i].file && again[i].p == pt[i].p &&
		       again[i].perms == pt[i].perms;
	check(same, "the same seed gives the same points and p-values");
	free(pt);
	free(again);

	/* every value the same: nothing */
	for (i = 0; i < FILES * REPS; i++)
		x[i] = 1;
	n = cp_family(&s, 1, &o, &pt, &cut, &cl);
	check(n == 0 && cut == 0, "a constant series has no change (%d)", n);
	free(pt);
}

/* The outlying nights' calibration: nothing wrong, a step, a bad night. */
static void outliers(int n, int cells, double sigma, double step)
{
	static const double bad[] = { 0.3, 0.5, 1.0 };
	int f0, h0, e0, u0, fs, hs, es, us, f[3], h[3], e[3], u[3], i;

	outlier_families(n, cells, sigma, 0, 0, &f0, &h0, &e0, &u0);
	outlier_families(n, cells, sigma, step, 0, &fs, &hs, &es, &us);
	for (i = 0; i < 3; i++)
		outlier_families(n, cells, sigma, 0, bad[i], &f[i], &h[i],
				 &e[i], &u[i]);
	printf("# outlying nights, sigma %.2f: no change: %d flagged (%.1f "
	       "%%, %d more found within 5 %%); a %+.0f %% step: %d flagged "
	       "(%.1f %%); one night +30 %%: found in %.1f %%, +50 %%: "
	       "%.1f %%, 2x: %.1f %% (another flagged: %d, %d, %d)\n",
	       sigma, f0, 100.0 * f0 / n, u0, step * 100, fs,
	       100.0 * fs / n, 100.0 * h[0] / n, 100.0 * h[1] / n,
	       100.0 * h[2] / n, e[0], e[1], e[2]);
	/*
	 * The goals: at most 5 % of families with nothing wrong flag a
	 * night (found at all, marked or not); the power is what it is,
	 * asserted well below what was measured (doc/trend.txt).
	 */
	check(f0 + u0 <= n / 10, "outlying nights, no change: %d of %d "
	      "families found one (goal 5 %%)", f0 + u0, n);
	check(fs <= n / 10, "outlying nights, a step: %d of %d families "
	      "flagged one (goal 5 %%)", fs, n);
	check(h[1] >= n * 60 / 100, "one night +50 %%: found in %d of %d "
	      "(measured 70 %% of 200 at 50 cells)", h[1], n);
	check(h[2] >= n * 95 / 100, "one night 2x: found in %d of %d "
	      "(measured 98.5 %%)", h[2], n);
	check(h[0] >= n * 8 / 100 && e[2] <= n / 10,
	      "one night +30 %%: found in %d of %d (measured 15 %%); 2x: "
	      "another flagged in %d", h[0], n, e[2]);
}

static double arg(int argc, char **argv, const char *key, double def)
{
	size_t len = strlen(key);
	int i;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], key, len) && argv[i][len] == '=')
			return atof(argv[i] + len + 1);
	return def;
}

int main(int argc, char **argv)
{
	static const int moves[] = { 1, 3, 10 };
	int n = (int)arg(argc, argv, "families", 100);
	int cells = (int)arg(argc, argv, "cells", 50);
	double sigma = arg(argc, argv, "sigma", 0.10);
	double step = arg(argc, argv, "step", 30) / 100;
	struct fam z, f[3];
	int i;

	between = arg(argc, argv, "between", 0);

	if (cells < 10 || cells > MAXC || n < 1) {
		fprintf(stderr, "unit-changepoint: cells 10..%d, families >= 1\n",
			MAXC);
		return 2;
	}
	hand();
	two_steps();
	outlier_cases();
	families(n, cells, 0, sigma, 0, &z);
	printf("# %d families of %d cells x %d figures, %d files x %d "
	       "repeats, sigma %.2f: no change: %d flagged (%.1f %%)\n", n,
	       cells, FIGS, FILES, REPS, sigma, z.flagged,
	       100.0 * z.flagged / n);
	for (i = 0; i < 3; i++) {
		families(n, cells, moves[i], sigma, step, &f[i]);
		printf("# a %+.0f %% step at file 8 in %d cell%s: a cell that "
		       "did not move flagged in %d (%.1f %%); the moved found "
		       "there %.1f %%, only elsewhere %.1f %%; false cells "
		       "among the flagged %.1f %%\n", step * 100, moves[i],
		       moves[i] > 1 ? "s" : "", f[i].false_cell,
		       100.0 * f[i].false_cell / n,
		       100.0 * f[i].found / (n * moves[i]),
		       100.0 * f[i].misplaced / (n * moves[i]),
		       100 * f[i].fdr);
	}
	/*
	 * The goals: at most alpha (5 %) of families flag anything with
	 * nothing changed, or a cell that did not move beside those that
	 * did; each moved cell found at least 90 % of the time. The bounds
	 * allow for n draws (binomial sd 1.5 points at 200).
	 */
	check(z.flagged <= n / 10, "no change: %d of %d families flagged "
	      "(goal 5 %%)", z.flagged, n);
	for (i = 0; i < 3; i++) {
		check(f[i].false_cell <= n / 10, "%d cells moved: a cell that "
		      "did not move flagged in %d of %d families (goal 5 %%)",
		      moves[i], f[i].false_cell, n);
		check(f[i].found >= n * moves[i] * 85 / 100, "%d cells moved: "
		      "found at file 8 %d times of %d (goal 90 %%)", moves[i],
		      f[i].found, n * moves[i]);
	}
	outliers(n, cells, sigma, step);
	return check_done();
}
