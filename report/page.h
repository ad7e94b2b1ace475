/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report/page.h - what the pictures are drawn with: a page in memory
 * (page.c), a file's tasks, loads and figures, the maps (map.c) and the
 * plots (plots.c). report.c draws a run's page with them, and compare's
 * report_cmp.c a comparison's.
 */
#ifndef INTERBENCH_REPORT_PAGE_H
#define INTERBENCH_REPORT_PAGE_H

#include "core/resultfile.h"
#include "lib/svg.h"
#include "report/report.h"

struct page {
	struct sbuf b;
	const struct report_opts *o;
	int npics;		/* pictures so far, to name --svg files */
	int err;		/* first failure writing an SVG file */
	/* The files drawn side by side: their maps share one scale. */
	const struct result_file *files;
	int nfiles;
};

void page_begin(struct page *pg, const struct report_opts *o,
		const char *title);
/* End the page: 0, or -errno (out of memory, an SVG file not written). */
int page_end(struct page *pg);
/* A picture starts at b.len: the mark to hand to pic_end(). */
size_t pic_begin(struct page *pg);
/* It ends: with --svg it is also written as DIR/NN-name.svg. */
void pic_end(struct page *pg, size_t mark, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Write len bytes of text as path (new file renamed over it). 0/-errno */
int report_save(const char *path, const char *text, size_t len);

/* The CDF of a histogram's buckets: x (us, bucket high), y; how many. */
int cdf_points(const struct lat_stats *s, double *x, double *y, int max);

/* `interbench report`: the exit status. */

/* A file's tasks and loads in the order of its cells. */
/* The most cells a page's matrix (tasks x loads) may have. */
#define REP_MAX_MAP	4096

struct rep_names {
	const char **tasks, **loads;
	int ntasks, nloads;
};

int rep_names(const struct result_file *rf, struct rep_names *nm);
/* Those of n files: the first's in its order, then the others' new. */
int rep_names_all(const struct result_file *rf, int n,
		  struct rep_names *nm);
void rep_names_free(struct rep_names *nm);

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
/*
 * The map of n files side by side: rows nm's tasks, a column for each of
 * nm's loads in each file (numbered 1..n).
 */
void rep_map_files(struct page *pg, const struct result_file *rf, int n,
		   const struct rep_names *nm, const struct figure *fixed,
		   int chosen, const char *title, const char *name);
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

/*
 * An explained frame of --trace (worst_frames[i]) as a swimlane of its
 * CPUs (swimlane.c): false when the file keeps no picture of it.
 */
bool rep_swimlane(struct page *pg, const struct jval *frame,
		  const char *title);
/* Every explained frame of a file so drawn, at most REP_MAX_LANES. */
#define REP_MAX_LANES	64
void rep_swimlanes(struct page *pg, const struct result_file *rf);

#endif
