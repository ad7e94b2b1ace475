/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/infer.h - the inference compare draws its verdicts with: distributions
 * (t, F, normal, studentized range), Welch's interval for a difference of
 * means, one-way ANOVA, Benjamini-Hochberg adjusted p-values, quantiles.
 * Pure, like stats.c: no globals, no clocks, no output, no exit.
 */
#ifndef INTERBENCH_INFER_H
#define INTERBENCH_INFER_H

#include <stddef.h>

/* Student's t with df degrees of freedom: P(T <= t), and its inverse. */
double inf_t_cdf(double t, double df);
double inf_t_quantile(double p, double df);
/* Upper tail of F with (d1, d2) degrees of freedom: P(F > f). */
double inf_f_sf(double f, double d1, double d2);
/* The standard normal's inverse: the z with P(Z <= z) = p. */
double inf_norm_quantile(double p);
/*
 * The beta (a, b) distribution's inverse: the x with I_x(a, b) = q (0 or
 * 1 for q at or past 0 or 1).
 */
double inf_beta_quantile(double q, double a, double b);
/*
 * The studentized range of k means with df degrees of freedom for their
 * SD (df <= 0: infinite): P(Q <= q), and its inverse.
 */
double inf_ptukey(double q, int k, double df);
double inf_qtukey(double p, int k, double df);

/* A difference of means, b - a, with its interval. */
struct inf_diff {
	double d;		/* mean(b) - mean(a) */
	double se, df;		/* its standard error and degrees of freedom */
	double p;		/* two-sided, of no difference */
	double lo, hi;		/* the interval at the level asked */
};

/*
 * Welch's unequal-variance comparison of two samples, at level (e.g.
 * 0.95): 0, or -EINVAL when either has fewer than 2 values. With no
 * spread at all, p is 0 if the means differ, 1 if not, the interval one
 * point.
 */
int inf_welch(const double *a, size_t na, const double *b, size_t nb,
	      double level, struct inf_diff *o);

/*
 * The paired t-test: b[i] - a[i] for n pairs, the interval of its mean
 * at level. Pairs measured side by side share what drifted meanwhile,
 * which the difference cancels. 0, or -EINVAL below 2 pairs; no spread
 * as inf_welch().
 */
int inf_paired(const double *a, const double *b, size_t n, double level,
	       struct inf_diff *o);
/*
 * One-way ANOVA of k groups (g[i] with n[i] values): 0 and the p of F,
 * the mean square and degrees of freedom of the error (for Tukey-Kramer),
 * or -EINVAL with fewer than 2 groups or no error degrees of freedom.
 */
int inf_anova(const double *const *g, const size_t *n, int k, double *p,
	      double *mse, double *df);

/*
 * Benjamini-Hochberg adjusted p-values of p[0..n-1] into adj (NaN, an
 * untested p, stays NaN and does not count). adj[i] <= alpha is a
 * discovery with the false discovery rate kept at alpha.
 */
void inf_bh(const double *p, size_t n, double *adj);

/*
 * Groups first, then the items of the groups found: a group's p is the
 * Simes p of its items (valid where they rise and fall together, as a
 * cell's figures do); the groups' p are adjusted by Holm, so the chance
 * that any group with nothing in it is found is at most alpha, however
 * many others truly are (Benjamini-Hochberg over the groups would let
 * each true group raise the bar for the rest: with 10 of 50 cells truly
 * changed, a cell that did not change was found in 31 % of families,
 * tests/unit-changepoint); each group found (R of the G that have a p)
 * has its items adjusted by Benjamini-Hochberg at alpha R / G (Benjamini
 * and Bogomolov 2014). adj[i] is the larger of its group's adjusted p and
 * its own within the group times G / R: item i is found at alpha when
 * adj[i] <= alpha. NaN: untested, as inf_bh. How many groups had a p (G),
 * or -ENOMEM.
 */
int inf_holm_groups(const double *p, const int *group, size_t n, double alpha,
		  double *adj);

/*
 * The one-sided p of pairs' differences b[i] - a[i] summing as high as
 * they do, were each difference's sign a fair coin (the randomisation
 * test of paired data): exact over every assignment up to INF_FLIP_EXACT
 * pairs, else its normal approximation (the sum over the root of the
 * squares). 1 without a difference. One wild pair cannot make it small:
 * the sum then rides on that pair's sign alone.
 */
#define INF_FLIP_EXACT	16
double inf_signflip_p(const double *a, const double *b, size_t n);

/* Quantile q in [0, 1] of sorted v, by (n + 1) q as JMP and Minitab. */
double inf_quantile(const double *sorted, size_t n, double q);

/* Mean and sample SD of v (SD NaN below 2 values). */
void inf_mean_sd(const double *v, size_t n, double *mean, double *sd);

/* The digamma and trigamma functions, x > 0. */
double inf_digamma(double x);
double inf_trigamma(double x);
/* y with trigamma(y) = x, x > 0. */
double inf_trigamma_inv(double x);

/*
 * Empirical Bayes, as limma's moderated t (Smyth 2004): n variances s2[i]
 * with df[i] degrees of freedom each are taken as draws around a common
 * prior s0^2 worth d0 degrees of freedom, estimated from their spread by
 * the method of moments. 0, or -EINVAL below 3 usable variances. *d0 is
 * INFINITY when they spread no more than sampling alone would (then
 * every variance is s0^2).
 */
int inf_ebayes_prior(const double *s2, const double *df, size_t n,
		     double *d0, double *s02);
/* The moderated variance of one: its s2 (df) shrunk to the prior. */
double inf_ebayes_var(double s2, double df, double d0, double s02);

#endif
