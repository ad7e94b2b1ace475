// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/summary.c - what describes a comparison and judges nothing: the
 * geometric mean of new/base of each ratio metric over a set of cells (a
 * task's, and all), with its interval, runs as the unit (struct cmp_sum,
 * verdict.h). The cells' verdicts decide; this says how far they moved.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/infer.h"
#include "compare/verdict.h"
#include "compare/verdict_priv.h"

/* The mean of m over the cells in set in run r of one side: NaN if any
 * of them lacks that run. */
static double run_mean(const struct cmp_pair *c, const bool *in,
		       const struct cmp_metric *m, bool base, int r)
{
	double sum = 0;
	int i, cells = 0;

	for (i = 0; i < c->ncells; i++) {
		const struct file_cell *fc = base ? c->cells[i].a :
						    c->cells[i].b;
		size_t k;
		bool found = false;

		if (!in[i])
			continue;
		for (k = 0; k < fc->n_ok && !found; k++) {
			double v = cmp_value(&fc->ok[k], m);

			if (fc->ok[k].repeat == r && !isnan(v)) {
				sum += v;
				found = true;
			}
		}
		if (!found)
			return NAN;
		cells++;
	}
	return cells ? sum / cells : NAN;
}

/*
 * The runs whose every cell in set is measured: one side's means into
 * out. With both (paired), only the runs both sides have, in pairs.
 */
static int run_means(const struct cmp_pair *c, const bool *in,
		     const struct cmp_metric *m, bool base, bool both,
		     double *out, int max_runs)
{
	int r, n = 0;

	for (r = 1; r <= max_runs; r++) {
		double v = run_mean(c, in, m, base, r);

		if (!isnan(v) && (!both || !isnan(run_mean(c, in, m, !base,
							   r))))
			out[n++] = v;
	}
	return n;
}

int cmp_max_repeat(const struct cmp_pair *c)
{
	int i, max = 0;
	size_t k;

	for (i = 0; i < c->ncells; i++) {
		const struct file_cell *f[2] = { c->cells[i].a, c->cells[i].b };
		int s;

		for (s = 0; s < 2; s++)
			for (k = 0; f[s] && k < f[s]->n_ok; k++)
				if (f[s]->ok[k].repeat > max)
					max = f[s]->ok[k].repeat;
	}
	return max;
}

static void summarize(struct cmp_pair *c, struct cmp_sum *s,
		      const struct cmp_metric *m, const bool *in,
		      const struct cmp_opts *o, double *va, double *vb)
{
	int i, maxr = cmp_max_repeat(c);
	double sum = 0;
	struct inf_diff d;

	s->cells = 0;
	for (i = 0; i < c->ncells; i++) {
		const struct cmp_row *r;
		int j;

		if (!in[i])
			continue;
		for (j = c->cells[i].row0, r = NULL;
		     j < c->cells[i].row0 + c->cells[i].nrows; j++)
			if (c->rows[j].metric == s->metric)
				r = &c->rows[j];
		if (r && r->na && r->nb) {
			sum += log(r->cur) - log(r->base);
			s->cells++;
		}
	}
	s->change = s->cells ? expm1(sum / s->cells) * 100 : NAN;
	s->lo = s->hi = NAN;
	s->runs_a = run_means(c, in, m, true, o->paired, va, maxr);
	s->runs_b = run_means(c, in, m, false, o->paired, vb, maxr);
	if (s->runs_a >= 2 && s->runs_b >= 2 &&
	    !(o->paired ? inf_paired(va, vb, (size_t)s->runs_a, o->level, &d) :
	      inf_welch(va, (size_t)s->runs_a, vb, (size_t)s->runs_b,
			o->level, &d))) {
		s->change = expm1(d.d) * 100;
		s->lo = expm1(d.lo) * 100;
		s->hi = expm1(d.hi) * 100;
	}
}

int cmp_summaries(struct cmp_pair *c, const struct cmp_opts *o,
		     const struct cmp_metric *m, int nm, double *va,
		     double *vb)
{
	bool *in = calloc((size_t)c->ncells + 1, sizeof(*in));
	int i, k, t, ntask = 0;
	const char *task[64];

	if (!in)
		return -ENOMEM;
	for (i = 0; i < c->ncells && ntask < 63; i++) {
		const struct cmp_cell *cc = &c->cells[i];

		if (cc->verdict > CV_FEW)
			continue;
		for (t = 0; t < ntask && strcmp(task[t], cc->a->bench); t++)
			;
		if (t == ntask)
			task[ntask++] = cc->a->bench;
	}
	task[ntask] = "all";
	c->sums = calloc((size_t)(ntask + 1) * (size_t)nm, sizeof(*c->sums));
	if (!c->sums) {
		free(in);
		return -ENOMEM;
	}
	for (t = 0; t <= ntask; t++)
		for (k = 0; k < nm; k++) {
			struct cmp_sum *s = &c->sums[c->nsums];

			if (m[k].fig < 0 || !m[k].log)
				continue;
			for (i = 0; i < c->ncells; i++)
				in[i] = c->cells[i].verdict <= CV_FEW &&
					(t == ntask ||
					 !strcmp(c->cells[i].a->bench, task[t]));
			snprintf(s->task, sizeof(s->task), "%s", task[t]);
			s->metric = k;
			summarize(c, s, &m[k], in, o, va, vb);
			if (s->cells)
				c->nsums++;
		}
	free(in);
	return 0;
}

