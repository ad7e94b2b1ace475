// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-stats.c - unit tests for stats.c: histogram geometry, exact
 * mean/SD/merge against two-pass references, percentiles against a
 * sorted copy, and the median/Welch/Mann-Whitney helpers.
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

/* roughly standard normal (Irwin-Hall), enough for test data */
static double rng_normal(void)
{
	double s = 0;
	int i;

	for (i = 0; i < 12; i++)
		s += rng_unit();
	return s - 6;
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

static void check_welch(void)
{
	/*
	 * Reference: t, Welch-Satterthwaite df and two-sided p computed
	 * independently in Python: t and df with mpmath at 40 digits
	 * (agreeing with statistics.mean/variance in floats), p as twice
	 * the integral of the Student t density from |t| to infinity by
	 * mpmath.quad, cross-checked with mpmath.betainc:
	 * t = -2.22551203996985, df = 24.5246349442573,
	 * p = 0.0354845308300102.
	 */
	static const double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3,
				    18.9, 19.5, 22.0 };
	static const double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7,
				    27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0,
				    23.9, 21.6, 24.3, 20.4, 23.9, 13.3 };
	static const double flat1[] = { 5, 5, 5 }, flat2[] = { 7, 7 };
	double x[50], y[50], t, p;
	int i;

	p = stats_welch(a, 10, b, 20, &t);
	check_near(t, -2.22551203996985, 1e-12, "Welch textbook t");
	check_near(p, 0.0354845308300102, 1e-12, "Welch textbook p");

	for (i = 0; i < 50; i++) {
		x[i] = 100 + 10 * rng_normal();
		y[i] = x[i] + 30;
	}
	p = stats_welch(x, 50, x, 50, &t);
	check(t == 0 && fabs(p - 1) < 1e-12,
	      "Welch identical samples: t %g, p %.17g", t, p);
	p = stats_welch(x, 50, y, 50, &t);
	check(p < 1e-6 && t < 0, "Welch 3 SD shift: t %g, p %g", t, p);

	check(isnan(stats_welch(a, 1, b, 20, &t)),
	      "Welch with a 1-value sample is NaN");
	check(isnan(stats_welch(flat1, 3, flat1, 2, &t)),
	      "Welch with no variance and equal means is NaN");
	p = stats_welch(flat1, 3, flat2, 2, &t);
	check(p == 0 && isinf(t) && t < 0,
	      "Welch with no variance, different means: p 0, t -inf");
}

/* 1000 latencies around 1 ms, lognormal, times factor */
static void fill_latency(struct lat_stats *s, double factor)
{
	int i;

	stats_init(s);
	for (i = 0; i < 1000; i++)
		stats_add(s, (uint64_t)(factor * 1e6 *
					exp(0.5 * rng_normal())));
}

static void check_mann_whitney(void)
{
	/*
	 * References from a separate plain Python implementation (sort,
	 * average ranks, tie-corrected variance, math.erfc); the tie case
	 * U = 9 was also counted pair by pair.
	 */
	static const double lo[] = { 1, 2, 3, 4, 5 }, hi[] = { 6, 7, 8, 9, 10 };
	static const double ta[] = { 1, 2, 2, 3, 7 };
	static const double tb[] = { 2, 3, 3, 4, 5, 6 };
	static const double same[] = { 4, 4, 4 };
	double x[300], y[300], u, p, ph, e, e2;
	int i;

	p = stats_mann_whitney(lo, 5, hi, 5, &u);
	check(u == 0 && fabs(p - 0.012185780355344818) < 1e-12,
	      "Mann-Whitney separated 5 vs 5: U %g, p %.17g", u, p);
	p = stats_mann_whitney(ta, 5, tb, 6, &u);
	check(u == 9 && fabs(p - 0.306341437827711) < 1e-12,
	      "Mann-Whitney with ties: U %g, p %.17g", u, p);
	p = stats_mann_whitney(same, 3, same, 2, &u);
	check(p == 1 && u == 3, "Mann-Whitney all tied: p 1, U %g", u);
	check(isnan(stats_mann_whitney(lo, 0, hi, 5, &u)),
	      "Mann-Whitney with an empty sample is NaN");

	for (i = 0; i < 300; i++) {
		x[i] = (double)(rng() % 100);
		y[i] = (double)(rng() % 100) + 10;
	}
	p = stats_mann_whitney(x, 300, x, 300, &u);
	check(p == 1 && u == 300 * 300 / 2,
	      "Mann-Whitney identical samples: p %g, U %g", p, u);

	/* values < 128 have exact buckets: both versions see the same ties */
	stats_init(&st_a);
	stats_init(&st_b);
	for (i = 0; i < 300; i++) {
		stats_add(&st_a, (uint64_t)x[i]);
		stats_add(&st_b, (uint64_t)y[i]);
	}
	p = stats_mann_whitney(x, 300, y, 300, &u);
	ph = stats_mann_whitney_hist(&st_a, &st_b, NULL);
	check(p < 1e-3 && fabs(ph - p) <= 1e-12 * p,
	      "Mann-Whitney shift of 10 in 0..99: array p %.17g, hist p %.17g",
	      p, ph);

	fill_latency(&st_a, 1);
	fill_latency(&st_b, 2);
	fill_latency(&st_c, 1);
	p = stats_mann_whitney_hist(&st_a, &st_b, &e);
	check(p < 0.001, "Mann-Whitney hist, 2x latency shift: p %g", p);
	check(e < -0.2, "Mann-Whitney hist effect: a (1x) below b (2x): %g", e);
	stats_mann_whitney_hist(&st_b, &st_a, &e2);
	check(fabs(e + e2) < 1e-12, "effect reverses with the order: %g %g",
	      e, e2);
	stats_mann_whitney_hist(&st_a, &st_a, &e);
	check(e == 0, "effect of a histogram against itself: %g", e);
	p = stats_mann_whitney_hist(&st_a, &st_a, NULL);
	check(p == 1, "Mann-Whitney hist, same histogram: p %g", p);
	p = stats_mann_whitney_hist(&st_a, &st_c, NULL);
	check(p > 0.001, "Mann-Whitney hist, same distribution: p %g", p);
	stats_init(&st_c);
	check(isnan(stats_mann_whitney_hist(&st_a, &st_c, NULL)),
	      "Mann-Whitney hist with an empty histogram is NaN");

	/*
	 * Counts far beyond 2^32: a 2^20 imbalance in 2^41 samples each.
	 * Reference p from exact rational U and variance in Python
	 * (fractions.Fraction), then mpmath.erfc at 40 digits.
	 */
	stats_init(&st_a);
	stats_init(&st_b);
	st_a.hist[300] = st_b.hist[301] = 1ull << 40;
	st_a.hist[301] = st_b.hist[300] = (1ull << 40) + (1ull << 20);
	st_a.count = st_b.count = (1ull << 41) + (1ull << 20);
	p = stats_mann_whitney_hist(&st_a, &st_b, NULL);
	ph = stats_mann_whitney_hist(&st_b, &st_a, NULL);
	check(fabs(p - 0.31731062324357426) < 1e-9 && p == ph,
	      "Mann-Whitney hist, 2^41 samples: p %.17g, reversed %.17g",
	      p, ph);
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
	check_welch();
	check_mann_whitney();
	return check_done();
}
