// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trend/changepoint.c - E-divisive means with a sequential permutation
 * test, over a family of series (changepoint.h says what and why).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trend/changepoint.h"
#include "lib/infer.h"

/* The most permutations a p-value may take, whatever the family's size. */
#define CP_PERMS_CAP	200000

/* splitmix64: one seed becomes a well-mixed stream (and a series' seed). */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n small: the multiply-shift's bias is below 2^-32. */
static size_t below(uint64_t *s, size_t n)
{
	return (size_t)(((mix(s) >> 32) * (uint64_t)n) >> 32);
}

/* What one stretch's statistic needs, computed once per stretch. */
struct stretch {
	const double *x;	/* its values */
	size_t n;
	double *rs;		/* rs[i]: sum of |x[i] - x[j]| over all j */
	double total;		/* sum over pairs i < j */
	size_t *cand;		/* split positions: value counts on the left */
	int *cfile;		/* the first file after each */
	int ncand;
	size_t *idx;		/* an order of the values */
};

/*
 * The best Q over the candidate splits of the values in the order idx,
 * and which candidate gave it. O(n^2 / 2): the left's within-sum grows
 * value by value; the between-sum is the left's row sums less twice it.
 */
static double best_q(const struct stretch *st, int *which)
{
	double w = 0, r = 0, best = -INFINITY;
	size_t p, q;
	int c = 0;

	for (p = 0; p < st->n && c < st->ncand; p++) {
		double y = st->x[st->idx[p]];

		if (p == st->cand[c]) {
			double m = (double)p, k = (double)(st->n - p);
			double between = r - 2 * w;
			double right = st->total - w - between;
			double e = 2 * between / (m * k) - w / (m * (m - 1) / 2) -
				   right / (k * (k - 1) / 2);
			double qv = m * k / (m + k) * e;

			if (qv > best) {
				best = qv;
				*which = c;
			}
			c++;
		}
		for (q = 0; q < p; q++)
			w += fabs(y - st->x[st->idx[q]]);
		r += st->rs[st->idx[p]];
	}
	return best;
}

static void shuffle(size_t *idx, size_t n, uint64_t *rng)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = below(rng, i), t = idx[i - 1];

		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

int cp_split(const struct cp_series *s, int from, int to, int max_perms,
	     int stop_after, uint64_t *rng, struct cp_point *out)
{
	struct stretch st = { 0 };
	size_t base = s->start[from], i, j;
	double obs, tol;
	int k, which = 0, reach = 0, drawn = 0, ret = -ENOMEM;

	st.x = s->x + base;
	st.n = s->start[to] - base;
	memset(out, 0, sizeof(*out));
	out->from = from;
	out->to = to;
	out->p = out->padj = NAN;
	st.rs = calloc(st.n + 1, sizeof(*st.rs));
	st.idx = calloc(st.n + 1, sizeof(*st.idx));
	st.cand = calloc((size_t)(to - from) + 1, sizeof(*st.cand));
	st.cfile = calloc((size_t)(to - from) + 1, sizeof(*st.cfile));
	if (!st.rs || !st.idx || !st.cand || !st.cfile)
		goto out;
	for (k = from + 1; k < to; k++) {
		size_t left = s->start[k] - base;

		/* each side a file (not empty) and two values */
		if (left < 2 || st.n - left < 2 || s->start[k] == s->start[k - 1])
			continue;
		st.cand[st.ncand] = left;
		st.cfile[st.ncand++] = k;
	}
	ret = 1;
	if (!st.ncand)
		goto out;
	for (i = 0; i < st.n; i++) {
		st.idx[i] = i;
		for (j = i + 1; j < st.n; j++) {
			double d = fabs(st.x[i] - st.x[j]);

			st.rs[i] += d;
			st.rs[j] += d;
			st.total += d;
		}
	}
	obs = best_q(&st, &which);
	out->file = st.cfile[which];
	out->q = obs;
	/* a permutation's Q within rounding of the observed one reaches it */
	tol = fabs(obs) * 1e-9 + 1e-300;
	while (drawn < max_perms && reach < stop_after) {
		int dummy;

		shuffle(st.idx, st.n, rng);
		drawn++;
		if (best_q(&st, &dummy) >= obs - tol)
			reach++;
	}
	out->perms = drawn;
	out->p = reach >= stop_after ? (double)reach / drawn :
		 (reach + 1.0) / (drawn + 1.0);
	ret = 0;
out:
	free(st.rs);
	free(st.idx);
	free(st.cand);
	free(st.cfile);
	return ret;
}

int cp_perms_for(int ns, double alpha)
{
	/* p can reach alpha / (2 ns), below BH's first threshold */
	double want = 2.0 * (ns > 0 ? ns : 1) / alpha;

	if (want < 999)
		return 999;
	return want > CP_PERMS_CAP ? CP_PERMS_CAP : (int)ceil(want);
}

/* A growing array of points. */
struct points {
	struct cp_point *v;
	int n, cap;
};

static int push(struct points *pt, const struct cp_point *p)
{
	if (pt->n == pt->cap) {
		int cap = pt->cap ? 2 * pt->cap : 16;
		struct cp_point *v = realloc(pt->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		pt->v = v;
		pt->cap = cap;
	}
	pt->v[pt->n++] = *p;
	return 0;
}

/* Split [from, to) of series si again and again while p <= cut. */
static int descend(const struct cp_series *s, int si, int from, int to,
		   const struct cp_opts *o, int perms, double cut,
		   uint64_t *rng, struct points *pt)
{
	struct cp_point p;
	int r = cp_split(&s[si], from, to, perms, o->stop_after, rng, &p);

	if (r)
		return r < 0 ? r : 0;
	if (!(p.p <= cut))
		return 0;
	p.series = si;
	if (push(pt, &p))
		return -ENOMEM;
	r = descend(s, si, from, p.file, o, perms, cut, rng, pt);
	return r ? r : descend(s, si, p.file, to, o, perms, cut, rng, pt);
}

/* Each point's change, between its neighbours in its series. */
static void measure(const struct cp_series *s, struct cp_point *v, int n,
		    double level)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct cp_series *ss = &s[v[i].series];
		int from = i && v[i - 1].series == v[i].series ?
			   v[i - 1].file : 0;
		int to = i + 1 < n && v[i + 1].series == v[i].series ?
			 v[i + 1].file : ss->nfiles;
		size_t a = ss->start[from], m = ss->start[v[i].file];
		size_t b = ss->start[to];
		struct inf_diff dd;
		double sd;

		inf_mean_sd(ss->x + a, m - a, &v[i].before, &sd);
		inf_mean_sd(ss->x + m, b - m, &v[i].after, &sd);
		v[i].d = v[i].after - v[i].before;
		v[i].lo = v[i].hi = NAN;
		if (!inf_welch(ss->x + a, m - a, ss->x + m, b - m, level, &dd)) {
			v[i].lo = dd.lo;
			v[i].hi = dd.hi;
		}
	}
}

static int by_place(const void *a, const void *b)
{
	const struct cp_point *x = a, *y = b;

	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	return (x->file > y->file) - (x->file < y->file);
}

int cp_family(const struct cp_series *s, int ns, const struct cp_opts *o,
	      struct cp_point **out, double *cut)
{
	struct cp_point *first = calloc((size_t)ns + 1, sizeof(*first));
	double *p = calloc((size_t)ns + 1, sizeof(*p));
	double *adj = calloc((size_t)ns + 1, sizeof(*adj));
	uint64_t *rng = calloc((size_t)ns + 1, sizeof(*rng));
	struct points pt = { 0 };
	int perms = o->max_perms ? o->max_perms : cp_perms_for(ns, o->alpha);
	int i, r, ret = -ENOMEM;

	*out = NULL;
	*cut = 0;
	if (!first || !p || !adj || !rng)
		goto out;
	for (i = 0; i < ns; i++) {
		/* each series its own stream: its result is its own */
		uint64_t seed = o->seed ^ ((uint64_t)i * 0xd1b54a32d192ed03ULL);

		rng[i] = mix(&seed);
		r = cp_split(&s[i], 0, s[i].nfiles, perms, o->stop_after,
			     &rng[i], &first[i]);
		if (r < 0)
			goto out;
		p[i] = r ? NAN : first[i].p;
	}
	inf_bh(p, (size_t)ns, adj);
	/* BH's threshold: the largest p of those it finds */
	for (i = 0; i < ns; i++)
		if (!isnan(adj[i]) && adj[i] <= o->alpha && p[i] > *cut)
			*cut = p[i];
	for (i = 0; i < ns; i++) {
		if (isnan(adj[i]) || adj[i] > o->alpha)
			continue;
		first[i].series = i;
		first[i].padj = adj[i];
		if (push(&pt, &first[i]))
			goto out;
		r = descend(s, i, 0, first[i].file, o, perms, *cut, &rng[i],
			    &pt);
		if (!r)
			r = descend(s, i, first[i].file, s[i].nfiles, o, perms,
				    *cut, &rng[i], &pt);
		if (r)
			goto out;
	}
	if (pt.n) {
		qsort(pt.v, (size_t)pt.n, sizeof(*pt.v), by_place);
		measure(s, pt.v, pt.n, o->level > 0 ? o->level : 0.95);
	}
	*out = pt.v;
	pt.v = NULL;
	ret = pt.n;
out:
	free(pt.v);
	free(first);
	free(p);
	free(adj);
	free(rng);
	return ret;
}

/* ---- outlying files ---------------------------------------------------- */

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1], n > 0, sorting v. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A series' files: each one's mean, number of values and squares about it. */
struct night {
	double mean, ss;
	int n;
};

static void nights_of(const struct cp_series *s, struct night *nt)
{
	int k;

	for (k = 0; k < s->nfiles; k++) {
		size_t a = s->start[k], b = s->start[k + 1], v;
		double sum = 0;

		nt[k].n = (int)(b - a);
		for (v = a; v < b; v++)
			sum += s->x[v];
		nt[k].mean = nt[k].n ? sum / nt[k].n : NAN;
		nt[k].ss = 0;
		for (v = a; v < b; v++)
			nt[k].ss += (s->x[v] - nt[k].mean) *
				    (s->x[v] - nt[k].mean);
	}
}

/*
 * File k of [from, to) against the others there: 0 and *o filled, or 1
 * when it cannot be tested. buf has room for the stretch's files.
 */
static int hold(const struct night *nt, int from, int to, int k,
		double *buf, struct cp_outlier *o)
{
	double ss = 0, n = 0, sb, vk, vo, sw2;
	int j, m = 0, df = 0;

	for (j = from; j < to; j++) {
		if (j == k || !nt[j].n)
			continue;
		buf[m++] = nt[j].mean;
		ss += nt[j].ss;
		df += nt[j].n - 1;
		n += nt[j].n;
	}
	if (m < CP_OUT_MIN_OTHERS || df < 2 || !nt[k].n)
		return 1;
	o->file = k;
	o->from = from;
	o->to = to;
	o->others = m;
	o->mean = nt[k].mean;
	o->ref = median(buf, m);
	for (j = 0; j < m; j++)
		buf[j] = fabs(buf[j] - o->ref);
	sb = 1.4826 * median(buf, m);
	sw2 = ss / df;
	/* a night's noise: the repeats', or the nights' spread if larger */
	vk = fmax(sw2 / nt[k].n, sb * sb);
	vo = fmax(sw2 / (n / m), sb * sb);
	o->d = o->mean - o->ref;
	o->se = sqrt(vk + M_PI / 2 * vo / m);
	o->df = df;
	if (o->se > 0) {
		o->t = o->d / o->se;
		o->p = 2 * inf_t_cdf(-fabs(o->t), o->df);
	} else {
		/* no spread at all: any difference stands out */
		o->t = o->d ? copysign(INFINITY, o->d) : 0;
		o->p = o->d ? 0 : 1;
	}
	return 0;
}

int cp_outliers(const struct cp_series *s, int ns, const struct cp_point *pt,
		int npt, double alpha, double level, struct cp_outlier **out,
		int *tested)
{
	struct cp_outlier *all = NULL, *keep = NULL;
	struct night *nt = NULL;
	double *buf = NULL, *p = NULL, *adj = NULL;
	size_t cap = 0;
	int i, k, c = 0, n = 0, most = 0, ret = -ENOMEM;

	*out = NULL;
	*tested = 0;
	for (i = 0; i < ns; i++) {
		cap += (size_t)s[i].nfiles;
		most = s[i].nfiles > most ? s[i].nfiles : most;
	}
	all = calloc(cap + 1, sizeof(*all));
	nt = calloc((size_t)most + 1, sizeof(*nt));
	buf = calloc((size_t)most + 1, sizeof(*buf));
	if (!all || !nt || !buf)
		goto out;
	for (i = 0; i < ns; i++) {
		int from = 0;

		nights_of(&s[i], nt);
		while (c < npt && pt[c].series < i)
			c++;
		/* each stretch between the series' changes, in order */
		while (from < s[i].nfiles) {
			int to = c < npt && pt[c].series == i ? pt[c++].file :
				 s[i].nfiles;

			for (k = from; k < to; k++) {
				all[n].series = i;
				if (!hold(nt, from, to, k, buf, &all[n]))
					n++;
			}
			from = to;
		}
	}
	*tested = n;
	p = calloc((size_t)n + 1, sizeof(*p));
	adj = calloc((size_t)n + 1, sizeof(*adj));
	keep = calloc((size_t)n + 1, sizeof(*keep));
	if (!p || !adj || !keep)
		goto out;
	for (i = 0; i < n; i++)
		p[i] = all[i].p;
	inf_bh(p, (size_t)n, adj);
	for (i = 0, k = 0; i < n; i++) {
		struct cp_outlier *o = &keep[k];
		double q;

		if (!(adj[i] <= alpha))
			continue;
		*o = all[i];
		o->padj = adj[i];
		/* the interval of those found only: the quantile is slow */
		q = inf_t_quantile(0.5 + level / 2, o->df) * o->se;
		o->lo = o->d - q;
		o->hi = o->d + q;
		k++;
	}
	*out = keep;
	keep = NULL;
	ret = k;
out:
	free(all);
	free(nt);
	free(buf);
	free(p);
	free(adj);
	free(keep);
	return ret;
}
