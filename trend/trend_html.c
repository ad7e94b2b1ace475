// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trend/trend_html.c - `interbench trend --html FILE`: each cell's
 * decision figures over the series, a dot per repeat and a line through
 * each file's mean, with the changes found drawn where they fall and the
 * outlying nights ringed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "trend/trend.h"
#include "report/page.h"

/* The colours compare's page marks with: vermillion worse, green better. */
static const char *mark_colour(int mark)
{
	return mark > 0 ? "#D55E00" : mark < 0 ? "#009E73" : "#777777";
}

static double raw(const struct cmp_metric *m, double v)
{
	return m->log ? exp(v) : v;
}

/* A series' value range on its own scale; false when it has none. */
static bool range(const struct trend *t, const struct trend_series *s,
		  double *lo, double *hi)
{
	const struct cmp_metric *m = &t->m[s->metric];
	size_t i;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < s->start[s->nfiles]; i++) {
		double v = raw(m, s->x[i]);

		*lo = fmin(*lo, v);
		*hi = fmax(*hi, v);
	}
	if (!(*hi >= *lo))
		return false;
	if (m->log) {
		*lo = pow(10, floor(log10(fmax(*lo, 1e-3))));
		*hi = pow(10, ceil(log10(fmax(*hi, 1e-3)) + 1e-9));
	} else {
		*lo = fmax(0, floor(*lo / 10) * 10 - 5);
		*hi = fmin(100, ceil(*hi / 10) * 10 + 5);
		if (*hi <= *lo)
			*hi = *lo + 10;
	}
	return true;
}

/* Where file k (0 first) sits on the x axis: categories at k + 0.5. */
static double xpos(const struct trend *t, int k)
{
	return k + (t->nfiles <= 16 ? 0.5 : 1);
}

static void changes_of(struct page *pg, struct svg_plot *p,
		       const struct trend *t, int si)
{
	char tip[256];
	int i;

	for (i = 0; i < t->npt; i++) {
		const struct trend_change *c = &t->ch[i];
		const struct cmp_metric *m = &t->m[c->s->metric];
		/* between the file before and this one */
		double x = svg_px(p, xpos(t, c->file) - 0.5);

		if (c->pt->series != si)
			continue;
		snprintf(tip, sizeof(tip), "%s from file %d (%s): %+.1f %s "
			 "[%+.1f, %+.1f], p %.2g", c->mark > 0 ? "worse" :
			 c->mark < 0 ? "better" : "within the min change",
			 c->file + 1, trend_label(&t->files[c->file]),
			 c->change, m->log ? "%" : "pt", c->lo, c->hi,
			 c->pt->p);
		sb_printf(&pg->b, "<line class=\"change\" x1=\"%.1f\" y1=\"%d\""
			  " x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width="
			  "\"2\" stroke-dasharray=\"%s\"><title>", x, p->top, x,
			  p->h - p->bottom, mark_colour(c->mark),
			  c->mark ? "none" : "4 3");
		sb_esc(&pg->b, tip);
		sb_printf(&pg->b, "</title></line>\n");
		snprintf(tip, sizeof(tip), "%+.0f %s", c->change,
			 m->log ? "%" : "pt");
		svg_text(&pg->b, x + 3, p->top + 12, "start", "ltext", tip);
	}
}

/* A ring round each outlying night's mean, its change written above. */
static void outliers_of(struct page *pg, struct svg_plot *p,
			const struct trend *t, int si)
{
	char tip[256];
	int i;

	for (i = 0; i < t->nout; i++) {
		const struct trend_outlier *c = &t->oc[i];
		const char *u = t->m[c->s->metric].log ? "%" : "pt";
		double x = svg_px(p, xpos(t, c->file));
		double y = svg_py(p, c->value);

		if (c->o->series != si)
			continue;
		snprintf(tip, sizeof(tip), "outlying night %d (%s), %s: %.4g "
			 "against the others' median %.4g, %+.1f %s [%+.1f, "
			 "%+.1f], p %.2g", c->file + 1,
			 trend_label(&t->files[c->file]), c->mark > 0 ?
			 "worse" : c->mark < 0 ? "better" :
			 "within the min change", c->value, c->ref, c->change,
			 u, c->lo, c->hi, c->o->p);
		sb_printf(&pg->b, "<circle class=\"outlier\" cx=\"%.1f\" "
			  "cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"%s\" "
			  "stroke-width=\"2\" stroke-dasharray=\"%s\"><title>",
			  x, y, mark_colour(c->mark), c->mark ? "none" : "3 2");
		sb_esc(&pg->b, tip);
		sb_printf(&pg->b, "</title></circle>\n");
		snprintf(tip, sizeof(tip), "%+.0f %s", c->change, u);
		svg_text(&pg->b, x, y - 11, "middle", "ltext", tip);
	}
}

static void plot(struct page *pg, const struct trend *t, int si,
		 const char *const *cats)
{
	const struct trend_series *s = &t->s[si];
	const struct cmp_metric *m = &t->m[s->metric];
	const struct figure *f = &figures[m->fig];
	struct svg_plot p = { .left = 64, .bottom = 54 };
	double lo, hi, mx[2], my[2], prev = NAN;
	char title[160], tip[200];
	size_t mark, v;
	int k;

	if (!range(t, s, &lo, &hi))
		return;
	snprintf(title, sizeof(title), "%s/%s: %s", s->bench, s->load,
		 f->label);
	p.x = (struct svg_axis){ .lo = 0, .hi = t->nfiles,
		.title = "file, oldest first" };
	if (t->nfiles <= 16) {
		p.x.cats = cats;
		p.x.ncats = t->nfiles;
	} else {
		p.x.lo = 0.5;
		p.x.hi = t->nfiles + 0.5;
	}
	p.y = (struct svg_axis){ .lo = lo, .hi = hi, .log = m->log,
		.title = f->label, .unit = figure_is_time(f) ? SVG_UNIT_US :
		f->unit == FU_PCT ? SVG_UNIT_PCT : SVG_UNIT_PLAIN };
	mark = pic_begin(pg);
	svg_plot_begin(&p, &pg->b, 420, 240, title);
	svg_axes(&p);
	for (k = 0; k < s->nfiles; k++) {
		double x = xpos(t, s->file[k]);
		double sum = 0, mean;
		size_t n = s->start[k + 1] - s->start[k];

		for (v = s->start[k]; v < s->start[k + 1]; v++) {
			sum += s->x[v];
			snprintf(tip, sizeof(tip), "file %d (%s): %.4g",
				 s->file[k] + 1,
				 trend_label(&t->files[s->file[k]]),
				 raw(m, s->x[v]));
			svg_dot(&p, x, raw(m, s->x[v]), 2.5, 0, "rep", tip);
		}
		mean = raw(m, sum / (double)n);
		if (!isnan(prev)) {
			mx[1] = x;
			my[1] = mean;
			svg_line(&p, mx, my, 2, 0, "curve", "file means");
		}
		mx[0] = x;
		my[0] = mean;
		prev = mean;
	}
	changes_of(pg, &p, t, si);
	outliers_of(pg, &p, t, si);
	svg_end(&pg->b);
	pic_end(pg, mark, "trend-%s-%s-%s", s->bench, s->load,
		f->name ? f->name : f->key);
}

int trend_html(const char *path, const struct trend *t)
{
	struct report_opts o = { .out = path, .figure = -1 };
	const char *cats[16];
	struct page pg;
	int i, k, ret;

	for (k = 0; k < t->nfiles && k < 16; k++)
		cats[k] = trend_label(&t->files[k]);
	page_begin(&pg, &o, "interbench trend");
	sb_printf(&pg.b, "<p class=\"note\">%d files, oldest first. Each dot "
		  "is a repeat, the line joins each file's mean (geometric "
		  "for latencies); a vertical line is a change found "
		  "(a shift of the mean, permutation p; cells first, Holm "
		  "at %g over %d cells); a ring is a night that stands out "
		  "from the others between changes (%d nights tested): vermillion "
		  "worse, green better, grey dashed within the min change "
		  "(%g %%, %g points).</p>\n"
		  "<table><tr><th>file</th><th>path</th><th>kernel</th>"
		  "<th>tag</th></tr>\n", t->nfiles, t->o->alpha,
		  t->cells_tested, t->out_tested, t->o->min_change,
		  t->o->min_points);
	for (k = 0; k < t->nfiles; k++) {
		const struct result_file *f = &t->files[k];

		sb_printf(&pg.b, "<tr><td class=\"n\">%d</td><td>", k + 1);
		sb_esc(&pg.b, f->path);
		sb_printf(&pg.b, "</td><td>");
		sb_esc(&pg.b, f->kernel ? f->kernel : "-");
		sb_printf(&pg.b, "</td><td>");
		sb_esc(&pg.b, f->tag ? f->tag : "-");
		sb_printf(&pg.b, "</td></tr>\n");
	}
	sb_printf(&pg.b, "</table>\n");
	for (i = 0; i < t->ns; i++) {
		const struct trend_series *s = &t->s[i];

		if (!i || strcmp(s->bench, t->s[i - 1].bench) ||
		    strcmp(s->load, t->s[i - 1].load)) {
			sb_printf(&pg.b, "%s<h2>", i ? "</div>\n" : "");
			sb_esc(&pg.b, s->bench);
			sb_printf(&pg.b, " under ");
			sb_esc(&pg.b, s->load);
			sb_printf(&pg.b, "</h2>\n<div class=\"pics\">");
		}
		plot(&pg, t, i, cats);
	}
	if (t->ns)
		sb_printf(&pg.b, "</div>\n");
	ret = page_end(&pg);
	if (!ret)
		ret = report_save(path, pg.b.s, pg.b.len);
	sb_free(&pg.b);
	return ret;
}
