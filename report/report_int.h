/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_int.h - what the files of the pictures share inside: report.c
 * (the page, the maps), report_plots.c (distributions, time, repeats)
 * and report_cmp.c (compare --html).
 */
#ifndef INTERBENCH_REPORT_INT_H
#define INTERBENCH_REPORT_INT_H

#include "report/report.h"

/* A file's tasks and loads in the order of its cells. */
struct rep_names {
	const char **tasks, **loads;
	int ntasks, nloads;
};

int rep_names(const struct result_file *rf, struct rep_names *nm);
void rep_names_free(struct rep_names *nm);
/* Load name's colour: its place in the file's loads. */
int rep_load_colour(const struct rep_names *nm, const char *load);

/* A figure of a result, as the JSON has it (us for times); NaN: none. */
double rep_json_fig(const struct jval *res, const struct figure *f);
/* Its median over a cell's ok repeats. */
double rep_cell_fig(const struct file_cell *c, const struct figure *f);
/* v of f for a label: "1.23 ms", "99.5". */
void rep_fmt(char *buf, size_t n, const struct figure *f, double v);

/* A map of tasks x loads (see report.c). */
void rep_map(struct page *pg, const struct result_file *rf,
	     const struct rep_names *nm, const char *const *tasks,
	     int ntasks, const struct figure *fixed, int chosen,
	     const char *title, const char *name);
/* Maps of every simulator's own numeric figures. */
void rep_sim_maps(struct page *pg, const struct result_file *rf,
		  const struct rep_names *nm);
/* Per task: CDF, tail, latency over time, repeats. */
void rep_task_plots(struct page *pg, const struct result_file *rf,
		    const struct rep_names *nm);
/* A cell's distribution over its ok repeats (c NULL: empty). */
void rep_cell_stats(const struct file_cell *c, struct lat_stats *s);
/* The latency axis of a set of histograms: 1 us to 1 s or beyond. */
void rep_lat_axis(struct svg_axis *a, double max_us);
/* A CDF (tail: complementary) of s into the plot, colour c. */
void rep_cdf_curve(struct svg_plot *p, const struct lat_stats *s, int c,
		   bool tail, const char *label);

#endif
