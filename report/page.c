// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report/page.c - what every page of a report is made of (report.h's
 * struct page): its style and frame, pictures that may also be written
 * as SVG files, saving the page safely, and reading a file's tasks,
 * loads and figures. report.c, map.c, plots.c and compare's page use it.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/page.h"
#include "core/schema.h"
#include "lib/safefile.h"
#include "lib/base.h"

static const char css[] =
"body{font-family:sans-serif;margin:16px;color:#222;max-width:1240px}"
"h1{font-size:20px}h2{font-size:17px;margin-top:28px;"
"border-bottom:1px solid #ccc}h3{font-size:14px;margin:14px 0 4px}"
"table{border-collapse:collapse;font-size:12px}"
"td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
"td.n{text-align:right}.warn{color:#a03000}"
".pics{display:flex;flex-wrap:wrap;gap:8px}"
"svg{background:#fff;max-width:100%;height:auto}"
"svg .grid{stroke:#e4e4e4}svg .frame{stroke:#666}"
"svg .tick{font-size:11px;fill:#444}svg .atitle{font-size:12px}"
"svg .ptitle{font-size:13px;font-weight:bold}"
"svg .curve polyline,svg .wline polyline{stroke-width:1.6}"
"svg .ltext{font-size:11px}svg .cv{font-size:11px}"
"p.note{font-size:12px;color:#555}"
/* verdicts' cells, in compare's colours (Okabe-Ito), pale */
"td.better{background:#d3efe6}td.worse{background:#f7dccb}"
"td.mixed{background:#f2dde9}td.unchanged{background:#ececec}"
"td.inconclusive{color:#555}td.few{background:#fbecc9}"
"td.none{color:#777}";

void page_begin(struct page *pg, const struct report_opts *o,
		const char *title)
{
	sb_init(&pg->b);
	pg->o = o;
	pg->npics = 0;
	pg->err = 0;
	pg->files = NULL;
	pg->nfiles = 0;
	sb_printf(&pg->b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		  "<meta charset=\"utf-8\"/><title>");
	sb_esc(&pg->b, title);
	sb_printf(&pg->b, "</title><style>%s</style></head><body>\n<h1>",
		  css);
	sb_esc(&pg->b, title);
	sb_printf(&pg->b, "</h1>\n");
}

int page_end(struct page *pg)
{
	sb_printf(&pg->b, "<p class=\"note\">Written by interbench %s. "
		  "Hover over a curve or a dot for its numbers.</p>\n"
		  "</body></html>\n", IB_VERSION);
	return pg->b.err ? pg->b.err : pg->err;
}

size_t pic_begin(struct page *pg)
{
	return pg->b.len;
}

/* The SVG file is named by its number and what it shows (fmt, ...). */
void pic_end(struct page *pg, size_t mark, const char *fmt, ...)
{
	char path[PATH_MAX], name[160], *p;
	va_list ap;
	int n;

	pg->npics++;
	if (!pg->o || !pg->o->svg_dir || pg->b.err || pg->err)
		return;
	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	/* Names come from a file: keep them plain, portable file names. */
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			*p = '_';
	n = snprintf(path, sizeof(path), "%s/%02d-%s.svg", pg->o->svg_dir,
		     pg->npics, name);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		pg->err = -ENAMETOOLONG;
		return;
	}
	pg->err = report_save(path, pg->b.s + mark, pg->b.len - mark);
}

int report_save(const char *path, const char *text, size_t len)
{
	return safe_file_write(path, text, len);
}

/* ---- a file's tasks and loads ----------------------------------------- */

/* A cell's task and load, each unless the list has it already. */
static void names_add(struct rep_names *nm, const struct file_cell *c)
{
	int k;

	for (k = 0; k < nm->ntasks && strcmp(nm->tasks[k], c->bench); k++)
		;
	if (k == nm->ntasks)
		nm->tasks[nm->ntasks++] = c->bench;
	for (k = 0; k < nm->nloads && strcmp(nm->loads[k], c->load); k++)
		;
	if (k == nm->nloads)
		nm->loads[nm->nloads++] = c->load;
}

int rep_names(const struct result_file *rf, struct rep_names *nm)
{
	return rep_names_all(rf, 1, nm);
}

int rep_names_all(const struct result_file *rf, int n,
		  struct rep_names *nm)
{
	size_t i, cells = 0;
	int f;

	for (f = 0; f < n; f++)
		cells += rf[f].n_cells;
	memset(nm, 0, sizeof(*nm));
	nm->tasks = calloc(cells + 1, sizeof(*nm->tasks));
	nm->loads = calloc(cells + 1, sizeof(*nm->loads));
	if (!nm->tasks || !nm->loads)
		return -ENOMEM;
	for (f = 0; f < n; f++)
		for (i = 0; i < rf[f].n_cells; i++)
			names_add(nm, &rf[f].cells[i]);
	return 0;
}

void rep_names_free(struct rep_names *nm)
{
	free(nm->tasks);
	free(nm->loads);
}

/* A figure's number in a result as the JSON has it (us for times). */
double rep_json_fig(const struct jval *res, const struct figure *f)
{
	const struct jval *o = f->group ? json_get_type(res, f->group, J_OBJ)
					: res;
	const struct jval *v = o ? json_get_type(o, f->key, J_NUM) : NULL;

	return v ? v->num : NAN;
}

/* The median of f over a cell's ok repeats; NaN if none has it. */
double rep_cell_fig(const struct file_cell *c, const struct figure *f)
{
	double v[64];
	size_t i, n = 0;

	for (i = 0; c && i < c->n_ok && n < 64; i++) {
		v[n] = rep_json_fig(c->ok[i].res, f);
		if (!isnan(v[n]))
			n++;
	}
	return n ? stats_median(v, n) : NAN;
}

void rep_fmt(char *buf, size_t n, const struct figure *f, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (f->unit == FU_NS && v >= 1000)
		snprintf(buf, n, "%.3g ms", v / 1000);
	else if (f->unit == FU_NS)
		snprintf(buf, n, "%.3g us", v);
	else if (f->unit == FU_PCT)
		snprintf(buf, n, "%.1f", v);
	else
		snprintf(buf, n, "%.4g", v);
}
