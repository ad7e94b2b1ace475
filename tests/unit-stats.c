// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-stats.c - unit tests for stats.c: histogram geometry, exact
 * mean/SD/merge against two-pass references, percentiles against a
 * sorted copy, the median, and the incomplete beta function against
 * closed forms and mpmath.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "check.h"

#define N_SAMPLES	20000

/* 58 KiB each: keep them off the stack */
static struct lat_stats st_a, st_b, st_c;
static uint64_t data[N_SAMPLES], sorted[N_SAMPLES];

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* xorshift64: fixed seed, so every run checks the same data */
static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* uniform in [0, 1) */
static double rng_unit(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

/* |got - want| <= rel * |want| (so want == 0 needs got == 0) */
static int near_rel(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static void check_geometry(void)
{
	int contiguous = stats_bucket_low(0) == 0, narrow = 1, self = 1;
	int pow2 = 1, dense = 1, random_ok = 1;
	uint64_t v;
	unsigned b, prev = 0;
	int e, i;

	for (b = 0; b < STATS_BUCKETS; b++) {
		uint64_t lo = stats_bucket_low(b), hi = stats_bucket_high(b);

		if (lo > hi || (b && lo != stats_bucket_high(b - 1) + 1))
			contiguous = 0;
		/* width (hi - lo + 1) at most lo / 128 */
		if (b >= STATS_SUB && (hi - lo + 1) * STATS_SUB > lo)
			narrow = 0;
		if (stats_bucket(lo) != b || stats_bucket(hi) != b)
			self = 0;
	}
	contiguous &= stats_bucket_high(STATS_BUCKETS - 1) == UINT64_MAX;
	check(contiguous, "buckets are contiguous from 0 to UINT64_MAX");
	check(narrow, "buckets above 127 are at most 1/128 of their low wide");
	check(self, "stats_bucket(low(b)) == b == stats_bucket(high(b))");

	/* 2^e starts a fresh power-of-two group; 2^e - 1 ends the last */
	for (e = 0; e < 64; e++) {
		uint64_t p = (uint64_t)1 << e;
		uint64_t vals[3] = { p - 1, p, p + 1 };

		for (i = 0; i < 3; i++) {
			b = stats_bucket(vals[i]);
			if (stats_bucket_low(b) > vals[i] ||
			    stats_bucket_high(b) < vals[i])
				pow2 = 0;
		}
		if (e >= 7 &&
		    (stats_bucket(p) != STATS_SUB + (e - 7) * STATS_SUB ||
		     stats_bucket_low(stats_bucket(p)) != p ||
		     stats_bucket(p - 1) != stats_bucket(p) - 1))
			pow2 = 0;
	}
	check(pow2, "powers of two and neighbours land in the right bucket");

	check(stats_bucket(127) == 127 && stats_bucket(128) == 128 &&
	      stats_bucket(255) == 255, "127, 128, 255 have exact buckets");
	check(stats_bucket(256) == 256 && stats_bucket(257) == 256 &&
	      stats_bucket(258) == 257 && stats_bucket(511) == 383 &&
	      stats_bucket(512) == 384,
	      "256..512 are split into 128 buckets of width 2");
	check(stats_bucket(1000) == 506 && stats_bucket_low(506) == 1000 &&
	      stats_bucket_high(506) == 1003,
	      "1000 is in bucket 506 = [1000, 1003]");
	check(stats_bucket(UINT64_MAX) == STATS_BUCKETS - 1 &&
	      stats_bucket_low(STATS_BUCKETS - 1) == (uint64_t)255 << 56,
	      "UINT64_MAX is in the last bucket, [255 << 56, UINT64_MAX]");

	/* every small value, in order */
	for (v = 0; v < (1u << 20); v++) {
		b = stats_bucket(v);
		if (b < prev || stats_bucket_low(b) > v ||
		    stats_bucket_high(b) < v)
			dense = 0;
		prev = b;
	}
	check(dense, "values 0..2^20 map monotonically into their buckets");

	for (i = 0; i < 1000000; i++) {
		v = rng() >> (rng() % 64);
		b = stats_bucket(v);
		if (b >= STATS_BUCKETS || stats_bucket_low(b) > v ||
		    stats_bucket_high(b) < v)
			random_ok = 0;
	}
	check(random_ok, "1e6 random values of any magnitude fit their bucket");
}

enum shape { UNIFORM, SMALL, LOG_UNIFORM, CONSTANT, HUGE_TINY, N_SHAPES };

static const char *const shape_name[N_SHAPES] = {
	"uniform 0..1000", "uniform 0..127", "log-uniform 1 ns..1 h",
	"constant", "huge (~UINT64_MAX/2) and tiny (0/1)",
};

static void fill(enum shape shape, uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (shape) {
		case UNIFORM:
			v[i] = rng() % 1001;
			break;
		case SMALL:
			v[i] = rng() % 128;
			break;
		case LOG_UNIFORM:
			v[i] = (uint64_t)exp(rng_unit() * log(3.6e12));
			break;
		case CONSTANT:
			v[i] = 123456789;
			break;
		default:
			v[i] = rng() & 2 ? UINT64_MAX / 2 - rng() % 1000000 :
					   rng() & 1;
			break;
		}
	}
}

/* Two-pass mean and sample SD in long double: the exact reference. */
static void ref_mean_sd(const uint64_t *v, size_t n, double *mean, double *sd)
{
	long double sum = 0, ss = 0, m;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	m = sum / n;
	for (i = 0; i < n; i++)
		ss += ((long double)v[i] - m) * ((long double)v[i] - m);
	*mean = (double)m;
	*sd = n > 1 ? (double)sqrtl(ss / (n - 1)) : 0;
}

static void fill_stats(struct lat_stats *s, const uint64_t *v, size_t n)
{
	size_t i;

	stats_init(s);
	for (i = 0; i < n; i++)
		stats_add(s, v[i]);
}

static void check_shape(enum shape shape)
{
	/* percentiles in tenths of a percent, so the reference rank is exact */
	static const unsigned pct10[] = { 0, 250, 500, 900, 990, 999, 1000 };
	const char *name = shape_name[shape];
	double mean, sd, worst = 0;
	int pct_ok = 1;
	size_t i;

	fill(shape, data, N_SAMPLES);
	fill_stats(&st_a, data, N_SAMPLES);
	memcpy(sorted, data, sizeof(data));
	qsort(sorted, N_SAMPLES, sizeof(*sorted), cmp_u64);
	ref_mean_sd(data, N_SAMPLES, &mean, &sd);

	check(st_a.count == N_SAMPLES && st_a.min == sorted[0] &&
	      st_a.max == sorted[N_SAMPLES - 1], "%s: count, min, max", name);
	check(near_rel(stats_mean(&st_a), mean, 1e-9),
	      "%s: mean %.17g vs two-pass %.17g", name, stats_mean(&st_a),
	      mean);
	check(near_rel(stats_sd(&st_a), sd, 1e-9),
	      "%s: sd %.17g vs two-pass %.17g", name, stats_sd(&st_a), sd);

	for (i = 0; i < sizeof(pct10) / sizeof(*pct10); i++) {
		/* nearest rank = ceil(pct / 100 * n), at least 1 */
		uint64_t rank = (pct10[i] * (uint64_t)N_SAMPLES + 999) / 1000;
		uint64_t want = sorted[(rank ? rank : 1) - 1];
		uint64_t got = stats_percentile(&st_a, pct10[i] / 10.0);
		double err = fabs((double)got - (double)want) /
			     (want ? (double)want : 1);

		if (want < STATS_SUB ? got != want : err > 0.01)
			pct_ok = 0;
		if (err > worst)
			worst = err;
	}
	check(pct_ok, "%s: p0..p100 within 1%% of exact (worst %.2g%%)",
	      name, worst * 100);
}

/* Pieces of very different sizes (some empty) merged back together. */
static void check_merge(enum shape shape)
{
	static const size_t cut[] = { 0, 0, 1, 17, 17, 5000, 12345, N_SAMPLES };
	const char *name = shape_name[shape];
	size_t k, i;

	fill(shape, data, N_SAMPLES);
	fill_stats(&st_a, data, N_SAMPLES);
	stats_init(&st_b);
	for (k = 1; k < sizeof(cut) / sizeof(*cut); k++) {
		stats_init(&st_c);
		for (i = cut[k - 1]; i < cut[k]; i++)
			stats_add(&st_c, data[i]);
		stats_merge(&st_b, &st_c);
	}
	check(st_b.count == st_a.count && st_b.min == st_a.min &&
	      st_b.max == st_a.max &&
	      !memcmp(st_b.hist, st_a.hist, sizeof(st_a.hist)),
	      "merge %s: count, min, max, hist equal adding all", name);
	check(near_rel(stats_mean(&st_b), stats_mean(&st_a), 1e-9) &&
	      near_rel(stats_sd(&st_b), stats_sd(&st_a), 1e-9),
	      "merge %s: mean %.17g sd %.17g vs %.17g %.17g", name,
	      stats_mean(&st_b), stats_sd(&st_b), stats_mean(&st_a),
	      stats_sd(&st_a));
}

static void check_merge_edges(void)
{
	double mean, sd;

	fill(LOG_UNIFORM, data, N_SAMPLES);
	fill_stats(&st_a, data, N_SAMPLES);
	memcpy(&st_b, &st_a, sizeof(st_a));
	stats_init(&st_c);
	stats_merge(&st_b, &st_c);
	check(!memcmp(&st_b, &st_a, sizeof(st_a)),
	      "merging empty into full changes nothing");
	stats_merge(&st_c, &st_a);
	check(!memcmp(&st_c, &st_a, sizeof(st_a)),
	      "merging full into empty copies it");

	/* far apart means: the delta^2 term of Chan's formula dominates */
	fill(UNIFORM, data, N_SAMPLES / 2);
	fill(HUGE_TINY, data + N_SAMPLES / 2, N_SAMPLES / 2);
	fill_stats(&st_a, data, N_SAMPLES / 2);
	fill_stats(&st_b, data + N_SAMPLES / 2, N_SAMPLES / 2);
	stats_merge(&st_a, &st_b);
	ref_mean_sd(data, N_SAMPLES, &mean, &sd);
	check(near_rel(stats_mean(&st_a), mean, 1e-9) &&
	      near_rel(stats_sd(&st_a), sd, 1e-9),
	      "merge small into huge: mean %.17g sd %.17g vs %.17g %.17g",
	      stats_mean(&st_a), stats_sd(&st_a), mean, sd);
}

static void check_small_stats(void)
{
	uint64_t last_low = (uint64_t)255 << 56;
	unsigned i;

	stats_init(&st_a);
	check(stats_mean(&st_a) == 0 && stats_sd(&st_a) == 0 &&
	      stats_percentile(&st_a, 0) == 0 &&
	      stats_percentile(&st_a, 50) == 0 &&
	      stats_percentile(&st_a, 100) == 0,
	      "empty: mean, sd and percentiles are 0");

	stats_add(&st_a, 5000);
	check(stats_mean(&st_a) == 5000 && stats_sd(&st_a) == 0 &&
	      stats_percentile(&st_a, 50) == 5000,
	      "one sample: mean and median are it, sd 0");

	/* bucket midpoint near the top of the range must not overflow */
	stats_init(&st_a);
	stats_add(&st_a, last_low);
	stats_add(&st_a, UINT64_MAX);
	check(stats_percentile(&st_a, 50) ==
	      last_low + ((uint64_t)1 << 55) - 1 &&
	      stats_percentile(&st_a, 100) == UINT64_MAX,
	      "top bucket: midpoint without overflow, p100 is UINT64_MAX");

	/* 99.9 % of 1000 is rank 999 (value 999 in [996, 999]), not 1000 */
	stats_init(&st_a);
	for (i = 1; i <= 1000; i++)
		stats_add(&st_a, i);
	check(stats_percentile(&st_a, 99.9) == 997 &&
	      stats_percentile(&st_a, 50) == 500,
	      "1..1000: p99.9 997, p50 500 (mids of [996, 999], [500, 501])");
}

static void check_median(void)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };

	check(stats_median(odd, 3) == 2 && odd[0] == 1 && odd[2] == 3,
	      "median of {3, 1, 2} is 2 and sorts in place");
	check(stats_median(even, 4) == 2.5, "median of {4, 1, 3, 2} is 2.5");
	check(isnan(stats_median(odd, 0)), "median of nothing is NaN");
}

static void check_beta_inc(void)
{
	/* t = -2.22551203996985 with 24.5246349442573 df, by mpmath */
	double df = 24.5246349442573, t2 = 2.22551203996985 * 2.22551203996985;

	check(stats_beta_inc(2, 3, 0, 1) == 0 && stats_beta_inc(2, 3, 1, 0) == 1,
	      "I_0 is 0, I_1 is 1");
	check_near(stats_beta_inc(1, 1, 0.3, 0.7), 0.3, 1e-14,
		   "I_x(1, 1) is x");
	check_near(stats_beta_inc(2.5, 1, 0.4, 0.6), pow(0.4, 2.5), 1e-14,
		   "I_x(a, 1) is x^a");
	check_near(stats_beta_inc(1, 3.5, 0.2, 0.8), 1 - pow(0.8, 3.5), 1e-14,
		   "I_x(1, b) is 1 - (1 - x)^b");
	check_near(stats_beta_inc(7, 7, 0.5, 0.5), 0.5, 1e-14,
		   "I_1/2(a, a) is 1/2");
	/* a past 100: log B(a, b) by Stirling's terms cancelled by hand */
	check_near(stats_beta_inc(200, 1, 0.99, 0.01), pow(0.99, 200), 1e-13,
		   "I_x(200, 1) is x^200");
	check_near(stats_beta_inc(500, 500, 0.5, 0.5), 0.5, 1e-13,
		   "I_1/2(500, 500) is 1/2");
	/* the two-sided p of a t: I_{df / (df + t^2)}(df / 2, 1 / 2) */
	check_near(stats_beta_inc(df / 2, 0.5, df / (df + t2), t2 / (df + t2)),
		   0.0354845308300102, 1e-12, "two-sided p of t, 24.5 df");
	/* with 1e8 df a t is normal to ~1e-8: erfc(2 / sqrt 2) */
	df = 1e8;
	check_near(stats_beta_inc(df / 2, 0.5, df / (df + 4), 4 / (df + 4)),
		   0.0455002638963584, 1e-8, "two-sided p of t = 2, 1e8 df");
}

int main(void)
{
	enum shape shape;

	check_geometry();
	for (shape = 0; shape < N_SHAPES; shape++)
		check_shape(shape);
	for (shape = 0; shape < N_SHAPES; shape++)
		check_merge(shape);
	check_merge_edges();
	check_small_stats();
	check_median();
	check_beta_inc();
	return check_done();
}
