// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/ktap.c - the run as KTAP version 1 (see ktap.h). A cell is
 * judged as JUnit judges it (outputs/junit.c): not ok when a --fail-if
 * gate broke or a repeat was not measured, skipped when its load could
 * not be set up. The figures come from the table of figures, in the
 * units the JSON has.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "outputs/ktap.h"
#include "lib/ktap.h"
#include "outputs/output.h"
#include "lib/safefile.h"
#include "lib/base.h"

/* A diagnostic line at depth: "# " and the text. */
static void diag(FILE *f, int depth, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void diag(FILE *f, int depth, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ktap_indent(f, depth);
	fputs("# ", f);
	ktap_text(f, line, false);
	fputc('\n', f);
}

/* Figure id of row w as the JSON gives it: "12.3 us", or "unknown". */
static const char *value(char *buf, size_t n, const struct row *w,
			 enum fig_id id)
{
	const struct figure *fig = &figures[id];
	const char *u = figure_out_unit(fig);
	double v = figure_out(fig, w->v[id]);

	/* 4 digits, as a person reads them: 22663 us, not 2.266e+04 us */
	if (isnan(v))
		snprintf(buf, n, "unknown");
	else
		snprintf(buf, n, fabs(v) < 1e4 ? "%.4g%s%s" : "%.0f%s%s", v,
			 *u ? " " : "", u);
	return buf;
}

/*
 * A subtest per --fail-if gate, each with the figure it judged (or, when
 * broken, the line the console says): how many broke.
 */
static int gate_tests(FILE *f, const struct plan *p, const struct row *w,
		      const struct result *res, int n)
{
	char line[400], name[160], v[48];
	int g, nb, broken = 0;

	ktap_head(f, 1, p->ngates);
	for (g = 0; g < p->ngates; g++) {
		const struct gate *gt = &p->gates[g];
		bool bad = gate_judge(gt, w, res, n, &nb);

		if (bad)
			out_gate_text(line, sizeof(line), p, gt, w, nb);
		else if (gt->k)
			snprintf(line, sizeof(line), "past it in %d of %d "
				 "repeats; it fails in %d", nb, w->ok, gt->k);
		else
			snprintf(line, sizeof(line), "%s %s",
				 figures[gt->fig].label,
				 value(v, sizeof(v), w, gt->fig));
		diag(f, 1, "%s", line);
		snprintf(name, sizeof(name), "fail-if %s", gt->text);
		ktap_result(f, 1, !bad, g + 1, name, NULL);
		broken += bad;
	}
	return broken;
}

/* What confounds the row: the table's marks (output.c), in its unit. */
static void marks(FILE *f, const struct plan *p, const struct row *w)
{
	char m[512];

	out_row_marks(m, sizeof(m), p, w);
	if (m[0])
		diag(f, 0, "marks:%s", m);
}

/* The row's figures, the tables' own, as diagnostic lines. */
static void figures_diag(FILE *f, const struct plan *p, const struct row *w)
{
	char a[48], b[48], c[48];

	diag(f, 0, "latency mean %s, p99 %s, max %s",
	     value(a, sizeof(a), w, F_LAT_MEAN),
	     value(b, sizeof(b), w, F_LAT_P99),
	     value(c, sizeof(c), w, F_LAT_MAX));
	if (w->sim->flags & SIM_DEADLINES)
		diag(f, 0, "deadlines met %s, desired CPU %s",
		     value(a, sizeof(a), w, F_MET),
		     value(b, sizeof(b), w, F_DESIRED));
	else
		diag(f, 0, "desired CPU %s", value(a, sizeof(a), w, F_DESIRED));
	diag(f, 0, "repeats measured %d of %d", w->ok, w->n);
	marks(f, p, w);
}

/* Cell num: its gates, figures and result line. */
static void cell(FILE *f, const struct results_info *ri, int num,
		 const struct row *w, const struct result *res, int n)
{
	const struct plan *p = ri->plan;
	char name[128], why[400];
	int broken = 0;

	snprintf(name, sizeof(name), "%s/%s", w->sim->name, w->load->name);
	if (!w->n) {
		/* not reached yet, or stopped before or during its cell */
		if (ri->finished[0])
			snprintf(why, sizeof(why), "SKIP not measured: the run "
				 "ended first%s%s", ri->interrupted ?
				 ", " : "", ri->interrupted ?
				 ri->interrupted : "");
		else
			snprintf(why, sizeof(why), "SKIP not measured yet");
		ktap_result(f, 0, true, num, name, why);
		return;
	}
	if (!w->ok) {
		bool skipped = w->bad->status == RES_SKIPPED;

		snprintf(why, sizeof(why), "%s %s", skipped ? "SKIP" : "ERROR",
			 result_status_text(w->bad));
		ktap_result(f, 0, skipped, num, name, why);
		return;
	}
	if (p->ngates)
		broken = gate_tests(f, p, w, res, n);
	figures_diag(f, p, w);
	if (w->ok < w->n)
		diag(f, 0, "%d of %d repeats not measured: %s", w->n - w->ok,
		     w->n, result_status_text(w->bad));
	why[0] = '\0';
	if (broken)
		snprintf(why, sizeof(why), "%d of %d --fail-if gates broken",
			 broken, p->ngates);
	ktap_result(f, 0, !broken && w->ok == w->n, num, name, why);
}

int ktap_print(FILE *f, const struct results_info *ri,
	       const struct result *res, int n)
{
	const struct plan *p = ri->plan;
	struct row w;
	int s, l, num = 0;

	ktap_head(f, 0, p->per_pass);
	diag(f, 0, "interbench %s on Linux %s, host %s", IB_VERSION,
	     ri->sys->release, ri->sys->hostname);
	/* whole: a command line may be longer than diag()'s line */
	fputs("# command: ", f);
	ktap_text(f, p->args, false);
	fputc('\n', f);
	diag(f, 0, "started %s%s%s", ri->started, ri->finished[0] ?
	     ", finished " : "", ri->finished);
	if (ri->interrupted)
		diag(f, 0, "interrupted: %s", ri->interrupted);
	for (s = 0; s < p->nsims; s++)
		for (l = 0; l < p->nloads; l++) {
			if (!plan_has(p->sims[s], p->loads[l]))
				continue;
			if (make_row(&w, res, n, p->sims[s], p->loads[l]))
				return -ENOMEM;
			cell(f, ri, ++num, &w, res, n);
		}
	return ferror(f) ? -EIO : 0;
}

int ktap_write(const char *path, const struct results_info *ri,
	       const struct result *res, int n)
{
	struct safe_file sf;
	int err;

	err = safe_file_begin(&sf, path);
	if (err)
		return err;
	err = ktap_print(sf.f, ri, res, n);
	if (err) {
		safe_file_abort(&sf);
		return err;
	}
	return safe_file_commit(&sf);
}
