// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report/map.c - the matrix at a glance: a map of tasks by loads coloured
 * by how bad a figure is, for the chosen figure and for each simulator's
 * own figures.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report/page.h"
#include "core/sim.h"
#include "simulators/simulators.h"

/*
 * How bad v of f is, from 0 to 1: percentages by what is missing on a
 * log scale (99 % already shows), times on a log scale from 1 us to 1 s,
 * other figures against the largest of the map (max).
 */
static double badness(const struct figure *f, double v, double max)
{
	double t;

	if (isnan(v))
		return NAN;
	if (f->unit == FU_PCT)
		t = log10(1 + fabs(f->better == FB_HIGHER ? 100 - v : v)) /
		    log10(101);
	else if (f->unit == FU_NS)
		t = log10(v > 1 ? v : 1) / 6;
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
		     const struct figure *f, double x, double y, double w,
		     double max)
{
	char col[16], txt[48];
	double v = rep_cell_fig(c, f), t = badness(f, v, max);
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
	sb_printf(b, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		  "height=\"26\" fill=\"%s\" stroke=\"#fff\"/>", x, y, w, fill);
	if (c && !c->n_ok)
		sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			  "y2=\"%.1f\" stroke=\"#999\"/>", x, y + 26, x + w, y);
	sb_printf(b, "</g>\n");
	svg_text(b, x + w / 2, y + 17, "middle", cls, txt);
}

/*
 * A map of tasks x loads: rows tasks[0..ntasks-1], each of figure fixed,
 * or else of the figure row_figure() picks for it; the title says which.
 */
void rep_map(struct page *pg, const struct result_file *rf,
	     const struct rep_names *nm, const char *const *tasks,
	     int ntasks, const struct figure *fixed, int chosen,
	     const char *title, const char *name)
{
	struct sbuf *b = &pg->b;
	int cw = 62, lw = 96, i, j, w, h;
	double max = 0;
	size_t mark = pic_begin(pg);

	if (nm->nloads && (1180 - lw) / nm->nloads > cw)
		cw = (1180 - lw) / nm->nloads > 110 ? 110 :
		     (1180 - lw) / nm->nloads;
	w = lw + cw * nm->nloads + 10;
	/* Room for the title, at about 7.5 px a character. */
	if (w < 12 + (int)(7.5 * (double)strlen(title)))
		w = 12 + (int)(7.5 * (double)strlen(title));
	h = 52 + 28 * ntasks + 8;
	for (i = 0; i < ntasks; i++)
		for (j = 0; j < nm->nloads; j++) {
			const struct figure *f = fixed ? fixed :
				row_figure(rf, tasks[i], chosen);
			double v = rep_cell_fig(rf_find_cell(rf, tasks[i],
						nm->loads[j]), f);

			if (v > max)
				max = v;
		}
	svg_begin(b, w, h, title);
	svg_text(b, 4, 16, "start", "ptitle", title);
	for (j = 0; j < nm->nloads; j++)
		svg_text(b, lw + cw * j + cw / 2.0, 44, "middle", "tick",
			 nm->loads[j]);
	for (i = 0; i < ntasks; i++) {
		const struct figure *f = fixed ? fixed :
			row_figure(rf, tasks[i], chosen);
		char lab[64];

		snprintf(lab, sizeof(lab), "%s", tasks[i]);
		svg_text(b, lw - 6, 52 + 28 * i + 17, "end", "tick", lab);
		for (j = 0; j < nm->nloads; j++)
			map_cell(b, rf_find_cell(rf, tasks[i], nm->loads[j]),
				 f, lw + cw * j, 52 + 28 * i, cw, max);
	}
	svg_end(b);
	pic_end(pg, mark, "map-%s", name);
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
