/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report/report.h - the pictures: one self-contained HTML page (inline SVG and
 * CSS, no script, nothing fetched) of result files (`interbench report`,
 * `interbench --html`) or of a comparison (`interbench compare --html`).
 * Everything is read through resultfile.c and the table of figures, so a
 * new figure is plotted without new plotting code. A page is built in
 * memory and written whole into a new file renamed over its name: a
 * failure never leaves half a page. report/ is that page's drawing: the
 * entry points here, what pages are drawn with in page.h.
 */
#ifndef INTERBENCH_REPORT_H
#define INTERBENCH_REPORT_H

#include "core/figures.h"
#include "lib/opt.h"

struct result_file;

struct report_opts {
	const char *out;	/* -o FILE.html */
	const char *svg_dir;	/* --svg DIR, or NULL */
	int figure;		/* --figure: enum fig_id, or -1 (default) */
};

/* report's options (report.c), for the completion. */
extern const struct opt report_options[];

/*
 * The page of n result files, into o->out (and o->svg_dir): 0, or -errno
 * with why in err.
 */
int report_files(const struct report_opts *o, const struct result_file *rf,
		 int n, char *err, size_t errlen);
/*
 * The row marks of rf's cells on stdout (report's console), as the page
 * says them; nothing when none is marked.
 */
void report_print_marks(const struct result_file *rf);
/*
 * A run's page from its result file, as --html draws it (outputs/html.c,
 * handed this by cmd/): 0 or -errno.
 */
int report_run_page(const char *path, const struct result_file *rf);

#endif
