/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - the pictures: one self-contained HTML page (inline SVG and
 * CSS, no script, nothing fetched) of result files (`interbench report`,
 * `interbench --html`) or of a comparison (`interbench compare --html`).
 * Everything is read through resultfile.c and the table of figures, so a
 * new figure is plotted without new plotting code. A page is built in
 * memory and written whole into a new file renamed over its name: a
 * failure never leaves half a page.
 */
#ifndef INTERBENCH_REPORT_H
#define INTERBENCH_REPORT_H

#include "core/resultfile.h"
#include "lib/svg.h"
#include "compare/verdict.h"

struct run_info;

struct report_opts {
	const char *out;	/* -o FILE.html */
	const char *svg_dir;	/* --svg DIR, or NULL */
	int figure;		/* --figure: enum fig_id, or -1 (default) */
};

/* The page's parts a report and a compare page share (report.c). */
struct page {
	struct sbuf b;
	const struct report_opts *o;
	int npics;		/* pictures so far, to name --svg files */
	int err;		/* first failure writing an SVG file */
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
int report_main(int argc, char **argv);
/* A run's page from its results, as --html rewrites it: 0 or -errno. */
int report_run_html(const char *path, const struct run_info *ri,
		    const struct result *res, int n);
/* compare --html: base against every other file: 0 or -errno. */
int report_compare_html(const char *path, const struct result_file *f,
			int nfiles, const struct cmp_opts *co,
			const struct cmp_metric *m, int nm);

#endif
