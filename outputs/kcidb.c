// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/kcidb.c - the KCIDB report (see kcidb.h). The schema's rules
 * that shape this file (kcidb-io, schema v5.3): every id is "ORIGIN:..."
 * with ORIGIN [a-z0-9_]+; a test path is dot-separated names of
 * [a-zA-Z0-9_-]; no property may be null (so an unknown value is left
 * out, never written as JSON's null); only misc objects are free-form.
 * The figures come from the table of figures: a new figure with a
 * direction (better lower or higher) is a new test with no code here.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "outputs/kcidb.h"
#include "outputs/output.h"
#include "lib/json.h"
#include "lib/safefile.h"
#include "lib/base.h"
#include "core/gate.h"
#include "core/load.h"

#define KCIDB_MAJOR	5
#define KCIDB_MINOR	3
#define ORIGIN		"interbench"

/* The ids of the file's objects, made once from the run. */
struct ids {
	char checkout[512];	/* interbench:HOST/RELEASE/STARTED[/PID] */
	char build[520];	/* the same; ab: .../ab/ID/SIDE */
};

/* A name as a test path's part: [a-zA-Z0-9_-], anything else '_'. */
static void path_part(char *buf, size_t n, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < n; i++)
		buf[i] = isalnum((unsigned char)s[i]) || s[i] == '_' ||
			 s[i] == '-' ? s[i] : '_';
	if (!i && n > 1)
		buf[i++] = '_';
	if (n)
		buf[i] = '\0';
}

void kcidb_figure_name(const struct figure *f, char *buf, size_t n)
{
	char csv[96];
	size_t len;

	figure_csv_name(f, csv, sizeof(csv));
	len = strlen(csv);
	/* the unit is the number's: "latency_p99_us" is latency_p99 */
	if (figure_is_time(f) && len > 3 &&
	    (!strcmp(csv + len - 3, "_us") || !strcmp(csv + len - 3, "_ms")))
		csv[len - 3] = '\0';
	path_part(buf, n, csv);
}

/*
 * Unique and stable: the same run always makes the same ids (the file is
 * written again after every cell), and no two runs make one. A run: the
 * host, the kernel, the second it started and its pid (two runs in one
 * second need --allow-concurrent or locks of their own). ab: its id
 * (time and random bytes, in both sides' files), one checkout for both
 * sides and a build per side.
 */
static void make_ids(struct ids *id, const struct results_info *ri)
{
	const struct sysinfo_ib *si = ri->sys;
	char stamp[32];
	size_t i, k;
	int len;

	if (ri->ab) {
		const struct ab_side *sd = &ri->ab->side[ri->ab_side];

		/* a sweep's states: a build each, by name, of one checkout */
		snprintf(id->checkout, sizeof(id->checkout),
			 ORIGIN ":%s/%s/%s/%s", si->hostname, si->release,
			 sd->label ? "sweep" : "ab", ri->ab->id);
		if (sd->label)
			snprintf(id->build, sizeof(id->build), "%s/%s",
				 id->checkout, sd->label);
		else
			snprintf(id->build, sizeof(id->build), "%s/%c",
				 id->checkout, sd->name);
		return;
	}
	/* 2026-11-25T06:20:16Z as 20261125T062016Z */
	for (i = k = 0; ri->started[i] && k + 1 < sizeof(stamp); i++)
		if (ri->started[i] != '-' && ri->started[i] != ':')
			stamp[k++] = ri->started[i];
	stamp[k] = '\0';
	len = snprintf(id->checkout, sizeof(id->checkout), ORIGIN ":%s/%s/%s",
		       si->hostname, si->release, stamp);
	if (ri->pid && len > 0 && (size_t)len < sizeof(id->checkout))
		snprintf(id->checkout + len, sizeof(id->checkout) - (size_t)len,
			 "/%d", (int)ri->pid);
	snprintf(id->build, sizeof(id->build), "%s", id->checkout);
}

static void checkout(struct jw *w, const struct ids *id,
		     const struct results_info *ri)
{
	const struct sysinfo_ib *si = ri->sys;
	char text[512];

	jw_obj_begin(w, NULL);
	jw_str(w, "id", id->checkout);
	jw_str(w, "origin", ORIGIN);
	snprintf(text, sizeof(text), "the running kernel, %s %s %s: its "
		 "source is not known to interbench", si->sysname,
		 si->release, si->version);
	jw_str(w, "comment", text);
	/* it runs: its source was checked out (tests count on a valid one) */
	jw_bool(w, "valid", true);
	jw_obj_begin(w, "misc");
	jw_str(w, "kernel_release", si->release);
	jw_str(w, "kernel_version", si->version);
	jw_obj_end(w);
	jw_obj_end(w);
}

/* What a side of ab is, in its build's misc. */
static void ab_misc(struct jw *w, const struct results_info *ri)
{
	const struct ab_side *sd = &ri->ab->side[ri->ab_side];
	char side[2] = { sd->name, '\0' };

	jw_obj_begin(w, "ab");
	jw_str(w, "id", ri->ab->id);
	jw_str(w, "side", side);
	if (sd->cmd)
		jw_str(w, "command", sd->cmd);
	if (sd->undo)
		jw_str(w, "undo", sd->undo);
	if (sd->opts)
		jw_str(w, "options", sd->opts);
	if (sd->label)
		jw_str(w, "sweep_state", sd->label);
	jw_obj_end(w);
}

static void build(struct jw *w, const struct ids *id,
		  const struct results_info *ri)
{
	const struct sysinfo_ib *si = ri->sys;
	char text[512], arch[sizeof(si->machine)];
	size_t i;

	jw_obj_begin(w, NULL);
	jw_str(w, "id", id->build);
	jw_str(w, "origin", ORIGIN);
	jw_str(w, "checkout_id", id->checkout);
	snprintf(text, sizeof(text), "%s %s %s on %s, as it runs on %s",
		 si->sysname, si->release, si->version, si->machine,
		 si->hostname);
	jw_str(w, "comment", text);
	/* the schema's architecture is [a-z0-9_]* (uname's x86_64, ...) */
	for (i = 0; si->machine[i] && i + 1 < sizeof(arch); i++)
		arch[i] = isalnum((unsigned char)si->machine[i]) ?
			  (char)tolower((unsigned char)si->machine[i]) : '_';
	arch[i] = '\0';
	if (arch[0])
		jw_str(w, "architecture", arch);
	if (ri->ab) {
		const struct ab_side *sd = &ri->ab->side[ri->ab_side];

		if (sd->label)
			snprintf(text, sizeof(text), "interbench sweep state "
				 "%s", sd->label);
		else
			snprintf(text, sizeof(text), "interbench ab side %c",
				 sd->name);
		jw_str(w, "config_name", text);
	}
	/* it runs, so it was built; a build not PASS voids its tests */
	jw_str(w, "status", "PASS");
	jw_obj_begin(w, "misc");
	jw_str(w, "interbench_version", IB_VERSION);
	jw_str(w, "command_line", ri->plan->args);
	jw_str(w, "started", ri->started);
	if (ri->finished[0])
		jw_str(w, "finished", ri->finished);
	if (ri->interrupted)
		jw_str(w, "interrupted", ri->interrupted);
	jw_bool(w, "realtime_ok", ri->plan->cfg.rt_ok);
	jw_bool(w, "concurrent", ri->concurrent);
	if (si->preempt[0])
		jw_str(w, "preempt", si->preempt);
	/* the process: ab's two builds share it */
	if (si->invocation[0])
		jw_str(w, "invocation", si->invocation);
	if (ri->ab)
		ab_misc(w, ri);
	jw_obj_end(w);
	jw_obj_end(w);
}

/* The machine, on every test. */
static void environment(struct jw *w, const struct results_info *ri)
{
	const struct sysinfo_ib *si = ri->sys;
	char text[320];

	snprintf(text, sizeof(text), "%s, %d CPUs%s%s%s", si->hostname,
		 si->cpus_online, si->cpu_model[0] ? " (" : "", si->cpu_model,
		 si->cpu_model[0] ? ")" : "");
	jw_obj_begin(w, "environment");
	jw_str(w, "comment", text);
	jw_obj_begin(w, "misc");
	jw_str(w, "hostname", si->hostname);
	/*
	 * KCIDB has no field for a boot; it is where the test ran, so that
	 * the tests of several runs tell one boot from several
	 */
	if (si->boot_id[0])
		jw_str(w, "boot_id", si->boot_id);
	jw_int(w, "cpus_online", si->cpus_online);
	if (si->cpu_model[0])
		jw_str(w, "cpu_model", si->cpu_model);
	if (si->st.vm >= 0)
		jw_bool(w, "virtual_machine", si->st.vm);
	jw_obj_end(w);
	jw_obj_end(w);
}

/* A figure's value in the number's unit: seconds for a time. */
static double number_value(const struct figure *f, double v)
{
	return figure_is_time(f) ? v / NSEC_PER_SEC : v;
}

static void number(struct jw *w, const struct figure *f, double v)
{
	const char *unit = figure_out_unit(f);

	jw_obj_begin(w, "number");
	jw_num(w, "value", number_value(f, v));
	if (figure_is_time(f)) {
		/* in seconds, shown with a metric prefix: 160 us */
		jw_str(w, "unit", "s");
		jw_str(w, "prefix", "metric");
	} else if (*unit) {
		jw_str(w, "unit", unit);
	}
	jw_obj_end(w);
}

/* A number that may be unknown: left out then (never null). */
static void num_known(struct jw *w, const char *key, double v)
{
	if (isfinite(v))
		jw_num(w, key, v);
}

/* Each repeat of the cell: its value of f (NaN: none) and the steal. */
static void repeats(struct jw *w, const struct row *row,
		    const struct result *res, int n, const struct figure *f,
		    int fi)
{
	int i;

	jw_arr_begin(w, "repeats");
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (r->sim != row->sim || r->load != row->load)
			continue;
		jw_obj_begin(w, NULL);
		jw_int(w, "repeat", r->repeat);
		if (r->status == RES_OK) {
			if (fi >= 0)
				num_known(w, "value", number_value(f, r->v[fi]));
			num_known(w, "steal_pct", r->v[F_INTF_STEAL]);
		} else {
			jw_str(w, "status", result_status_text(r));
		}
		if (r->nattempts > 1)
			jw_int(w, "attempts", r->nattempts);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* What a test is the same for, whatever its figure. */
struct cell {
	const struct results_info *ri;
	const struct ids *id;
	const struct row *row;
	const struct result *res;
	int n;
	char task[64], load[64];
};

static void test_head(struct jw *w, const struct cell *c, const char *name)
{
	const struct plan *p = c->ri->plan;
	char id[sizeof(c->id->build) + 256], path[256];

	snprintf(path, sizeof(path), "interbench.%s.%s%s%s", c->task, c->load,
		 name ? "." : "", name ? name : "");
	snprintf(id, sizeof(id), "%s/%s", c->id->build, path + 11);
	jw_obj_begin(w, NULL);
	jw_str(w, "id", id);
	jw_str(w, "build_id", c->id->build);
	jw_str(w, "origin", ORIGIN);
	jw_str(w, "path", path);
	jw_str(w, "start_time", c->ri->started);
	jw_num(w, "duration", (double)p->cfg.duration_ns / NSEC_PER_SEC *
	       c->row->n);
	environment(w, c->ri);
}

/*
 * The figure's gates: "DONE" when none names it, else "PASS" or "FAIL"
 * (any broken), with the broken ones said in text.
 */
static const char *judge(const struct cell *c, int fi, char *text,
			 size_t n)
{
	const struct plan *p = c->ri->plan;
	bool judged = false, broken = false;
	size_t used = 0;
	int g, nb;

	text[0] = '\0';
	for (g = 0; g < p->ngates; g++) {
		const struct gate *gt = &p->gates[g];

		if ((int)gt->fig != fi)
			continue;
		judged = true;
		if (!gate_judge(gt, c->row, c->res, c->n, &nb))
			continue;
		broken = true;
		/* one line a broken gate, as many as fit */
		if (used + 2 < n) {
			if (used)
				text[used++] = '\n';
			out_gate_text(text + used, n - used, p, gt, c->row, nb);
			used += strlen(text + used);
		}
	}
	return !judged ? "DONE" : broken ? "FAIL" : "PASS";
}

static void figure_test(struct jw *w, const struct cell *c, int fi)
{
	const struct figure *f = &figures[fi];
	const struct row *row = c->row;
	char name[96], text[1024];
	const char *status = judge(c, fi, text, sizeof(text));

	kcidb_figure_name(f, name, sizeof(name));
	test_head(w, c, name);
	jw_str(w, "status", status);
	number(w, f, row->v[fi]);
	if (text[0])
		jw_str(w, "log_excerpt", text);
	snprintf(text, sizeof(text), "%s of %s under %s: the median of %d "
		 "repeat%s", f->label, row->sim->name, row->load->name,
		 row->ok, row->ok == 1 ? "" : "s");
	jw_str(w, "comment", text);
	jw_obj_begin(w, "misc");
	figure_csv_name(f, name, sizeof(name));
	jw_str(w, "figure", name);
	jw_str(w, "better", f->better == FB_LOWER ? "lower" : "higher");
	jw_str(w, "statistic", "median");
	jw_int(w, "repeats_run", row->n);
	jw_int(w, "repeats_measured", row->ok);
	if (c->ri->plan->remeasure_on)
		jw_int(w, "repeats_remeasured", row->remeasured);
	num_known(w, "steal_pct", row->v[F_INTF_STEAL]);
	repeats(w, row, c->res, c->n, f, fi);
	jw_obj_end(w);
	jw_obj_end(w);
}

/* A cell with repeats not measured: ERROR, or SKIP if none was. */
static void cell_test(struct jw *w, const struct cell *c)
{
	const struct row *row = c->row;
	char text[320];

	test_head(w, c, NULL);
	jw_str(w, "status", !row->ok && row->bad->status == RES_SKIPPED ?
	       "SKIP" : "ERROR");
	snprintf(text, sizeof(text), "%d of %d repeats not measured: %s",
		 row->n - row->ok, row->n, result_status_text(row->bad));
	jw_str(w, "log_excerpt", text);
	snprintf(text, sizeof(text), "%s under %s", row->sim->name,
		 row->load->name);
	jw_str(w, "comment", text);
	jw_obj_begin(w, "misc");
	jw_int(w, "repeats_run", row->n);
	jw_int(w, "repeats_measured", row->ok);
	repeats(w, row, c->res, c->n, NULL, -1);
	jw_obj_end(w);
	jw_obj_end(w);
}

/* The tests of the cells with a result so far, in the matrix's order. */
static int tests(struct jw *w, const struct ids *id,
		 const struct results_info *ri, const struct result *res, int n)
{
	const struct plan *p = ri->plan;
	struct row row;
	struct cell c = { .ri = ri, .id = id, .row = &row, .res = res,
			  .n = n };
	int s, l, i;

	jw_arr_begin(w, "tests");
	for (s = 0; s < p->nsims; s++)
		for (l = 0; l < p->nloads; l++) {
			if (!plan_has(p->sims[s], p->loads[l]))
				continue;
			if (make_row(&row, res, n, p->sims[s], p->loads[l]))
				return -ENOMEM;
			if (!row.n)
				continue;
			path_part(c.task, sizeof(c.task), row.sim->name);
			path_part(c.load, sizeof(c.load), row.load->name);
			if (row.ok < row.n)
				cell_test(w, &c);
			for (i = 0; row.ok && i < F_COUNT; i++)
				if (figures[i].better != FB_NONE &&
				    isfinite(row.v[i]))
					figure_test(w, &c, i);
		}
	jw_arr_end(w);
	return 0;
}

int kcidb_write(const char *path, const struct results_info *ri,
		const struct result *res, int n)
{
	struct safe_file sf;
	struct ids id;
	struct jw w;
	int err;

	make_ids(&id, ri);
	err = safe_file_begin(&sf, path);
	if (err)
		return err;
	jw_init(&w, sf.f);
	jw_obj_begin(&w, NULL);
	jw_obj_begin(&w, "version");
	jw_int(&w, "major", KCIDB_MAJOR);
	jw_int(&w, "minor", KCIDB_MINOR);
	jw_obj_end(&w);
	jw_arr_begin(&w, "checkouts");
	checkout(&w, &id, ri);
	jw_arr_end(&w);
	jw_arr_begin(&w, "builds");
	build(&w, &id, ri);
	jw_arr_end(&w);
	err = tests(&w, &id, ri, res, n);
	jw_obj_end(&w);
	if (!err)
		err = jw_finish(&w);
	if (err) {
		safe_file_abort(&sf);
		return err;
	}
	return safe_file_commit(&sf);
}
