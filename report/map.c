// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report/map.c - the matrix at a glance: a map of tasks by loads coloured
 * by how bad a figure is, for the chosen figure and for each simulator's
 * own figures, and the same maps with every file of a page side by side.
 * Every map of a page colours on the scale of all the page's files (a
 * count's largest is the largest of any file) and says that scale.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/page.h"
#include "core/sim.h"
#include "simulators/simulators.h"

/* A column of a map: a load of a file. */
struct map_col {
	const struct result_file *rf;
	const char *load;
	char label[48];
	int file;		/* side by side: the file's number, else 0 */
};

/* A map's scale: what its colours mean, shared by a page's files. */
struct map_scale {
	double max;		/* the largest value (figures without one) */
	double *best;		/* each row's best FPS (rows without a period) */
	bool no_period;		/* a row's FPS is against its best */
};

/*
 * The frame rate a cell is released at (1 s / its period), or NaN: a
 * task's FPS is good at its own rate, 20 for Audio as 60 for Video.
 */
static double cell_target(const struct file_cell *c)
{
	double period = rep_cell_fig(c, &figures[F_PERIOD]);

	return period > 0 ? 1e6 / period : NAN;
}

/*
 * How bad v of f is, from 0 to 1: percentages by what is missing on a
 * log scale (99 % already shows), times on a log scale from 1 us to 1 s,
 * frame rates by how far short of the task's own (target), other
 * figures against the largest of the page's files (max).
 */
static double badness(const struct figure *f, double v, double max,
		      double target)
{
	double t;

	if (isnan(v))
		return NAN;
	if (f->unit == FU_PCT)
		t = log10(1 + fabs(f->better == FB_HIGHER ? 100 - v : v)) /
		    log10(101);
	else if (f->unit == FU_NS)
		t = log10(v > 1 ? v : 1) / 6;
	else if (f->unit == FU_HZ && f->better == FB_HIGHER)
		return target > 0 ? fmin(fmax(1 - v / target, 0), 1) : NAN;
	else
		t = max > 0 ? v / max : 0;
	if (f->better == FB_HIGHER && f->unit != FU_PCT)
		t = 1 - t;
	return t < 0 ? 0 : t > 1 ? 1 : t;
}

/* ---- the matrix at a glance -------------------------------------------- */

/* The figure a task's row of the main map shows. */
static const struct figure *row_figure(const struct result_file *rf,
				       const char *task, int chosen)
{
	size_t i;

	if (chosen >= 0)
		return &figures[chosen];
	for (i = 0; i < rf->n_cells; i++)
		if (!strcmp(rf->cells[i].bench, task) &&
		    !isnan(rep_cell_fig(&rf->cells[i], &figures[F_MET])))
			return &figures[F_MET];
	return &figures[F_DESIRED];
}

/* One cell of a map: its colour, its value, or what went wrong. */
static void map_cell(struct sbuf *b, const struct file_cell *c,
		     const struct map_col *at, const struct figure *f,
		     double x, double y, double w, double max, double target)
{
	char col[16], txt[48];
	double v = rep_cell_fig(c, f), t = badness(f, v, max, target);
	const char *fill = "#fff", *cls = "cv";

	if (!c) {
		snprintf(txt, sizeof(txt), "not run");
		fill = "#fff";
	} else if (!c->n_ok) {
		/* "timed out: ...", "skipped: ..." say it in a word. */
		snprintf(txt, sizeof(txt), "%.*s",
			 (int)strcspn(c->bad[0].status, ":("),
			 c->bad[0].status);
		fill = "#d8d8d8";
	} else {
		rep_fmt(txt, sizeof(txt), f, v);
		if (c->n_bad)
			strncat(txt, " *", sizeof(txt) - strlen(txt) - 1);
		if (!isnan(t))
			fill = svg_heat(t, col, sizeof(col));
		cls = !isnan(t) && svg_heat_dark(t) ? "cv\" fill=\"#fff" :
		      "cv";
	}
	sb_printf(b, "<g class=\"cell\"><title>");
	if (c) {
		sb_esc(b, c->bench);
		sb_printf(b, " under ");
		sb_esc(b, c->load);
		sb_printf(b, ": %s ", f->label);
		sb_esc(b, txt);
		if (c->n_bad)
			sb_printf(b, " (%zu of %zu repeats not measured: ",
				  c->n_bad, c->n_bad + c->n_ok);
		if (c->n_bad)
			sb_esc(b, c->bad[0].status);
		if (c->n_bad)
			sb_printf(b, ")");
	}
	if (at->file) {
		sb_printf(b, " (file %d: ", at->file);
		sb_esc(b, at->rf->path);
		sb_printf(b, ")");
	}
	sb_printf(b, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		  "height=\"26\" fill=\"%s\" stroke=\"#fff\"/>", x, y, w, fill);
	if (c && !c->n_ok)
		sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			  "y2=\"%.1f\" stroke=\"#999\"/>", x, y + 26, x + w, y);
	sb_printf(b, "</g>\n");
	svg_text(b, x + w / 2, y + 17, "middle", cls, txt);
}

/*
 * The scale of a map of these rows over every file of the page (its
 * files, or rf alone): the largest value, and each row's best FPS.
 */
static void map_scale(const struct page *pg, const struct result_file *rf,
		      const char *const *tasks, int ntasks,
		      const struct figure *fixed, int chosen,
		      struct map_scale *s)
{
	const struct result_file *files = pg->nfiles ? pg->files : rf;
	int nfiles = pg->nfiles ? pg->nfiles : 1, k, i;
	size_t j;

	s->max = 0;
	for (k = 0; k < nfiles; k++)
		for (i = 0; i < ntasks; i++) {
			const struct figure *f = fixed ? fixed :
				row_figure(&files[k], tasks[i], chosen);

			for (j = 0; j < files[k].n_cells; j++) {
				const struct file_cell *c = &files[k].cells[j];
				double v;

				if (strcmp(c->bench, tasks[i]))
					continue;
				v = rep_cell_fig(c, f);
				if (v > s->max)
					s->max = v;
				if (v > s->best[i])
					s->best[i] = v;
				if (f->unit == FU_HZ && isnan(cell_target(c)))
					s->no_period = true;
			}
		}
}

/* What the colours of a map mean, said under it. */
static void legend_text(char *txt, size_t n, const struct figure *f,
			const struct map_scale *s, int nfiles)
{
	char max[48];

	rep_fmt(max, sizeof(max), f, s->max);
	if (f->unit == FU_PCT)
		snprintf(txt, n, "pale %s, dark %s (log scale of what is "
			 "missing)", f->better == FB_HIGHER ? "100 %" : "0 %",
			 f->better == FB_HIGHER ? "0 %" : "100 %");
	else if (f->unit == FU_NS)
		snprintf(txt, n, "pale 1 us or less, dark 1 s or more (log "
			 "scale)");
	else if (f->unit == FU_HZ && f->better == FB_HIGHER)
		snprintf(txt, n, "pale at the task's own frame rate (1 s / "
			 "its period), dark 0 FPS%s", s->no_period ?
			 "; a task without a period against its best on this"
			 " page" : "");
	else
		snprintf(txt, n, "pale %s, dark %s: the %s %s",
			 f->better == FB_HIGHER ? max : "0",
			 f->better == FB_HIGHER ? "0" : max,
			 f->better == FB_HIGHER ? "most" : "largest",
			 nfiles > 1 ? "of the page's files, one scale for "
			 "them all" : "in the map");
}

/* The legend: a ramp of the colours, from good to bad, and its words. */
static void map_legend(struct sbuf *b, const char *txt, double x, double y,
		       double w)
{
	char col[16];
	int i;

	sb_printf(b, "<g class=\"scale\">");
	for (i = 0; i < 5; i++)
		sb_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" "
			  "height=\"10\" fill=\"%s\"/>", x + 9 * i, y - 9,
			  svg_heat(i / 4.0, col, sizeof(col)));
	svg_lines(b, x + 50, y, w - 50, "ltext", 11, txt);
	sb_printf(b, "</g>\n");
}

/*
 * A map of rows tasks[0..ntasks-1] by columns, each cell of figure fixed
 * or else of the figure row_figure() picks for its task; the title says
 * which, the legend its scale.
 */
static void draw_map(struct page *pg, const char *const *tasks, int ntasks,
		     const struct map_col *cols, int ncols,
		     const struct figure *fixed, int chosen, const char *title,
		     const char *name)
{
	struct sbuf *b = &pg->b;
	struct map_scale s = { 0 };
	const struct figure *lf = fixed ? fixed :
		row_figure(cols[0].rf, tasks[0], chosen);
	int cw = 62, lw = 96, i, j, w, h, top, nt, nl;
	size_t mark = pic_begin(pg);
	double tw = svg_text_width(title, 13);
	char txt[320];

	s.best = calloc((size_t)ntasks + 1, sizeof(*s.best));
	if (!s.best) {
		b->err = -ENOMEM;
		return;
	}
	map_scale(pg, cols[0].rf, tasks, ntasks, fixed, chosen, &s);
	if (ncols && (1180 - lw) / ncols > cw)
		cw = (1180 - lw) / ncols > 110 ? 110 : (1180 - lw) / ncols;
	/* Wide enough for its legend, and for its title up to a page's. */
	w = lw + cw * ncols + 10;
	w = w < 360 ? 360 : w;
	if (w < 12 + tw)
		w = 12 + tw < 1180 ? 12 + (int)tw : 1180;
	nt = svg_lines(NULL, 4, 16, w - 8, "ptitle", 13, title);
	top = 52 + 16 * (nt - 1);
	legend_text(txt, sizeof(txt), lf, &s, pg->nfiles);
	nl = svg_lines(NULL, 54, 0, w - 58, "ltext", 11, txt);
	h = top + 28 * ntasks + 10 + 14 * nl;
	svg_begin(b, w, h, title);
	svg_lines(b, 4, 16, w - 8, "ptitle", 13, title);
	for (j = 0; j < ncols; j++)
		svg_text(b, lw + cw * j + cw / 2.0, top - 8, "middle", "tick",
			 cols[j].label);
	for (i = 0; i < ntasks; i++) {
		svg_text(b, lw - 6, top + 28 * i + 17, "end", "tick",
			 tasks[i]);
		for (j = 0; j < ncols; j++) {
			const struct figure *f = fixed ? fixed :
				row_figure(cols[j].rf, tasks[i], chosen);
			const struct file_cell *c = rf_find_cell(cols[j].rf,
							tasks[i], cols[j].load);
			double target = c ? cell_target(c) : NAN;

			map_cell(b, c, &cols[j], f, lw + cw * j, top + 28 * i,
				 cw, s.max, isnan(target) ? s.best[i] : target);
		}
	}
	map_legend(b, txt, 4, top + 28 * ntasks + 16, w - 8);
	svg_end(b);
	pic_end(pg, mark, "map-%s", name);
	free(s.best);
}

void rep_map(struct page *pg, const struct result_file *rf,
	     const struct rep_names *nm, const char *const *tasks,
	     int ntasks, const struct figure *fixed, int chosen,
	     const char *title, const char *name)
{
	struct map_col *cols = calloc((size_t)nm->nloads + 1, sizeof(*cols));
	int j;

	if (!cols) {
		pg->b.err = -ENOMEM;
		return;
	}
	for (j = 0; j < nm->nloads; j++) {
		cols[j].rf = rf;
		cols[j].load = nm->loads[j];
		snprintf(cols[j].label, sizeof(cols[j].label), "%s",
			 nm->loads[j]);
	}
	if (ntasks)
		draw_map(pg, tasks, ntasks, cols, nm->nloads, fixed, chosen,
			 title, name);
	free(cols);
}

void rep_map_files(struct page *pg, const struct result_file *rf, int n,
		   const struct rep_names *nm, const struct figure *fixed,
		   int chosen, const char *title, const char *name)
{
	struct map_col *cols = calloc((size_t)nm->nloads * (size_t)n + 1,
				      sizeof(*cols));
	int j, k, ncols = 0;
	char pic[96];

	if (!cols) {
		pg->b.err = -ENOMEM;
		return;
	}
	for (j = 0; j < nm->nloads; j++)
		for (k = 0; k < n; k++) {
			cols[ncols].rf = &rf[k];
			cols[ncols].load = nm->loads[j];
			cols[ncols].file = k + 1;
			snprintf(cols[ncols++].label, sizeof(cols->label),
				 "%.24s %d", nm->loads[j], k + 1);
		}
	snprintf(pic, sizeof(pic), "files-%s", name);
	if (nm->ntasks)
		draw_map(pg, nm->tasks, nm->ntasks, cols, ncols, fixed, chosen,
			 title, pic);
	free(cols);
}

void rep_sim_maps(struct page *pg, const struct result_file *rf,
		  const struct rep_names *nm)
{
	const struct sim_desc *const *s;
	char title[128];
	int i, t;

	for (s = simulators; *s; s++) {
		for (t = 0; t < nm->ntasks && strcmp(nm->tasks[t],
						     (*s)->name); t++)
			;
		if (t == nm->ntasks)
			continue;
		for (i = 0; i < (*s)->nfigures; i++) {
			const struct figure *f = &(*s)->figures[i];

			/* Numbers only: a note or a distribution is text. */
			if (!f->get || f->json)
				continue;
			snprintf(title, sizeof(title), "%s: %s%s%s%s",
				 (*s)->name, f->label, f->group ? " (" : "",
				 f->group ? f->group : "",
				 f->group ? ")" : "");
			rep_map(pg, rf, nm, &nm->tasks[t], 1, f, -1, title,
				f->key);
		}
	}
}
