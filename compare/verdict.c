// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/verdict.c - compare's statistics for two files (see verdict.h):
 * each cell's rows tested, their p-values adjusted, the rows marked and
 * the cells judged. Its parts share verdict_priv.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/infer.h"
#include "compare/verdict.h"
#include "compare/verdict_priv.h"
#include "core/load.h"

const char *const cmp_verdict_names[CV_ADDED + 1] = {
	[CV_UNCHANGED] = "unchanged", [CV_BETTER] = "better",
	[CV_WORSE] = "worse", [CV_MIXED] = "mixed",
	[CV_INCONCLUSIVE] = "inconclusive", [CV_FEW] = "too few repeats",
	[CV_LOST] = "not measured in new", [CV_NEVER] = "measured in neither",
	[CV_ADDED] = "only in new",
};

/* A metric's name without its unit: "p99 latency", "1 % low FPS". */
static const char *short_label(const struct cmp_metric *m)
{
	return m->fig >= 0 ? figures[m->fig].label : m->label;
}

/*
 * A row that decides or bounds the cell and is neither marked nor known
 * not worse than its bound: the data have not told it yet.
 */
static bool row_open(const struct cmp_row *r)
{
	return (r->decides || r->bounds) && !r->mark && !r->not_worse;
}

void cmp_cell_why(const struct cmp_pair *c, const struct cmp_cell *cc,
		  const struct cmp_metric *m, char *buf, size_t n)
{
	size_t used = 0;
	int dir, j, k;

	buf[0] = '\0';
	for (dir = 1; dir >= -1; dir -= 2) {
		for (j = cc->row0, k = 0; j < cc->row0 + cc->nrows; j++) {
			const struct cmp_row *r = &c->rows[j];
			const struct cmp_metric *mm = &m[r->metric];

			if (!r->decides || r->mark != dir || used >= n)
				continue;
			used += (size_t)snprintf(buf + used, n - used,
						 "%s%s%s %+.1f %s",
						 k ? ", " : used ? "; " :
						 "", k ? "" : dir > 0 ?
						 "worse: " : "better: ",
						 short_label(mm), r->change,
						 mm->log ? "%" : "pt");
			k++;
		}
	}
	/* better, but not yet known to be: what is still open */
	if (cc->verdict != CV_INCONCLUSIVE || !used)
		return;
	for (j = cc->row0, k = 0; j < cc->row0 + cc->nrows && used < n; j++)
		if (row_open(&c->rows[j]))
			used += (size_t)snprintf(buf + used, n - used, "%s%s",
						 k++ ? ", " : "; not yet "
						 "bounded: ", short_label(
						 &m[c->rows[j].metric]));
}

static const char *bench_of(const struct cmp_cell *cc)
{
	return (cc->a ? cc->a : cc->b)->bench;
}

int cmp_tasks(const struct cmp_pair *c, const char **task, int max)
{
	int i, t, n = 0;

	for (i = 0; i < c->ncells && n < max; i++) {
		for (t = 0; t < n && strcmp(task[t], bench_of(&c->cells[i]));
		     t++)
			;
		if (t == n)
			task[n++] = bench_of(&c->cells[i]);
	}
	return n;
}

void cmp_task_count(const struct cmp_pair *c, const char *task, int *count)
{
	int i;

	memset(count, 0, (CV_ADDED + 1) * sizeof(*count));
	for (i = 0; i < c->ncells; i++)
		if (!strcmp(bench_of(&c->cells[i]), task))
			count[c->cells[i].verdict]++;
}

const char *cmp_group_verdict(const int *count)
{
	int measured = count[CV_UNCHANGED] + count[CV_BETTER] +
		       count[CV_WORSE] + count[CV_MIXED] +
		       count[CV_INCONCLUSIVE];

	if (count[CV_MIXED] || (count[CV_WORSE] && count[CV_BETTER]))
		return "mixed";
	if (count[CV_WORSE])
		return "worse";
	if (count[CV_BETTER])
		return "better";
	if (!measured && !count[CV_FEW])
		return "not comparable";
	return count[CV_UNCHANGED] == measured && !count[CV_FEW] &&
	       !count[CV_LOST] ? "unchanged" : "undecided";
}

/* The values of metric m over the ok repeats of c: how many. */
static size_t values(const struct file_cell *c, const struct cmp_metric *m,
		     double *v)
{
	size_t i, n = 0;

	for (i = 0; c && i < c->n_ok; i++) {
		double x = cmp_value(&c->ok[i], m);

		if (!isnan(x))
			v[n++] = x;
	}
	return n;
}

/*
 * The values of metric m in the repeats both cells have, in pairs (the
 * same repeat number: measured side by side): how many pairs.
 */
static size_t pairs(const struct file_cell *a, const struct file_cell *b,
		    const struct cmp_metric *m, double *va, double *vb)
{
	size_t i, k, n = 0;

	for (i = 0; a && b && i < a->n_ok; i++)
		for (k = 0; k < b->n_ok; k++) {
			double x, y;

			if (!a->ok[i].repeat || b->ok[k].repeat != a->ok[i].repeat)
				continue;
			x = cmp_value(&a->ok[i], m);
			y = cmp_value(&b->ok[k], m);
			if (!isnan(x) && !isnan(y)) {
				va[n] = x;
				vb[n++] = y;
			}
			break;
		}
	return n;
}

static void row_fill(struct cmp_row *r, const struct cmp_metric *m,
		     const struct file_cell *a, const struct file_cell *b,
		     const struct cmp_opts *o, double *va, double *vb)
{
	double ma, sa, mb, sb;
	struct inf_diff d;
	int err;

	if (o->paired) {
		size_t i;

		r->na = r->nb = (int)pairs(a, b, m, va, vb);
		/* how the pairs lean, for the randomisation check of a mark */
		for (i = 0, r->up = r->down = 0; i < (size_t)r->na; i++) {
			r->up += vb[i] > va[i];
			r->down += vb[i] < va[i];
		}
		r->flip_up = inf_signflip_p(va, vb, (size_t)r->na);
		r->flip_down = inf_signflip_p(vb, va, (size_t)r->na);
	} else {
		r->na = (int)values(a, m, va);
		r->nb = (int)values(b, m, vb);
	}
	inf_mean_sd(va, (size_t)r->na, &ma, &sa);
	inf_mean_sd(vb, (size_t)r->nb, &mb, &sb);
	r->base = m->log && r->na ? exp(ma) : ma;
	r->cur = m->log && r->nb ? exp(mb) : mb;
	r->change = cmp_shown(m, mb - ma);
	r->lo = r->hi = r->p = r->padj = NAN;
	if (r->na < CMP_MIN_REPEATS || r->nb < CMP_MIN_REPEATS)
		return;
	err = o->paired ? inf_paired(va, vb, (size_t)r->na, o->level, &d) :
			  inf_welch(va, (size_t)r->na, vb, (size_t)r->nb,
				    o->level, &d);
	if (err)
		return;
	/* The same value in every repeat of both (100 %): not a test */
	if (sa == 0 && sb == 0 && ma == mb) {
		r->lo = r->hi = 0;
		return;
	}
	/* Paired: B the same as its A in every pair is no test either */
	if (o->paired && d.se == 0 && d.d == 0) {
		r->lo = r->hi = 0;
		return;
	}
	r->lo = cmp_shown(m, d.lo);
	r->hi = cmp_shown(m, d.hi);
	r->p = d.p;
	r->df = d.df;
	r->t_d = d.d;
	r->t_se = d.se;
	r->t_v = o->paired ? 1.0 / r->na : 1.0 / r->na + 1.0 / r->nb;
}

/* Is a metric there to compare in this cell (either side has it)? */
static bool present(const struct cmp_metric *m, const struct cmp_row *r)
{
	return (m->fig >= 0 && !m->optional) || (r->na && r->nb);
}

static int add_cell(struct cmp_pair *c, const struct file_cell *a,
		    const struct file_cell *b, int *cap)
{
	void *p;

	if (c->ncells == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		p = realloc(c->cells, (size_t)*cap * sizeof(*c->cells));
		if (!p)
			return -ENOMEM;
		c->cells = p;
	}
	memset(&c->cells[c->ncells], 0, sizeof(c->cells[0]));
	c->cells[c->ncells].a = a;
	c->cells[c->ncells].b = b;
	c->ncells++;
	return 0;
}

/* The cells of both files: base's in its order, then new's own. */
static int gather(const struct result_file *a, const struct result_file *b,
		  struct cmp_pair *c)
{
	size_t i;
	int cap = 0;

	for (i = 0; i < a->n_cells; i++)
		if (add_cell(c, &a->cells[i], rf_find_cell(b, a->cells[i].bench,
							    a->cells[i].load),
			     &cap))
			return -ENOMEM;
	for (i = 0; i < b->n_cells; i++)
		if (!rf_find_cell(a, b->cells[i].bench, b->cells[i].load) &&
		    add_cell(c, NULL, &b->cells[i], &cap))
			return -ENOMEM;
	return 0;
}

static enum cmp_verdict availability(const struct cmp_cell *cc)
{
	if (!cc->a)
		return CV_ADDED;
	if (!cc->a->n_ok)
		return cc->b && cc->b->n_ok ? CV_ADDED : CV_NEVER;
	if (!cc->b || !cc->b->n_ok)
		return CV_LOST;
	if (cc->a->n_ok < CMP_MIN_REPEATS || cc->b->n_ok < CMP_MIN_REPEATS)
		return CV_FEW;
	return CV_UNCHANGED;
}

/* The period its task recorded (the first repeat that has one), in us. */
static double cell_period(const struct cmp_cell *cc)
{
	const struct file_cell *f[2] = { cc->a, cc->b };
	size_t i;
	int s;

	for (s = 0; s < 2; s++)
		for (i = 0; i < f[s]->n_ok; i++)
			if (f[s]->ok[i].v[F_PERIOD] > 0)
				return f[s]->ok[i].v[F_PERIOD];
	return NAN;
}

/* Rows of every cell measured on both sides. */
static int make_rows(struct cmp_pair *c, const struct cmp_opts *o,
		     const struct cmp_metric *m, int nm, double *va,
		     double *vb)
{
	int i, k;

	c->rows = calloc((size_t)c->ncells * (size_t)nm + 1, sizeof(*c->rows));
	if (!c->rows)
		return -ENOMEM;
	for (i = 0; i < c->ncells; i++) {
		struct cmp_cell *cc = &c->cells[i];

		cc->verdict = availability(cc);
		cc->row0 = c->nrows;
		cc->period_us = NAN;
		if (cc->verdict != CV_UNCHANGED && cc->verdict != CV_FEW)
			continue;
		cc->period_us = cell_period(cc);
		for (k = 0; k < nm; k++) {
			struct cmp_row *r = &c->rows[c->nrows];

			memset(r, 0, sizeof(*r));
			r->metric = k;
			if (m[k].count == CMP_NO_COUNT)
				row_fill(r, &m[k], cc->a, cc->b, o, va, vb);
			else if (cmp_count_fill(r, &m[k], cc->a, cc->b, o))
				return -ENOMEM;
			/* a figure neither file has (% deadlines met of a
			 * task without deadlines) decides nothing */
			r->decides = cmp_decides(&m[k], o) && (r->na || r->nb);
			r->bounds = (o->primary >= 0 ? cmp_decides(&m[k], o) :
				     m[k].bounds) && (r->na || r->nb);
			if (present(&m[k], r))
				c->nrows++;
		}
		cc->nrows = c->nrows - cc->row0;
	}
	return 0;
}

/*
 * Benjamini-Hochberg over one family of the table's rows (every cell's
 * decision figures, or all the others), split by direction: the rows'
 * one-sided p-values for "worse" are adjusted together, and for "better"
 * apart, each at alpha / 2 (a row's padj is twice its own direction's, so
 * it is read against alpha). Without the split, a change that makes many
 * cells truly better loosens the threshold enough to let a false "worse"
 * through (tests/unit-verdict's "better" case: 30 % of tables at 5
 * repeats); split, the true "better" rows' worse-direction p are near 1
 * and loosen nothing. p and adj have room for twice the rows.
 */
static void adjust(struct cmp_pair *c, const struct cmp_metric *m,
		   bool decides, double *p, double *adj)
{
	int i, n = c->nrows;

	for (i = 0; i < n; i++) {
		const struct cmp_row *r = &c->rows[i];
		bool worse = m[r->metric].higher_better ? r->t_d < 0 :
			     r->t_d > 0;
		double half = r->p / 2;

		if (r->decides != decides || isnan(r->p)) {
			p[i] = p[n + i] = NAN;
			continue;
		}
		p[i] = worse ? half : 1 - half;
		p[n + i] = worse ? 1 - half : half;
	}
	inf_bh(p, (size_t)n, adj);
	inf_bh(p + n, (size_t)n, adj + n);
	for (i = 0; i < n; i++) {
		struct cmp_row *r = &c->rows[i];

		if (r->decides != decides || isnan(r->p))
			continue;
		/* its own direction's: the one its one-sided p is below 1/2 in */
		r->padj = fmin(1, 2 * (p[i] <= p[n + i] ? adj[i] : adj[n + i]));
	}
}

/*
 * A cell on its decision rows: worse if one is marked worse, mixed if
 * some better and some worse; better if one is better, none worse and
 * every other one marked or known not worse than its margin (its
 * interval's worse end within it: a p50 better beside a
 * tail nobody has bounded yet is no improvement known: ab's -n auto and
 * --bisect must not stop on it); unchanged only if every one lies within
 * its margin; else inconclusive (or too few repeats, when a decision row
 * has fewer than a verdict needs).
 */
static enum cmp_verdict cell_verdict(struct cmp_pair *c,
				     const struct cmp_cell *cc,
				     const struct cmp_opts *o,
				     const struct cmp_metric *m)
{
	bool worse = false, better = false, within = true, few = false;
	bool open = false;
	int j, n = 0;

	cmp_cell_within(c, cc, o, m);

	for (j = cc->row0; j < cc->row0 + cc->nrows; j++) {
		struct cmp_row *r = &c->rows[j];

		if (r->bounds) {
			/* nothing its user perceives changed */
			within &= r->within;
			n++;
		}
		open |= row_open(r);
		if (!r->decides)
			continue;
		worse |= r->mark > 0;
		better |= r->mark < 0;
		few |= r->na < CMP_MIN_REPEATS || r->nb < CMP_MIN_REPEATS;
	}
	if (worse)
		return better ? CV_MIXED : CV_WORSE;
	if (better && !open)
		return CV_BETTER;
	if (few)
		return CV_FEW;
	/* an older file without the figures: nothing to decide on */
	return n && within ? CV_UNCHANGED : CV_INCONCLUSIVE;
}

/* Adjust each family's p-values, then mark the rows and judge the cells. */
static int judge(struct cmp_pair *c, const struct cmp_opts *o,
		 const struct cmp_metric *m)
{
	size_t room = 2 * (size_t)c->nrows + (size_t)c->ncells + 1;
	double *p = malloc(room * sizeof(*p));
	double *adj = malloc(room * sizeof(*adj));
	int i;

	if (!p || !adj) {
		free(p);
		free(adj);
		return -ENOMEM;
	}
	adjust(c, m, true, p, adj);
	adjust(c, m, false, p, adj);
	free(p);
	free(adj);
	for (i = 0; i < c->ncells; i++) {
		struct cmp_cell *cc = &c->cells[i];
		int j;

		for (j = cc->row0; j < cc->row0 + cc->nrows; j++)
			c->rows[j].mark = cmp_row_mark(&c->rows[j],
						       &m[c->rows[j].metric],
						       o, cc->period_us);
		if (cc->verdict == CV_UNCHANGED)
			cc->verdict = cell_verdict(c, cc, o, m);
		c->count[cc->verdict]++;
	}
	return 0;
}

/* The most ok repeats of any cell in either file. */
static size_t most_repeats(const struct result_file *a,
			   const struct result_file *b)
{
	size_t i, n = 1;

	for (i = 0; i < a->n_cells; i++)
		if (a->cells[i].n_ok > n)
			n = a->cells[i].n_ok;
	for (i = 0; i < b->n_cells; i++)
		if (b->cells[i].n_ok > n)
			n = b->cells[i].n_ok;
	return n;
}

/* Pairs judged in this process: each is judged once, however it is told. */
static unsigned long judged;

unsigned long cmp_pairs_judged(void)
{
	return judged;
}

int cmp_pair_run(const struct result_file *a, const struct result_file *b,
		 const struct cmp_opts *o, const struct cmp_metric *m, int nm,
		 struct cmp_pair *out)
{
	size_t cap = most_repeats(a, b);
	double *va, *vb;
	int err;

	judged++;
	memset(out, 0, sizeof(*out));
	/* room for a cell's repeats, and for a run's mean per repeat number */
	if (cap < 4096)
		cap = 4096;
	va = malloc(cap * sizeof(*va));
	vb = malloc(cap * sizeof(*vb));
	err = !va || !vb ? -ENOMEM : gather(a, b, out);
	if (!err)
		err = make_rows(out, o, m, nm, va, vb);
	if (!err && o->moderate)
		err = cmp_moderate(out, o, m, nm);
	if (!err)
		cmp_widen(out, o, m);
	if (!err)
		err = judge(out, o, m);
	if (!err && cmp_max_repeat(out) < (int)cap)
		err = cmp_summaries(out, o, m, nm, va, vb);
	free(va);
	free(vb);
	if (err)
		cmp_pair_free(out);
	return err;
}

void cmp_pair_free(struct cmp_pair *c)
{
	free(c->cells);
	free(c->rows);
	free(c->sums);
	memset(c, 0, sizeof(*c));
}
