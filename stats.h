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
 * I_x(a, b), the regularized incomplete beta function; y = 1 - x. The
 * t, F and binomial distributions of lib/infer.c and lib/count.c.
 */
double stats_beta_inc(double a, double b, double x, double y);

#endif
