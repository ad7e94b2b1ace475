/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - pure latency statistics for interbench.
 *
 * Everything here is pure: no globals, no clocks, no allocation, no exit.
 * struct lat_stats is fixed-size and position independent, so it can be
 * placed in shared memory or copied through a pipe between processes.
 *
 * Histogram: log-linear over unsigned 64-bit nanosecond values.
 *   - values 0..127 each have their own bucket (exact);
 *   - above that, every power of two [2^e, 2^(e+1)) is split into 128
 *     equal sub-buckets, so a bucket is at most 1/128 of its lower bound
 *     wide: reporting its midpoint is within 0.4 % of any value in it.
 *   - range: the whole of uint64_t, no upper cap, no overflow bucket.
 *   - cost: STATS_BUCKETS (7424) 64-bit counters = 58 KiB per histogram.
 * Mean and SD are kept exactly (Welford's running update in double), not
 * from the histogram; min and max are exact too.
 */
#ifndef INTERBENCH_STATS_H
#define INTERBENCH_STATS_H

#include <stdint.h>
#include <stddef.h>

#define STATS_SUB_BITS		7
#define STATS_SUB		(1u << STATS_SUB_BITS)	/* 128 */
#define STATS_BUCKETS		(STATS_SUB + (64 - STATS_SUB_BITS) * STATS_SUB)

struct lat_stats {
	uint64_t count;
	uint64_t min;		/* UINT64_MAX while empty */
	uint64_t max;
	double mean;		/* running mean */
	double m2;		/* sum of squared deviations from the mean */
	uint64_t hist[STATS_BUCKETS];
};

void stats_init(struct lat_stats *s);
void stats_add(struct lat_stats *s, uint64_t v);
/* dst += src; exact for count/min/max/mean/m2 (Chan et al.) and hist. */
void stats_merge(struct lat_stats *dst, const struct lat_stats *src);

double stats_mean(const struct lat_stats *s);		/* 0 when empty */
/* Sample standard deviation (n - 1 in the denominator); 0 when n < 2. */
double stats_sd(const struct lat_stats *s);

/*
 * Percentile pct in [0, 100] by nearest rank: the smallest recorded value
 * v such that at least ceil(pct / 100 * count) samples are <= v, estimated
 * as the midpoint of the bucket holding that rank, limited to [min, max].
 * Returns 0 when empty.
 */
uint64_t stats_percentile(const struct lat_stats *s, double pct);

/* Bucket geometry, exposed for JSON output and tests. */
unsigned stats_bucket(uint64_t v);
uint64_t stats_bucket_low(unsigned b);	/* smallest value in bucket b */
uint64_t stats_bucket_high(unsigned b);	/* largest value in bucket b */

/* Small helpers on plain arrays of doubles (for repeats and compare). */
/* Median of n values; sorts v in place. NaN when n == 0. */
double stats_median(double *v, size_t n);

/*
 * Welch's unequal-variance t-test of two samples. Returns the two-sided
 * p-value, or NaN when either sample has fewer than 2 values or both
 * variances are zero and the means are equal. *t gets the statistic.
 */
double stats_welch(const double *a, size_t na, const double *b, size_t nb,
		   double *t);

/* I_x(a, b), the regularized incomplete beta function; y = 1 - x. */
double stats_beta_inc(double a, double b, double x, double y);

/*
 * Mann-Whitney U test (two-sided, normal approximation with tie
 * correction). Returns p, NaN when a sample is empty. *u gets U of a.
 */
double stats_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb, double *u);

/*
 * Mann-Whitney U test on two histograms (values within a bucket tie).
 * Returns the two-sided p-value, NaN when either is empty. If effect is
 * not NULL it gets U / (na nb) - 1/2: the chance that a value of a is
 * above one of b (ties half) less a half, so > 0 when a tends higher.
 */
double stats_mann_whitney_hist(const struct lat_stats *a,
			       const struct lat_stats *b, double *effect);

#endif
