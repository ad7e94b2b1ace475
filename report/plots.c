// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report/plots.c - the plots of each task in a report: the latency
 * distribution of every load (CDF and tail), latency over time per cell,
 * and the spread of the repeats.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "report/page.h"
#include "core/schema.h"
#include "lib/base.h"
#include "core/raw.h"
#include "core/sim.h"
#include "simulators/simulators.h"

#define MAX_POINTS	STATS_BUCKETS

int cdf_points(const struct lat_stats *s, double *x, double *y, int max)
{
	uint64_t cum = 0;
	unsigned b;
	int n = 0;

	for (b = 0; b < STATS_BUCKETS && n < max; b++) {
		if (!s->hist[b])
			continue;
		if (!n && n + 1 < max) {
			/* The curve starts from zero at its lowest value. */
			x[n] = (double)stats_bucket_low(b) / NSEC_PER_USEC;
			y[n++] = 0;
		}
		cum += s->hist[b];
		x[n] = (double)stats_bucket_high(b) / NSEC_PER_USEC;
		y[n++] = (double)cum / (double)s->count;
	}
	return n;
}

/*
 * The tail as the share of samples at least x late, at each bucket's low
 * end: never 0, so the curve ends at the slowest sample (1 / count) on a
 * log axis rather than falling off it.
 */
static int tail_points(const struct lat_stats *s, double *x, double *y,
		       int max)
{
	uint64_t cum = 0;
	unsigned b;
	int n = 0;

	for (b = 0; b < STATS_BUCKETS && n < max; b++) {
		if (!s->hist[b])
			continue;
		x[n] = (double)stats_bucket_low(b) / NSEC_PER_USEC;
		y[n++] = (double)(s->count - cum) / (double)s->count;
		cum += s->hist[b];
	}
	return n;
}

void rep_cell_stats(const struct file_cell *c, struct lat_stats *s)
{
	unsigned b;

	if (c)
		rf_cell_hist(c, s);
	else
		stats_init(s);
	/* The file has buckets only: min and max are their ends. */
	s->min = 0;
	s->max = 0;
	for (b = 0; b < STATS_BUCKETS; b++)
		if (s->hist[b])
			s->max = stats_bucket_high(b);
}

void rep_lat_axis(struct svg_axis *a, double max_us)
{
	a->log = true;
	a->lo = 1;
	a->hi = 1e6;
	while (a->hi < max_us && a->hi < 1e12)
		a->hi *= 10;
	a->title = "latency (log scale)";
	a->unit = SVG_UNIT_US;
}

void rep_cdf_curve(struct svg_plot *p, const struct lat_stats *s, int c,
		   bool tail, const char *label)
{
	static const double pcts[] = { 50, 99, 100 };
	double *x = malloc(2 * MAX_POINTS * sizeof(*x)), *y;
	char lab[160];
	int i, n;

	if (!x) {
		p->b->err = -ENOMEM;
		return;
	}
	y = x + MAX_POINTS;
	n = tail ? tail_points(s, x, y, MAX_POINTS) :
		   cdf_points(s, x, y, MAX_POINTS);
	svg_line(p, x, y, n, c, "curve", label);
	for (i = 0; i < 3; i++) {
		double v = i == 2 ? (double)s->max :
			   (double)stats_percentile(s, pcts[i]);
		double f = i == 2 ? 1 : pcts[i] / 100;

		/* With few samples p99 is the max: on the curve, not below. */
		if (tail)
			f = fmax(i == 2 ? 0 : 1 - f, 1.0 / (double)s->count);
		snprintf(lab, sizeof(lab), "%s %s %.4g us", label,
			 i == 2 ? "max" : i ? "p99" : "p50",
			 v / NSEC_PER_USEC);
		svg_dot(p, v / NSEC_PER_USEC, f, 3.5, c, "mark", lab);
	}
	free(x);
}

/* The task's cells' distributions, each over its ok repeats. */
static int task_hists(const struct result_file *rf,
		      const struct rep_names *nm, const char *task,
		      struct lat_stats **h, double *max_us, uint64_t *most)
{
	int j;

	*max_us = 0;
	*most = 1;
	for (j = 0; j < nm->nloads; j++) {
		const struct file_cell *c = rf_find_cell(rf, task,
							 nm->loads[j]);

		h[j] = NULL;
		if (!c || !c->n_ok)
			continue;
		h[j] = malloc(sizeof(*h[j]));
		if (!h[j])
			return -ENOMEM;
		rep_cell_stats(c, h[j]);
		if (!h[j]->count)
			continue;
		if ((double)h[j]->max / NSEC_PER_USEC > *max_us)
			*max_us = (double)h[j]->max / NSEC_PER_USEC;
		if (h[j]->count > *most)
			*most = h[j]->count;
	}
	return 0;
}

static void dist_plot(struct page *pg, const struct rep_names *nm,
		      const char *task, struct lat_stats **h, double max_us,
		      uint64_t most, bool tail)
{
	const char *names[64];
	int cols[64], j, nl = 0;
	struct svg_plot p = { 0 };
	char title[96], lab[96];
	size_t mark = pic_begin(pg);

	snprintf(title, sizeof(title), "%s: %s", task, tail ?
		 "the tail (1 - CDF, log-log)" : "latency CDF");
	rep_lat_axis(&p.x, max_us);
	p.y.title = tail ? "share of frames at least this late" :
			   "share of frames at most";
	if (tail) {
		p.y.log = true;
		p.y.hi = 1;
		p.y.lo = pow(10, floor(log10(1.0 / (double)most)));
		p.y.unit = SVG_UNIT_TAIL;
	} else {
		p.y.hi = 1;
		p.y.unit = SVG_UNIT_FRAC;
	}
	p.left = 70;
	svg_plot_begin(&p, &pg->b, 600, 340, title);
	svg_axes(&p);
	for (j = 0; j < nm->nloads; j++) {
		if (!h[j] || !h[j]->count)
			continue;
		snprintf(lab, sizeof(lab), "%s under %s", task, nm->loads[j]);
		rep_cdf_curve(&p, h[j], j, tail, lab);
		if (nl < 64) {
			names[nl] = nm->loads[j];
			cols[nl++] = j;
		}
	}
	if (tail)
		svg_legend(&p, names, cols, nl);
	else
		svg_text(p.b, p.w - p.right - 4, p.top + 14, "end", "ltext",
			 "dots: p50, p99, max");
	svg_end(&pg->b);
	pic_end(pg, mark, "%s-%s", tail ? "tail" : "cdf", task);
}

/* The worst-by-window values of a result, in us: how many (NaN: none). */
static int windows(const struct jval *res, double *v, int max, double *ms)
{
	const struct jval *w = json_get_type(res, K_WINDOWS, J_OBJ);
	const struct jval *vals = w ? json_get_type(w, K_VALUES, J_ARR) : NULL;
	int i;

	*ms = w ? json_get_type(w, K_WINDOW_MS, J_NUM) ?
	      json_get(w, K_WINDOW_MS)->num : 0 : 0;
	if (!vals || !(*ms > 0))
		return 0;
	for (i = 0; i < (int)vals->n && i < max; i++)
		v[i] = vals->items[i].type == J_NUM ? vals->items[i].num : NAN;
	return i;
}

/*
 * The windows with a frame, at their middles: a task slower than the
 * windows (Audio's 50 ms period in 10 ms windows) is a line through its
 * frames, not dots lost between gaps. How many.
 */
static int measured(const double *v, int n, double ms, double *t, double *y)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i])) {
			t[k] = (i + 0.5) * ms / 1000;
			y[k++] = v[i];
		}
	return k;
}

/* One small plot per cell: the worst latency in each window. */
static void time_plots(struct page *pg, const struct result_file *rf,
		       const struct rep_names *nm, const char *task)
{
	double v[WIN_SLOTS], t[WIN_SLOTS], y[WIN_SLOTS], lo = INFINITY, hi = 0;
	double ms;
	int j, i, n, k;
	char title[96];

	for (j = 0; j < nm->nloads; j++) {
		const struct file_cell *c = rf_find_cell(rf, task,
							 nm->loads[j]);

		n = c && c->n_ok ? windows(c->ok[0].res, v, WIN_SLOTS, &ms) : 0;
		for (i = 0; i < n; i++) {
			if (v[i] > hi)
				hi = v[i];
			if (v[i] > 0 && v[i] < lo)
				lo = v[i];
		}
	}
	if (!(hi > 0))
		return;
	lo = pow(10, floor(log10(lo)));
	hi = pow(10, ceil(log10(hi) + 1e-9));
	sb_printf(&pg->b, "<h3>");
	sb_esc(&pg->b, task);
	sb_printf(&pg->b, ": latency over time (the worst in each window of "
		  "the first measured repeat)</h3>\n"
		  "<div class=\"pics\">");
	for (j = 0; j < nm->nloads; j++) {
		const struct file_cell *c = rf_find_cell(rf, task,
							 nm->loads[j]);
		struct svg_plot p = { .left = 58, .bottom = 36 };
		size_t mark;

		n = c && c->n_ok ? windows(c->ok[0].res, v, WIN_SLOTS, &ms) : 0;
		if (!n)
			continue;
		k = measured(v, n, ms, t, y);
		p.x = (struct svg_axis){ .lo = 0, .hi = n * ms / 1000,
			.title = "time in the cell (s)" };
		p.y = (struct svg_axis){ .lo = lo, .hi = hi, .log = true,
			.title = "worst latency", .unit = SVG_UNIT_US };
		snprintf(title, sizeof(title), "%s under %s (%g ms windows)",
			 task, nm->loads[j], ms);
		mark = pic_begin(pg);
		svg_plot_begin(&p, &pg->b, 300, 170, title);
		svg_axes(&p);
		svg_line(&p, t, y, k, j, "wline", title);
		svg_end(&pg->b);
		pic_end(pg, mark, "time-%s-%s", task, nm->loads[j]);
	}
	sb_printf(&pg->b, "</div>\n");
}

/* Each repeat's mean latency as a dot beside the bar of their median. */
static void repeats_plot(struct page *pg, const struct result_file *rf,
			 const struct rep_names *nm, const char *task)
{
	const struct figure *f = &figures[F_LAT_MEAN];
	struct svg_plot p = { .left = 70 };
	double hi = 0, lo = INFINITY;
	char title[96], lab[128];
	size_t mark, r;
	int j;

	for (j = 0; j < nm->nloads; j++) {
		const struct file_cell *c = rf_find_cell(rf, task,
							 nm->loads[j]);

		for (r = 0; c && r < c->n_ok; r++) {
			double v = rep_json_fig(c->ok[r].res, f);

			hi = v > hi ? v : hi;
			lo = v > 0 && v < lo ? v : lo;
		}
	}
	if (!(hi > 0))
		return;
	snprintf(title, sizeof(title), "%s: mean latency of each repeat "
		 "(dots) and their median (bar)", task);
	p.x = (struct svg_axis){ .lo = 0, .hi = nm->nloads, .cats = nm->loads,
		.ncats = nm->nloads, .title = "load" };
	p.y = (struct svg_axis){ .lo = pow(10, floor(log10(lo))),
		.hi = pow(10, ceil(log10(hi) + 1e-9)), .log = true,
		.title = "mean latency", .unit = SVG_UNIT_US };
	mark = pic_begin(pg);
	svg_plot_begin(&p, &pg->b, 600, 300, title);
	svg_axes(&p);
	for (j = 0; j < nm->nloads; j++) {
		const struct file_cell *c = rf_find_cell(rf, task,
							 nm->loads[j]);
		double med = rep_cell_fig(c, f), x0 = svg_px(&p, j + 0.2);

		if (isnan(med))
			continue;
		sb_printf(&pg->b, "<line class=\"median\" x1=\"%.1f\" "
			  "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			  "stroke-width=\"3\"/>\n", x0, svg_py(&p, med),
			  svg_px(&p, j + 0.5), svg_py(&p, med),
			  svg_colour(j));
		for (r = 0; r < c->n_ok; r++) {
			double v = rep_json_fig(c->ok[r].res, f);

			snprintf(lab, sizeof(lab), "%s under %s, repeat %d: "
				 "%.4g us", task, nm->loads[j],
				 c->ok[r].repeat, v);
			/* Spread sideways so equal values stay apart. */
			svg_dot(&p, j + 0.6 + 0.3 * (double)r /
				(double)(c->n_ok > 1 ? c->n_ok - 1 : 1), v,
				3, j, "rep", lab);
		}
	}
	svg_end(&pg->b);
	pic_end(pg, mark, "repeats-%s", task);
}

void rep_task_plots(struct page *pg, const struct result_file *rf,
		    const struct rep_names *nm)
{
	struct lat_stats **h = calloc((size_t)nm->nloads + 1, sizeof(*h));
	double max_us;
	uint64_t most;
	int i, j;

	if (!h) {
		pg->b.err = -ENOMEM;
		return;
	}
	for (i = 0; i < nm->ntasks; i++) {
		const char *task = nm->tasks[i];

		sb_printf(&pg->b, "<h2>");
		sb_esc(&pg->b, task);
		sb_printf(&pg->b, "</h2>\n<div class=\"pics\">");
		if (task_hists(rf, nm, task, h, &max_us, &most))
			pg->b.err = -ENOMEM;
		if (max_us > 0) {
			dist_plot(pg, nm, task, h, max_us, most, false);
			dist_plot(pg, nm, task, h, max_us, most, true);
		}
		for (j = 0; j < nm->nloads; j++) {
			free(h[j]);
			h[j] = NULL;
		}
		repeats_plot(pg, rf, nm, task);
		sb_printf(&pg->b, "</div>\n");
		time_plots(pg, rf, nm, task);
	}
	free(h);
}
