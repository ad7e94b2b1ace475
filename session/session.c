// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session/session.c - a run's life after its command line: the machine's
 * calibration, the loads placed, the cells in order (run/cell.c) with -n
 * auto and --remeasure-if, each result to the outputs (outputs.c), and
 * the exit status. A signal or --breaktrace ends it early, its files
 * whole. The checks and what is made before the first cell: setup.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "session/session.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "lib/system.h"
#include "outputs/output.h"
#include "outputs/results.h"
#include "run/machine.h"
#include "run/placement.h"
#include "run/cell.h"
#include "run/onlate.h"
#include "run/trace.h"

/* Where the calibration came from or went, for the "Loops per ms" line */
static void calib_said(const struct calib_place *cp, int saved, char *buf,
		       size_t n)
{
	if (!cp->path[0])
		snprintf(buf, n, "not saved: no home directory");
	else if (saved)
		snprintf(buf, n, "not saved");
	else if (cp->local)
		snprintf(buf, n, "saved in this directory's %s", CALIB_FILE);
	else
		snprintf(buf, n, "saved in %s", cp->path);
}

static int calibrate(struct session *r)
{
	struct calibration *cal = &r->cal;
	const struct plan *p = &r->plan;
	struct calib_place cp;
	char where[PATH_MAX + 64] = "";
	int err;

	calib_where(&cp);
	if (p->loops_given) {
		cal->loops_per_ms = p->cfg.loops_per_ms;
	} else if (!p->calibrate) {
		err = calib_load(&cp, &cal->loops_per_ms);
		if (err == -EINVAL)
			fprintf(stderr, "interbench: %s is not a number, "
				"measuring again\n", cp.path);
		else if (err == -ESTALE)
			fprintf(stderr, "interbench: %s was measured on %s, "
				"not this one: measuring again\n", cp.path,
				cp.was);
		else if (err && err != -ENOENT)
			fprintf(stderr, "interbench: not reading %s: %s; "
				"measuring again\n", cp.path,
				sys_file_why(err));
		if (!err)
			calib_said(&cp, 0, where, sizeof(where));
	}
	if (!cal->loops_per_ms) {
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "Measuring loops per ms...\n");
		err = calibrate_loops(cal);
		if (err)
			return session_fail(IB_EXIT_SETUP, "cannot calibrate "
					    "the CPU loop: %s", strerror(-err));
		err = calib_save(&cp, cal->loops_per_ms);
		if (err == -EPERM && !cp.local)
			fprintf(stderr, "interbench: warning: cannot save %s: "
				"%s is another user's or writable by others\n",
				cp.path, cp.dir);
		else if (err && cp.path[0])
			fprintf(stderr, "interbench: warning: cannot save %s: "
				"%s\n", cp.path, sys_file_why(err));
		calib_said(&cp, err, where, sizeof(where));
		/* why the loop count varied is said once, in
		 * out_log_header() */
	}
	if (cell_stopped())
		return session_end(r, SESSION_SIGNAL);
	calibration_check(cal);
	/* error_pct alone is no sign: a quiet VM's interrupts cost +3-5 % */
	if (calibration_disturbed(cal))
		fprintf(stderr, "interbench: warning: the machine is busy: "
			"other tasks or the host held the CPU %.1f %% of "
			"the burn check's time (more than %g %%), and burning "
			"CPU cost %+.2f %% of what it asks\n",
			cal->check_off_pct, CAL_UNDISTURBED_PCT,
			cal->error_pct);
	r->plan.cfg.loops_per_ms = cal->loops_per_ms;
	printf("Loops per ms: %llu (%s%s); burning 1-20 ms of CPU costs "
	       "%+.2f %% of what it asks in thread CPU time\n",
	       (unsigned long long)cal->loops_per_ms,
	       cal->measured ? "measured now, " : p->loops_given ? "from -l" :
	       "", where, cal->error_pct);
	return 0;
}

int session_end_why(enum session_end why, char *words, size_t n)
{
	int sig = cell_stopped();

	switch (why) {
	case SESSION_SIGNAL:
		snprintf(words, n, "signal %d", sig);
		return 128 + sig;
	case SESSION_BREAKTRACE:
		snprintf(words, n, "breaktrace");
		return IB_EXIT_BREAK;
	case SESSION_ON_LATE:
		snprintf(words, n, "on-late");
		return IB_EXIT_BREAK;
	case SESSION_SIDE:
		snprintf(words, n, "a side's command failed");
		return IB_EXIT_SIDE;
	case SESSION_ON:
		break;
	}
	words[0] = '\0';
	return IB_EXIT_OK;
}

/* A signal asked us to stop: everything ends at once, and is said. */
static void say_interrupted(struct session *r)
{
	int sig = cell_stopped();

	cell_abort(&r->runner);
	out_progress(&r->plan, 0, NULL, NULL);
	if (r->plan.repeats > 1)
		out_tables(&r->con, r->res, r->nres);
	out_printf(&r->con, "\nInterrupted by signal %d (%s) after %d of %d "
		   "cells\n", sig, strsignal(sig), r->nres, r->plan.cells);
}

/*
 * --breaktrace: a frame was that late, the trace stopped there. Saved
 * (named by the time, next to the log) and said.
 */
static void save_breaktrace(struct session *r)
{
	const struct worst_frame *b = &r->runner.sh->res.worst.brk;
	static char path[96];
	char stamp[32];
	time_t now = time(NULL);
	int err;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	snprintf(path, sizeof(path), "interbench-breaktrace-%s.txt", stamp);
	err = trace_save(&r->tracer, path);
	if (!err)
		r->info.breaktrace_file = path;
	out_printf(&r->con, "\n--breaktrace: a frame %.3f ms late (more than "
		   "%.3f ms) on CPU %d, thread %d; ",
		   (double)(b->start - b->release) / NSEC_PER_MSEC,
		   (double)r->plan.breaktrace_ns / NSEC_PER_MSEC, (int)b->cpu,
		   (int)b->tid);
	if (err)
		out_printf(&r->con, "cannot save the trace to %s: %s\n", path,
			   strerror(-err));
	else
		out_printf(&r->con, "trace saved to %s (marker \"interbench: "
			   "breaktrace\")\n", path);
}

int session_end(struct session *r, enum session_end why)
{
	int status = session_end_why(why, r->end_words,
				     sizeof(r->end_words));

	if (why == SESSION_SIGNAL)
		say_interrupted(r);
	else if (why == SESSION_BREAKTRACE)
		save_breaktrace(r);
	r->info.interrupted = r->end_words;
	/* a signal stops the cell's processes at once; the others are done */
	if (why != SESSION_SIGNAL)
		cell_finish(&r->runner);
	session_close_outputs(r);
	if (why != SESSION_SIGNAL)
		trace_close(&r->tracer);
	session_say_files(r);
	return status;
}

/*
 * --on-late: after a cell's attempt, before the next empties the trace,
 * the late frames it kept are acted on (run/onlate.c).
 */
static void on_late(struct session *r, const struct result *res, int attempt)
{
	if (r->plan.nlate && res->traced)
		onlate_cell(&r->late, &r->plan, &r->tracer,
			    &r->runner.sh->res, res, attempt, out_cb, &r->con);
}

/* --load-group cgroup: the groups made, removed however the run ends */
static struct placement *groups_made[26];	/* by tag, 'A' to 'Z' */

static void remove_groups(void)
{
	int i;

	for (i = 0; i < 26; i++)
		if (groups_made[i])
			placement_remove(groups_made[i]);
}

/*
 * Where the loads go, made after every check and the lock, like the
 * trace instance: a refusal is one line and nothing left (exit 3).
 */
int session_place_loads(struct session *r, char tag)
{
	static bool registered;
	struct placement *pl = &r->place;
	char err[PATH_MAX + 256];

	pl->group = r->plan.cfg.load_group;
	pl->weight = r->plan.cfg.load_weight;
	pl->tag = tag;
	pl->own[0] = '\0';
	if (pl->group == LG_CGROUP) {
		/* the run's own cgroup: the loads' is made in it (v1) */
		const struct cg_where *w = &session_cgroup(r)->at[CG_CPU];

		if (w->version == 1 && strcmp(w->dir, w->top))
			snprintf(pl->own, sizeof(pl->own), "%.*s",
				 (int)sizeof(pl->own) - 1, w->dir);
		else if (w->version == 2 && strcmp(w->path, "/"))
			snprintf(pl->own, sizeof(pl->own), "%s", w->path);
	}
	if (!registered) {
		atexit(remove_groups);
		registered = true;
	}
	if (placement_setup(pl, err, sizeof(err)))
		return session_fail(IB_EXIT_SETUP, "%s", err);
	if (pl->dir[0])
		groups_made[tag >= 'A' && tag <= 'Z' ? tag - 'A' : 0] = pl;
	return 0;
}

/* ---- the run -------------------------------------------------------- */

/* Where side's loads run (--load-group), on r's console: lead first. */
static void say_loads(struct session *r, const struct session *side,
		      const char *lead)
{
	if (side->place.group == LG_SESSION)
		out_printf(&r->con, "%sLoads: in a session of their own "
			   "(autogroup %s: %s)\n", lead,
			   r->sys.st.autogroup > 0 ? "on" : "off",
			   r->sys.st.autogroup > 0 ? "a scheduling group of "
			   "their own, as a second terminal's" : "the session "
			   "changes nothing for the scheduler");
	else if (side->place.group == LG_CGROUP)
		out_printf(&r->con, "%sLoads: in their own %s\n", lead,
			   side->place.what);
	else if (*lead)
		out_printf(&r->con, "%sLoads: beside interbench (no "
			   "--load-group)\n", lead);
}

int session_start(struct session *r, const struct session *twin)
{
	int e;

	r->res = calloc((size_t)r->plan.cells, sizeof(*r->res));
	if (!r->res || cell_runner_init(&r->runner, &r->plan))
		return session_fail(IB_EXIT_SETUP, "out of memory");
	r->runner.place = &r->place;
	r->info.load_where = r->place.what;
	if (r->plan.trace) {
		r->runner.trace = &r->tracer;
		r->info.trace = &r->tracer;
		r->info.late = r->plan.nlate ? &r->late : NULL;
	}
	machine_sysinfo_read(&r->sys, session_cgroup(r));
	r->runner.cg = r->cg;
	/* What a late frame's idle CPU was: the host's, in a VM */
	r->tracer.vm = r->sys.st.vm;
	sys_raise_fd_limit();
	r->con.plan = &r->plan;
	r->info.plan = &r->plan;
	r->info.sys = &r->sys;
	r->info.cal = &r->cal;
	iso_now(r->info.started, sizeof(r->info.started));
	r->info.pid = getpid();
	cell_signals();
	/*
	 * Our own page faults must not delay the timing of anything. Only
	 * where locking cannot make later allocations fail (root, or no
	 * limit on locked memory).
	 */
	if (sys_lock_memory())
		fprintf(stderr, "interbench: warning: cannot lock memory: %s\n",
			strerror(errno));
	sys_write_file("/proc/self/oom_score_adj", "-1000");
	if (twin) {
		/* ab's side B: A's calibration, lock and logfile */
		r->cal = twin->cal;
		r->plan.cfg.loops_per_ms = twin->cal.loops_per_ms;
		r->info.concurrent = twin->info.concurrent;
		r->info.concurrent_pid = twin->info.concurrent_pid;
		r->info.other_user = twin->info.other_user;
		r->info.other_uid = twin->info.other_uid;
		goto outputs;
	}
	e = calibrate(r);
	if (e)
		return e;
	out_log_header(&r->con, &r->cal, r->ab_b ? &r->ab_b->plan : NULL);
	machine_state_print(&r->sys, out_cb, &r->con);
	/* ab's sides placing their loads apart: each side's own line */
	if (r->ab_b && (r->ab_b->place.group != r->place.group ||
			strcmp(r->ab_b->place.what, r->place.what))) {
		say_loads(r, r, "A: ");
		say_loads(r, r->ab_b, "B: ");
	} else {
		say_loads(r, r, "");
	}
	machine_warnings(&r->sys, &r->plan, out_cb, &r->con);
	if (r->plan.trace) {
		session_say_trace(&r->con, "Trace", &r->tracer,
				  r->plan.trace_timer);
		if (r->plan.trace_alternate)
			out_printf(&r->con, "  --trace-alternate: repeats 1, "
				   "4, 5, 8, ... traced, the others not; the "
				   "tables mix both\n");
	}
	if (r->info.other_user)
		out_printf(&r->con, "WARNING: another user's interbench (pid "
			   "%d, uid %u) is running; each measures the other "
			   "and results are unreliable\n",
			   (int)r->info.concurrent_pid,
			   (unsigned int)r->info.other_uid);
	else if (r->info.concurrent && r->info.concurrent_pid)
		out_printf(&r->con, "WARNING: --allow-concurrent: another "
			   "interbench (pid %d) is measuring too; results are "
			   "unreliable\n", (int)r->info.concurrent_pid);
	else if (r->info.concurrent)
		out_printf(&r->con, "WARNING: --allow-concurrent: another "
			   "interbench (in another PID namespace) is "
			   "measuring too; results are unreliable\n");
	else if (r->plan.allow_concurrent)
		out_printf(&r->con, "Note: --allow-concurrent given; no "
			   "other interbench was measuring when this run "
			   "started\n");
outputs:
	session_begin_outputs(r);
	return 0;
}

/* What --remeasure-if keeps of an attempt (NaN: not measured). */
static void attempt_note(struct attempt *a, const struct result *res,
			 enum fig_id f)
{
	bool ok = res->status == RES_OK;

	a->status = res->status;
	a->value = ok ? res->v[f] : NAN;
	a->steal_pct = ok ? res->v[F_INTF_STEAL] : NAN;
	a->lat_mean = ok ? res->v[F_LAT_MEAN] : NAN;
	a->lat_p99 = ok ? res->v[F_LAT_P99] : NAN;
}

/* Is attempt a better than b: measured, and less so ('>': less). */
static bool attempt_better(const struct gate *g, const struct attempt *a,
			   const struct attempt *b)
{
	if ((a->status == RES_OK) != (b->status == RES_OK))
		return a->status == RES_OK;
	if (isnan(a->value) || isnan(b->value))
		return !isnan(a->value);
	return g->op == '>' || g->op == 'g' ? a->value < b->value :
					      a->value > b->value;
}

/*
 * --remeasure-if: while the cell's latest attempt is so, measure it
 * again, up to --remeasure more times; res ends as the best attempt,
 * with every attempt recorded in it. Nothing is hidden: the row, the
 * JSON and JUnit say it was re-measured and how each attempt was.
 */
static void remeasure(struct session *r, struct result *res)
{
	const struct plan *p = &r->plan;
	const struct gate *g = &p->remeasure_if;
	struct attempt att[1 + REMEASURE_MAX];
	int n = 1, best = 0;

	if (!p->remeasure_on)
		return;
	attempt_note(&att[0], res, g->fig);
	while (n <= p->remeasure_max && att[n - 1].status == RES_OK &&
	       gate_broken(g, att[n - 1].value) && !r->runner.broke &&
	       !r->late.stop && !cell_stopped()) {
		struct result next = { .sim = res->sim, .load = res->load,
				       .repeat = res->repeat };

		out_progress(p, r->nres, res->sim, res->load);
		if (cell_run(&r->runner, &next)) {
			/* res is measured: run_all() keeps it, then stops */
			result_free(&next);
			break;
		}
		on_late(r, &next, n + 1);
		attempt_note(&att[n], &next, g->fig);
		/*
		 * The attempt --breaktrace stopped at is the one its frame
		 * and trace belong to: it is kept, whatever its figure.
		 */
		if (r->runner.broke ||
		    attempt_better(g, &att[n], &att[best])) {
			result_free(res);
			*res = next;
			best = n;
		} else {
			result_free(&next);
		}
		n++;
	}
	memcpy(res->attempt, att, sizeof(att[0]) * (size_t)n);
	res->nattempts = n;
	res->chosen = best;
}

/*
 * -n auto, at the end of a pass: stop once every cell's latency decision
 * figures (compare's) are known well enough (or at the last pass, saying
 * which are not).
 */
static bool auto_done(struct session *r, int passes)
{
	struct plan *p = &r->plan;
	bool settled = passes >= AUTO_REPEATS_MIN &&
		       plan_auto_settled(p, r->res, r->nres);

	if (settled)
		out_printf(&r->con, "\n-n auto: every cell's p50, p99 and max "
			   "latency are known to %g %% (95 %%\ninterval) "
			   "after %d repeats\n", AUTO_HALF_WIDTH_PCT, passes);
	else if (passes == p->repeats) {
		out_printf(&r->con, "\n-n auto: after %d repeats, the most "
			   "asked, these cells' decision figures are\nnot "
			   "known to %g %% (more repeats with -n auto:MAX, or "
			   "a longer -t where -v's\nadvice says length "
			   "helps):\n", passes, AUTO_HALF_WIDTH_PCT);
		out_unsettled(&r->con, r->res, r->nres);
	}
	if (settled) {
		p->repeats = passes;
		p->cells = passes * p->per_pass;
	}
	return settled;
}

enum session_end session_cell_step(struct session *r, int i,
				   const struct plan *shown, int at)
{
	const struct plan *p = &r->plan;
	struct result *res = &r->res[r->nres];

	plan_cell(p, i, &res->repeat, &res->sim, &res->load);
	if (p->repeats == 1 && (!r->nres || res->sim != res[-1].sim))
		out_table_head(&r->con, res->sim);
	out_progress(shown, at, res->sim, res->load);
	if (cell_run(&r->runner, res))
		return SESSION_SIGNAL;
	on_late(r, res, 1);
	remeasure(r, res);
	out_progress(shown, at, NULL, NULL);
	/* Measured in full: kept even if a signal came meanwhile. */
	r->nres++;
	session_result_done(r);
	if (r->runner.broke)
		return SESSION_BREAKTRACE;
	if (r->late.stop)
		return SESSION_ON_LATE;
	return cell_stopped() ? SESSION_SIGNAL : SESSION_ON;
}

int session_run_all(struct session *r)
{
	const struct plan *p = &r->plan;
	enum session_end end;
	int i;

	for (i = 0; i < p->cells; i++) {
		if (p->auto_repeats && i && i % p->per_pass == 0 &&
		    auto_done(r, i / p->per_pass))
			break;
		end = session_cell_step(r, i, p, r->nres);
		if (end)
			return session_end(r, end);
	}
	if (p->auto_repeats)
		auto_done(r, p->repeats);
	return 0;
}

/* What each exit status means, for the run's closing line. */
static const char *exit_words(int status)
{
	switch (status) {
	case IB_EXIT_OK:
		return "every cell measured";
	case IB_EXIT_FAIL:
		return "a gate broke";
	case IB_EXIT_CELLS:
		return "some cells were not measured";
	case IB_EXIT_FAIL_CELLS:
		return "a gate broke and some cells were not measured";
	case IB_EXIT_SETUP:
		return "an output was not written whole";
	}
	return "";
}

/*
 * The run's last line, after every file is whole: what it found, the
 * gates, and the status a script gets, so that a CI log ends calm and
 * plain whether it passed or not.
 */
static void closing_line(const struct session *r, int nbroken, int ret)
{
	const struct plan *p = &r->plan;

	printf("interbench: %d of %d cells measured", r->nres - r->nbad,
	       r->nres);
	if (p->ngates)
		printf("; gates: %d held, %d broken", p->ngates - nbroken,
		       nbroken);
	printf("; exit %d (%s)\n", ret, exit_words(ret));
	fflush(stdout);
}

int session_finish(struct session *r)
{
	int ret = IB_EXIT_OK, i, nbroken;

	cell_finish(&r->runner);
	if (r->plan.repeats > 1)
		out_tables(&r->con, r->res, r->nres);
	/* how many repeats a verdict needs: asked for with -v */
	if (r->plan.repeats >= 3 && r->plan.verbose)
		out_variation(&r->con, r->res, r->nres);
	out_printf(&r->con, "\n");
	out_steal(&r->con, r->res, r->nres);
	if (r->nbad) {
		out_printf(&r->con, "%d of %d cells were not measured (see "
			   "their rows)\n", r->nbad, r->plan.cells);
		ret = IB_EXIT_CELLS;
	}
	/*
	 * The status a script branches on, the first that applies: an
	 * output not written whole (3), a gate broken and cells unmeasured
	 * (7: both a finding and a fault), a gate (1), cells (4).
	 */
	nbroken = out_check_gates(&r->con, r->res, r->nres);
	if (nbroken)
		ret = ret == IB_EXIT_CELLS ? IB_EXIT_FAIL_CELLS : IB_EXIT_FAIL;
	i = session_close_outputs(r);
	if (i)
		ret = i;
	if (r->plan.trace)
		trace_close(&r->tracer);
	session_say_files(r);
	closing_line(r, nbroken, ret);
	for (i = 0; i < r->nres; i++)
		result_free(&r->res[i]);
	free(r->res);
	onlate_free(&r->late);
	plan_free(&r->plan);
	return ret;
}
