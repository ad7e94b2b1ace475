// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session/outputs.c - a run's outputs: each result handed to every one
 * as it comes in (the table, CSV, JSON, JUnit, KCIDB, the page), and all
 * of them written whole at the end, an output that cannot be making the
 * exit status 3.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "session/session.h"
#include "core/load.h"
#include "lib/base.h"
#include "lib/safefile.h"
#include "loads/loads.h"
#include "outputs/output.h"
#include "outputs/results.h"
#include "outputs/sink.h"

/* ---- outputs -------------------------------------------------------- */

/*
 * Every sink a run may write, in the order each op is called and a
 * failure said: the JSON, JUnit, KCIDB and KTAP files, the page (drawn by
 * the session's page, which cmd/ hands down), the CSV, the --trace-out
 * file. Each with its file's field in the plan.
 */
static const struct {
	const struct output_sink_ops *ops;
	size_t path;
	const char *what;		/* "Wrote PATH (what)" at the end */
} sinks[] = {
	{ &output_sink_json, offsetof(struct plan, json_path),
	  "the results as JSON" },
	{ &output_sink_junit, offsetof(struct plan, junit_path),
	  "the results as JUnit XML" },
	{ &output_sink_kcidb, offsetof(struct plan, kcidb_path),
	  "the results as a KCIDB report" },
	{ &output_sink_ktap, offsetof(struct plan, ktap_path),
	  "the results as KTAP" },
	{ &output_sink_html, offsetof(struct plan, html_path),
	  "the run's page" },
	{ &output_sink_csv, offsetof(struct plan, csv_path),
	  "the results as CSV" },
	{ &output_sink_tef, offsetof(struct plan, trace_out_path),
	  "the trace in Trace Event Format" },
};
_Static_assert(sizeof(sinks) / sizeof(sinks[0]) == RUN_SINKS,
	       "struct session has a state for each sink of the table");

/* The table's i-th sink, with its file; NULL when not asked for. */
static struct output_sink *sink_at(struct session *r, int i)
{
	struct output_sink *s = &r->sink[i];

	s->path = *(const char *const *)((const char *)&r->plan +
					 sinks[i].path);
	s->draw = r->page;
	return s->path ? s : NULL;
}

void session_outputs(const struct plan *p, struct sys_output *out)
{
	int i;

	for (i = 0; i < RUN_SINKS; i++)
		out[i] = (struct sys_output){
			.opt = sinks[i].ops->name,
			.path = *(const char *const *)((const char *)p +
						       sinks[i].path),
			.std = sinks[i].ops->std,
		};
}

enum sink_step { SINK_BEGIN, SINK_ADD, SINK_END };

/*
 * Every sink asked for hears of the step, each failure said once a sink:
 * 0, or -errno when any failed.
 */
static int sinks_tell(struct session *r, enum sink_step step)
{
	int (*op)(struct output_sink *s, const struct results_info *ri,
		  const struct result *res, int n);
	const struct output_sink_ops *o;
	struct output_sink *s;
	int i, err, ret = 0;

	for (i = 0; i < RUN_SINKS; i++) {
		o = sinks[i].ops;
		op = step == SINK_BEGIN ? o->begin :
		     step == SINK_ADD ? o->add : o->end;
		s = sink_at(r, i);
		if (!s || !op)
			continue;
		err = op(s, &r->info, r->res, r->nres);
		if (!err)
			continue;
		ret = err;
		if (!s->warned)
			fprintf(stderr, "interbench: cannot write %s: %s\n",
				s->path, strerror(-err));
		s->warned = true;
	}
	return ret;
}

int session_stdout_aside(struct session *r)
{
	struct output_sink *s;
	int i;

	for (i = 0; i < RUN_SINKS; i++) {
		s = sink_at(r, i);
		if (!s || !sinks[i].ops->std || strcmp(s->path, SAFE_STDOUT))
			continue;
		s->f = safe_stdout_aside();
		if (!s->f)
			return session_fail(IB_EXIT_SETUP, "option %s: standard "
					    "output: %s", sinks[i].ops->name,
					    strerror(errno));
	}
	return 0;
}

int session_open_outputs(struct session *r)
{
	struct output_sink *s;
	int i, err;

	for (i = 0; i < RUN_SINKS; i++) {
		s = sink_at(r, i);
		if (!s || !sinks[i].ops->open)
			continue;
		err = sinks[i].ops->open(s);
		if (err)
			return session_fail(IB_EXIT_USAGE, "option %s: cannot "
					    "write %s: %s", sinks[i].ops->name,
					    s->path, strerror(-err));
	}
	return 0;
}

void session_begin_outputs(struct session *r)
{
	sinks_tell(r, SINK_BEGIN);
}

/* The run has ended (or was stopped): every file whole, and closed. */
int session_close_outputs(struct session *r)
{
	int ret = 0;

	iso_now(r->info.finished, sizeof(r->info.finished));
	/*
	 * An output that could not be written whole at the end: said (once)
	 * and exit 3. What was valid before is left so (doc/files.txt).
	 */
	if (sinks_tell(r, SINK_END))
		ret = IB_EXIT_SETUP;
	/* fclose() fails with the first failed write's errno (safefile.h) */
	if (r->con.log && fclose(r->con.log)) {
		fprintf(stderr, "interbench: cannot write the logfile %s: %s\n",
			r->log_name, strerror(errno));
		ret = IB_EXIT_SETUP;
	}
	r->con.log = NULL;
	return ret;
}

/* A result is in: every output hears of it. */
void session_result_done(struct session *r)
{
	const struct result *res = &r->res[r->nres - 1];

	if (res->status != RES_OK)
		r->nbad++;
	if (r->plan.repeats == 1)
		out_result(&r->con, r->res, r->nres);
	out_remeasured(&r->con, res);
	out_why(&r->con, res);
	/* The run's cgroup went away (or its files) mid-run: said once. */
	if (res->status == RES_OK && r->cg->at[CG_CPU].version &&
	    isnan(res->v[F_INTF_THROTTLED]) && !r->cg_warned) {
		r->cg_warned = true;
		out_printf(&r->con, "Note: the cgroup's counters (%s) could "
			   "not be read from %s/%s on (was it removed?): its "
			   "throttling is unknown (null) there\n",
			   r->cg->at[CG_CPU].path, res->sim->name,
			   res->load->name);
	}
	sinks_tell(r, SINK_ADD);
}

void session_say_written(const struct session *r)
{
	int i;

	for (i = 0; i < RUN_SINKS; i++)
		if (r->sink[i].path && !r->sink[i].warned)
			safe_file_said(r->sink[i].path, sinks[i].what);
}

/*
 * The last lines of every run, once its files are whole: what it wrote
 * (ab's A, B's too), where the log went, and the Read load's file if it
 * was left for the next run.
 */
void session_say_files(const struct session *r)
{
	const struct plan *p = &r->plan;
	const char *path = p->cfg.read_file;
	struct stat st;
	double gib;
	int i;

	session_say_written(r);
	if (r->ab_b)
		session_say_written(r->ab_b);
	if (!p->console_only)
		printf("Logfile: %s (%s)\n", r->log_name, r->log_how);
	for (i = 0; i < p->nloads; i++)
		if (p->loads[i]->flags & LOAD_READ_FILE)
			break;
	/* the Read load's file, if ours: nothing big is left unasked */
	if (i < p->nloads && !stat(path, &st) && load_read_file_valid(path)) {
		gib = (double)st.st_size / (1 << 30);
		if (p->keep_files)
			printf("Kept for the next run's Read load "
			       "(--keep-files): %s (%.1f GiB); remove it "
			       "when done: rm %s\n", path, gib, path);
		else if (unlink(path) && errno != ENOENT)
			fprintf(stderr, "interbench: warning: cannot "
				"remove the Read load's file %s (%.1f GiB): "
				"%s\n", path, gib, strerror(errno));
		else
			printf("Removed the Read load's file %s (%.1f GiB); "
			       "--keep-files keeps it for the next run\n", path,
			       gib);
	}
	fflush(stdout);
}
