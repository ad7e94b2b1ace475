// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trend/changepoint.c - E-divisive means with a sequential permutation
 * test, over a family of series (changepoint.h says what and why).
 */
#include <errno.h>
#include <limits.h>
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
	double sum;		/* of its values: no permutation moves it */
	size_t *cand;		/* split positions: value counts on the left */
	int *cfile;		/* the first file after each */
	int ncand;
	size_t *idx;		/* an order of the values */
};

/*
 * The best split of the values in the order idx, and which candidate gave
 * it: the largest n / (m (n - m)) (S_m - m S / n)^2 over the candidates,
 * S_m the sum of the first m values (the squared standardised cumulative
 * sum: the between-sides sum of squares, so the split whose two means
 * explain most of the spread). O(n).
 */
static double best_stat(const struct stretch *st, int *which)
{
	double s = 0, best = -INFINITY, n = (double)st->n;
	size_t p = 0;
	int c;

	for (c = 0; c < st->ncand; c++) {
		double m = (double)st->cand[c], dev, v;

		for (; p < st->cand[c]; p++)
			s += st->x[st->idx[p]];
		dev = s - m * st->sum / n;
		v = n / (m * (n - m)) * dev * dev;
		if (v > best) {
			best = v;
			*which = c;
		}
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
	size_t base = s->start[from], i;
	double obs, tol;
	int k, which = 0, reach = 0, drawn = 0, ret = -ENOMEM;

	st.x = s->x + base;
	st.n = s->start[to] - base;
	memset(out, 0, sizeof(*out));
	out->from = from;
	out->to = to;
	out->p = out->padj = NAN;
	st.idx = calloc(st.n + 1, sizeof(*st.idx));
	st.cand = calloc((size_t)(to - from) + 1, sizeof(*st.cand));
	st.cfile = calloc((size_t)(to - from) + 1, sizeof(*st.cfile));
	if (!st.idx || !st.cand || !st.cfile)
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
		st.sum += st.x[i];
	}
	obs = best_stat(&st, &which);
	out->file = st.cfile[which];
	out->q = obs;
	/* a permutation's within rounding of the observed one reaches it */
	tol = fabs(obs) * 1e-9 + 1e-300;
	while (drawn < max_perms && reach < stop_after) {
		int dummy;

		shuffle(st.idx, st.n, rng);
		drawn++;
		if (best_stat(&st, &dummy) >= obs - tol)
			reach++;
	}
	out->perms = drawn;
	out->p = reach >= stop_after ? (double)reach / drawn :
		 (reach + 1.0) / (drawn + 1.0);
	ret = 0;
out:
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

/* Each series' group, for inf_holm_groups: ns + 1 ints (malloc'd), or NULL. */
static int *groups_of(const struct cp_series *s, int ns)
{
	int *g = calloc((size_t)ns + 1, sizeof(*g));
	int i;

	for (i = 0; g && i < ns; i++)
		g[i] = s[i].group;
	return g;
}

int cp_family(const struct cp_series *s, int ns, const struct cp_opts *o,
	      struct cp_point **out, double *cut, int *cells)
{
	struct cp_point *first = calloc((size_t)ns + 1, sizeof(*first));
	double *p = calloc((size_t)ns + 1, sizeof(*p));
	double *adj = calloc((size_t)ns + 1, sizeof(*adj));
	double *gcut = calloc((size_t)ns + 1, sizeof(*gcut));
	uint64_t *rng = calloc((size_t)ns + 1, sizeof(*rng));
	int *grp = groups_of(s, ns);
	struct points pt = { 0 };
	int perms = o->max_perms ? o->max_perms : cp_perms_for(ns, o->alpha);
	int i, j, r, ret = -ENOMEM;

	*out = NULL;
	*cut = 0;
	*cells = 0;
	if (!first || !p || !adj || !gcut || !rng || !grp)
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
	r = inf_holm_groups(p, grp, (size_t)ns, o->alpha, adj);
	if (r < 0)
		goto out;
	*cells = r;
	/*
	 * A series found is split again at its group's bar: the largest p
	 * found among the group's series (the largest anywhere is *cut).
	 */
	for (i = 0; i < ns; i++) {
		if (isnan(adj[i]) || adj[i] > o->alpha)
			continue;
		for (j = 0; j < ns; j++)
			if (grp[j] == grp[i] && p[i] > gcut[j])
				gcut[j] = p[i];
		if (p[i] > *cut)
			*cut = p[i];
	}
	for (i = 0; i < ns; i++) {
		if (isnan(adj[i]) || adj[i] > o->alpha)
			continue;
		first[i].series = i;
		first[i].padj = adj[i];
		if (push(&pt, &first[i]))
			goto out;
		r = descend(s, i, 0, first[i].file, o, perms, gcut[i], &rng[i],
			    &pt);
		if (!r)
			r = descend(s, i, first[i].file, s[i].nfiles, o, perms,
				    gcut[i], &rng[i], &pt);
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
	free(gcut);
	free(rng);
	free(grp);
	return ret;
}

/* ---- outlying files ---------------------------------------------------- */

/* The night of a series' k-th file: its index among every file given. */
static int night_of(const struct cp_series *s, int k)
{
	return s->file ? s->file[k] : k;
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

/* A value and where it came from: sorted by value. */
struct valpos {
	double v;
	int at;
};

static int by_valpos(const void *a, const void *b)
{
	const struct valpos *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* The median of the n sorted values but the one at rank skip. */
static double median_but(const struct valpos *v, int n, int skip)
{
	int m = n - 1, lo = (m - 1) / 2, hi = m / 2;
	double a = v[lo >= skip ? lo + 1 : lo].v;
	double b = v[hi >= skip ? hi + 1 : hi].v;

	return (a + b) / 2;
}

/* Room for one stretch's nights, sorted two ways. */
struct hold_buf {
	struct valpos *mean;	/* the means, sorted; .at: the night */
	struct valpos *dev;	/* |mean - ref|, sorted; .at: rank in mean */
	int *dpos;		/* rank in mean -> its place in dev */
};

/*
 * Each night of [from, to) against the others there, into o[k - from]
 * (.file -1 where it cannot be tested). The others' median and MAD leave
 * one night out of the stretch sorted once: a night's ref is one of the
 * two or three middle values, taken in sorted order, so the deviations
 * are sorted again only when it changes. O(n log n) a stretch.
 */
static void hold_stretch(const struct night *nt, int from, int to,
			 struct hold_buf *hb, struct cp_outlier *o)
{
	double ss = 0, nn = 0, ref = NAN;
	int j, r, n = 0, df = 0;

	for (j = from; j < to; j++) {
		o[j - from].file = -1;
		if (!nt[j].n)
			continue;
		hb->mean[n++] = (struct valpos){ nt[j].mean, j };
		ss += nt[j].ss;
		df += nt[j].n - 1;
		nn += nt[j].n;
	}
	qsort(hb->mean, (size_t)n, sizeof(*hb->mean), by_valpos);
	for (r = 0; r < n; r++) {
		const struct night *k = &nt[hb->mean[r].at];
		struct cp_outlier *h = &o[hb->mean[r].at - from];
		int m = n - 1, kdf = df - (k->n - 1), i;
		double sb, vk, vo, sw2, kn = nn - k->n;
		double med = median_but(hb->mean, n, r);

		if (m < CP_OUT_MIN_OTHERS || kdf < 2)
			continue;
		if (med != ref) {
			ref = med;
			for (i = 0; i < n; i++)
				hb->dev[i] = (struct valpos){
					fabs(hb->mean[i].v - ref), i };
			qsort(hb->dev, (size_t)n, sizeof(*hb->dev), by_valpos);
			for (i = 0; i < n; i++)
				hb->dpos[hb->dev[i].at] = i;
		}
		h->file = hb->mean[r].at;
		h->from = from;
		h->to = to;
		h->others = m;
		h->mean = k->mean;
		h->ref = ref;
		sb = 1.4826 * median_but(hb->dev, n, hb->dpos[r]);
		/* the others' repeats' pooled SD, about their own means */
		sw2 = fmax(0, ss - k->ss) / kdf;
		/* a night's noise: the repeats', or the nights' if larger */
		vk = fmax(sw2 / k->n, sb * sb);
		vo = fmax(sw2 / (kn / m), sb * sb);
		h->d = h->mean - h->ref;
		h->se = sqrt(vk + M_PI / 2 * vo / m);
		h->df = kdf;
		if (h->se > 0) {
			h->t = h->d / h->se;
			h->p = 2 * inf_t_cdf(-fabs(h->t), h->df);
		} else {
			/* no spread at all: any difference stands out */
			h->t = h->d ? copysign(INFINITY, h->d) : 0;
			h->p = h->d ? 0 : 1;
		}
	}
}

/*
 * The n nights tested, all[], judged as a cell's nights (a group: the
 * series' group on that night, of files nights): those found, with their
 * intervals, into *out (malloc'd): how many, or -ENOMEM / -ERANGE.
 */
static int judge_nights(const struct cp_series *s, const struct cp_outlier *all,
			int n, int files, double alpha, double level,
			struct cp_outlier **out, int *groups)
{
	double *p = calloc((size_t)n + 1, sizeof(*p));
	double *adj = calloc((size_t)n + 1, sizeof(*adj));
	int *key = calloc((size_t)n + 1, sizeof(*key));
	struct cp_outlier *keep = calloc((size_t)n + 1, sizeof(*keep));
	int i, k, ret = -ENOMEM;

	if (!p || !adj || !key || !keep)
		goto out;
	for (i = 0; i < n; i++) {
		long long g = (long long)s[all[i].series].group * files +
			      night_of(&s[all[i].series], all[i].file);

		if (g > INT_MAX || g < INT_MIN) {
			ret = -ERANGE;
			goto out;
		}
		key[i] = (int)g;
		p[i] = all[i].p;
	}
	*groups = inf_holm_groups(p, key, (size_t)n, alpha, adj);
	if (*groups < 0) {
		*groups = 0;
		goto out;
	}
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
	free(p);
	free(adj);
	free(key);
	free(keep);
	return ret;
}

int cp_outliers(const struct cp_series *s, int ns, const struct cp_point *pt,
		int npt, double alpha, double level, struct cp_outlier **out,
		int *tested, int *groups)
{
	struct cp_outlier *all = NULL;
	struct night *nt = NULL;
	struct hold_buf hb = { 0 };
	size_t cap = 0;
	int i, k, c = 0, n = 0, most = 0, files = 1, ret = -ENOMEM;

	*out = NULL;
	*tested = 0;
	*groups = 0;
	for (i = 0; i < ns; i++) {
		cap += (size_t)s[i].nfiles;
		most = s[i].nfiles > most ? s[i].nfiles : most;
		for (k = 0; k < s[i].nfiles; k++)
			files = night_of(&s[i], k) >= files ?
				night_of(&s[i], k) + 1 : files;
	}
	all = calloc(cap + 1, sizeof(*all));
	nt = calloc((size_t)most + 1, sizeof(*nt));
	hb.mean = calloc((size_t)most + 1, sizeof(*hb.mean));
	hb.dev = calloc((size_t)most + 1, sizeof(*hb.dev));
	hb.dpos = calloc((size_t)most + 1, sizeof(*hb.dpos));
	if (!all || !nt || !hb.mean || !hb.dev || !hb.dpos)
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
			int base = n;

			hold_stretch(nt, from, to, &hb, all + base);
			/* the tested kept, in order: never ahead of the read */
			for (k = from; k < to; k++)
				if (all[base + k - from].file >= 0) {
					all[n] = all[base + k - from];
					all[n++].series = i;
				}
			from = to;
		}
	}
	*tested = n;
	ret = judge_nights(s, all, n, files, alpha, level, out, groups);
out:
	free(all);
	free(nt);
	free(hb.mean);
	free(hb.dev);
	free(hb.dpos);
	return ret;
}
