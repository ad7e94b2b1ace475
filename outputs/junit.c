// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/junit.c - the JUnit XML file for CI servers (see junit.h). The
 * figures come from the table of figures: a new figure is a new property
 * with no code here.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "outputs/junit.h"
#include "outputs/output.h"
#include "lib/safefile.h"
#include "lib/text.h"
#include "lib/base.h"
#include "core/load.h"

static void property(FILE *f, const char *indent, const char *name,
		     const char *value)
{
	fprintf(f, "%s<property name=\"", indent);
	text_xml(f, name);
	fputs("\" value=\"", f);
	text_xml(f, value ? value : "");
	fputs("\"/>\n", f);
}

/* A figure's value as the JSON has it: times in us, counts whole. */
static void figure_property(FILE *f, const struct figure *fig, double v)
{
	char name[96], val[64];

	if (isnan(v))
		return;
	figure_csv_name(fig, name, sizeof(name));
	if (fig->unit == FU_COUNT)
		snprintf(val, sizeof(val), "%.0f", v);
	else
		snprintf(val, sizeof(val), "%.6g", figure_out(fig, v));
	property(f, "        ", name, val);
}

/* How a cell went, in JUnit's words. */
enum verdict { V_PASS, V_FAILURE, V_ERROR, V_SKIPPED };

struct cell {
	struct row w;
	enum verdict v;
	int broken;			/* --fail-if gates it breaks */
	const struct result *res;	/* the run's results, to say which */
	int nres;			/* were measured again */
};

static void judge(struct cell *c, const struct plan *p)
{
	int g;

	c->broken = 0;
	if (!c->w.ok) {
		c->v = c->w.bad->status == RES_SKIPPED ? V_SKIPPED : V_ERROR;
		return;
	}
	/* the gates as out_check_gates() judges them */
	for (g = 0; g < p->ngates; g++) {
		int nb;

		c->broken += gate_judge(&p->gates[g], &c->w, c->res, c->nres,
					&nb);
	}
	c->v = c->broken ? V_FAILURE : c->w.ok < c->w.n ? V_ERROR : V_PASS;
}

/* What --fail-if found, one line a broken gate. */
static void gate_lines(FILE *f, const struct plan *p, const struct cell *c,
		       bool first_only)
{
	int g, nb;

	for (g = 0; g < p->ngates; g++) {
		const struct gate *gt = &p->gates[g];
		char line[400];

		if (!gate_judge(gt, &c->w, c->res, c->nres, &nb))
			continue;
		out_gate_text(line, sizeof(line), p, gt, &c->w, nb);
		text_xml(f, line);
		if (first_only)
			return;
		fputc('\n', f);
	}
}

/* --remeasure-if: each attempt of each repeat measured again. */
static void remeasured_out(FILE *f, const struct plan *p,
			   const struct cell *c)
{
	char line[1024];
	bool any = false;
	int i;

	for (i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];

		if (r->sim != c->w.sim || r->load != c->w.load ||
		    r->nattempts < 2)
			continue;
		fputs(any ? "\n" : "      <system-out>", f);
		any = true;
		out_remeasured_line(line, sizeof(line), &p->remeasure_if, r);
		fprintf(f, "repeat %d: ", r->repeat);
		text_xml(f, line);
	}
	if (any)
		fputs("</system-out>\n", f);
}

static void testcase(FILE *f, const struct plan *p, const struct cell *c)
{
	const struct row *w = &c->w;
	double secs = (double)p->cfg.duration_ns / NSEC_PER_SEC * w->n;
	char num[32];
	int i;

	fputs("    <testcase classname=\"interbench.", f);
	text_xml(f, w->sim->name);
	fputs("\" name=\"", f);
	text_xml(f, w->load->name);
	fprintf(f, "\" time=\"%.3f\">\n      <properties>\n", secs);
	snprintf(num, sizeof(num), "%d", w->n);
	property(f, "        ", "repeats", num);
	snprintf(num, sizeof(num), "%d", w->ok);
	property(f, "        ", "repeats_measured", num);
	for (i = 0; w->ok && i < F_COUNT; i++)
		figure_property(f, &figures[i], w->v[i]);
	for (i = 0; w->ok && i < WORK_KINDS; i++) {
		char key[64];

		if (!(w->work_rate[i] > 0))
			continue;
		snprintf(key, sizeof(key), "load_%s_per_s", work_units[i].key);
		snprintf(num, sizeof(num), "%.6g", w->work_rate[i]);
		property(f, "        ", key, num);
	}
	if (p->remeasure_on) {
		snprintf(num, sizeof(num), "%d", w->remeasured);
		property(f, "        ", "repeats_remeasured", num);
	}
	fputs("      </properties>\n", f);
	switch (c->v) {
	case V_PASS:
		break;
	case V_FAILURE:
		fputs("      <failure type=\"fail-if\" message=\"", f);
		gate_lines(f, p, c, true);
		fputs("\">", f);
		gate_lines(f, p, c, false);
		fputs("</failure>\n", f);
		break;
	case V_ERROR:
	case V_SKIPPED:
		fprintf(f, "      <%s message=\"", c->v == V_ERROR ?
			"error" : "skipped");
		if (w->ok)
			fprintf(f, "%d of %d repeats not measured: ",
				w->n - w->ok, w->n);
		text_xml(f, result_status_text(w->bad));
		fputs("\"/>\n", f);
		break;
	}
	/* After the outcome, as JUnit's schema orders them. */
	remeasured_out(f, p, c);
	fputs("    </testcase>\n", f);
}

/* The run's description, on every suite (JUnit has no document's). */
static void run_properties(FILE *f, const struct results_info *ri)
{
	const char *ind = "      ";
	char pid[32];

	property(f, ind, "interbench_version", IB_VERSION);
	property(f, ind, "kernel", ri->sys->release);
	property(f, ind, "command_line", ri->plan->args);
	property(f, ind, "started", ri->started);
	if (ri->finished[0])
		property(f, ind, "finished", ri->finished);
	if (ri->interrupted)
		property(f, ind, "interrupted", ri->interrupted);
	property(f, ind, "realtime_ok", ri->plan->cfg.rt_ok ? "true" : "false");
	property(f, ind, "allow_concurrent",
		 ri->plan->allow_concurrent ? "true" : "false");
	property(f, ind, "concurrent", ri->concurrent ? "true" : "false");
	if (ri->concurrent && ri->concurrent_pid) {
		snprintf(pid, sizeof(pid), "%d", (int)ri->concurrent_pid);
		property(f, ind, "concurrent_pid", pid);
	}
	if (ri->other_user) {
		snprintf(pid, sizeof(pid), "%u", (unsigned int)ri->other_uid);
		property(f, ind, "concurrent_uid", pid);
	}
}

struct counts {
	int tests, failures, errors, skipped;
	double time;
};

static void count(struct counts *t, const struct cell *c,
		  const struct plan *p)
{
	t->tests++;
	t->failures += c->v == V_FAILURE;
	t->errors += c->v == V_ERROR;
	t->skipped += c->v == V_SKIPPED;
	t->time += (double)p->cfg.duration_ns / NSEC_PER_SEC * c->w.n;
}

static void counts_attrs(FILE *f, const struct counts *t)
{
	fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"%d\" "
		"skipped=\"%d\" time=\"%.3f\"", t->tests, t->failures,
		t->errors, t->skipped, t->time);
}

static void document(FILE *f, const struct results_info *ri,
		     const struct cell *cells, int ncells)
{
	const struct plan *p = ri->plan;
	struct counts all = { 0 };
	int s, i;

	for (i = 0; i < ncells; i++)
		count(&all, &cells[i], p);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<testsuites name=\"interbench\"", f);
	counts_attrs(f, &all);
	fputs(">\n", f);
	for (s = 0; s < p->nsims; s++) {
		struct counts t = { 0 };

		for (i = 0; i < ncells; i++)
			if (cells[i].w.sim == p->sims[s])
				count(&t, &cells[i], p);
		if (!t.tests)
			continue;
		fputs("  <testsuite name=\"", f);
		text_xml(f, p->sims[s]->name);
		fputc('"', f);
		counts_attrs(f, &t);
		fputs(" timestamp=\"", f);
		text_xml(f, ri->started);
		fputs("\" hostname=\"", f);
		text_xml(f, ri->sys->hostname);
		fputs("\">\n    <properties>\n", f);
		run_properties(f, ri);
		fputs("    </properties>\n", f);
		for (i = 0; i < ncells; i++)
			if (cells[i].w.sim == p->sims[s])
				testcase(f, p, &cells[i]);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}

/* The cells with a result so far, in the matrix's order, judged. */
static int make_cells(const struct results_info *ri, const struct result *res,
		      int n, struct cell **out)
{
	const struct plan *p = ri->plan;
	struct cell *cells = calloc((size_t)p->per_pass + 1, sizeof(*cells));
	int s, l, k = 0;

	if (!cells)
		return -ENOMEM;
	for (s = 0; s < p->nsims; s++)
		for (l = 0; l < p->nloads; l++) {
			if (!plan_has(p->sims[s], p->loads[l]))
				continue;
			if (make_row(&cells[k].w, res, n, p->sims[s],
				     p->loads[l])) {
				free(cells);
				return -ENOMEM;
			}
			if (!cells[k].w.n)
				continue;
			cells[k].res = res;
			cells[k].nres = n;
			judge(&cells[k], p);
			k++;
		}
	*out = cells;
	return k;
}

int junit_write(const char *path, const struct results_info *ri,
		const struct result *res, int n)
{
	struct safe_file sf;
	struct cell *cells;
	int ncells, err;

	ncells = make_cells(ri, res, n, &cells);
	if (ncells < 0)
		return ncells;
	err = safe_file_begin(&sf, path);
	if (!err) {
		document(sf.f, ri, cells, ncells);
		err = safe_file_commit(&sf);
	}
	free(cells);
	return err;
}
