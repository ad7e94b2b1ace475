// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/count.c - frames counted past a bound, compared run by run (see
 * count.h). Checked on counts with a known truth in tests/unit-infer.c.
 */
#include <errno.h>
#include <math.h>
#include "lib/count.h"
#include "lib/infer.h"
#include "stats.h"

/* One side's Pearson terms at its own rate: their sum; *df its share. */
static double side_chi2(const double *y, const double *n, size_t k,
			double *df)
{
	double sy = 0, sn = 0, r, chi = 0;
	size_t i, runs = 0;

	for (i = 0; i < k; i++)
		if (n[i] > 0) {
			sy += y[i];
			sn += n[i];
			runs++;
		}
	*df = 0;
	if (!(sy > 0) || !(sy < sn) || runs < 2)
		return 0;
	r = sy / sn;
	for (i = 0; i < k; i++) {
		double e = n[i] * r;

		if (n[i] > 0)
			chi += (y[i] - e) * (y[i] - e) / (e * (1 - r));
	}
	/* a side that counted nothing (or everything) tells no spread */
	*df = (double)(runs - 1);
	return chi;
}

static void totals(const double *y, const double *n, size_t k, double *sy,
		   double *sn)
{
	size_t i;

	*sy = *sn = 0;
	for (i = 0; i < k; i++)
		if (n[i] > 0) {
			*sy += y[i];
			*sn += n[i];
		}
}

int cnt_fit_runs(const double *ya, const double *na, size_t ka,
		 const double *yb, const double *nb, size_t kb,
		 struct cnt_fit *f)
{
	double dfa, dfb, chi;

	totals(ya, na, ka, &f->ya, &f->na);
	totals(yb, nb, kb, &f->yb, &f->nb);
	if (!(f->na > 0) || !(f->nb > 0))
		return -EINVAL;
	f->pi0 = f->nb / (f->na + f->nb);
	chi = side_chi2(ya, na, ka, &dfa) + side_chi2(yb, nb, kb, &dfb);
	f->df = dfa + dfb;
	f->phi_hat = f->df > 0 ? chi / f->df : NAN;
	return 0;
}

/* B's share of pair k's counted frames at rate ratio exp(t). */
static double share(double na, double nb, double t)
{
	return nb / (na * exp(-t) + nb);
}

/*
 * f's dispersion where one side counted nothing: the other side's
 * Pearson chi-square over the pairs with frames, at its own rate.
 */
static void one_sided_phi(struct cnt_fit *f, const double *ya,
			  const double *na, const double *yb,
			  const double *nb, size_t k)
{
	const double *y = f->ya > 0 ? ya : yb, *n = f->ya > 0 ? na : nb;
	double sy = 0, sn = 0, r, chi = 0;
	size_t i, runs = 0;

	for (i = 0; i < k; i++)
		if (na[i] > 0 && nb[i] > 0) {
			sy += y[i];
			sn += n[i];
			runs++;
		}
	f->df = runs > 1 ? (double)(runs - 1) : 0;
	if (!(sy > 0) || !(sy < sn) || !f->df)
		return;
	r = sy / sn;
	for (i = 0; i < k; i++)
		if (na[i] > 0 && nb[i] > 0)
			chi += (y[i] - n[i] * r) * (y[i] - n[i] * r) /
			       (n[i] * r * (1 - r));
	f->phi_hat = chi / f->df;
}

int cnt_fit_pairs(const double *ya, const double *na, const double *yb,
		  const double *nb, size_t k, struct cnt_fit *f)
{
	double lo = -40, hi = 40, t = 0, chi = 0, m, p, e0 = 0;
	size_t i, used = 0;
	int it;

	f->ya = f->na = f->yb = f->nb = 0;
	for (i = 0; i < k; i++) {
		if (!(na[i] > 0) || !(nb[i] > 0))
			continue;
		f->ya += ya[i];
		f->na += na[i];
		f->yb += yb[i];
		f->nb += nb[i];
		m = ya[i] + yb[i];
		/* pairs that counted nothing say nothing of the rates */
		if (m > 0) {
			e0 += m * nb[i] / (na[i] + nb[i]);
			used++;
		}
	}
	if (!(f->na > 0))
		return -EINVAL;
	m = f->ya + f->yb;
	f->pi0 = m > 0 ? e0 / m : f->nb / (f->na + f->nb);
	f->df = used > 1 ? (double)(used - 1) : 0;
	f->phi_hat = NAN;
	/*
	 * One side counted nothing: within each pair the split is all the
	 * other's, which says nothing of how that side's count spreads
	 * from pair to pair. Its own spread over the pairs does: 30 late
	 * frames in one pair and none in four others is one burst, not 30
	 * frames falling independently.
	 */
	if (!(f->ya > 0) || !(f->yb > 0)) {
		one_sided_phi(f, ya, na, yb, nb, k);
		return 0;
	}
	if (!f->df)
		return 0;
	/* the common ratio: B's expected counted frames meet its own */
	for (it = 0; it < 100; it++) {
		double sum = 0;

		t = (lo + hi) / 2;
		for (i = 0; i < k; i++)
			if (na[i] > 0 && nb[i] > 0)
				sum += (ya[i] + yb[i]) * share(na[i], nb[i], t);
		if (sum < f->yb)
			lo = t;
		else
			hi = t;
	}
	for (i = 0; i < k; i++) {
		if (!(na[i] > 0) || !(nb[i] > 0) || !(ya[i] + yb[i] > 0))
			continue;
		m = ya[i] + yb[i];
		p = share(na[i], nb[i], t);
		chi += (yb[i] - m * p) * (yb[i] - m * p) / (m * p * (1 - p));
	}
	f->phi_hat = chi / f->df;
	return 0;
}

/* P(X >= x) and P(X <= x) for X binomial (m, p), x and m real. */
static double upper(double x, double m, double p)
{
	if (x <= 0)
		return 1;
	if (x > m)
		return 0;
	return stats_beta_inc(x, m - x + 1, p, 1 - p);
}

static double lower(double x, double m, double p)
{
	if (x >= m)
		return 1;
	if (x < 0)
		return 0;
	return stats_beta_inc(m - x, x + 1, 1 - p, p);
}

/* B's share of counted frames as a log rate ratio. */
static double share_to_d(const struct cnt_fit *f, double share)
{
	if (share <= 0)
		return -INFINITY;
	if (share >= 1)
		return INFINITY;
	return log(share / (1 - share)) + log(f->na / f->nb);
}

void cnt_test(const struct cnt_fit *f, double phi, double df, double level,
	      struct cnt_test *t)
{
	double m = f->ya + f->yb, one, z, x, tail;

	if (!(phi >= 1))
		phi = 1;
	if (!(df >= 1))
		df = 1;
	t->d = log((f->yb + 0.5) / f->nb) - log((f->ya + 0.5) / f->na);
	t->se = sqrt(phi * (1 / (f->ya + 0.5) + 1 / (f->yb + 0.5)));
	t->lo = -INFINITY;
	t->hi = INFINITY;
	t->p = NAN;
	if (!(m > 0))
		return;
	/*
	 * The interval: Clopper and Pearson's for B's share, of the counts
	 * divided by phi, each end at the binomial tail whose z is t's
	 * quantile (the test's own reading), as a rate ratio. Exact where
	 * a side counted nothing, where a Wald interval is far too wide.
	 */
	x = f->yb / phi;
	z = inf_t_quantile(0.5 + level / 2, df);
	tail = 0.5 * erfc(z / M_SQRT2);
	if (x > 0)
		t->lo = share_to_d(f, inf_beta_quantile(tail, x,
							m / phi - x + 1));
	if (x < m / phi)
		t->hi = share_to_d(f, inf_beta_quantile(1 - tail, x + 1,
							m / phi - x));
	/*
	 * B's share of what was counted, the counts divided by phi (a
	 * quasi-binomial's effective frames), one-sided each way; the
	 * smaller's z, read against t for phi's own uncertainty.
	 */
	one = fmin(upper(f->yb / phi, m / phi, f->pi0),
		   lower(f->yb / phi, m / phi, f->pi0));
	if (one >= 0.5) {
		t->p = 1;
		return;
	}
	/* past what a double's normal tail holds: as far as it goes */
	z = one > 1e-300 ? -inf_norm_quantile(one) : 37;
	t->p = fmin(1, 2 * inf_t_cdf(-z, df));
}

double cnt_scale_needed(const struct cnt_fit *f, double phi, double p_one)
{
	double m = f->ya + f->yb, share_b, z;

	if (!(m > 0))
		return 0;
	if (!(phi >= 1))
		phi = 1;
	share_b = (f->yb + 0.5) / (m + 1);
	if (fabs(share_b - f->pi0) < 1e-9)
		return 0;
	z = -inf_norm_quantile(p_one);
	return z * z * f->pi0 * (1 - f->pi0) * phi /
	       ((share_b - f->pi0) * (share_b - f->pi0) * m);
}

void cnt_rate_interval(double y, double n, double phi, double level,
		       double *lo, double *hi)
{
	double tail = (1 - level) / 2;

	*lo = 0;
	*hi = 1;
	if (!(n > 0))
		return;
	if (!(phi >= 1))
		phi = 1;
	/* Clopper and Pearson's, on the counts divided by phi */
	y /= phi;
	n /= phi;
	if (y > 0)
		*lo = inf_beta_quantile(tail, y, n - y + 1);
	if (y < n)
		*hi = inf_beta_quantile(1 - tail, y + 1, n - y);
}

double cnt_sign_p(int more, int fewer)
{
	double p = 0, term;
	int n = more + fewer, i;

	if (more <= 0)
		return 1;
	/* P(X >= more), X binomial (n, 1/2): its terms summed exactly */
	term = pow(0.5, n);
	for (i = 0; i < more; i++)
		term *= (double)(n - i) / (i + 1);
	for (i = more; i <= n; i++) {
		p += term;
		term *= (double)(n - i) / (i + 1);
	}
	return fmin(1, p);
}
