// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.c - `interbench report` and `--html`: the page of a run (see
 * report.h): its header, the matrix at a glance and the work the loads
 * got done here; the plots of distributions, time and repeats in
 * report_plots.c.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "report/report.h"
#include "report/report_int.h"
#include "outputs/results.h"
#include "core/schema.h"
#include "lib/system.h"
#include "lib/base.h"
#include "core/load.h"

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
"p.note{font-size:12px;color:#555}";

void page_begin(struct page *pg, const struct report_opts *o,
		const char *title)
{
	sb_init(&pg->b);
	pg->o = o;
	pg->npics = 0;
	pg->err = 0;
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
	char tmp[PATH_MAX + 8];
	size_t off = 0;
	int fd, err = 0;

	fd = sys_file_create(path, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	while (off < len && !err) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			err = w < 0 ? -errno : -EIO;
		else
			off += (size_t)w;
	}
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -EIO;
	if (err) {
		unlink(tmp);
		return err;
	}
	return sys_file_commit(tmp, path);
}

/* ---- a file's tasks and loads ----------------------------------------- */

int rep_names(const struct result_file *rf, struct rep_names *nm)
{
	size_t i;
	int k;

	memset(nm, 0, sizeof(*nm));
	nm->tasks = calloc(rf->n_cells + 1, sizeof(*nm->tasks));
	nm->loads = calloc(rf->n_cells + 1, sizeof(*nm->loads));
	if (!nm->tasks || !nm->loads)
		return -ENOMEM;
	for (i = 0; i < rf->n_cells; i++) {
		const struct file_cell *c = &rf->cells[i];

		for (k = 0; k < nm->ntasks && strcmp(nm->tasks[k], c->bench);
		     k++)
			;
		if (k == nm->ntasks)
			nm->tasks[nm->ntasks++] = c->bench;
		for (k = 0; k < nm->nloads && strcmp(nm->loads[k], c->load);
		     k++)
			;
		if (k == nm->nloads)
			nm->loads[nm->nloads++] = c->load;
	}
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

/* ---- header and what the loads got done -------------------------------- */

static void hdr_row(struct sbuf *b, const char *k, const char *v)
{
	sb_printf(b, "<tr><th>%s</th><td>", k);
	sb_esc(b, v && *v ? v : "-");
	sb_printf(b, "</td></tr>\n");
}

static const char *jstr(const struct jval *o, const char *k)
{
	const struct jval *v = o ? json_get_type(o, k, J_STR) : NULL;

	return v ? v->str : NULL;
}

static double jnum(const struct jval *o, const char *k)
{
	const struct jval *v = o ? json_get_type(o, k, J_NUM) : NULL;

	return v ? v->num : NAN;
}

/* Results whose host stole more than 1 % of the CPU (0.40 on): how many. */
static size_t stolen(const struct result_file *rf, char *names, size_t n)
{
	size_t i, r, count = 0, at = 0;

	names[0] = '\0';
	for (i = 0; i < rf->n_cells; i++) {
		const struct file_cell *c = &rf->cells[i];
		bool any = false;

		for (r = 0; r < c->n_ok; r++) {
			const struct jval *m = json_get_type(c->ok[r].res,
							     K_STEAL_MARKED,
							     J_BOOL);

			if (m && m->b) {
				count++;
				any = true;
			}
		}
		if (any && at < n) {
			int k = snprintf(names + at, n - at, "%s%s/%s",
					 at ? ", " : "", c->bench, c->load);

			if (k > 0)
				at += (size_t)k;
		}
	}
	return count;
}

static void header(struct page *pg, const struct result_file *rf)
{
	const struct jval *sys = json_get_type(rf->doc, K_SYSTEM, J_OBJ);
	const struct jval *set = json_get_type(rf->doc, K_SETTINGS, J_OBJ);
	const struct jval *cal = json_get_type(rf->doc, K_CALIBRATION, J_OBJ);
	const struct jval *conc = set ? json_get(set, "concurrent") : NULL;
	const struct jval *rt = sys ? json_get(sys, "realtime_ok") : NULL;
	const struct jval *vm = sys ? json_get_type(sys, "virtual_machine",
						    J_BOOL) : NULL;
	struct sbuf *b = &pg->b;
	char s[256], cells[512];
	size_t nstolen;
	int n;

	sb_printf(b, "<h2>");
	sb_esc(b, rf->path);
	sb_printf(b, "</h2>\n<table>\n");
	snprintf(s, sizeof(s), "%s %s (%s)", jstr(sys, "sysname") ?: "?",
		 jstr(sys, "release") ?: "?", jstr(sys, "preempt") ?: "?");
	hdr_row(b, "kernel", s);
	snprintf(s, sizeof(s), "%s: %s, %.0f CPUs, %s, clocksource %s",
		 jstr(sys, "hostname") ?: "?", jstr(sys, "cpu_model") ?: "?",
		 jnum(sys, "cpus_online"), jstr(sys, "machine") ?: "?",
		 jstr(sys, "clocksource") ?: "?");
	hdr_row(b, "machine", s);
	/* Files from before 0.40 lack these: then the row says nothing. */
	if (jstr(sys, "sched_ext")) {
		snprintf(s, sizeof(s), "preempt %s (from %s), sched_ext %s, "
			 "cpuidle governor %s, THP %s%s",
			 jstr(sys, "preempt") ?: "?",
			 jstr(sys, "preempt_source") ?: "?",
			 jstr(sys, "sched_ext"),
			 jstr(sys, "cpuidle_governor") ?: "none",
			 jstr(sys, "transparent_hugepages") ?: "?",
			 vm && vm->b ? ", a virtual machine" : "");
		hdr_row(b, "scheduling", s);
	}
	hdr_row(b, "command line", jstr(rf->doc, K_COMMAND_LINE));
	snprintf(s, sizeof(s), "%g s a cell, %g repeats, %g load threads, "
		 "nice %g/%g, %s", jnum(set, "duration_s"),
		 jnum(set, "repeats"), jnum(set, "load_threads"),
		 jnum(set, "bench_nice"), jnum(set, "load_nice"),
		 json_get_type(set, "rt", J_BOOL) &&
		 json_get(set, "rt")->b ? "SCHED_FIFO" : "SCHED_OTHER");
	hdr_row(b, "settings", s);
	n = snprintf(s, sizeof(s), "%.0f loops/ms, burn error %+.2f %%",
		     jnum(cal, "loops_per_ms"), jnum(cal, "error_pct"));
	if (isfinite(jnum(cal, "spread_pct")))
		snprintf(s + n, sizeof(s) - (size_t)n, ", spread %.2f %% "
			 "(measured this run)", jnum(cal, "spread_pct"));
	hdr_row(b, "calibration", s);
	snprintf(s, sizeof(s), "%s to %s", jstr(rf->doc, K_STARTED) ?: "?",
		 jstr(rf->doc, K_FINISHED) ?: "(not finished)");
	hdr_row(b, "time", s);
	hdr_row(b, "interbench", rf->version);
	sb_printf(b, "</table>\n");
	if (rf->interrupted)
		sb_printf(b, "<p class=\"warn\">Warning: the run was stopped "
			  "(%s): cells after it are missing.</p>\n",
			  rf->interrupted);
	if (!jstr(rf->doc, K_FINISHED))
		sb_printf(b, "<p class=\"warn\">The run had not finished "
			  "when this was written.</p>\n");
	if (conc && conc->type == J_BOOL && conc->b)
		sb_printf(b, "<p class=\"warn\">Confounder: another interbench"
			  " was measuring at the same time.</p>\n");
	if (rt && rt->type == J_BOOL && !rt->b)
		sb_printf(b, "<p class=\"warn\">Confounder: no real-time "
			  "rights; the timing threads ran SCHED_OTHER.</p>\n");
	nstolen = stolen(rf, cells, sizeof(cells));
	if (nstolen) {
		sb_printf(b, "<p class=\"warn\">Confounder: the host stole "
			  "more than 1 %% of the CPU time in %zu measured "
			  "result(s), whose latency includes the hypervisor's: ",
			  nstolen);
		sb_esc(b, cells);
		sb_printf(b, ".</p>\n");
	} else if (vm && vm->b) {
		sb_printf(b, "<p class=\"note\">A virtual machine: no cell "
			  "lost more than 1 %% of its CPU time to the host "
			  "(steal).</p>\n");
	}
	if (fabs(jnum(cal, "error_pct")) > 5)
		sb_printf(b, "<p class=\"warn\">Confounder: the CPU burn is "
			  "off by more than 5 %% of what it is asked.</p>\n");
}

static void work_table(struct page *pg, const struct result_file *rf)
{
	struct sbuf *b = &pg->b;
	bool used[WORK_KINDS] = { false };
	size_t i, r;
	int k;

	for (i = 0; i < rf->n_cells; i++)
		for (r = 0; r < rf->cells[i].n_ok; r++)
			for (k = 0; k < WORK_KINDS; k++)
				used[k] |= !isnan(rf->cells[i].ok[r].work[k]);
	sb_printf(b, "<h3>What each load got done (per second, median over"
		  " repeats; a load that did little shows here)</h3>\n"
		  "<table><tr><th>task</th><th>load</th>");
	for (k = 0; k < WORK_KINDS; k++)
		if (used[k])
			sb_printf(b, "<th>%s</th>", work_units[k].unit);
	sb_printf(b, "</tr>\n");
	for (i = 0; i < rf->n_cells; i++) {
		const struct file_cell *c = &rf->cells[i];

		sb_printf(b, "<tr><td>");
		sb_esc(b, c->bench);
		sb_printf(b, "</td><td>");
		sb_esc(b, c->load);
		sb_printf(b, "</td>");
		for (k = 0; k < WORK_KINDS; k++) {
			double v[64];
			size_t n = 0;

			if (!used[k])
				continue;
			for (r = 0; r < c->n_ok && n < 64; r++)
				if (!isnan(c->ok[r].work[k]))
					v[n++] = c->ok[r].work[k];
			if (n)
				sb_printf(b, "<td class=\"n\">%.4g</td>",
					  stats_median(v, n) /
					  work_units[k].scale);
			else
				sb_printf(b, "<td class=\"n\">-</td>");
		}
		sb_printf(b, "</tr>\n");
	}
	sb_printf(b, "</table>\n");
}

/*
 * Maps of the other figures: the table's that compare or -v use, and
 * every simulator's own numbers, so a new figure is seen here at once.
 */
static void more_maps(struct page *pg, const struct result_file *rf,
		      const struct rep_names *nm)
{
	char title[128], name[64];
	int f;

	sb_printf(&pg->b, "<h3>More figures (every figure compare or -v "
		  "uses; median over repeats)</h3>\n<div class=\"pics\">");
	for (f = 0; f < F_COUNT; f++) {
		if (!(figures[f].flags & (FIG_COMPARE | FIG_VERBOSE)))
			continue;
		snprintf(title, sizeof(title), "%s%s", figures[f].label,
			 figures[f].unit == FU_PCT ? " (%)" : "");
		snprintf(name, sizeof(name), "%s%s%s", figures[f].group ?
			 figures[f].group : "", figures[f].group ? "-" : "",
			 figures[f].key);
		rep_map(pg, rf, nm, nm->tasks, nm->ntasks, &figures[f], -1,
			title, name);
	}
	rep_sim_maps(pg, rf, nm);
	sb_printf(&pg->b, "</div>\n");
}

/* The page of one file, into pg. */
static void file_section(struct page *pg, const struct result_file *rf,
			 struct rep_names *nm)
{
	char title[160];

	header(pg, rf);
	if (!rf->n_cells) {
		sb_printf(&pg->b, "<p>No results yet.</p>\n");
		return;
	}
	snprintf(title, sizeof(title), "The matrix at a glance: %s",
		 pg->o->figure >= 0 ? figures[pg->o->figure].label :
		 "% deadlines met (periodic tasks), % desired CPU (others)");
	rep_map(pg, rf, nm, nm->tasks, nm->ntasks, NULL, pg->o->figure,
		title, "matrix");
	sb_printf(&pg->b, "<p class=\"note\">Pale is good, dark is bad; grey:"
		  " not measured (the word says why); * some repeats were not"
		  " measured.</p>\n");
	rep_task_plots(pg, rf, nm);
	more_maps(pg, rf, nm);
	work_table(pg, rf);
}

static int report_files(const struct report_opts *o,
			const struct result_file *rf, int n, char *err,
			size_t errlen)
{
	struct rep_names nm;
	struct page pg;
	int i, ret = 0;

	page_begin(&pg, o, "interbench report");
	for (i = 0; i < n && !ret; i++) {
		ret = rep_names(&rf[i], &nm);
		if (!ret)
			file_section(&pg, &rf[i], &nm);
		rep_names_free(&nm);
	}
	ret = ret ? ret : page_end(&pg);
	if (!ret)
		ret = report_save(o->out, pg.b.s, pg.b.len);
	if (ret)
		snprintf(err, errlen, "%s: %s", o->out, strerror(-ret));
	sb_free(&pg.b);
	return ret;
}

int report_run_html(const char *path, const struct run_info *ri,
		    const struct result *res, int n)
{
	struct report_opts o = { .out = path, .figure = -1 };
	struct result_file rf;
	char err[512], *text = NULL;
	size_t len = 0;
	int ret;

	ret = json_to_text(ri, res, n, &text, &len);
	if (ret)
		return ret;
	ret = rf_parse(&rf, path, text, len, err, sizeof(err));
	if (ret)
		return ret;
	rf.path = "this run";
	ret = report_files(&o, &rf, 1, err, sizeof(err));
	rf_free(&rf);
	return ret;
}

static const char report_usage[] =
"Usage: interbench report RESULT.json [MORE.json ...] -o FILE.html\n"
"Draw result files of `interbench --json` as one self-contained HTML page.\n"
"  -o, --output FILE  the page to write (required)\n"
"  --svg DIR          also write each picture as its own SVG file in DIR\n"
"  --figure NAME      the figure of the matrix map (default: deadlines\n"
"                     met for periodic tasks, desired CPU for others),\n"
"                     a --fail-if name such as p99 or cpu\n"
"Exit status: 0, 2 on errors (nothing is left half-written).\n";

/* Options and file names: 0, 1 for --help, -EINVAL with err. */
static int report_args(int argc, char **argv, struct report_opts *o,
		       const char **files, int *n, char *err, size_t errlen)
{
	int i, f;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return 1;
		if (a[0] != '-' || !a[1]) {
			files[(*n)++] = a;
			continue;
		}
		if (i + 1 >= argc || !*argv[i + 1]) {
			snprintf(err, errlen, "%s needs a value", a);
			return -EINVAL;
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			o->out = argv[++i];
		} else if (!strcmp(a, "--svg")) {
			o->svg_dir = argv[++i];
		} else if (!strcmp(a, "--figure")) {
			a = argv[++i];
			for (f = 0; f < F_COUNT &&
			     !figure_named(&figures[f], a, strlen(a)); f++)
				;
			if (f == F_COUNT) {
				snprintf(err, errlen, "--figure: no figure "
					 "named '%s'", a);
				return -EINVAL;
			}
			o->figure = f;
		} else {
			snprintf(err, errlen, "unknown option '%s' (see "
				 "interbench report --help)", a);
			return -EINVAL;
		}
	}
	if (!*n || !o->out) {
		snprintf(err, errlen, "need result files and -o FILE.html "
			 "(see interbench report --help)");
		return -EINVAL;
	}
	return 0;
}

/* A directory we may write into: 0 or -errno. */
static int svg_dir_ok(const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

int report_main(int argc, char **argv)
{
	struct report_opts o = { .figure = -1 };
	struct result_file *rf = NULL;
	const char **names = calloc((size_t)argc + 1, sizeof(*names));
	char err[512] = "out of memory";
	int n = 0, i, loaded = 0, ret = -ENOMEM;

	if (names)
		ret = report_args(argc, argv, &o, names, &n, err, sizeof(err));
	if (ret == 1) {
		free(names);
		fputs(report_usage, stdout);
		return fflush(stdout) ? IB_EXIT_USAGE : IB_EXIT_OK;
	}
	if (!ret && (ret = sys_can_replace(o.out)))
		snprintf(err, sizeof(err), "cannot write %s: %s", o.out,
			 strerror(-ret));
	if (!ret && o.svg_dir && (ret = svg_dir_ok(o.svg_dir)))
		snprintf(err, sizeof(err), "--svg %s: %s", o.svg_dir,
			 strerror(-ret));
	if (!ret && !(rf = calloc((size_t)n, sizeof(*rf))))
		ret = -ENOMEM;
	for (i = 0; !ret && i < n; i++, loaded++)
		ret = rf_load(&rf[i], names[i], err, sizeof(err));
	if (!ret)
		ret = report_files(&o, rf, n, err, sizeof(err));
	for (i = 0; i < loaded; i++)
		rf_free(&rf[i]);	/* one that failed is already empty */
	free(rf);
	free(names);
	if (ret) {
		fprintf(stderr, "interbench report: %s\n", err);
		return IB_EXIT_USAGE;
	}
	return IB_EXIT_OK;
}
