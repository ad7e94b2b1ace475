/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/count.h - frames counted past a bound, run by run, compared between
 * two sides with the run as the unit of replication (doc/compare.txt, "The
 * tail and the misses, counted").
 *
 * Each run (or pair of runs) gives a count of frames past the bound out of
 * its frames. Runs differ from each other (the host's steal, placement),
 * so counts vary more from run to run than frames falling independently
 * would make them: that excess, the dispersion phi, is estimated from the
 * runs themselves (Pearson's chi-square over its degrees of freedom), as a
 * quasi-binomial model does, and may be shrunk to a prior that the table's
 * other cells give (verdict.c). The test is the exact binomial test of
 * B's share of the counted frames, conditional on their total (within
 * each pair, for pairs, so that what a pair shares cancels), with the
 * counts divided by phi; its z is read against Student's t with the
 * degrees of freedom phi is known to. Pure: no globals, no output.
 */
#ifndef INTERBENCH_COUNT_H
#define INTERBENCH_COUNT_H

#include <stddef.h>

struct cnt_fit {
	double ya, na;		/* A: frames counted, frames */
	double yb, nb;		/* B: the same */
	double pi0;		/* B's share of the counted frames if both
				 * sides had one rate */
	double phi_hat;		/* the dispersion the runs show; NaN: none
				 * can be told (no degrees of freedom) */
	double df;		/* its degrees of freedom */
};

/*
 * Separate runs: A's ka runs counted ya[i] of na[i] frames, B's kb runs
 * yb[j] of nb[j]. 0, or -EINVAL when a side has no run with frames.
 */
int cnt_fit_runs(const double *ya, const double *na, size_t ka,
		 const double *yb, const double *nb, size_t kb,
		 struct cnt_fit *f);

/*
 * Pairs measured side by side: pair k counted ya[k] of na[k] in A and
 * yb[k] of nb[k] in B. 0, or -EINVAL without a pair with frames.
 */
int cnt_fit_pairs(const double *ya, const double *na, const double *yb,
		  const double *nb, size_t k, struct cnt_fit *f);

struct cnt_test {
	double d;		/* log of B's rate over A's, each count + 1/2 */
	double se;		/* its standard error, with phi */
	double lo, hi;		/* its interval at the level asked */
	double p;		/* two-sided, of one rate; NaN: nothing counted */
};

/*
 * The test of f, taking the dispersion as phi (values below 1 are taken
 * as 1: frames are never more alike than independent ones), known to df
 * degrees of freedom (df < 1 is taken as 1), with its interval at level.
 */
void cnt_test(const struct cnt_fit *f, double phi, double df, double level,
	      struct cnt_test *t);

/*
 * About how many times the frames f has (more runs, or longer ones) would
 * let a share of counted frames like f's reach a one-sided p of p_one at
 * dispersion phi: 0 when f has no counted frame or B's share is at its
 * null; the rare events' "how much more would decide it".
 */
double cnt_scale_needed(const struct cnt_fit *f, double phi, double p_one);

/*
 * The exact (Clopper and Pearson) interval at level of the rate of y
 * counted frames of n, with the counts divided by phi (at least 1): a
 * side that counted nothing still has the upper end its frames allow.
 */
void cnt_rate_interval(double y, double n, double phi, double level,
		       double *lo, double *hi);

/*
 * The exact one-sided sign test: the chance that of more + fewer pairs
 * that differ, more or more of them lean one way if each way were as
 * likely. 1 when none does.
 */
double cnt_sign_p(int more, int fewer);

#endif
