// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/counted.c - the tail and the misses, counted frame by frame in
 * every repeat and compared as counts (lib/count.h; doc/compare.txt, "The
 * tail and the misses, counted").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "lib/count.h"
#include "compare/verdict_priv.h"

static int cmp_bucket_low(const void *x, const void *y)
{
	const struct rf_bucket *a = x, *b = y;

	return a->low < b->low ? -1 : a->low > b->low;
}

/*
 * The typical latency of both sides' frames together, in ns: the midpoint
 * of the bucket that holds their median, as stats_percentile() takes it.
 * Taken from both, it favours neither, so the bound it sets is no choice
 * made after looking at which side is later. NaN without frames.
 */
static double pooled_median(const struct file_cell *a,
			    const struct file_cell *b)
{
	const struct file_cell *f[2] = { a, b };
	struct rf_bucket *all;
	size_t n = 0, i, k;
	double total = 0, seen = 0, mid = NAN;
	int s;

	for (s = 0; s < 2; s++)
		for (k = 0; k < f[s]->n_ok; k++)
			n += f[s]->ok[k].nhist;
	all = malloc((n + 1) * sizeof(*all));
	if (!all)
		return NAN;
	for (s = 0, n = 0; s < 2; s++)
		for (k = 0; k < f[s]->n_ok; k++)
			for (i = 0; i < f[s]->ok[k].nhist; i++) {
				all[n] = f[s]->ok[k].hist[i];
				total += all[n++].count;
			}
	qsort(all, n, sizeof(*all), cmp_bucket_low);
	for (i = 0; i < n && isnan(mid); i++) {
		seen += all[i].count;
		if (seen >= ceil(total / 2) && total > 0)
			mid = (all[i].low + all[i].high) / 2;
	}
	free(all);
	return mid;
}

/* Repeat r's count and frames for metric m (bound: late's, in ns). */
static bool counted(const struct ok_repeat *r, const struct cmp_metric *m,
		    double bound, double *y, double *n)
{
	size_t i;

	if (m->count == CMP_MISSED) {
		/* tasks without deadlines have no % deadlines met */
		if (isnan(r->v[F_MET]) || !(r->v[F_FRAMES] > 0) ||
		    isnan(r->v[F_FRAMES_MET]))
			return false;
		*n = r->v[F_FRAMES];
		*y = fmax(0, r->v[F_FRAMES] - r->v[F_FRAMES_MET]);
		return true;
	}
	*y = *n = 0;
	for (i = 0; i < r->nhist; i++) {
		*n += r->hist[i].count;
		if (r->hist[i].low > bound)
			*y += r->hist[i].count;
	}
	return *n > 0;
}

/*
 * B's rate less A's, with its interval from each side's exact one by
 * Newcombe's square-and-add (MOVER): each end moves by the root of the
 * two sides' distances to their own ends, not by their sum, which would
 * be a far wider interval than its level (both ends at once).
 */
void cmp_count_diff(struct cmp_row *r, double level)
{
	double alo, ahi, blo, bhi, pa, pb;

	cnt_rate_interval(r->fit.ya, r->fit.na, r->phi, level, &alo, &ahi);
	cnt_rate_interval(r->fit.yb, r->fit.nb, r->phi, level, &blo, &bhi);
	pa = r->fit.na > 0 ? r->fit.ya / r->fit.na : 0;
	pb = r->fit.nb > 0 ? r->fit.yb / r->fit.nb : 0;
	r->dlo = 100 * (pb - pa - hypot(pb - blo, ahi - pa));
	r->dhi = 100 * (pb - pa + hypot(bhi - pb, pa - alo));
}

/* The pairs whose B counted at a higher rate than its A, and lower. */
static void signs(struct cmp_row *r, const double *ya, const double *na,
		  const double *yb, const double *nb, size_t k)
{
	size_t i;

	r->up = r->down = 0;
	for (i = 0; i < k; i++) {
		double d = yb[i] * na[i] - ya[i] * nb[i];

		if (na[i] > 0 && nb[i] > 0) {
			r->up += d > 0;
			r->down += d < 0;
		}
	}
}

/*
 * A counted row: each repeat's frames past the bound (or deadlines
 * missed), by repeat (paired: the repeats both have, by number), tested
 * at the dispersion the runs show; moderate() may test it again.
 */
int cmp_count_fill(struct cmp_row *r, const struct cmp_metric *m,
		      const struct file_cell *a, const struct file_cell *b,
		      const struct cmp_opts *o)
{
	size_t cap = a->n_ok + b->n_ok + 1, i, k, ka = 0, kb = 0;
	double *v = malloc(4 * cap * sizeof(*v)), *ya, *na, *yb, *nb;
	double bound = NAN;
	struct cnt_test t;
	int err;

	if (!v)
		return -ENOMEM;
	ya = v;
	na = v + cap;
	yb = v + 2 * cap;
	nb = v + 3 * cap;
	if (m->count == CMP_LATE)
		bound = CMP_LATE_TIMES * pooled_median(a, b);
	r->bound_us = bound / 1000;
	for (i = 0; i < a->n_ok; i++) {
		if (!o->paired) {
			ka += counted(&a->ok[i], m, bound, &ya[ka], &na[ka]);
			continue;
		}
		for (k = 0; k < b->n_ok; k++)
			if (a->ok[i].repeat &&
			    b->ok[k].repeat == a->ok[i].repeat)
				break;
		if (k < b->n_ok &&
		    counted(&a->ok[i], m, bound, &ya[ka], &na[ka]) &&
		    counted(&b->ok[k], m, bound, &yb[ka], &nb[ka]))
			kb = ++ka;
	}
	for (i = 0; !o->paired && i < b->n_ok; i++)
		kb += counted(&b->ok[i], m, bound, &yb[kb], &nb[kb]);
	r->na = (int)ka;
	r->nb = (int)kb;
	r->lo = r->hi = r->p = r->padj = r->base = r->cur = r->change = NAN;
	r->dlo = r->dhi = NAN;
	err = !ka || !kb ? -EINVAL : o->paired ?
	      cnt_fit_pairs(ya, na, yb, nb, ka, &r->fit) :
	      cnt_fit_runs(ya, na, ka, yb, nb, kb, &r->fit);
	if (!err && o->paired)
		signs(r, ya, na, yb, nb, ka);
	free(v);
	if (err)
		return 0;
	r->base = 100 * r->fit.ya / r->fit.na;
	r->cur = 100 * r->fit.yb / r->fit.nb;
	r->phi = isnan(r->fit.phi_hat) ? 1 : r->fit.phi_hat;
	r->phi_df = r->fit.df;
	cmp_count_diff(r, o->level);
	cnt_test(&r->fit, r->phi, r->phi_df, o->level, &t);
	r->change = expm1(t.d) * 100;
	if (r->na < CMP_MIN_REPEATS || r->nb < CMP_MIN_REPEATS)
		return 0;
	/* nothing counted on either side: shown, not a test (as 100 %) */
	if (!(r->fit.ya + r->fit.yb > 0)) {
		r->lo = r->hi = 0;
		r->change = 0;
		return 0;
	}
	r->lo = expm1(t.lo) * 100;
	r->hi = expm1(t.hi) * 100;
	r->p = t.p;
	r->df = r->phi_df;
	r->t_d = t.d;
	r->t_se = t.se;
	return 0;
}

