// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/compare_all.c - three or more files (kernels A, B, C...): every pair,
 * as the CFS/BFS study compared its kernels. Per cell and figure: each
 * file's quantiles over its repeats, a one-way ANOVA (its p adjusted over
 * the table by Benjamini-Hochberg), and where it finds a difference,
 * Tukey-Kramer's test and interval for every pair (the family of pairs
 * kept at alpha).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "lib/infer.h"

#define QUANTILES	7
static const double quantiles[QUANTILES] = { 0, .1, .25, .5, .75, .9, 1 };
static const char *const quantile_names[QUANTILES] = {
	"min", "10%", "25%", "median", "75%", "90%", "max"
};

/* P(Q > q) on a grid, computed as asked: ptukey is slow, q repeats. */
#define TK_STEP		0.05
#define TK_GRID		401
struct tukey {
	int k;
	double df, qcrit;
	double sf[TK_GRID];		/* NaN: not computed yet */
};

static void tukey_init(struct tukey *t, int k, double df, double level)
{
	int i;

	t->k = k;
	t->df = df;
	t->qcrit = inf_qtukey(level, k, df);
	for (i = 0; i < TK_GRID; i++)
		t->sf[i] = NAN;
}

static double tukey_sf_at(struct tukey *t, int i)
{
	if (isnan(t->sf[i]))
		t->sf[i] = 1 - inf_ptukey(i * TK_STEP, t->k, t->df);
	return t->sf[i];
}

/* P(Q > q), interpolated in the log of the tail (near-quadratic in q). */
static double tukey_p(struct tukey *t, double q)
{
	double f, lo, hi;
	int i;

	if (!(q < (TK_GRID - 1) * TK_STEP))
		return 0;
	i = (int)(q / TK_STEP);
	f = q / TK_STEP - i;
	lo = tukey_sf_at(t, i);
	hi = tukey_sf_at(t, i + 1);
	if (!(lo > 0) || !(hi > 0))
		return lo + f * (hi - lo);
	return exp(log(lo) + f * (log(hi) - log(lo)));
}

/* One cell and figure over all files. */
struct all_row {
	size_t cell;			/* in files[0] */
	int metric;
	double p, padj, mse, df;
};

struct group {
	double *v;			/* the values, transformed */
	size_t n;
};

/* The figure's values in every file; false if one has too few. */
static bool groups_of(const struct result_file *files, int nf,
		      const char *bench, const char *load,
		      const struct cmp_metric *m, struct group *g)
{
	int f;

	for (f = 0; f < nf; f++) {
		const struct file_cell *c = rf_find_cell(&files[f], bench,
							 load);
		size_t k;

		g[f].n = 0;
		for (k = 0; c && k < c->n_ok; k++) {
			double x = cmp_value(&c->ok[k], m);

			if (!isnan(x))
				g[f].v[g[f].n++] = x;
		}
		if (g[f].n < CMP_MIN_REPEATS)
			return false;
	}
	return true;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* On the figure's own scale: the raw value, or the % or points. */
static double raw(const struct cmp_metric *m, double v)
{
	return m->log ? exp(v) : v;
}

static void print_quantiles(const struct result_file *files, int nf,
			    struct group *g, const struct cmp_metric *m,
			    struct jw *jw)
{
	int f, q;

	printf("  %-16s %3s", "file", "n");
	for (q = 0; q < QUANTILES; q++)
		printf(" %9s", quantile_names[q]);
	printf("\n");
	if (jw)
		jw_arr_begin(jw, "files");
	for (f = 0; f < nf; f++) {
		double *s = malloc((g[f].n + 1) * sizeof(*s));
		size_t n = s ? g[f].n : 0, i;

		for (i = 0; i < n; i++)
			s[i] = raw(m, g[f].v[i]);
		qsort(s, n, sizeof(*s), cmp_dbl);
		printf("  %-16.16s %3zu", files[f].path, n);
		if (jw) {
			jw_obj_begin(jw, NULL);
			jw_str(jw, "file", files[f].path);
			jw_int(jw, "n", (int64_t)n);
			jw_arr_begin(jw, "quantiles");
		}
		for (q = 0; q < QUANTILES; q++) {
			double v = inf_quantile(s, n, quantiles[q]);

			printf(" %9.4g", v);
			if (jw)
				jw_num(jw, NULL, v);
		}
		free(s);
		printf("\n");
		if (jw) {
			jw_arr_end(jw);
			jw_obj_end(jw);
		}
	}
	if (jw)
		jw_arr_end(jw);
}

/* Tukey-Kramer for every pair of files of one cell and figure. */
static void print_pairs(const struct result_file *files, int nf,
			struct group *g, const struct cmp_metric *m,
			const struct all_row *r, struct tukey *t,
			const struct compare_options *o, struct jw *jw)
{
	int i, j;

	if (jw)
		jw_arr_begin(jw, "pairs");
	for (i = 0; i < nf; i++)
		for (j = i + 1; j < nf; j++) {
			double mi, si, mj, sj, se, d, half, p, lo, hi;
			int mark;

			inf_mean_sd(g[i].v, g[i].n, &mi, &si);
			inf_mean_sd(g[j].v, g[j].n, &mj, &sj);
			se = sqrt(r->mse / 2 * (1.0 / g[i].n + 1.0 / g[j].n));
			d = mj - mi;
			p = se > 0 ? tukey_p(t, fabs(d) / se) : d ? 0 : 1;
			half = t->qcrit * se;
			lo = m->log ? expm1(d - half) * 100 : d - half;
			hi = m->log ? expm1(d + half) * 100 : d + half;
			d = m->log ? expm1(d) * 100 : d;
			mark = p <= o->cmp.alpha ?
			       cmp_beyond(lo, hi, m->log ? o->cmp.min_change :
					  o->cmp.min_points) : 0;
			if (m->higher_better)
				mark = -mark;
			printf("  %-16.16s vs %-16.16s %+8.1f %s  [%+.1f, %+.1f]"
			       "  p %.4f  %s\n", files[j].path, files[i].path,
			       d, m->log ? "%" : "pt", lo, hi, p,
			       mark > 0 ? "worse" : mark < 0 ? "better" : "~");
			if (!jw)
				continue;
			jw_obj_begin(jw, NULL);
			jw_str(jw, "file", files[j].path);
			jw_str(jw, "against", files[i].path);
			jw_num(jw, "change", d);
			jw_num(jw, "low", lo);
			jw_num(jw, "high", hi);
			jw_num(jw, "p", p);
			jw_str(jw, "mark", mark > 0 ? "worse" : mark < 0 ?
			       "better" : "unchanged");
			jw_obj_end(jw);
		}
	if (jw)
		jw_arr_end(jw);
}

/* The ANOVA of every cell and figure all files measured enough. */
static int anovas(const struct result_file *files, int nf,
		  const struct cmp_metric *m, int nm, struct group *g,
		  struct all_row **rows, int *nrows)
{
	const double **gv = calloc((size_t)nf, sizeof(*gv));
	size_t *gn = calloc((size_t)nf, sizeof(*gn)), c;
	int k, f;

	*rows = calloc(files[0].n_cells * (size_t)nm + 1, sizeof(**rows));
	if (!gv || !gn || !*rows) {
		free(gv);
		free(gn);
		return -ENOMEM;
	}
	for (c = 0; c < files[0].n_cells; c++)
		for (k = 0; k < nm; k++) {
			struct all_row *r = &(*rows)[*nrows];

			if (!groups_of(files, nf, files[0].cells[c].bench,
				       files[0].cells[c].load, &m[k], g))
				continue;
			for (f = 0; f < nf; f++) {
				gv[f] = g[f].v;
				gn[f] = g[f].n;
			}
			r->cell = c;
			r->metric = k;
			if (!inf_anova(gv, gn, nf, &r->p, &r->mse, &r->df))
				(*nrows)++;
		}
	free(gv);
	free(gn);
	return 0;
}

static int adjust(struct all_row *rows, int n)
{
	double *p = malloc(((size_t)n + 1) * sizeof(*p));
	double *adj = malloc(((size_t)n + 1) * sizeof(*adj));
	int i;

	if (!p || !adj) {
		free(p);
		free(adj);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		p[i] = rows[i].p;
	inf_bh(p, (size_t)n, adj);
	for (i = 0; i < n; i++)
		rows[i].padj = adj[i];
	free(p);
	free(adj);
	return 0;
}

static void print_all(const struct result_file *files, int nf,
		      const struct cmp_metric *m, struct group *g,
		      struct all_row *rows, int n,
		      const struct compare_options *o, struct jw *jw)
{
	struct tukey *t = NULL;
	int i;

	for (i = 0; i < n; i++) {
		const struct all_row *r = &rows[i];
		const struct file_cell *c = &files[0].cells[r->cell];

		groups_of(files, nf, c->bench, c->load, &m[r->metric], g);
		printf("\n%s/%s  %s  ANOVA p %.4f, adjusted %.4f\n", c->bench,
		       c->load, m[r->metric].label, r->p, r->padj);
		if (jw) {
			jw_obj_begin(jw, NULL);
			jw_str(jw, "bench", c->bench);
			jw_str(jw, "load", c->load);
			jw_str(jw, "metric", m[r->metric].label);
			jw_num(jw, "anova_p", r->p);
			jw_num(jw, "anova_p_adj", r->padj);
		}
		print_quantiles(files, nf, g, &m[r->metric], jw);
		if (r->padj <= o->cmp.alpha) {
			/* df is the same for most rows: keep one table */
			if (!t || t->df != r->df) {
				free(t);
				t = malloc(sizeof(*t));
				if (t)
					tukey_init(t, nf, r->df,
						   o->cmp.level);
			}
			if (t)
				print_pairs(files, nf, g, &m[r->metric], r, t,
					    o, jw);
		} else {
			printf("  no difference among the files\n");
		}
		if (jw)
			jw_obj_end(jw);
	}
	free(t);
}

int compare_all(const struct result_file *files, int n,
		const struct compare_options *o, const struct cmp_metric *m,
		int nm, struct cmp_json *j)
{
	struct group *g = calloc((size_t)n, sizeof(*g));
	struct all_row *rows = NULL;
	size_t most = 1, c;
	int f, nrows = 0, err = -ENOMEM;

	for (f = 0; f < n; f++)
		for (c = 0; c < files[f].n_cells; c++)
			if (files[f].cells[c].n_ok > most)
				most = files[f].cells[c].n_ok;
	for (f = 0; g && f < n; f++)
		if (!(g[f].v = malloc(most * sizeof(double))))
			goto out;
	if (!g || anovas(files, n, m, nm, g, &rows, &nrows) ||
	    adjust(rows, nrows))
		goto out;
	printf("\nAll %d files, pair by pair: per cell and figure a one-way "
	       "ANOVA (p adjusted over the\ntable, Benjamini-Hochberg), and "
	       "where it finds a difference, Tukey-Kramer for each\npair "
	       "(%g %% intervals). Cells with %d or more measured repeats in "
	       "every file: %d rows.\n", n, o->cmp.level * 100,
	       CMP_MIN_REPEATS, nrows);
	if (j)
		cmp_json_all_begin(j);
	print_all(files, n, m, g, rows, nrows, o, j ? &j->w : NULL);
	err = 0;
out:
	for (f = 0; g && f < n; f++)
		free(g[f].v);
	free(g);
	free(rows);
	return err;
}
