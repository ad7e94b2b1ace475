// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - pure latency statistics for interbench: a log-linear
 * histogram with exact mean/SD/min/max, the median of an array, and the
 * regularized incomplete beta function lib/infer.c's distributions are
 * made of. See stats.h for the contract.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* lgamma_r */
#endif
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

void stats_init(struct lat_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

unsigned stats_bucket(uint64_t v)
{
	unsigned shift;

	if (v < STATS_SUB)
		return (unsigned)v;
	/* shift = floor(log2 v) - 7: how many low bits a sub-bucket drops */
	shift = 63 - (unsigned)__builtin_clzll(v) - STATS_SUB_BITS;
	return STATS_SUB + shift * STATS_SUB +
	       (unsigned)((v >> shift) - STATS_SUB);
}

uint64_t stats_bucket_low(unsigned b)
{
	unsigned shift;

	if (b < STATS_SUB)
		return b;
	if (b >= STATS_BUCKETS)
		b = STATS_BUCKETS - 1;
	shift = (b - STATS_SUB) / STATS_SUB;
	return (uint64_t)(STATS_SUB + b % STATS_SUB) << shift;
}

uint64_t stats_bucket_high(unsigned b)
{
	if (b < STATS_SUB)
		return b;
	if (b >= STATS_BUCKETS)
		b = STATS_BUCKETS - 1;
	/* low + width - 1: the last bucket ends exactly at UINT64_MAX */
	return stats_bucket_low(b) +
	       (((uint64_t)1 << ((b - STATS_SUB) / STATS_SUB)) - 1);
}

void stats_add(struct lat_stats *s, uint64_t v)
{
	double x = (double)v, delta;

	s->count++;
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	delta = x - s->mean;
	s->mean += delta / (double)s->count;
	s->m2 += delta * (x - s->mean);
	s->hist[stats_bucket(v)]++;
}

void stats_merge(struct lat_stats *dst, const struct lat_stats *src)
{
	double na, nb, n, delta;
	unsigned b;

	if (!src->count)
		return;
	if (!dst->count) {
		memcpy(dst, src, sizeof(*dst));
		return;
	}
	na = (double)dst->count;
	nb = (double)src->count;
	n = na + nb;
	delta = src->mean - dst->mean;
	dst->mean += delta * (nb / n);
	dst->m2 += src->m2 + delta * delta * (na / n) * nb;
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (b = 0; b < STATS_BUCKETS; b++)
		dst->hist[b] += src->hist[b];
}

double stats_mean(const struct lat_stats *s)
{
	return s->count ? s->mean : 0.0;
}

double stats_sd(const struct lat_stats *s)
{
	double var;

	if (s->count < 2)
		return 0.0;
	var = s->m2 / (double)(s->count - 1);
	/* rounding can leave m2 a hair below zero for constant data */
	return var > 0 ? sqrt(var) : 0.0;
}

uint64_t stats_percentile(const struct lat_stats *s, double pct)
{
	uint64_t rank, cum = 0, low, high, mid;
	double x;
	unsigned b;

	if (!s->count)
		return 0;
	if (!(pct > 0))		/* also catches NaN */
		return s->min;
	if (pct >= 100)
		return s->max;
	x = pct / 100 * (double)s->count;
	/*
	 * pct / 100 is rarely exact: shave a few ulps so that 99.9 % of
	 * 1000 samples is rank 999, not 1000.
	 */
	x = ceil(x - x * (16 * DBL_EPSILON));
	if (x < 1)
		rank = 1;
	else if (x >= (double)s->count)
		rank = s->count;
	else
		rank = (uint64_t)x;

	for (b = 0; b < STATS_BUCKETS; b++) {
		cum += s->hist[b];
		if (cum >= rank)
			break;
	}
	if (b == STATS_BUCKETS)		/* hist disagrees with count */
		return s->max;
	low = stats_bucket_low(b);
	high = stats_bucket_high(b);
	mid = low + (high - low) / 2;
	if (mid < s->min)
		return s->min;
	if (mid > s->max)
		return s->max;
	return mid;
}

/* Ascending, with NaNs last so qsort sees a consistent order. */
static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

double stats_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	if (n & 1)
		return v[n / 2];
	/* halves first: the sum of two huge values could overflow */
	return v[n / 2 - 1] / 2 + v[n / 2] / 2;
}

/*
 * Continued fraction 1 / (1 + d1 / (1 + d2 / (1 + ...))) for the
 * regularized incomplete beta function, evaluated by the modified Lentz
 * method. Converges quickly for x < (a + 1) / (a + b + 2).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double f = tiny, c = tiny, d = 0, coef, delta;
	long j;

	for (j = 1; j < 1000000; j++) {
		long i = j - 1, m = i / 2;

		if (i == 0)
			coef = 1;
		else if (i % 2 == 0)
			coef = m * (b - m) * x /
			       ((a + 2 * m - 1) * (a + 2 * m));
		else
			coef = -(a + m) * (a + b + m) * x /
			       ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + coef * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + coef / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		delta = c * d;
		f *= delta;
		if (j > 1 && fabs(delta - 1) < 4 * DBL_EPSILON)
			break;
	}
	return f;
}

/* Stirling remainder: lgamma(z) - ((z - 1/2) log z - z + log(2 pi) / 2) */
static double stirling_corr(double z)
{
	double r = 1 / (z * z);

	return (1.0 / 12 - r * (1.0 / 360 - r * (1.0 / 1260))) / z;
}

/*
 * log B(a, b). For a large argument the plain lgamma difference loses
 * all precision (a t with df ~ 1e12 needs B(df / 2, 1 / 2)), so the
 * large Stirling terms are cancelled by hand.
 */
static double log_beta(double a, double b)
{
	double p = a > b ? a : b, q = a > b ? b : a;
	int sign;	/* lgamma_r: plain lgamma writes the global signgam */

	if (p < 100)
		return lgamma_r(a, &sign) + lgamma_r(b, &sign) -
		       lgamma_r(a + b, &sign);
	/* lgamma(p + q) - lgamma(p) without forming either */
	return lgamma_r(q, &sign) -
	       (q * log(p) + (p + q - 0.5) * log1p(q / p) - q +
		stirling_corr(p + q) - stirling_corr(p));
}

double stats_beta_inc(double a, double b, double x, double y)
{
	double log_x, log_y, front;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	/* take the log of whichever is far from 1, so a * log(x) is exact */
	log_x = x < 0.5 ? log(x) : log1p(-y);
	log_y = y < 0.5 ? log(y) : log1p(-x);
	/* x^a y^b / B(a, b), in logs to stay in range */
	front = exp(a * log_x + b * log_y - log_beta(a, b));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, y) / b;
}
