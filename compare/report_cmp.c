// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/report_cmp.c - `interbench compare --html`: every file against
 * BASE as pictures. On top the summary (the geometric mean of each metric
 * over the cells, with its interval), then a forest plot per metric of every
 * cell's change and interval, coloured by its mark, then each cell's two
 * distributions overlaid. The numbers are the outcome's (outcome.h), the
 * same as the table's: a renderer, it judges nothing.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/page.h"
#include "compare/compare.h"
#include "compare/outcome.h"
#include "lib/base.h"

/* Vermillion worse, bluish green better (Okabe-Ito), grey unmarked. */
static const char *mark_colour(int mark)
{
	return mark > 0 ? "#D55E00" : mark < 0 ? "#009E73" : "#777777";
}

/* What describes and judges nothing (the summary): Okabe-Ito's blue. */
#define DESCRIBE_COLOUR	"#0072B2"

/* One line of a forest plot. */
struct forest_row {
	char label[96];
	double change, lo, hi, p;
	int mark;
	double min;		/* the smallest change that matters */
};

/*
 * An unmarked interval within +/- the min change shows no change that
 * matters; one reaching past it shows nothing: inconclusive.
 */
static bool inconclusive(const struct forest_row *r)
{
	return !r->mark && !isnan(r->p) && !(r->lo >= -r->min &&
					     r->hi <= r->min);
}

static const char *mark_word(const struct forest_row *r)
{
	return r->mark > 0 ? "worse" : r->mark < 0 ? "better" :
	       isnan(r->p) ? "not tested" :
	       inconclusive(r) ? "inconclusive: the data cannot tell" :
	       "unchanged";
}

/*
 * Where a change lies on the plot: percentage points as they are; a
 * change of a ratio as the log10 of the ratio, so that x2 and x0.5 lie as
 * far from 0 as each other and an interval computed on logs stays the
 * shape it was computed in.
 */
static double fx(double v, bool log)
{
	return log ? log10(1 + v / 100) : v;
}

/*
 * A forest plot of n rows, their intervals at level (the one computed:
 * the console's). judged: the rows are cells with marks, coloured and
 * styled by them, the min change drawn; else they describe (the
 * summary): one neutral style, no word of a verdict.
 */
static void forest(struct page *pg, const char *title,
		   const struct forest_row *r, int n, bool log, double min,
		   double level, bool judged)
{
	struct svg_plot p = { .left = 170, .right = 24, .top = 30,
			      .bottom = 44 };
	double span = 2 * fx(min, log), ends = 0;
	char tip[192], axis[80];
	size_t mark;
	int i;

	for (i = 0; i < n; i++) {
		double c = fx(r[i].change, log), lo = fx(r[i].lo, log),
		       hi = fx(r[i].hi, log);

		if (isfinite(c) && 1.5 * fabs(c) > span)
			span = 1.5 * fabs(c);
		if (isfinite(lo) && fabs(lo) > ends)
			ends = fabs(lo);
		if (isfinite(hi) && fabs(hi) > ends)
			ends = fabs(hi);
	}
	/*
	 * Wide intervals (few repeats) would squeeze every change into a
	 * line: they may run off the plot (to its edge) past 4 x the span.
	 */
	span = fmin(fmax(span, ends), 4 * span) * 1.1;
	/* A percentage cannot move by more than 100 points either way. */
	if (!log)
		span = fmin(span, 105);
	snprintf(axis, sizeof(axis), "%s (%s, %g %% interval)", log ?
		 "NEW / BASE" : "change against BASE", log ? "log scale" :
		 "points", level * 100);
	p.x = (struct svg_axis){ .lo = -span, .hi = span, .unit = log ?
		SVG_UNIT_RATIO : SVG_UNIT_PLAIN, .title = axis };
	/* Rows are categories top down: y runs from n to 0. */
	p.y = (struct svg_axis){ .lo = 0, .hi = n, .title = "", .bare = true };
	mark = pic_begin(pg);
	svg_plot_begin(&p, &pg->b, 760, 74 + 18 * n, title);
	svg_axes(&p);
	sb_printf(&pg->b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		  "stroke=\"#000\"/>\n", svg_px(&p, 0), p.top, svg_px(&p, 0),
		  p.h - p.bottom);
	for (i = -1; judged && i <= 1; i += 2)
		sb_printf(&pg->b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
			  "y2=\"%d\" stroke=\"#999\" stroke-dasharray=\"4 3\">"
			  "<title>the smallest change marked</title></line>\n",
			  svg_px(&p, fx(i * min, log)), p.top,
			  svg_px(&p, fx(i * min, log)), p.h - p.bottom);
	for (i = 0; i < n; i++) {
		double y = svg_py(&p, n - i - 0.5);
		const char *col = judged ? mark_colour(r[i].mark) :
				  DESCRIBE_COLOUR;
		bool hollow = judged && inconclusive(&r[i]);

		svg_text(&pg->b, p.left - 6, y + 4, "end", "tick",
			 r[i].label);
		if (isnan(r[i].change))
			continue;
		snprintf(tip, sizeof(tip), "%s: %+.1f %s [%+.1f, %+.1f], %s",
			 r[i].label, r[i].change, log ? "%" : "pt", r[i].lo,
			 r[i].hi, judged ? mark_word(&r[i]) :
			 "over the cells (a description, not a verdict)");
		sb_printf(&pg->b, "<g class=\"frow\"><title>");
		sb_esc(&pg->b, tip);
		sb_printf(&pg->b, "</title>");
		/* inconclusive: dashed and hollow, not "no change" */
		if (isfinite(r[i].lo) && isfinite(r[i].hi))
			sb_printf(&pg->b, "<line x1=\"%.1f\" y1=\"%.1f\" "
				  "x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				  "stroke-width=\"2\"%s/>",
				  svg_px(&p, fx(r[i].lo, log)), y,
				  svg_px(&p, fx(r[i].hi, log)), y, col,
				  hollow ? " stroke-dasharray=\"4 3\"" : "");
		sb_printf(&pg->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" "
			  "height=\"8\" %s=\"%s\"%s/></g>\n",
			  svg_px(&p, fx(r[i].change, log)) - 4, y - 4,
			  hollow ? "stroke" : "fill", col,
			  hollow ? " fill=\"none\"" : "");
	}
	svg_end(&pg->b);
	pic_end(pg, mark, "forest");
}

/*
 * Each cell's verdict and the decision figures that made it, and the
 * machine's row marks on either side, which weaken it.
 */
static void verdicts(struct page *pg, const struct cmp_pair *c,
		     const struct cmp_metric *m, const struct result_file *a,
		     const struct result_file *b)
{
	struct rm_cell side[2];
	struct cmp_marked mk;
	char why[1024];
	int i;

	sb_printf(&pg->b, "<ul class=\"verdicts\">\n");
	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];
		const struct file_cell *fc = cc->a ? cc->a : cc->b;

		cmp_cell_why(c, cc, m, why, sizeof(why));
		sb_printf(&pg->b, "<li>");
		sb_esc(&pg->b, fc->bench);
		sb_printf(&pg->b, " / ");
		sb_esc(&pg->b, fc->load);
		sb_printf(&pg->b, ": <b>%s</b>%s",
			  cmp_verdict_names[cc->verdict],
			  cc->verdict == CV_MIXED ? " (a trade-off)" : "");
		if (*why)
			sb_printf(&pg->b, " (");
		sb_esc(&pg->b, why);
		if (*why)
			sb_printf(&pg->b, ")");
		if (cmp_cell_marks(cc, a, b, side)) {
			pg->b.err = -ENOMEM;
			return;
		}
		if (cmp_cell_marks_text(side, why, sizeof(why))) {
			sb_printf(&pg->b, " <span class=\"warn\">[");
			sb_esc(&pg->b, why);
			sb_printf(&pg->b, "]</span>");
		}
		sb_printf(&pg->b, "</li>\n");
	}
	sb_printf(&pg->b, "</ul>\n");
	if (cmp_marked_count(c, a, b, &mk)) {
		pg->b.err = -ENOMEM;
		return;
	}
	if (!mk.cells)
		return;
	cmp_marked_text(&mk, why, sizeof(why));
	sb_printf(&pg->b, "<p class=\"warn\">Row marks: ");
	sb_esc(&pg->b, why);
	sb_printf(&pg->b, ".</p>\n");
}

static void summary(struct page *pg, const struct cmp_pair *c,
		    const struct cmp_metric *m, const struct cmp_opts *co)
{
	struct forest_row *r = calloc((size_t)c->nsums + 1, sizeof(*r));
	int i, n = 0;

	if (!r) {
		pg->b.err = -ENOMEM;
		return;
	}
	for (i = 0; i < c->nsums; i++) {
		const struct cmp_sum *s = &c->sums[i];

		/* Geometric means are of ratios: the log metrics only. */
		if (!m[s->metric].log)
			continue;
		snprintf(r[n].label, sizeof(r[n].label), "%s: %s", s->task,
			 m[s->metric].label);
		r[n].change = s->change;
		r[n].lo = s->lo;
		r[n].hi = s->hi;
		r[n].p = isnan(s->lo) ? NAN : 0;
		r[n].min = co->min_change;
		r[n++].mark = 0;
	}
	if (n) {
		sb_printf(&pg->b, "<p class=\"note\">The summary describes "
			  "the cells and judges nothing: each blue marker is "
			  "a geometric mean with its %g %% interval; the cells'"
			  " verdicts, above and below, decide.</p>\n",
			  co->level * 100);
		forest(pg, "Summary: geometric mean of the change over the "
		       "cells, with its interval (it describes the cells; the "
		       "cells' verdicts decide)", r, n, true, co->min_change,
		       co->level, false);
	}
	free(r);
}

static void forests(struct page *pg, const struct cmp_pair *c,
		    const struct cmp_metric *m, int nm,
		    const struct cmp_opts *co)
{
	struct forest_row *r = calloc((size_t)c->ncells + 1, sizeof(*r));
	char title[96];
	int k, i, j, n;

	if (!r) {
		pg->b.err = -ENOMEM;
		return;
	}
	for (k = 0; k < nm; k++) {
		for (i = n = 0; i < c->ncells; i++) {
			const struct cmp_cell *cc = &c->cells[i];
			const struct file_cell *fc = cc->a ? cc->a : cc->b;

			for (j = cc->row0; j < cc->row0 + cc->nrows; j++) {
				const struct cmp_row *w = &c->rows[j];

				if (w->metric != k)
					continue;
				snprintf(r[n].label, sizeof(r[n].label),
					 "%s / %s", fc->bench, fc->load);
				r[n].change = w->change;
				r[n].lo = w->lo;
				r[n].hi = w->hi;
				r[n].p = w->p;
				r[n].min = m[k].log ? co->min_change :
						      co->min_points;
				r[n++].mark = w->mark;
			}
		}
		if (!n)
			continue;
		snprintf(title, sizeof(title), "Every cell: %s", m[k].label);
		forest(pg, title, r, n, m[k].log, m[k].log ? co->min_change :
		       co->min_points, co->level, true);
	}
	free(r);
}

/* Each cell's two distributions, BASE and NEW, overlaid. */
static void overlays(struct page *pg, const struct cmp_pair *c,
		     const char *na, const char *nb)
{
	struct lat_stats *h[2] = { malloc(sizeof(**h)), malloc(sizeof(**h)) };
	const char *names[2] = { na, nb };
	static const int cols[2] = { 0, SVG_PALETTE_N + 1 };
	int i, k;

	if (!h[0] || !h[1]) {
		pg->b.err = -ENOMEM;
		goto out;
	}
	sb_printf(&pg->b, "<h3>Each cell: the latency CDF of BASE (blue) and "
		  "NEW (orange, dashed)</h3>\n<div class=\"pics\">");
	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];
		const struct file_cell *fc[2] = { cc->a, cc->b };
		struct svg_plot p = { .left = 58 };
		double max = 0;
		char title[96];
		size_t mark;

		for (k = 0; k < 2; k++) {
			rep_cell_stats(fc[k], h[k]);
			if (h[k]->count && h[k]->max / 1e3 > max)
				max = (double)h[k]->max / NSEC_PER_USEC;
		}
		if (!(max > 0))
			continue;
		snprintf(title, sizeof(title), "%s / %s",
			 (fc[0] ? fc[0] : fc[1])->bench,
			 (fc[0] ? fc[0] : fc[1])->load);
		rep_lat_axis(&p.x, max);
		p.y = (struct svg_axis){ .lo = 0, .hi = 1,
			.unit = SVG_UNIT_FRAC, .title = "share at most" };
		mark = pic_begin(pg);
		svg_plot_begin(&p, &pg->b, 400, 250, title);
		svg_axes(&p);
		for (k = 0; k < 2; k++)
			if (h[k]->count)
				rep_cdf_curve(&p, h[k], cols[k], false,
					      names[k]);
		svg_legend(&p, names, cols, 2);
		svg_end(&pg->b);
		pic_end(pg, mark, "cell-%s-%s", (fc[0] ? fc[0] : fc[1])->bench,
			(fc[0] ? fc[0] : fc[1])->load);
	}
	sb_printf(&pg->b, "</div>\n");
out:
	free(h[0]);
	free(h[1]);
}

/* One NEW file against BASE: its verdicts, summary, forests, overlays. */
static void html_pair(struct page *pg, const struct cmp_outcome *oc,
		      const struct cmp_judged *p, const struct cmp_opts *co)
{
	const struct cmp_pair *c = &p->c;

	sb_printf(&pg->b, "<h2>BASE ");
	sb_esc(&pg->b, p->base->path);
	sb_printf(&pg->b, " against NEW ");
	sb_esc(&pg->b, p->cur->path);
	sb_printf(&pg->b, "</h2>\n<p>Verdict: <b>%s</b>. Cells, each "
		  "judged on its decision figures: %d better, %d "
		  "worse, %d mixed (a trade-off), %d unchanged, %d "
		  "inconclusive (the data cannot tell), %d with too "
		  "few repeats, %d lost, %d added.</p>\n",
		  cmp_group_verdict(c->count),
		  c->count[CV_BETTER], c->count[CV_WORSE],
		  c->count[CV_MIXED],
		  c->count[CV_UNCHANGED], c->count[CV_INCONCLUSIVE],
		  c->count[CV_FEW],
		  c->count[CV_LOST], c->count[CV_ADDED]);
	verdicts(pg, c, oc->m, p->base, p->cur);
	summary(pg, c, oc->m, co);
	forests(pg, c, oc->m, oc->nm, co);
	overlays(pg, c, "BASE", "NEW");
}

static int html_end(struct cmp_render *r, const struct cmp_outcome *oc)
{
	const struct cmp_opts *co = &r->o->cmp;
	struct report_opts o = { .out = r->o->html, .figure = -1 };
	struct page pg;
	int i, ret;

	page_begin(&pg, &o, "interbench compare");
	sb_printf(&pg.b, "<p class=\"note\">A change is marked when its "
		  "adjusted p is at most %g and its whole %g %% interval lies "
		  "beyond %g %% (%g points for percentages): vermillion worse,"
		  " green better, grey unchanged (the interval within those "
		  "bounds), grey dashed and hollow inconclusive (the interval "
		  "reaches past them: the data cannot tell).</p>\n", co->alpha,
		  co->level * 100, co->min_change, co->min_points);
	for (i = 0; i < oc->npairs; i++)
		html_pair(&pg, oc, &oc->pairs[i], co);
	ret = page_end(&pg);
	if (!ret)
		ret = report_save(r->o->html, pg.b.s, pg.b.len);
	sb_free(&pg.b);
	return ret;
}

const struct cmp_render_ops cmp_render_html = {
	.name = "--html",
	.said = "compare's page",
	.path = offsetof(struct compare_options, html),
	.end = html_end,
};
