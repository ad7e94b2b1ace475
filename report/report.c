// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report/report.c - `interbench report` and `--html`: the page of a run (see
 * report.h): its header, the matrix at a glance and the work the loads
 * got done here; the plots of distributions, time and repeats in
 * plots.c. The command is cmd/report.c.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"
#include "report/page.h"
#include "core/levels.h"
#include "core/rowmarks.h"
#include "core/schema.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "core/load.h"

/* ---- header and what the loads got done -------------------------------- */

static void hdr_row(struct sbuf *b, const char *k, const char *v)
{
	sb_printf(b, "<tr><th>%s</th><td>", k);
	sb_esc(b, v && *v ? v : "-");
	sb_printf(b, "</td></tr>\n");
}

/* The run's cgroup and its limits (files from before 0.40: none). */
static void cgroup_row(struct sbuf *b, const struct result_file *rf)
{
	const struct rf_cgroup *cg = &rf->cg;
	char s[512], q[160] = "no CPU quota", m[64] = "memory not limited";

	if (!cg->read)
		return;
	if (isfinite(cg->cpu_quota_us))
		snprintf(q, sizeof(q), "CPU quota %g CPU (%g/%g us at %s)",
			 cg->cpu_quota_cpus, cg->cpu_quota_us,
			 cg->cpu_period_us, cg->cpu_quota_at ?: "?");
	if (isfinite(cg->memory_max_bytes))
		snprintf(m, sizeof(m), "memory %.0f MiB (at %s)",
			 cg->memory_max_bytes / (1 << 20),
			 cg->memory_limit_at ?: "?");
	snprintf(s, sizeof(s), "cpu %s: %s; %g of %g CPUs usable%s%s%s; %s%s%s",
		 cg->cpu_path ?: "unknown", q,
		 isfinite(cg->cpus_usable) ? cg->cpus_usable :
		 rf->sys.cpus_online, rf->sys.cpus_online,
		 cg->cpuset_cpus ? " (cpuset " : "", cg->cpuset_cpus ?: "",
		 cg->cpuset_cpus ? ")" : "", m,
		 cg->unread ? "; could not read " : "", cg->unread ?: "");
	hdr_row(b, "cgroup", s);
}

/*
 * Every row mark the file's cells carry (core/rowmarks.h), as the run's
 * console said them: each a confounder, with its cells.
 */
static void marks_warnings(struct sbuf *b, const struct result_file *rf,
			   bool vm)
{
	struct rm_file s;
	char text[512];
	int k;

	if (rm_file_marks(rf, &s)) {
		b->err = -ENOMEM;
		return;
	}
	/* no cell marked [no rt] (none measured yet): the rights alone */
	if (rm_file_no_rt(rf) && !s.n[RM_NO_RT])
		sb_printf(b, "<p class=\"warn\">Confounder: no real-time "
			  "rights; the timing threads ran SCHED_OTHER.</p>\n");
	for (k = 0; k < RM_KINDS; k++) {
		if (!s.n[k])
			continue;
		rm_file_text(&s, k, text, sizeof(text));
		sb_printf(b, "<p class=\"warn\">Confounder: ");
		sb_esc(b, text);
		sb_printf(b, ": ");
		sb_esc(b, s.names[k]);
		sb_printf(b, ".</p>\n");
	}
	/* steal is not the only mark: never let its absence read as quiet */
	if (vm && !s.n[RM_STEAL])
		sb_printf(b, "<p class=\"note\">A virtual machine: no cell "
			  "lost more than %g %% of its CPU time to the host "
			  "(steal)%s.</p>\n", STEAL_MARK_PCT, s.marked ?
			  "; the marks above confound the figures all the "
			  "same" : "");
	else if (s.cells && !s.marked)
		sb_printf(b, "<p class=\"note\">No cell carries a mark "
			  "(steal, busy, throttled, no rt, stalled).</p>\n");
}

void report_print_marks(const struct result_file *rf)
{
	struct rm_file s;
	char text[512];
	int k;

	if (rm_file_marks(rf, &s) || !s.marked)
		return;
	printf("%s: %d of %d cells marked:\n", rf->path, s.marked, s.cells);
	for (k = 0; k < RM_KINDS; k++)
		if (s.n[k]) {
			rm_file_text(&s, k, text, sizeof(text));
			printf("  %s: %s\n", text, s.names[k]);
		}
}

/* What the header's table is followed by: what confounds the run. */
static void header_warnings(struct sbuf *b, const struct result_file *rf)
{
	const struct jval *fin = json_get_type(rf->doc, K_FINISHED, J_STR);

	/* The file's words, escaped: a result file may be anyone's. */
	if (rf->interrupted) {
		sb_printf(b, "<p class=\"warn\">Warning: the run was stopped (");
		sb_esc(b, rf->interrupted);
		sb_printf(b, "): cells after it are missing.</p>\n");
	}
	if (!fin)
		sb_printf(b, "<p class=\"warn\">The run had not finished "
			  "when this was written.</p>\n");
	if (rf->set.concurrent == 1)
		sb_printf(b, "<p class=\"warn\">Confounder: another interbench"
			  " was measuring at the same time.</p>\n");
	marks_warnings(b, rf, rf->sys.virtual_machine == 1);
	/* the burn's cost is the machine's own; its check held off is not */
	if (rf->cal.check_off_cpu_pct > CAL_UNDISTURBED_PCT)
		sb_printf(b, "<p class=\"warn\">Confounder: other tasks or the "
			  "host held the CPU %.1f %% of the burn check's time: "
			  "the machine was busy.</p>\n",
			  rf->cal.check_off_cpu_pct);
}

static void header(struct page *pg, const struct result_file *rf)
{
	const struct rf_system *sys = &rf->sys;
	const struct rf_settings *set = &rf->set;
	const struct jval *v;
	struct sbuf *b = &pg->b;
	char s[512];
	int n;

	sb_printf(b, "<h2>");
	sb_esc(b, rf->path);
	sb_printf(b, "</h2>\n<table>\n");
	snprintf(s, sizeof(s), "%s %s (%s)", sys->sysname ?: "?",
		 sys->release ?: "?", sys->preempt ?: "preempt unknown");
	hdr_row(b, "kernel", s);
	snprintf(s, sizeof(s), "%s: %s, %.0f CPUs, %s, clocksource %s",
		 sys->hostname ?: "?", sys->cpu_model ?: "?",
		 sys->cpus_online, sys->machine ?: "?",
		 sys->clocksource ?: "?");
	hdr_row(b, "machine", s);
	/* Files from before 0.40 lack these: then the row says nothing. */
	if (sys->sched_ext) {
		snprintf(s, sizeof(s), "preempt %s (from %s; build %s), "
			 "sched_ext %s, autogroup %s, RT throttling %g us/s, "
			 "cpuidle governor %s, THP %s%s",
			 sys->preempt ?: "unknown",
			 sys->preempt_source ?: "nowhere readable",
			 sys->preempt_build ?: "?", sys->sched_ext,
			 sys->autogroup < 0 ? "?" : sys->autogroup ? "on" :
			 "off", sys->sched_rt_runtime_us,
			 sys->cpuidle_governor ?: "none",
			 sys->transparent_hugepages ?: "?",
			 sys->virtual_machine == 1 ? ", a virtual machine" :
			 "");
		hdr_row(b, "scheduling", s);
	}
	cgroup_row(b, rf);
	v = json_get_type(rf->doc, K_COMMAND_LINE, J_STR);
	hdr_row(b, "command line", v ? v->str : NULL);
	snprintf(s, sizeof(s), "%g s a cell, %g repeats, %g load threads, "
		 "nice %g/%g, %s", set->duration_s, set->repeats,
		 set->load_threads, set->bench_nice, set->load_nice,
		 set->rt == 1 ? "SCHED_FIFO" : "SCHED_OTHER");
	hdr_row(b, "settings", s);
	n = snprintf(s, sizeof(s), "%.0f loops/ms, burn error %+.2f %%",
		     rf->cal.loops_per_ms, rf->cal.error_pct);
	if (isfinite(rf->cal.spread_pct))
		snprintf(s + n, sizeof(s) - (size_t)n, ", spread %.2f %% "
			 "(measured this run)", rf->cal.spread_pct);
	hdr_row(b, "calibration", s);
	v = json_get_type(rf->doc, K_STARTED, J_STR);
	snprintf(s, sizeof(s), "%s to ", v ? v->str : "?");
	v = json_get_type(rf->doc, K_FINISHED, J_STR);
	snprintf(s + strlen(s), sizeof(s) - strlen(s), "%s",
		 v ? v->str : "(not finished)");
	hdr_row(b, "time", s);
	hdr_row(b, "interbench", rf->version);
	sb_printf(b, "</table>\n");
	header_warnings(b, rf);
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

/* A number of a worst frame's object, or NaN. */
/* A worst frame's keys, and who ran's (core/schema.h's lists). */
#define FK(name)	RF_KEY(frame, name)
#define WK(name)	RF_KEY(who, name)

static double wf_num(const struct jval *f, const char *k)
{
	const struct jval *v = json_get_type(f, k, J_NUM);

	return v ? v->num : NAN;
}

static const char why_head[] =
"<h3>Why it was late (--trace): the worst frames</h3>\n"
"<table><tr><th>task</th><th>load</th><th>repeat</th><th>latency ms</th>"
"<th>timer ms</th><th>fired late ms</th><th>wait ms</th>"
"<th>CPU idle ms</th><th>whose</th><th>ran instead</th></tr>\n";

/* A cell of us as ms, "-" when the file has none. */
static void wf_ms(struct sbuf *b, double us)
{
	if (isnan(us))
		sb_printf(b, "<td class=\"n\">-</td>");
	else
		sb_printf(b, "<td class=\"n\">%.3g</td>", us / 1000);
}

/*
 * A time of the file's in us as the integer ns it was written from
 * (us = ns / 1000 reads back exactly): the page reckons and rounds as
 * the console did from the same ns, so the two never differ in a digit.
 */
static long long wf_ns(double us)
{
	return isnan(us) ? 0 : llround(us * 1000);
}

/* ns as ms, as the console's MS() makes it */
static double wf_ms_of(long long ns)
{
	return (double)ns / 1000000;
}

/*
 * "name:pid 1.23 ms, ..." of a worst frame's list of who ran instead:
 * its first most, then ", other tasks" when the rest add up, as the
 * console's line (outputs/output.c part_text) says them.
 */
static void wf_who(struct sbuf *b, const struct jval *f, const char *key,
		   size_t most, long long others)
{
	const struct jval *a = json_get_type(f, key, J_ARR);
	long long shown = 0;
	size_t i;

	for (i = 0; a && i < a->n && i < most; i++) {
		const struct jval *who = &a->items[i];
		const struct jval *name = json_get_type(who, WK(comm), J_STR);
		long long ns = wf_ns(wf_num(who, WK(us)));

		sb_printf(b, "%s", i ? ", " : "");
		sb_esc(b, name ? name->str : "?");
		sb_printf(b, ":%.0f %.3g ms", wf_num(who, WK(pid)),
			  wf_ms_of(ns));
		shown += ns;
	}
	if (i && others > shown + others / 20)
		sb_printf(b, ", other tasks %.3g ms", wf_ms_of(others - shown));
}

/*
 * Who ran instead in both parts, as the console names them: the timer
 * part's tasks when it was late (the timing thread held up), then the
 * wait part's. A page that named only the wait's missed a culprit that
 * held the timing thread's CPU.
 */
static void why_who(struct sbuf *b, const struct jval *f)
{
	const struct jval *t = json_get_type(f, FK(timer_ran_instead), J_ARR);

	if (t && t->n && wf_ns(wf_num(f, FK(timer_us))) >=
	    (long long)WHY_LATE_NS) {
		sb_printf(b, "timer: ");
		wf_who(b, f, FK(timer_ran_instead), 2,
		       wf_ns(wf_num(f, FK(timer_others_us))));
		sb_printf(b, "; wait: ");
	}
	wf_who(b, f, FK(ran_instead), 3, wf_ns(wf_num(f, FK(others_us))));
}

/* "throttled by cgroup /ci: cpu.max 40000/100000 22.5 ms (inferred)" */
static void why_throttled(struct sbuf *b, const struct jval *f)
{
	const struct jval *by = json_get_type(f, FK(throttled_by), J_STR);
	const struct jval *inf = json_get_type(f, FK(throttle_inferred),
					       J_BOOL);

	sb_printf(b, "<span class=\"warn\">throttled by ");
	sb_esc(b, by ? by->str : "the run's cgroup");
	sb_printf(b, " %.3g ms%s</span>", wf_num(f, FK(throttled_us)) / 1000,
		  inf && inf->b ? " (inferred from the cgroup's counters)" :
		  "");
}

/* One worst frame of a cell's repeat as a row of the table. */
static void why_row(struct sbuf *b, const struct file_cell *c, size_t r,
		    const struct jval *f)
{
	const struct jval *cause = json_get_type(f, FK(idle_cause), J_STR);

	sb_printf(b, "<tr><td>");
	sb_esc(b, c->bench);
	sb_printf(b, "</td><td>");
	sb_esc(b, c->load);
	sb_printf(b, "</td><td class=\"n\">%d</td>", c->ok[r].repeat);
	wf_ms(b, wf_num(f, FK(latency_us)));
	wf_ms(b, wf_num(f, FK(timer_us)));
	wf_ms(b, wf_num(f, FK(timer_fired_late_us)));
	wf_ms(b, wf_num(f, FK(wait_us)));
	wf_ms(b, wf_num(f, FK(timer_idle_us)) + wf_num(f, FK(wait_idle_us)));
	/* Whose the idle time was: no task's. */
	sb_printf(b, "<td>");
	if (cause && !strcmp(cause->str, "host"))
		sb_printf(b, "<span class=\"warn\">host (steal or vCPU "
			  "wakeup) %.3g ms</span>",
			  wf_num(f, FK(host_us)) / 1000);
	else if (cause && !strcmp(cause->str, "throttled"))
		why_throttled(b, f);
	else if (cause)
		sb_printf(b, "host steal or idle-state exit");
	sb_printf(b, "</td><td>");
	why_who(b, f);
	sb_printf(b, "</td></tr>\n");
}

/*
 * --trace: each repeat's worst frames, whose CPU time the host took and
 * who ran instead; a file without them (no --trace) gets nothing.
 */
static void why_table(struct page *pg, const struct result_file *rf)
{
	struct sbuf *b = &pg->b;
	bool any = false;
	size_t i, r, k;

	for (i = 0; i < rf->n_cells; i++)
		for (r = 0; r < rf->cells[i].n_ok; r++) {
			const struct jval *a = json_get_type(
				rf->cells[i].ok[r].res, K_WORST_FRAMES, J_ARR);

			for (k = 0; a && k < a->n; k++) {
				if (!any)
					sb_printf(b, "%s", why_head);
				any = true;
				why_row(b, &rf->cells[i], r, &a->items[k]);
			}
		}
	if (any)
		sb_printf(b, "</table>\n<p class=\"note\">fired late: from "
			  "the release to the timer's interrupt; CPU idle: "
			  "no task ran while the frame was late; in a "
			  "virtual machine that time is the host's, unless "
			  "the run's cgroup had used up its CPU quota "
			  "(throttled).</p>\n");
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
	why_table(pg, rf);
	rep_swimlanes(pg, rf);		/* swimlane.c: the frames drawn */
}

struct differs {
	struct sbuf *b;
	bool any;
};

static void differs_row(void *ctx, const char *key, const char *va,
			const char *vb)
{
	struct differs *d = ctx;

	if (!d->any)
		sb_printf(d->b, "<table>\n<tr><th>setting</th><th>first file"
			  "</th><th>this file</th></tr>\n");
	d->any = true;
	sb_printf(d->b, "<tr><td>");
	sb_esc(d->b, key);
	sb_printf(d->b, "</td><td>");
	sb_esc(d->b, va);
	sb_printf(d->b, "</td><td>");
	sb_esc(d->b, vb);
	sb_printf(d->b, "</td></tr>\n");
	printf("  %-34s %s -> %s\n", key, va, vb);
}

/*
 * First, what was recorded differently (each file against the first):
 * on the page and on stdout.
 */
static void differs_section(struct page *pg, const struct result_file *rf,
			    int n)
{
	int i;

	if (n < 2)
		return;
	sb_printf(&pg->b, "<h2>Settings recorded differently</h2>\n");
	for (i = 1; i < n; i++) {
		struct differs d = { &pg->b, false };

		printf("Settings recorded differently in %s and %s:\n",
		       rf[0].path, rf[i].path);
		sb_printf(&pg->b, "<p>");
		sb_esc(&pg->b, rf[i].path);
		sb_printf(&pg->b, " against ");
		sb_esc(&pg->b, rf[0].path);
		sb_printf(&pg->b, ":</p>\n");
		rf_settings_diff(&rf[0], &rf[i], differs_row, &d);
		if (d.any) {
			sb_printf(&pg->b, "</table>\n");
		} else {
			sb_printf(&pg->b, "<p>none: the machine and "
				  "interbench's settings were recorded the "
				  "same</p>\n");
			printf("  none: the machine and interbench's settings "
			       "were recorded the same\n");
		}
	}
}

/* An id's first 8 hex digits (enough to tell boots apart), "-": none. */
static const char *short_id(char *buf, size_t n, const char *id)
{
	snprintf(buf, n, "%.8s", id ? id : "-");
	return buf;
}

/*
 * Then where each file was measured, where the files differ in it: its
 * boot and its invocation (the process), and how many of each the files
 * come from. Files of one boot share what the boot set up, whatever
 * else differs; ab's A and B share the process too.
 */
static void levels_section(struct page *pg, const struct result_file *rf,
			   int n)
{
	struct sbuf *b = &pg->b;
	struct rf_levels lv;
	char s[160], bt[16], inv[16];
	int i, w = 0;

	rf_levels(rf, n, &lv);
	if (n < 2 || !rf_levels_known(&lv))
		return;
	rf_levels_text(s, sizeof(s), &lv);
	sb_printf(b, "<h2>Boots and invocations</h2>\n<p>The %d files come "
		  "from %s", n, s);
	printf("The %d files come from %s", n, s);
	if (lv.boots == 1 && lv.invocations == 1 && !lv.no_boot &&
	    !lv.no_invocation) {
		short_id(bt, sizeof(bt), rf[0].boot_id);
		short_id(inv, sizeof(inv), rf[0].invocation);
		sb_printf(b, " (boot %s, invocation %s): what the boot set up "
			  "falls on each alike.</p>\n", bt, inv);
		printf(" (boot %s, invocation %s)\n", bt, inv);
		return;
	}
	sb_printf(b, ":</p>\n<table>\n<tr><th>file</th><th>boot</th>"
		  "<th>invocation</th></tr>\n");
	printf(":\n");
	for (i = 0; i < n; i++)
		if ((int)strlen(rf[i].path) > w)
			w = (int)strlen(rf[i].path);
	for (i = 0; i < n; i++) {
		short_id(bt, sizeof(bt), rf[i].boot_id);
		short_id(inv, sizeof(inv), rf[i].invocation);
		sb_printf(b, "<tr><td>");
		sb_esc(b, rf[i].path);
		sb_printf(b, "</td><td>");
		sb_esc(b, bt);
		sb_printf(b, "</td><td>");
		sb_esc(b, inv);
		sb_printf(b, "</td></tr>\n");
		printf("  %-*s  boot %-8s  invocation %s\n", w, rf[i].path, bt,
		       inv);
	}
	sb_printf(b, "</table>\n<p class=\"note\">The first 8 hex digits of "
		  "each id; -: the file does not record it (an older "
		  "interbench). Files of one boot share what it set up (memory"
		  " layout, the order devices came up): a difference between "
		  "them is not one boot against another; a difference between"
		  " boots may be.</p>\n");
}

/* A figure of the lead's maps: the main one, or one by its id. */
static void side_map(struct page *pg, const struct result_file *rf, int n,
		     const struct rep_names *all, int fig)
{
	char title[160];

	snprintf(title, sizeof(title), "%s, file by file", fig >= 0 ?
		 figures[fig].label : "% deadlines met (periodic tasks), "
		 "% desired CPU (others)");
	rep_map_files(pg, rf, n, all, NULL, fig, title, fig >= 0 ?
		      figures[fig].key : "matrix");
}

/*
 * Two files or more: first each cell of every file side by side, on the
 * scales every map of the page shares, and where the verdict is.
 */
static int side_section(struct page *pg, const struct result_file *rf,
			int n)
{
	const int figs[] = { pg->o->figure, F_LAT_P99, F_FPS_LOW1,
			     F_STUTTERS };
	struct rep_names all;
	int i, ret = rep_names_all(rf, n, &all);

	if (ret) {
		rep_names_free(&all);
		return ret;
	}
	sb_printf(&pg->b, "<h2>The files side by side</h2>\n<p>Each cell "
		  "of every file, numbered as given (");
	for (i = 0; i < n; i++) {
		sb_printf(&pg->b, "%s%d: ", i ? ", " : "", i + 1);
		sb_esc(&pg->b, rf[i].path);
	}
	sb_printf(&pg->b, "), each figure on one colour scale for every file,"
		  " as every map of this page. This page shows the files; it "
		  "does not judge them: whether the second is better or worse"
		  " than the first, cell by cell with intervals and a verdict,"
		  " is <code>interbench compare FIRST.json SECOND.json --html "
		  "FILE</code>'s page.</p>\n");
	if ((size_t)all.ntasks * (size_t)all.nloads * (size_t)n >
	    REP_MAX_MAP) {
		sb_printf(&pg->b, "<p>(%d tasks x %d loads x %d files: more "
			  "than a map draws.)</p>\n", all.ntasks, all.nloads,
			  n);
		rep_names_free(&all);
		return 0;
	}
	sb_printf(&pg->b, "<div class=\"pics\">");
	for (i = 0; i < (int)(sizeof(figs) / sizeof(*figs)); i++)
		if (!i || figs[i] != figs[0])
			side_map(pg, rf, n, &all, figs[i]);
	sb_printf(&pg->b, "</div>\n");
	rep_names_free(&all);
	return 0;
}

int report_files(const struct report_opts *o, const struct result_file *rf,
		 int n, char *err, size_t errlen)
{
	struct rep_names nm;
	struct page pg;
	int i, ret = 0;

	page_begin(&pg, o, "interbench report");
	pg.files = rf;
	pg.nfiles = n;
	differs_section(&pg, rf, n);
	levels_section(&pg, rf, n);
	if (n > 1)
		ret = side_section(&pg, rf, n);
	for (i = 0; i < n && !ret; i++) {
		ret = rep_names(&rf[i], &nm);
		/*
		 * The maps are tasks x loads: past a bound the page would
		 * grow with its square, not with the file (a crafted file).
		 */
		if (!ret && (size_t)nm.ntasks * (size_t)nm.nloads >
		    REP_MAX_MAP) {
			snprintf(err, errlen, "%s: %d tasks x %d loads: more "
				 "than a page draws (%d cells in its matrix)",
				 rf[i].path, nm.ntasks, nm.nloads, REP_MAX_MAP);
			rep_names_free(&nm);
			sb_free(&pg.b);
			return -E2BIG;
		}
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

int report_run_page(const char *path, const struct result_file *rf)
{
	struct report_opts o = { .out = path, .figure = -1 };
	char err[512];

	return report_files(&o, rf, 1, err, sizeof(err));
}

static int set_figure(void *base, const char *val, char *err, size_t n)
{
	int f;

	for (f = 0; f < F_COUNT &&
	     !figure_named(&figures[f], val, strlen(val)); f++)
		;
	if (f == F_COUNT) {
		snprintf(err, n, "no figure named '%s'", val);
		return -EINVAL;
	}
	((struct report_opts *)base)->figure = f;
	return 0;
}

#define R(field)	offsetof(struct report_opts, field)

/* report's options: parsing, --help and the shell completion. */
const struct opt report_options[] = {
	{ .name = "output", .letter = 'o', .type = OT_PATH, .arg = "FILE",
	  .off = R(out), .help = "the page to write (required)" },
	{ .name = "svg", .type = OT_PATH, .arg = "DIR", .off = R(svg_dir),
	  .complete = OC_DIR,
	  .help = "also write each picture as its own SVG file in DIR" },
	{ .name = "figure", .type = OT_CALL, .arg = "NAME",
	  .parse = set_figure,
	  .help = "the figure of the matrix map (default: deadlines\n"
		  "met for periodic tasks, desired CPU for others),\n"
		  "a --fail-if name such as p99 or cpu" },
	{ .name = "help", .letter = 'h', .type = OT_ACTION,
	  .help = "show this help" },
	{ .name = NULL },
};
