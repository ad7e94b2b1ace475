// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/infer.c - distributions, intervals, ANOVA and multiple testing for
 * compare (see infer.h). Checked against published tables and reference
 * values in tests/unit-infer.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* lgamma_r */
#endif
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/infer.h"
#include "stats.h"

double inf_t_cdf(double t, double df)
{
	double x, tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	x = df / (df + t * t);
	tail = 0.5 * stats_beta_inc(df / 2, 0.5, x, t * t / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

/* The x in [lo, hi] where the increasing f(x, arg) reaches p. */
static double invert(double (*f)(double x, const double *arg),
		     const double *arg, double p, double lo, double hi)
{
	int i;

	/* Widen the bracket until it holds p, then halve it. */
	for (i = 0; i < 60 && f(lo, arg) > p; i++)
		lo = lo < 0 ? lo * 2 : lo - 1;
	for (i = 0; i < 60 && f(hi, arg) < p; i++)
		hi = hi > 0 ? hi * 2 : hi + 1;
	for (i = 0; i < 200 && hi - lo > 1e-12 * (1 + fabs(lo)); i++) {
		double mid = (lo + hi) / 2;

		if (f(mid, arg) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static double t_cdf_arg(double x, const double *arg)
{
	return inf_t_cdf(x, arg[0]);
}

double inf_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	return invert(t_cdf_arg, &df, p, -10, 10);
}

double inf_f_sf(double f, double d1, double d2)
{
	if (isnan(f) || !(d1 > 0) || !(d2 > 0))
		return NAN;
	if (f <= 0)
		return 1;
	if (isinf(f))
		return 0;
	return stats_beta_inc(d2 / 2, d1 / 2, d2 / (d2 + d1 * f),
			      d1 * f / (d2 + d1 * f));
}

static double norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

static double norm_cdf_arg(double x, const double *arg)
{
	(void)arg;
	return norm_cdf(x);
}

double inf_norm_quantile(double p)
{
	if (!(p > 0 && p < 1))
		return NAN;
	return invert(norm_cdf_arg, NULL, p, -10, 10);
}

static double beta_cdf_arg(double x, const double *arg)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	return stats_beta_inc(arg[0], arg[1], x, 1 - x);
}

double inf_beta_quantile(double q, double a, double b)
{
	const double arg[2] = { a, b };

	if (isnan(q) || !(a > 0) || !(b > 0))
		return NAN;
	/* a tail too small for a double: the distribution's end */
	if (q <= 0 || q >= 1)
		return q <= 0 ? 0 : 1;
	return invert(beta_cdf_arg, arg, q, 0, 1);
}

/* ---- the studentized range ------------------------------------------ */

#define GL_N	16

/* Gauss-Legendre nodes and weights on [-1, 1], by Newton's method. */
static void gauss_legendre(double *x, double *w)
{
	int i, j, it;

	for (i = 0; i < GL_N; i++) {
		double z = cos(M_PI * (i + 0.75) / (GL_N + 0.5)), dp = 1;

		for (it = 0; it < 100; it++) {
			double p0 = 1, p1 = z, dz;

			/* P_n(z) by the three-term recurrence */
			for (j = 2; j <= GL_N; j++) {
				double p2 = ((2 * j - 1) * z * p1 -
					     (j - 1) * p0) / j;

				p0 = p1;
				p1 = p2;
			}
			dp = GL_N * (z * p1 - p0) / (z * z - 1);
			dz = p1 / dp;
			z -= dz;
			if (fabs(dz) < 1e-15)
				break;
		}
		x[i] = z;
		w[i] = 2 / ((1 - z * z) * dp * dp);
	}
}

/*
 * P(range of k standard normals <= w) =
 *   k * integral phi(z) (Phi(z) - Phi(z - w))^(k - 1) dz
 */
static double range_cdf(double w, int k, const double *x, const double *wt)
{
	double sum = 0;
	int a, i;

	if (w <= 0)
		return 0;
	/* phi is below 1e-15 past 8: four panels of width 4 cover it */
	for (a = -8; a < 8; a += 4) {
		for (i = 0; i < GL_N; i++) {
			double z = a + 2 + 2 * x[i];
			double in = 0.5 * (erfc(-z / M_SQRT2) -
					   erfc(-(z - w) / M_SQRT2));

			if (in > 0)
				sum += 2 * wt[i] * exp(-z * z / 2) *
				       pow(in, k - 1);
		}
	}
	return k * sum / sqrt(2 * M_PI);
}

double inf_ptukey(double q, int k, double df)
{
	double x[GL_N], wt[GL_N], lo, hi, step, sum = 0, lc;
	int sign, a, i, panels = 16;

	if (isnan(q) || k < 2)
		return NAN;
	if (q <= 0)
		return 0;
	gauss_legendre(x, wt);
	if (!(df > 0) || df > 25000)
		return range_cdf(q, k, x, wt);
	/*
	 * Average over the spread s of the SD estimate, whose density is
	 * that of sqrt(chi^2_df / df): ten of its SDs each side of 1.
	 */
	lo = 1 - 10 / sqrt(2 * df);
	hi = 1 + 10 / sqrt(2 * df);
	if (lo < 0)
		lo = 0;
	step = (hi - lo) / panels;
	lc = df / 2 * log(df) - lgamma_r(df / 2, &sign) -
	     (df / 2 - 1) * M_LN2;
	for (a = 0; a < panels; a++)
		for (i = 0; i < GL_N; i++) {
			double s = lo + step * (a + (x[i] + 1) / 2);

			if (s <= 0)
				continue;
			sum += wt[i] * step / 2 *
			       exp(lc + (df - 1) * log(s) - df * s * s / 2) *
			       range_cdf(q * s, k, x, wt);
		}
	return sum > 1 ? 1 : sum;
}

static double ptukey_arg(double x, const double *arg)
{
	return inf_ptukey(x, (int)arg[0], arg[1]);
}

double inf_qtukey(double p, int k, double df)
{
	double arg[2] = { k, df };

	if (!(p > 0 && p < 1) || k < 2)
		return NAN;
	return invert(ptukey_arg, arg, p, 0, 10);
}

/* ---- tests ---------------------------------------------------------- */

void inf_mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	double sum = 0, ss = 0;
	size_t i;

	*mean = NAN;
	*sd = NAN;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / (double)n;
	if (n < 2)
		return;
	/* two passes: the arrays are short and this avoids cancellation */
	for (i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*sd = sqrt(ss / (double)(n - 1));
}

int inf_welch(const double *a, size_t na, const double *b, size_t nb,
	      double level, struct inf_diff *o)
{
	double ma, sa, mb, sb, va, vb, half;

	memset(o, 0, sizeof(*o));
	if (na < 2 || nb < 2)
		return -EINVAL;
	inf_mean_sd(a, na, &ma, &sa);
	inf_mean_sd(b, nb, &mb, &sb);
	va = sa * sa / (double)na;
	vb = sb * sb / (double)nb;
	o->d = mb - ma;
	o->se = sqrt(va + vb);
	if (!(o->se > 0)) {
		o->df = (double)(na + nb - 2);
		o->p = o->d == 0 ? 1 : 0;
		o->lo = o->hi = o->d;
		return 0;
	}
	/* Welch-Satterthwaite */
	o->df = (va + vb) * (va + vb) /
		(va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	o->p = 2 * inf_t_cdf(-fabs(o->d) / o->se, o->df);
	half = inf_t_quantile(0.5 + level / 2, o->df) * o->se;
	o->lo = o->d - half;
	o->hi = o->d + half;
	return 0;
}

int inf_paired(const double *a, const double *b, size_t n, double level,
	       struct inf_diff *o)
{
	double md, sd, half, sum = 0, ss = 0;
	size_t i;

	memset(o, 0, sizeof(*o));
	if (n < 2)
		return -EINVAL;
	for (i = 0; i < n; i++)
		sum += b[i] - a[i];
	md = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (b[i] - a[i] - md) * (b[i] - a[i] - md);
	sd = sqrt(ss / (double)(n - 1));
	o->d = md;
	o->df = (double)(n - 1);
	o->se = sd / sqrt((double)n);
	if (!(o->se > 0)) {
		o->p = o->d == 0 ? 1 : 0;
		o->lo = o->hi = o->d;
		return 0;
	}
	o->p = 2 * inf_t_cdf(-fabs(o->d) / o->se, o->df);
	half = inf_t_quantile(0.5 + level / 2, o->df) * o->se;
	o->lo = o->d - half;
	o->hi = o->d + half;
	return 0;
}

int inf_anova(const double *const *g, const size_t *n, int k, double *p,
	      double *mse, double *df)
{
	double grand = 0, ssb = 0, ssw = 0, f;
	size_t total = 0, j;
	int i;

	for (i = 0; i < k; i++) {
		for (j = 0; j < n[i]; j++)
			grand += g[i][j];
		total += n[i];
	}
	if (k < 2 || total <= (size_t)k)
		return -EINVAL;
	grand /= (double)total;
	for (i = 0; i < k; i++) {
		double m, sd;

		if (!n[i])
			return -EINVAL;
		inf_mean_sd(g[i], n[i], &m, &sd);
		ssb += (double)n[i] * (m - grand) * (m - grand);
		for (j = 0; j < n[i]; j++)
			ssw += (g[i][j] - m) * (g[i][j] - m);
	}
	*df = (double)(total - (size_t)k);
	*mse = ssw / *df;
	if (!(ssw > 0)) {
		*p = ssb > 0 ? 0 : 1;
		return 0;
	}
	f = (ssb / (k - 1)) / *mse;
	*p = inf_f_sf(f, k - 1, *df);
	return 0;
}

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->p;
	double y = ((const struct ranked *)b)->p;

	return x < y ? -1 : x > y;
}

void inf_bh(const double *p, size_t n, double *adj)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	double run = 1;
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		adj[i] = NAN;
	if (!r)
		return;
	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[m++] = (struct ranked){ p[i], i };
	qsort(r, m, sizeof(*r), cmp_ranked);
	/* step up: the smallest m p_(j) / j at or above each rank */
	for (i = m; i-- > 0; ) {
		double v = r[i].p * (double)m / (double)(i + 1);

		if (v < run)
			run = v;
		adj[r[i].i] = run;
	}
	free(r);
}

/*
 * Holm's adjusted p of p[0..n-1] into adj (NaN stays NaN and does not
 * count): the k-th smallest times the m - k + 1 untested yet, never below
 * the one before it. 0, or -ENOMEM.
 */
static int holm(const double *p, size_t n, double *adj)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	double run = 0;
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		adj[i] = NAN;
	if (!r)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[m++] = (struct ranked){ p[i], i };
	qsort(r, m, sizeof(*r), cmp_ranked);
	for (i = 0; i < m; i++) {
		run = fmax(run, fmin(1, (double)(m - i) * r[i].p));
		adj[r[i].i] = run;
	}
	free(r);
	return 0;
}

/* An item's group and index: sorted, each group's items are one run. */
struct grouped {
	int g;
	size_t i;
};

static int cmp_grouped(const void *a, const void *b)
{
	const struct grouped *x = a, *y = b;

	if (x->g != y->g)
		return x->g < y->g ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

int inf_holm_groups(const double *p, const int *group, size_t n, double alpha,
		  double *adj)
{
	struct grouped *ord = malloc((n ? n : 1) * sizeof(*ord));
	double *gp = malloc((n ? n : 1) * sizeof(*gp));
	double *gq = malloc((n ? n : 1) * sizeof(*gq));
	double *w = malloc((n ? n : 1) * sizeof(*w));
	double *wq = malloc((n ? n : 1) * sizeof(*wq));
	size_t i, j, a, g, ng = 0, tested = 0, found = 0;
	int ret = -ENOMEM;

	for (i = 0; i < n; i++)
		adj[i] = NAN;
	if (!ord || !gp || !gq || !w || !wq)
		goto out;
	for (i = 0; i < n; i++)
		ord[i] = (struct grouped){ group[i], i };
	qsort(ord, n, sizeof(*ord), cmp_grouped);
	/* each group's Simes p: the least of its BH-adjusted p */
	for (a = 0; a < n; a = j, ng++) {
		for (j = a; j < n && ord[j].g == ord[a].g; j++)
			w[j - a] = p[ord[j].i];
		inf_bh(w, j - a, wq);
		gp[ng] = NAN;
		for (i = 0; i < j - a; i++)
			if (!isnan(wq[i]) && (isnan(gp[ng]) || wq[i] < gp[ng]))
				gp[ng] = wq[i];
		tested += !isnan(gp[ng]);
	}
	if (holm(gp, ng, gq))
		goto out;
	for (g = 0; g < ng; g++)
		found += gq[g] <= alpha;
	for (a = 0, g = 0; a < n; a = j, g++) {
		for (j = a; j < n && ord[j].g == ord[a].g; j++)
			w[j - a] = p[ord[j].i];
		inf_bh(w, j - a, wq);
		for (i = a; i < j; i++) {
			double s = wq[i - a] * (double)tested /
				   (double)(found ? found : 1);

			if (!isnan(p[ord[i].i]))
				adj[ord[i].i] = fmin(1, fmax(gq[g], s));
		}
	}
	ret = (int)tested;
out:
	free(ord);
	free(gp);
	free(gq);
	free(w);
	free(wq);
	return ret;
}

double inf_quantile(const double *sorted, size_t n, double q)
{
	double h, f;
	size_t lo;

	if (!n)
		return NAN;
	h = (double)(n + 1) * q;
	if (h <= 1)
		return sorted[0];
	if (h >= (double)n)
		return sorted[n - 1];
	lo = (size_t)h;
	f = h - (double)lo;
	return sorted[lo - 1] + f * (sorted[lo] - sorted[lo - 1]);
}

/* Recurrence up to x >= 6, then the asymptotic series (error < 1e-12). */
double inf_digamma(double x)
{
	double r = 0, f;

	while (x < 6) {
		r -= 1 / x;
		x += 1;
	}
	f = 1 / (x * x);
	return r + log(x) - 0.5 / x -
	       f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 -
					     f * (1.0 / 240 - f / 132))));
}

double inf_trigamma(double x)
{
	double r = 0, f;

	while (x < 10) {
		r += 1 / (x * x);
		x += 1;
	}
	f = 1 / (x * x);
	return r + 1 / x + f / 2 +
	       f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 -
					       f * (1.0 / 30))));
}

/* trigamma falls monotonically on (0, inf): bisection on the log of y. */
double inf_trigamma_inv(double x)
{
	double lo = -30, hi = 30;
	int i;

	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (inf_trigamma(exp(mid)) > x)
			lo = mid;
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}

int inf_ebayes_prior(const double *s2, const double *df, size_t n,
		     double *d0, double *s02)
{
	double e_mean = 0, v = 0, tri = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (s2[i] > 0 && df[i] > 0) {
			e_mean += log(s2[i]) - inf_digamma(df[i] / 2) +
				  log(df[i] / 2);
			k++;
		}
	if (k < 3)
		return -EINVAL;
	e_mean /= (double)k;
	for (i = 0; i < n; i++)
		if (s2[i] > 0 && df[i] > 0) {
			double e = log(s2[i]) - inf_digamma(df[i] / 2) +
				   log(df[i] / 2);

			v += (e - e_mean) * (e - e_mean);
			tri += inf_trigamma(df[i] / 2);
		}
	/* the spread beyond what each variance's own sampling gives */
	v = v / (double)(k - 1) - tri / (double)k;
	if (v > 0) {
		*d0 = 2 * inf_trigamma_inv(v);
		*s02 = exp(e_mean + inf_digamma(*d0 / 2) - log(*d0 / 2));
	} else {
		*d0 = INFINITY;
		*s02 = exp(e_mean);
	}
	return 0;
}

double inf_ebayes_var(double s2, double df, double d0, double s02)
{
	if (isinf(d0))
		return s02;
	return (d0 * s02 + df * s2) / (d0 + df);
}

double inf_signflip_p(const double *a, const double *b, size_t n)
{
	double obs = 0, ss = 0;
	unsigned long mask, hit = 0, all;
	size_t i;

	for (i = 0; i < n; i++) {
		obs += b[i] - a[i];
		ss += (b[i] - a[i]) * (b[i] - a[i]);
	}
	if (!n || !(ss > 0))
		return 1;
	if (n > INF_FLIP_EXACT)
		return 1 - norm_cdf(obs / sqrt(ss));
	/* every assignment of signs to the pairs' differences, counted */
	all = 1UL << n;
	for (mask = 0; mask < all; mask++) {
		double s = 0;

		for (i = 0; i < n; i++)
			s += (mask >> i & 1 ? -1 : 1) * (b[i] - a[i]);
		/* ties with the observed sum count: a conservative p */
		hit += s >= obs - 1e-12 * sqrt(ss);
	}
	return (double)hit / (double)all;
}
