// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/noise.c - how a cell's noise falls with its length (see noise.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/noise.h"
#include "core/raw.h"
#include "stats.h"

/* The latency at rank r (1-based, may be fractional) of a histogram. */
static double hist_at(const struct hist_bucket *h, uint32_t nh, double r)
{
	double seen = 0;
	uint32_t i;

	for (i = 0; i < nh; i++) {
		seen += (double)h[i].count;
		if (seen >= r)
			break;
	}
	if (i == nh)
		i = nh - 1;
	return ((double)stats_bucket_low(h[i].bucket) +
		(double)stats_bucket_high(h[i].bucket)) / 2;
}

/* One repeat's sampling variance of log f at its length; NaN: unknown. */
static double sampling_var(const struct result *r, enum fig_id f)
{
	double n = 0, p, rank, half, lo, hi, z = 1.959964;
	uint32_t i;

	for (i = 0; i < r->nhist; i++)
		n += (double)r->hist[i].count;
	if (n < 2)
		return NAN;
	if (f == F_LAT_MEAN)
		return r->v[F_LAT_MEAN] > 0 ?
		       pow(r->v[F_LAT_SD] / r->v[F_LAT_MEAN], 2) / n : NAN;
	p = f == F_LAT_P50 ? 0.50 : f == F_LAT_P90 ? 0.90 :
	    f == F_LAT_P99 ? 0.99 : NAN;
	if (isnan(p))
		return NAN;
	/* the ranks a 95 % interval of the p-quantile spans */
	rank = n * p;
	half = z * sqrt(n * p * (1 - p));
	lo = hist_at(r->hist, r->nhist, fmax(1, rank - half));
	hi = hist_at(r->hist, r->nhist, fmin(n, rank + half));
	if (!(lo > 0 && hi > 0))
		return NAN;
	return pow((log(hi) - log(lo)) / (2 * z), 2);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The log-SD of the worst of d draws from the sorted sample w[0..n-1]:
 * P(worst <= w[j]) = ((j + 1) / n)^d.
 */
static double worst_of_sd(const double *w, size_t n, double d)
{
	double s1 = 0, s2 = 0, below = 0;
	size_t j;

	for (j = 0; j < n; j++) {
		double upto = pow((double)(j + 1) / (double)n, d);
		double pr = upto - below, x = log(w[j]);

		s1 += pr * x;
		s2 += pr * x * x;
		below = upto;
	}
	return sqrt(fmax(0, s2 - s1 * s1));
}

int fig_noise_of(const struct result *res, int n, const struct sim_desc *sim,
		 const struct load_desc *load, enum fig_id f,
		 struct fig_noise *nz)
{
	double mean, var = 0;
	int i, kv = 0, kw = 0;

	memset(nz, 0, sizeof(*nz));
	nz->f = f;
	nz->k = row_spread(res, n, sim, load, f, &mean, &nz->total);
	if (f == F_LAT_MAX) {
		/* room for this cell's repeats' windows only */
		int cell = 0;

		for (i = 0; i < n; i++)
			cell += res[i].sim == sim && res[i].load == load &&
				res[i].status == RES_OK;
		nz->wins = calloc((size_t)cell * WIN_SLOTS + 1,
				  sizeof(*nz->wins));
		if (!nz->wins)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];
		int w;

		if (r->sim != sim || r->load != load || r->status != RES_OK)
			continue;
		if (f != F_LAT_MAX) {
			double v = sampling_var(r, f);

			if (!isnan(v)) {
				var += v;
				kv++;
			}
			continue;
		}
		for (w = 0; w < r->nwin; w++)
			if (r->win[w] != WIN_EMPTY && r->win[w] > 0)
				nz->wins[nz->nwins++] = (double)r->win[w];
		kw++;
	}
	if (f == F_LAT_MAX && kw && nz->nwins) {
		qsort(nz->wins, nz->nwins, sizeof(*nz->wins), cmp_double);
		nz->win_per_cell = (double)nz->nwins / kw;
		nz->within = worst_of_sd(nz->wins, nz->nwins,
					 nz->win_per_cell);
	} else {
		nz->within = kv ? sqrt(var / kv) : NAN;
	}
	nz->between = isnan(nz->within) || isnan(nz->total) ? nz->total :
		      sqrt(fmax(0, nz->total * nz->total -
				nz->within * nz->within));
	return 0;
}

double fig_noise_at(const struct fig_noise *nz, double m)
{
	double within;

	if (isnan(nz->within) || isnan(nz->total))
		return nz->total;
	if (nz->f != F_LAT_MAX) {
		within = nz->within / sqrt(m);
	} else {
		/*
		 * The worst of m cells' windows, drawn from k cells' own:
		 * past half of what was seen the sample cannot tell, so
		 * the noise is taken to fall no further.
		 */
		double d = nz->win_per_cell * m, most = nz->nwins / 2.0;

		within = worst_of_sd(nz->wins, nz->nwins,
				     d > most ? fmax(most, nz->win_per_cell) :
						d);
	}
	return sqrt(nz->between * nz->between + within * within);
}

void fig_noise_free(struct fig_noise *nz)
{
	free(nz->wins);
	nz->wins = NULL;
}
