// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-infer - compare's inference against published tables of the
 * studentized range, and values computed independently: with mpmath (30
 * digits), integrating the t density and, for the studentized range, the
 * double integral of its definition directly (not the code's method);
 * Welch, ANOVA, BH and quantiles worked by hand.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <time.h>
#include "check.h"
#include "lib/count.h"
#include "lib/infer.h"

/*
 * The prior of a moderated t, on variances with a known truth: 400 of
 * them, each s0^2 (1) times a scaled chi-square of d0 (8) degrees of
 * freedom (the true variances spread so), times its own sample's chi-square
 * of 4 df (5 repeats). The estimate should find d0 and s0^2 near the truth;
 * variances that do not spread beyond their sampling give d0 infinite.
 */
static uint64_t seed = 12345;

static double unif(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return ((double)(seed >> 11) + 0.5) / 9007199254740992.0;
}

static double chisq(int df)
{
	double s = 0;
	int i;

	for (i = 0; i < df; i++) {
		double z = sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());

		s += z * z;
	}
	return s;
}

static void ebayes(void)
{
	static double s2[400], df[400];
	double d0 = NAN, s02 = NAN;
	int i, e;

	for (i = 0; i < 400; i++) {
		double truth = 8 / chisq(8);	/* inverse chi-square prior */

		s2[i] = truth * chisq(4) / 4;
		df[i] = 4;
	}
	e = inf_ebayes_prior(s2, df, 400, &d0, &s02);
	check(!e && d0 > 4 &&
	      d0 < 16 && s02 > 0.8 && s02 < 1.25,
	      "empirical Bayes prior: d0 %.1f (truth 8), s0^2 %.2f (1)", d0,
	      s02);
	for (i = 0; i < 400; i++)
		s2[i] = chisq(4) / 4;
	e = inf_ebayes_prior(s2, df, 400, &d0, &s02);
	check(!e && d0 > 40 &&
	      s02 > 0.9 && s02 < 1.1,
	      "... one common variance: d0 %.3g (large or infinite), s0^2 "
	      "%.2f", d0, s02);
	check(inf_ebayes_prior(s2, df, 2, &d0, &s02) == -EINVAL,
	      "... refused below 3 variances");
	check_near(inf_ebayes_var(2, 4, 4, 1), 1.5, 1e-12,
		   "moderated: (d0 s0^2 + d s^2) / (d0 + d)");
}

/* A Poisson draw of mean mu (Knuth's, for small means; normal above). */
static double poisson(double mu)
{
	double l = exp(-mu), p = 1;
	int k = 0;

	if (mu > 50)
		return fmax(0, round(mu + sqrt(mu) * sqrt(-2 * log(unif())) *
				     cos(2 * M_PI * unif())));
	do {
		k++;
		p *= unif();
	} while (p > l);
	return k - 1;
}

/*
 * Counts with a known truth: runs of 600 frames whose rate of frames past
 * the bound varies from run to run (lognormal, SD sd in the log) around
 * rate; A and B alike (A/A), or B's rate times ratio. How often is p at
 * most alpha, paired or not, at the dispersion the runs show (df own)?
 */
static double count_rate(int tables, int runs, double rate, double sd,
			 double ratio, int paired, double alpha)
{
	double ya[10], na[10], yb[10], nb[10];
	struct cnt_fit f;
	struct cnt_test t;
	int i, k, hits = 0;

	for (i = 0; i < tables; i++) {
		for (k = 0; k < runs; k++) {
			/* a pair shares its run's factor; runs apart do not */
			double z = sd * sqrt(-2 * log(unif())) *
				   cos(2 * M_PI * unif());
			double zb = paired ? z : sd * sqrt(-2 * log(unif())) *
				    cos(2 * M_PI * unif());

			na[k] = nb[k] = 600;
			ya[k] = poisson(600 * rate * exp(z));
			yb[k] = poisson(600 * rate * ratio * exp(zb));
		}
		if (paired ? cnt_fit_pairs(ya, na, yb, nb, runs, &f) :
		    cnt_fit_runs(ya, na, runs, yb, nb, runs, &f))
			continue;
		cnt_test(&f, f.phi_hat, f.df, 0.95, &t);
		hits += t.p <= alpha;
	}
	return 100.0 * hits / tables;
}

/* Holm over groups' Simes p, then BH within the groups found: by hand. */
static void holm_groups(void)
{
	static const double p[] = { 0.001, 0.02, 0.5, 0.3, 0.6, 0.004, NAN,
				    NAN };
	static const int g[] = { 0, 0, 0, 1, 1, 2, 2, 3 };
	static const double want[] = { 0.009, 0.045, 0.75, 0.9, 0.9, 0.009 };
	double adj[8];
	int i, r = inf_holm_groups(p, g, 8, 0.05, adj);

	/*
	 * Simes: group 0 min(0.003, 0.03, 0.5) = 0.003, group 1 0.6, group 2
	 * 0.004, group 3 none (3 tested). Holm: 3 x 0.003 = 0.009, then
	 * max(0.009, 2 x 0.004), then 0.6: groups 0 and 2 found, R / G =
	 * 2 / 3. Within, BH times 3 / 2, never below the group's own.
	 */
	check(r == 3, "Holm over groups: 3 groups had a p (%d)", r);
	for (i = 0; i < 6; i++)
		check(fabs(adj[i] - want[i]) < 1e-12, "Holm over groups: item "
		      "%d adjusted to %.9g (want %g)", i, adj[i], want[i]);
	check(isnan(adj[6]) && isnan(adj[7]),
	      "Holm over groups: an untested p stays NaN");
}

static void counts(void)
{
	static const double z[3] = { 0, 0, 0 }, n[3] = { 200, 200, 200 };
	static const double four[3] = { 4, 4, 4 }, b[3] = { 4, 5, 3 };
	struct cnt_fit f;
	struct cnt_test t;
	double r;

	/* none of A's 600 frames past the bound, 12 of B's: exact binomial */
	check(!cnt_fit_runs(z, n, 3, four, n, 3, &f) && f.ya == 0 &&
	      f.yb == 12 && f.pi0 == 0.5, "counts: totals and B's share 1/2");
	cnt_test(&f, 1, 1e9, 0.95, &t);
	check_near(t.p, 2 * pow(0.5, 12), 1e-9,
		   "0 against 12 at dispersion 1: the binomial's 2 / 2^12");
	cnt_test(&f, 2, 1e9, 0.95, &t);
	check_near(t.p, 2 * pow(0.5, 6), 1e-6,
		   "... at dispersion 2, as 0 against 6: 2 / 2^6");
	cnt_test(&f, 1, 4, 0.95, &t);
	check(t.p > 2 * pow(0.5, 12) * 10,
	      "... with the dispersion known to 4 df only, far less sure "
	      "(p %.4f)", t.p);
	check(t.d > 0 && t.lo > 0 && isinf(t.hi),
	      "... B's rate higher: its interval above 1 (p below 0.05 at "
	      "95 %%), open above (A counted nothing)");
	cnt_test(&f, 1, 1e9, 0.95, &t);
	/* the share's exact lower end: 0.025^(1/12), as a ratio */
	check_near(t.lo, log(pow(0.025, 1 / 12.0) / (1 - pow(0.025, 1 / 12.0))),
		   1e-6, "... its low end Clopper-Pearson's");
	/* A counted nothing in any pair: B's own spread over the pairs,
	 * 4 5 3 of 200 at 2 %: Pearson's (0 + 1 + 1) / (4 x 0.98) / 2 */
	check(!cnt_fit_pairs(z, n, b, n, 3, &f) &&
	      fabs(f.phi_hat - 2 / 3.92 / 2) < 1e-9 && f.df == 2,
	      "pairs: one side at 0: phi from the other's spread (%.4f, "
	      "2 df)", f.phi_hat);
	check(cnt_fit_runs(z, z, 3, b, n, 3, &f) == -EINVAL,
	      "a side without frames is refused");
	/* a rare event: 3 against 0 needs about 11 counted frames at 1/2048 */
	check(!cnt_fit_runs(z, n, 3, (const double[]){ 1, 1, 1 }, n, 3, &f),
	      "3 against 0");
	r = cnt_scale_needed(&f, 1, 0.5 / 1024);
	check(r > 2 && r < 8, "... about %.1f times the frames would decide "
	      "it", r);
	/* calibration: A/A with runs that differ (overdispersed) */
	r = count_rate(4000, 3, 0.01, 0.4, 1, 0, 0.05);
	check(r <= 6.5, "A/A, 3 runs of 600 frames, 1 %% late, run-to-run SD "
	      "0.4: p <= 0.05 in %.1f %% (5 asked)", r);
	r = count_rate(4000, 5, 0.002, 0.4, 1, 1, 0.05);
	check(r <= 6.5, "A/A, 5 pairs, 0.2 %% late (rare): %.1f %%", r);
	r = count_rate(4000, 5, 0.05, 0.6, 1, 0, 0.01);
	check(r <= 1.5, "A/A, 5 runs, 5 %% late, SD 0.6: p <= 0.01 in %.2f %%",
	      r);
	r = count_rate(2000, 5, 0.01, 0.4, 3, 1, 0.05);
	check(r >= 80, "three times the rate in B, 5 pairs: found in %.1f %%",
	      r);
}

/*
 * Welch on a textbook pair (10 against 20 values): t, Welch-Satterthwaite
 * df and two-sided p computed independently in Python (t and df with
 * mpmath at 40 digits, p as twice the t density's integral from |t| by
 * mpmath.quad, cross-checked with mpmath.betainc); then samples alike,
 * 3 SDs apart, and with no spread at all.
 */
static void welch_reference(void)
{
	static const double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3,
				    18.9, 19.5, 22.0 };
	static const double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7,
				    27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0,
				    23.9, 21.6, 24.3, 20.4, 23.9, 13.3 };
	static const double flat1[] = { 5, 5, 5 }, flat2[] = { 7, 7 };
	double x[50], y[50];
	struct inf_diff d;
	int i, e;

	check(!inf_welch(a, 10, b, 20, 0.95, &d), "Welch textbook runs");
	check_near(d.d / d.se, 2.22551203996985, 1e-12, "Welch textbook t");
	check_near(d.df, 24.5246349442573, 1e-10, "Welch textbook df");
	check_near(d.p, 0.0354845308300102, 1e-12, "Welch textbook p");

	for (i = 0; i < 50; i++) {
		x[i] = 100 + 10 * cos(i);
		y[i] = x[i] + 30;
	}
	e = inf_welch(x, 50, x, 50, 0.95, &d);
	check(!e && d.d == 0 && fabs(d.p - 1) < 1e-12,
	      "Welch identical samples: p %.17g", d.p);
	e = inf_welch(x, 50, y, 50, 0.95, &d);
	check(!e && d.p < 1e-6 && d.d > 0, "Welch 3 SD shift: d %g, p %g",
	      d.d, d.p);
	e = inf_welch(flat1, 3, flat1, 2, 0.95, &d);
	check(!e && d.p == 1 && d.lo == 0 && d.hi == 0,
	      "Welch with no spread and equal means: p 1, a point interval");
	e = inf_welch(flat1, 3, flat2, 2, 0.95, &d);
	check(!e && d.p == 0 && d.d == 2 && d.lo == 2 && d.hi == 2,
	      "Welch with no spread, different means: p 0, d 2");
}

int main(void)
{
	static const double a[] = { 10.1, 9.8, 10.4, 10.0, 9.9 };
	static const double b[] = { 11.2, 10.9, 11.6, 11.0 };
	static const double pa[] = { 1, 2, 3, 4, 5 },
			    pb[] = { 1.3, 2.1, 3.6, 4.2, 5.9 },
			    pc[] = { 1.5, 2.5, 3.5, 4.5, 5.5 };
	static const double g1[] = { 1, 2, 3 }, g2[] = { 2, 3, 4 },
			    g3[] = { 5, 6, 7 };
	const double *g[3] = { g1, g2, g3 };
	size_t n[3] = { 3, 3, 3 };
	static const double ps[] = { 0.01, 0.04, 0.03, NAN, 0.2 };
	static const double sorted[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	double adj[5], p, mse, df;
	struct inf_diff d;
	clock_t t0;

	check_near(inf_digamma(1), -0.5772156649015329, 1e-11, "digamma(1)");
	check_near(inf_digamma(0.5), -1.9635100260214235, 1e-11,
		   "digamma(1/2)");
	check_near(inf_trigamma(1), 1.6449340668482264, 1e-11, "trigamma(1)");
	check_near(inf_trigamma(0.5), 4.934802200544679, 1e-11,
		   "trigamma(1/2)");
	check_near(inf_trigamma_inv(inf_trigamma(2.5)), 2.5, 1e-9,
		   "trigamma's inverse");
	ebayes();
	counts();
	holm_groups();
	check_near(inf_beta_quantile(0.3, 1, 1), 0.3, 1e-9,
		   "beta(1, 1) quantile: the uniform's");
	check_near(inf_beta_quantile(0.025, 12, 1), pow(0.025, 1 / 12.0), 1e-9,
		   "beta(12, 1) quantile: q^(1/12)");
	check(inf_beta_quantile(1 - 1e-20, 1, 2) == 1 &&
	      inf_beta_quantile(0, 3, 2) == 0,
	      "beta quantile: a q that rounds to 1 (or 0) is the end");
	check_near(inf_t_quantile(0.975, 10), 2.228139, 1e-6, "t 0.975, 10 df");
	check_near(inf_t_quantile(0.975, 3.5), 2.940089, 1e-5,
		   "t 0.975, 3.5 df (fractional, as Welch gives)");
	check_near(inf_t_cdf(-2.5, 7), 0.0204961, 1e-7, "P(T <= -2.5), 7 df");
	check_near(inf_f_sf(4.26, 2, 9), 0.05, 5e-4, "F(2, 9) 4.26: 5 %");
	check_near(inf_norm_quantile(0.975), 1.959964, 1e-6, "z 0.975");
	check_near(inf_norm_quantile(0.2), -0.841621, 1e-6, "z 0.2");

	/* Tables of the studentized range (e.g. Harter 1960), alpha 0.05 */
	check_near(inf_qtukey(0.95, 2, 0), 2.772, 2e-3, "q(2, inf) 2.772");
	check_near(inf_qtukey(0.95, 3, 10), 3.877, 2e-3, "q(3, 10) 3.877");
	check_near(inf_qtukey(0.95, 4, 20), 3.958, 2e-3, "q(4, 20) 3.958");
	check_near(inf_qtukey(0.95, 10, 60), 4.646, 3e-3, "q(10, 60) 4.646");
	check_near(inf_qtukey(0.95, 3, 2), 8.331, 0.02, "q(3, 2) 8.331");
	check_near(inf_ptukey(3.5, 3, 12), 0.9300045, 1e-5, "ptukey(3.5, 3, 12)");
	/* two means: the range is |X1 - X2|, a t with sqrt(2) */
	check_near(inf_ptukey(2.0, 2, 8), 2 * inf_t_cdf(2.0 / M_SQRT2, 8) - 1,
		   1e-5, "q with k = 2 is |t| sqrt(2)");
	t0 = clock();
	for (int i = 0; i < 20; i++)
		inf_ptukey(3 + i * 0.1, 10, 90);
	check((double)(clock() - t0) / CLOCKS_PER_SEC < 0.5,
	      "20 ptukey(k = 10) in under 0.5 s (%.3f)",
	      (double)(clock() - t0) / CLOCKS_PER_SEC);

	check(!inf_welch(a, 5, b, 4, 0.95, &d), "Welch runs");
	check_near(d.d, 1.135, 1e-12, "Welch difference of means");
	check_near(d.se, 0.1858987, 1e-6, "Welch SE");
	check_near(d.df, 5.442791, 1e-5, "Welch-Satterthwaite df");
	check_near(d.p, 0.0012602, 1e-6, "Welch two-sided p");
	check_near(d.lo, 0.6685918, 1e-5, "Welch 95 % interval, low");
	check_near(d.hi, 1.6014082, 1e-5, "Welch 95 % interval, high");
	check(inf_welch(a, 1, b, 4, 0.95, &d) == -EINVAL,
	      "Welch needs 2 values a side");
	welch_reference();

	/* differences 0.3 0.1 0.6 0.2 0.9: mean 0.42, SD 0.3271085 */
	check(!inf_paired(pa, pb, 5, 0.95, &d), "paired t runs");
	check_near(d.d, 0.42, 1e-12, "paired mean difference");
	check_near(d.se, 0.1462874, 1e-6, "paired SE");
	check(d.df == 4, "paired df is pairs - 1");
	check_near(d.p, 0.0454200, 1e-5, "paired two-sided p");
	check_near(d.lo, 0.42 - 0.4061589, 1e-5, "paired 95 % interval, low");
	check_near(d.hi, 0.42 + 0.4061589, 1e-5, "paired 95 % interval, high");
	/* a shift shared by both members of each pair cancels */
	check(!inf_paired(pa, pc, 5, 0.95, &d) && d.lo == 0.5 && d.hi == 0.5 &&
	      d.p == 0, "paired: a constant difference is no spread, p 0");
	check(inf_paired(pa, pb, 1, 0.95, &d) == -EINVAL,
	      "paired needs 2 pairs");

	check(!inf_anova(g, n, 3, &p, &mse, &df) && df == 6 && mse == 1,
	      "ANOVA: error df 6, mean square 1");
	/* F(2, 6) = 26 / 2 / 1: P(F > 13) = (1 + 2 * 13 / 6)^-3 */
	check_near(p, pow(1 + 26.0 / 6, -3), 1e-9, "ANOVA p of F(2, 6) = 13");

	inf_bh(ps, 5, adj);
	check_near(adj[0], 0.04, 1e-12, "BH: 0.01 -> 0.04");
	/* ranks 1-4: 0.04, 0.06, 0.0533, 0.2; each the least from it up */
	check_near(adj[1], 0.16 / 3, 1e-12, "BH: 0.04 -> 0.0533");
	check_near(adj[2], 0.16 / 3, 1e-12, "BH: 0.03 -> 0.0533");
	check(isnan(adj[3]), "BH: an untested p stays NaN");
	check_near(adj[4], 0.2, 1e-12, "BH: 0.2 -> 0.2");

	check_near(inf_quantile(sorted, 10, 0.25), 2.75, 1e-12, "q25, type 6");
	check_near(inf_quantile(sorted, 10, 0.9), 9.9, 1e-12, "q90, type 6");
	check(inf_quantile(sorted, 10, 0) == 1 && inf_quantile(sorted, 10, 1)
	      == 10, "q0 and q100 are min and max");
	{
		/* the randomisation test of pairs, counted by hand */
		static const double z[20] = { 0 };
		static const double up[3] = { 1, 2, 3 };
		static const double wild[5] = { 10, -1, -1, -1, -1 };
		static const double big[20] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
						 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };

		check(fabs(inf_signflip_p(z, up, 3) - 0.125) < 1e-12,
		      "sign flips: 3 pairs all one way, p 1/8 (%g)",
		      inf_signflip_p(z, up, 3));
		check(fabs(inf_signflip_p(z, wild, 5) - 0.5) < 1e-12,
		      "sign flips: one wild pair against four: p 1/2 (%g)",
		      inf_signflip_p(z, wild, 5));
		check(fabs(inf_signflip_p(up, z, 3) - 1) < 1e-12 &&
		      inf_signflip_p(z, z, 3) == 1,
		      "sign flips: the other way, and no difference: p 1");
		check(inf_signflip_p(z, big, 20) < 1e-5,
		      "sign flips past %d pairs: the normal approximation "
		      "(%g)", INF_FLIP_EXACT, inf_signflip_p(z, big, 20));
	}
	return check_done();
}
