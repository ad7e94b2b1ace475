// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/sweep_page.c - a sweep's page (sweep_page.h): the header of
 * the sweep, its candidates' verdicts task by task, a forest of each
 * candidate's task figures and one of its cells, on one scale, with the
 * bounds of "unchanged" and the base's own noise drawn behind them, and
 * a closing line. Drawn from the document only; every word of it may be
 * anyone's, so every one goes through sb_esc.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/sweep_page.h"
#include "report/page.h"

/* One row of a forest: a task's figure, or a cell's. */
struct sw_row {
	const char *cand, *task, *what;	/* what: the figure, or the load */
	const char *figure;		/* a cell's figure */
	const char *verdict;		/* the task's, or the cell's */
	double change, lo, hi;
	double noise;			/* the base's SD, %; NaN: unknown */
};

struct sw_view {
	const struct jval *doc, *cands, *noise;
	const char **tasks;		/* every candidate's, first seen first */
	int ntasks;
	struct sw_row *figs, *cells;
	int nfigs, ncells;
	double min;			/* min_change_pct */
	double xlo, xhi;		/* the forests' one scale */
	char dir[PATH_MAX];		/* the page's directory, real; "" */
};

/* ---- the view: the rows, in the page's order ----------------------------- */

static const char *str_of(const struct jval *o, const char *key)
{
	const struct jval *v = json_get_type(o, key, J_STR);

	return v ? v->str : NULL;
}

static double num_of(const struct jval *o, const char *key)
{
	const struct jval *v = json_get_type(o, key, J_NUM);

	return v ? v->num : NAN;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the base's SD of a task's cells (load NULL: all). */
static double noise_of(const struct sw_view *v, const char *task,
		       const char *load)
{
	double *sd, m = NAN;
	size_t i, k = 0;

	if (!v->noise || !(sd = calloc(v->noise->n + 1, sizeof(*sd))))
		return NAN;
	for (i = 0; i < v->noise->n; i++) {
		const struct jval *e = &v->noise->items[i];
		const char *t = str_of(e, "task"), *l = str_of(e, "load");
		double s = num_of(e, "sd_pct");

		if (!strcmp(t, task) && (!load || (l && !strcmp(l, load))) &&
		    isfinite(s) && s >= 0)
			sd[k++] = s;
	}
	if (k) {
		qsort(sd, k, sizeof(*sd), cmp_double);
		m = k % 2 ? sd[k / 2] : (sd[k / 2 - 1] + sd[k / 2]) / 2;
	}
	free(sd);
	return m;
}

/* Candidate c's entry for task, or NULL. */
static const struct jval *cand_task(const struct jval *c, const char *task)
{
	const struct jval *ts = json_get_type(c, "tasks", J_ARR);
	size_t i;

	for (i = 0; ts && i < ts->n; i++)
		if (!strcmp(str_of(&ts->items[i], "task"), task))
			return &ts->items[i];
	return NULL;
}

static void row_of(struct sw_row *r, const struct jval *e, const char *cand,
		   const char *task, const char *what, const char *verdict)
{
	r->cand = cand;
	r->task = task;
	r->what = what;
	r->figure = str_of(e, "figure");
	r->verdict = verdict;
	r->change = num_of(e, "change");
	r->lo = num_of(e, "lo");
	r->hi = num_of(e, "hi");
}

/* Task t's rows: each candidate's figures, then each's cells. */
static void task_rows(struct sw_view *v, const char *t)
{
	size_t c, i;

	for (c = 0; c < v->cands->n; c++) {
		const struct jval *cd = &v->cands->items[c];
		const struct jval *e = cand_task(cd, t), *a;
		const char *name = str_of(cd, "name");

		if (!e)
			continue;
		a = json_get_type(e, "figures", J_ARR);
		for (i = 0; a && i < a->n; i++) {
			struct sw_row *r = &v->figs[v->nfigs++];

			row_of(r, &a->items[i], name, t,
			       str_of(&a->items[i], "figure"),
			       str_of(e, "verdict"));
			r->noise = noise_of(v, t, NULL);
		}
		a = json_get_type(e, "cells", J_ARR);
		for (i = 0; a && i < a->n; i++) {
			struct sw_row *r = &v->cells[v->ncells++];
			const char *load = str_of(&a->items[i], "load");

			row_of(r, &a->items[i], name, t, load,
			       str_of(&a->items[i], "verdict"));
			r->noise = noise_of(v, t, load);
			if (isnan(r->noise))
				r->noise = noise_of(v, t, NULL);
		}
	}
}

/*
 * The forests' scale: the ratio new / base, in log10, as compare's page
 * draws its intervals (a change of -97 % and one of +25000 % on one
 * axis, each readable; SVG_UNIT_RATIO labels it x0.5, x2). A change of
 * -100 % or less, which no ratio is, sits at the left edge, x1/10000.
 */
static double rx(double change_pct)
{
	return isfinite(change_pct) ?
	       log10(fmax(1 + change_pct / 100, 1e-4)) : NAN;
}

/*
 * The base's noise, 2 SD of its runs' log (sd_pct is that SD as %: of
 * ln), as a half-width in log10 of the ratio: a band symmetric in ratio.
 */
static double noise10(double sd_pct)
{
	return 2 * sd_pct / 100 / M_LN10;
}

/* A change's place on plot p. */
static double px(const struct svg_plot *p, double change_pct)
{
	return svg_px(p, rx(change_pct));
}

/* Widen [xlo, xhi] to hold change x (when it is a number). */
static void span_add(struct sw_view *v, double x)
{
	x = rx(x);
	if (!isfinite(x))
		return;
	v->xlo = fmin(v->xlo, x);
	v->xhi = fmax(v->xhi, x);
}

/* The scale of both forests: every end, point and band, and 0. */
static void view_scale(struct sw_view *v)
{
	struct sw_row *all[2] = { v->figs, v->cells };
	int n[2] = { v->nfigs, v->ncells }, k, i;
	double pad;

	v->xlo = v->xhi = 0;
	span_add(v, -v->min);
	span_add(v, v->min);
	for (k = 0; k < 2; k++)
		for (i = 0; i < n[k]; i++) {
			span_add(v, all[k][i].change);
			span_add(v, all[k][i].lo);
			span_add(v, all[k][i].hi);
			if (isfinite(all[k][i].noise)) {
				v->xlo = fmin(v->xlo, -noise10(all[k][i].noise));
				v->xhi = fmax(v->xhi, noise10(all[k][i].noise));
			}
		}
	pad = fmax((v->xhi - v->xlo) * 0.08, 0.01);
	v->xlo -= pad;
	v->xhi += pad;
}

/* The union of the candidates' tasks, and the rows: 0 or -ENOMEM. */
static int view_build(struct sw_view *v, const struct jval *doc)
{
	size_t c, i, ntask = 0, nfig = 0, ncell = 0;
	const struct jval *ts, *a;
	int k;

	memset(v, 0, sizeof(*v));
	v->doc = doc;
	v->cands = json_get_type(doc, "candidates", J_ARR);
	v->noise = json_get_type(doc, "noise", J_ARR);
	v->min = num_of(doc, "min_change_pct");
	if (!(v->min >= 0))
		v->min = 0;
	for (c = 0; c < v->cands->n; c++) {
		ts = json_get_type(&v->cands->items[c], "tasks", J_ARR);
		for (i = 0; ts && i < ts->n; i++, ntask++) {
			a = json_get_type(&ts->items[i], "figures", J_ARR);
			nfig += a ? a->n : 0;
			a = json_get_type(&ts->items[i], "cells", J_ARR);
			ncell += a ? a->n : 0;
		}
	}
	v->tasks = calloc(ntask + 1, sizeof(*v->tasks));
	v->figs = calloc(nfig + 1, sizeof(*v->figs));
	v->cells = calloc(ncell + 1, sizeof(*v->cells));
	if (!v->tasks || !v->figs || !v->cells)
		return -ENOMEM;
	for (c = 0; c < v->cands->n; c++) {
		ts = json_get_type(&v->cands->items[c], "tasks", J_ARR);
		for (i = 0; ts && i < ts->n; i++) {
			const char *t = str_of(&ts->items[i], "task");

			for (k = 0; k < v->ntasks && strcmp(v->tasks[k], t);
			     k++)
				;
			if (k == v->ntasks)
				v->tasks[v->ntasks++] = t;
		}
	}
	for (k = 0; k < v->ntasks; k++)
		task_rows(v, v->tasks[k]);
	view_scale(v);
	return 0;
}

static void view_free(struct sw_view *v)
{
	free(v->tasks);
	free(v->figs);
	free(v->cells);
}

/* ---- words and colours ---------------------------------------------------- */

/* A verdict's class in the page's style (page.c), and its colour. */
static const char *verdict_class(const char *w)
{
	static const char *const known[] = {
		"better", "worse", "mixed", "unchanged", "inconclusive",
	};
	size_t i;

	for (i = 0; w && i < sizeof(known) / sizeof(*known); i++)
		if (!strcmp(w, known[i]))
			return known[i];
	return w && !strcmp(w, "too few repeats") ? "few" : "none";
}

/* Okabe-Ito, as compare's page: vermillion worse, bluish green better. */
static const char *verdict_colour(const char *w)
{
	const char *c = verdict_class(w);

	return !strcmp(c, "better") ? "#009E73" : !strcmp(c, "worse") ?
	       "#D55E00" : !strcmp(c, "mixed") ? "#CC79A7" :
	       !strcmp(c, "few") ? "#E69F00" : !strcmp(c, "inconclusive") ?
	       "#999999" : "#777777";
}

/* A percentage as the page writes it: "−31", "+4.2" (sign: U+2212). */
static void fmt_pct(char *buf, size_t n, double v, bool sign)
{
	char t[40];

	if (!isfinite(v)) {
		snprintf(buf, n, "?");
		return;
	}
	snprintf(t, sizeof(t), fabs(v) >= 9.95 ? "%.0f" : "%.1f", fabs(v));
	snprintf(buf, n, "%s%s", v < 0 && strcmp(t, "0") && strcmp(t, "0.0") ?
		 "\u2212" : sign && v > 0 ? "+" : "", t);
}

/* "−31 % [−40, −22]", or "−31 % (no interval)". */
static void fmt_change(char *buf, size_t n, double c, double lo, double hi)
{
	char a[48], b[48], d[48];

	fmt_pct(a, sizeof(a), c, true);
	fmt_pct(b, sizeof(b), lo, false);
	fmt_pct(d, sizeof(d), hi, false);
	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, n, "%s %% [%s, %s]", a, b, d);
	else
		snprintf(buf, n, "%s %% (no interval)", a);
}

/* A number of the header, or "?" when the document has none. */
static void fmt_num(char *buf, size_t n, const struct jval *o,
		    const char *key)
{
	double v = num_of(o, key);

	if (isfinite(v))
		snprintf(buf, n, "%g", v);
	else
		snprintf(buf, n, "?");
}

/* ---- the header ------------------------------------------------------------- */

/* "<p>" PRE TEXT "</p>", text escaped; nothing when the text is absent. */
static void para(struct sbuf *b, const char *pre, const char *text)
{
	if (!text)
		return;
	sb_printf(b, "<p>%s", pre);
	sb_esc(b, text);
	sb_printf(b, "</p>\n");
}

static void header(struct sbuf *b, const struct jval *doc,
		   const char *doc_path)
{
	const struct jval *d = json_get_type(doc, "design", J_OBJ);
	const struct jval *base = json_get_type(doc, "base", J_OBJ);
	const char *intr = str_of(doc, "interrupted");
	const char *fin = str_of(doc, "finished");
	char m[32], e[32], r[32], k[32], s[32], p[32], t[32];

	sb_printf(b, "<p class=\"when\">Started ");
	sb_esc(b, str_of(doc, "started") ? str_of(doc, "started") : "?");
	if (intr) {
		sb_printf(b, "; <span class=\"warn\">interrupted: ");
		sb_esc(b, intr);
		sb_printf(b, "</span>");
	} else {
		sb_printf(b, ", finished ");
		sb_esc(b, fin ? fin : "never (no end recorded)");
	}
	sb_printf(b, ". The document: ");
	sb_esc(b, doc_path);
	sb_printf(b, ".</p>\n");
	para(b, "Command: ", str_of(doc, "command_line"));
	if (base) {
		sb_printf(b, "<p>The base: ");
		sb_esc(b, str_of(base, "name") ? str_of(base, "name") : "base");
		if (str_of(base, "file")) {
			sb_printf(b, ", measured into ");
			sb_esc(b, str_of(base, "file"));
		}
		sb_printf(b, "</p>\n");
	}
	fmt_num(s, sizeof(s), doc, "alpha");
	fmt_num(p, sizeof(p), doc, "min_change_pct");
	sb_printf(b, "<p class=\"rule\">Each candidate is judged against the "
		  "base at alpha %s; a change smaller than %s %% is "
		  "unchanged. The rule: ", s, p);
	sb_esc(b, str_of(doc, "rule") ? str_of(doc, "rule") : "not recorded");
	sb_printf(b, ".</p>\n");
	if (!d)
		return;
	fmt_num(p, sizeof(p), d, "passes");
	fmt_num(s, sizeof(s), d, "states");
	fmt_num(m, sizeof(m), d, "measured");
	fmt_num(k, sizeof(k), doc, "candidates_judged");
	fmt_num(e, sizeof(e), d, "ab_equivalent");
	fmt_num(r, sizeof(r), d, "ratio");
	fmt_num(t, sizeof(t), d, "machine_s");
	sb_printf(b, "<p class=\"design\">The design: ");
	sb_esc(b, str_of(d, "order") ? str_of(d, "order") : "order unknown");
	sb_printf(b, "; %s passes over %s states; measured %s cells; %s "
		  "separate ab runs would measure %s: ratio %s. The machine's"
		  " time: %s s.</p>\n", p, s, m, k, e, r, t);
}

/* ---- the verdicts' table ------------------------------------------------ */

/* A link to href (the document's path, from the page) reading text. */
static void link(struct sbuf *b, const struct sw_view *v, const char *href,
		 const char *text)
{
	char rel[PATH_MAX];

	if (!href)
		return;
	sb_printf(b, "<a href=\"");
	sb_esc(b, sweep_page_href(v->dir, href, rel, sizeof(rel)));
	sb_printf(b, "\">%s</a> ", text);
}

/* Task t's cell of candidate c: its verdict and first figure's change. */
static void verdict_cell(struct sbuf *b, const struct jval *c,
			 const char *t)
{
	const struct jval *e = cand_task(c, t), *f;
	const char *w = e ? str_of(e, "verdict") : NULL;
	char ch[160];

	if (!e) {
		sb_printf(b, "<td class=\"none\">not measured</td>");
		return;
	}
	f = json_get_type(e, "figures", J_ARR);
	f = f && f->n && f->items[0].type == J_OBJ ? &f->items[0] : NULL;
	sb_printf(b, "<td class=\"%s\"><b>", verdict_class(w));
	sb_esc(b, w ? w : "not judged");
	sb_printf(b, "</b>");
	if (f) {
		fmt_change(ch, sizeof(ch), num_of(f, "change"),
			   num_of(f, "lo"), num_of(f, "hi"));
		sb_printf(b, "<br/><span title=\"");
		sb_esc(b, str_of(f, "figure"));
		sb_printf(b, "\">");
		sb_esc(b, ch);
		sb_printf(b, "</span>");
	}
	sb_printf(b, "</td>");
}

/* How many pairs it took, and why it stopped early if it did. */
static void pairs_cell(struct sbuf *b, const struct jval *c)
{
	const struct jval *st = json_get_type(c, "stopped", J_OBJ);
	double n = num_of(c, "pairs");

	sb_printf(b, "<td class=\"n\">");
	if (isfinite(n))
		sb_printf(b, "%g", n);
	if (st && isfinite(num_of(st, "pairs"))) {
		sb_printf(b, " (stopped at %g: ", num_of(st, "pairs"));
		sb_esc(b, str_of(st, "why") ? str_of(st, "why") : "?");
		sb_printf(b, ")");
	}
	sb_printf(b, "</td>");
}

static void cand_row(struct sbuf *b, const struct sw_view *v,
		     const struct jval *c)
{
	const char *status = str_of(c, "status"), *why = str_of(c, "why");
	int k;

	sb_printf(b, "<tr class=\"cand\"><th>");
	sb_esc(b, str_of(c, "name"));
	sb_printf(b, "</th><td>");
	sb_esc(b, str_of(c, "options") ? str_of(c, "options") : "");
	sb_printf(b, "</td>");
	if (strcmp(status, "judged")) {
		/* never run, undone or too few pairs: said across the row */
		sb_printf(b, "<td class=\"none status\" colspan=\"%d\">",
			  v->ntasks + 2);
		sb_esc(b, status);
		if (why)
			sb_printf(b, ": ");
		sb_esc(b, why);
		sb_printf(b, "</td>");
	} else {
		sb_printf(b, "<td class=\"%s\"><b>",
			  verdict_class(str_of(c, "verdict")));
		sb_esc(b, str_of(c, "verdict") ? str_of(c, "verdict") :
			  "not judged");
		sb_printf(b, "</b></td>");
		for (k = 0; k < v->ntasks; k++)
			verdict_cell(b, c, v->tasks[k]);
		pairs_cell(b, c);
	}
	sb_printf(b, "<td>");
	link(b, v, str_of(c, "page"), "comparison");
	link(b, v, str_of(c, "file"), "result file");
	sb_printf(b, "</td></tr>\n");
}

static void verdict_table(struct sbuf *b, const struct sw_view *v)
{
	size_t c;
	int k;

	sb_printf(b, "<h2>The candidates against the base</h2>\n"
		  "<table class=\"sweep\"><tr><th>candidate</th><th>options"
		  "</th><th>verdict</th>");
	for (k = 0; k < v->ntasks; k++) {
		sb_printf(b, "<th>");
		sb_esc(b, v->tasks[k]);
		sb_printf(b, "</th>");
	}
	sb_printf(b, "<th>pairs</th><th>pages</th></tr>\n");
	for (c = 0; c < v->cands->n; c++)
		cand_row(b, v, &v->cands->items[c]);
	sb_printf(b, "</table>\n<p class=\"note\">Each task's cell: its "
		  "verdict, and its first decision figure's change against "
		  "the base (the geometric mean over its cells) with its "
		  "interval; hover for the figure.</p>\n");
}

/* ---- the forests ------------------------------------------------------------ */

#define ROW_H		18
#define MIDDOT		" \u00b7 "

static void row_label(char *buf, size_t n, const struct sw_row *r)
{
	snprintf(buf, n, "%s" MIDDOT "%s" MIDDOT "%s", r->cand, r->task,
		 r->what ? r->what : "?");
}

/* A band from -x to +x over rows [from, to) (to - from rows), behind. */
static void band(struct svg_plot *p, int n, int from, int to, double lo,
		 double hi, const char *cls, const char *fill, double opacity,
		 const char *title)
{
	double y0 = svg_py(p, n - from), y1 = svg_py(p, n - to);
	double x0 = svg_px(p, lo), x1 = svg_px(p, hi);

	sb_printf(p->b, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" "
		  "width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		  "fill-opacity=\"%.2f\"><title>", cls, x0, y0, x1 - x0,
		  y1 - y0, fill, opacity);
	sb_esc(p->b, title);
	sb_printf(p->b, "</title></rect>\n");
}

/* The bands: the base's noise, a run of rows with one SD each. */
static void bands(struct svg_plot *p, const struct sw_view *v,
		  const struct sw_row *r, int n)
{
	char t[160], a[48];
	int i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && (r[j].noise == r[i].noise ||
					  (isnan(r[j].noise) &&
					   isnan(r[i].noise))); j++)
			;
		if (isnan(r[i].noise))
			continue;
		fmt_pct(a, sizeof(a), 2 * r[i].noise, false);
		snprintf(t, sizeof(t), "base's run-to-run noise, \u00b12 SD "
			 "(\u00b1%s %%)", a);
		band(p, n, i, j, -noise10(r[i].noise), noise10(r[i].noise),
		     "noise", "#cfe8f7", 1, t);
	}
	fmt_pct(a, sizeof(a), v->min, false);
	snprintf(t, sizeof(t), "unchanged: within \u00b1%s %%", a);
	band(p, n, 0, n, rx(-v->min), rx(v->min), "unchanged", "#bbbbbb",
	     0.45, t);
}

/* Under the axis: what the two bands are. */
static void legend(struct svg_plot *p)
{
	double y = p->h - p->bottom + 30;

	sb_printf(p->b, "<rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"10\""
		  " fill=\"#bbbbbb\" fill-opacity=\"0.45\"/>\n", p->left,
		  y - 9);
	svg_text(p->b, p->left + 18, y, "start", "ltext",
		 "unchanged: within the smallest change that matters");
	sb_printf(p->b, "<rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"10\""
		  " fill=\"#cfe8f7\"/>\n", p->left + 330, y - 9);
	svg_text(p->b, p->left + 348, y, "start", "ltext",
		 "base's run-to-run noise, \u00b12 SD");
}

/* One row: its interval, its point, and its words on hover. */
static void forest_row(struct svg_plot *p, const struct sw_row *r,
		       double y, const char *cls)
{
	const char *col = verdict_colour(r->verdict);
	bool whole = isfinite(r->lo) && isfinite(r->hi);
	char label[256], tip[512], ch[160];

	row_label(label, sizeof(label), r);
	fmt_change(ch, sizeof(ch), r->change, r->lo, r->hi);
	snprintf(tip, sizeof(tip), "%s: %s, %s", label,
		 isfinite(r->change) ? ch : "no figure",
		 r->verdict ? r->verdict : "no verdict");
	svg_text(p->b, p->left - 6, y + 4, "end", "tick", label);
	sb_printf(p->b, "<g class=\"%s\"><title>", cls);
	sb_esc(p->b, tip);
	sb_printf(p->b, "</title>");
	if (!isfinite(r->change)) {
		svg_text(p->b, px(p, 0) + 6, y + 4, "start", "tick",
			 "no figure");
		sb_printf(p->b, "</g>\n");
		return;
	}
	if (whole)
		sb_printf(p->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			  "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>",
			  px(p, r->lo), y, px(p, r->hi), y, col);
	sb_printf(p->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\""
		  " fill=\"%s\"/>", px(p, r->change) - 4, y - 4, col);
	if (!whole)
		svg_text(p->b, px(p, r->change) + 8, y + 4, "start",
			 "tick", "no interval");
	sb_printf(p->b, "</g>\n");
}

/* The widest row label, for the plot's left margin. */
static int label_room(const struct sw_row *r, int n)
{
	char label[256];
	double w = 0;
	int i;

	for (i = 0; i < n; i++) {
		row_label(label, sizeof(label), &r[i]);
		w = fmax(w, svg_text_width(label, 11));
	}
	return (int)fmin(fmax(w + 14, 120), 480);
}

static void forest(struct page *pg, const struct sw_view *v,
		   const struct sw_row *r, int n, const char *title,
		   const char *cls)
{
	struct svg_plot p = { .top = 30, .right = 24, .bottom = 64 };
	size_t mark;
	int i;

	if (!n)
		return;
	p.left = label_room(r, n);
	p.x = (struct svg_axis){ .lo = v->xlo, .hi = v->xhi,
		.unit = SVG_UNIT_RATIO,
		.title = "new / base, on a log scale (left of \u00d71: "
			 "lower; lower latency is better, lower FPS worse)" };
	/* Rows are categories top down: y runs from n to 0. */
	p.y = (struct svg_axis){ .lo = 0, .hi = n, .title = "", .bare = true };
	mark = pic_begin(pg);
	svg_plot_begin(&p, &pg->b, 1000, 94 + ROW_H * n, title);
	svg_axes(&p);
	bands(&p, v, r, n);
	sb_printf(&pg->b, "<line class=\"zero\" x1=\"%.1f\" y1=\"%d\" "
		  "x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>\n", px(&p, 0),
		  p.top, px(&p, 0), p.h - p.bottom);
	for (i = 0; i < n; i++)
		forest_row(&p, &r[i], svg_py(&p, n - i - 0.5), cls);
	legend(&p);
	svg_end(&pg->b);
	pic_end(pg, mark, "sweep-%s", cls);
}

/* ---- the closing line ------------------------------------------------------- */

/* " VERB T1, T2" of c's tasks judged word: how many. */
static int tasks_judged(struct sbuf *b, const struct sw_view *v,
			const struct jval *c, const char *word,
			const char *verb, bool first)
{
	int k, n = 0;

	for (k = 0; k < v->ntasks; k++) {
		const struct jval *e = cand_task(c, v->tasks[k]);
		const char *w = e ? str_of(e, "verdict") : NULL;

		if (!w || strcmp(w, word))
			continue;
		sb_printf(b, "%s", n ? ", " : !first ? " and " : " ");
		if (!n)
			sb_printf(b, "%s ", verb);
		sb_esc(b, v->tasks[k]);
		n++;
	}
	return n;
}

/* Who helps which tasks, who hurts which, from the verdicts alone. */
static void closing(struct sbuf *b, const struct sw_view *v)
{
	size_t c;
	int n;

	sb_printf(b, "<h2>In short</h2>\n<p class=\"closing\">");
	for (c = 0; c < v->cands->n; c++) {
		const struct jval *cd = &v->cands->items[c];
		const char *status = str_of(cd, "status");

		if (c)
			sb_printf(b, "; ");
		sb_esc(b, str_of(cd, "name"));
		if (strcmp(status, "judged")) {
			sb_printf(b, " was not judged (");
			sb_esc(b, status);
			sb_printf(b, ")");
			continue;
		}
		n = tasks_judged(b, v, cd, "better", "helps", true);
		n += tasks_judged(b, v, cd, "worse", "hurts", !n);
		n += tasks_judged(b, v, cd, "mixed", "trades off on", !n);
		if (!n)
			sb_printf(b, " changes nothing decided");
	}
	sb_printf(b, "%s</p>\n", v->cands->n ? "." : "No candidate.");
}

/* ---- the page ----------------------------------------------------------- */

static void body(struct page *pg, const struct sw_view *v,
		 const char *doc_path)
{
	char a[48];

	header(&pg->b, v->doc, doc_path);
	verdict_table(&pg->b, v);
	fmt_pct(a, sizeof(a), v->min, false);
	sb_printf(&pg->b, "<h2>Each candidate's tasks</h2>\n<p class=\"note\">"
		  "Each row a task's decision figure: its change against the "
		  "base (the geometric mean over its cells) and its interval, "
		  "coloured by the candidate's verdict on the task (green "
		  "better, vermillion worse, grey unchanged or undecided). The"
		  " grey band: within \u00b1%s %%, unchanged; the lighter "
		  "band: the base's run-to-run noise, \u00b12 SD (the median "
		  "of the task's cells).</p>\n", a);
	forest(pg, v, v->figs, v->nfigs, "Each candidate's tasks against "
	       "the base: candidate \u00b7 task \u00b7 figure", "fr");
	sb_printf(&pg->b, "<h2>Each cell</h2>\n");
	forest(pg, v, v->cells, v->ncells, "Each cell against the base: "
	       "candidate \u00b7 task \u00b7 load, on the same scale", "fc");
	closing(&pg->b, v);
}

int sweep_page_write(const struct jval *doc, const char *doc_path,
		     const char *html_path, char *why, size_t n)
{
	struct report_opts o = { .out = html_path, .figure = -1 };
	char what[256], title[200];
	struct sw_view v;
	struct page pg;
	const char *id;
	int r;

	r = sweep_page_check(doc, what, sizeof(what));
	if (r) {
		snprintf(why, n, "%s: not a sweep document: %s", doc_path,
			 what);
		return r;
	}
	r = view_build(&v, doc);
	if (r) {
		view_free(&v);
		snprintf(why, n, "%s: %s", html_path, strerror(-r));
		return r;
	}
	sweep_page_dir(html_path, v.dir, sizeof(v.dir));
	id = str_of(doc, "id");
	snprintf(title, sizeof(title), "interbench sweep %s", id ? id : "");
	page_begin(&pg, &o, title);
	body(&pg, &v, doc_path);
	r = page_end(&pg);
	if (!r)
		r = report_save(html_path, pg.b.s, pg.b.len);
	sb_free(&pg.b);
	view_free(&v);
	if (r)
		snprintf(why, n, "%s: %s", html_path, strerror(-r));
	return r;
}
