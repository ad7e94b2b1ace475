// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/sweep.c - `interbench sweep`: a base state and K candidate states
 * of the machine, each a session (session/session.h) with its own plan
 * and files, measured in blocks whose order is a Williams square's row
 * (plan/sweep.h), the states' commands run between them, the base state
 * at every end; compare/sweep.c judges each candidate against the base
 * and the exit status is made of its verdicts.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/sweep.h"
#include "cmd/cmd.h"
#include "session/session.h"
#include "compare/sweep.h"
#include "lib/base.h"
#include "lib/safefile.h"
#include "lib/system.h"
#include "outputs/output.h"
#include "run/shell.h"

struct sweep_run {
	struct sweep_plan sw;
	struct session st[SWEEP_MAX + 1];
	struct plan *p[SWEEP_MAX + 1];
	struct shell_env env;
	int state;			/* the state in effect; -1: none */
	bool read[SWEEP_MAX + 1];	/* its machine state read */
	char dir[64];			/* IB_SWEEP_DIR, or "" */
	uint64_t t0;			/* the first cell's start */
	long measured, base_measured;
	int passes;			/* passes begun */
	char started[32];
	bool stopping;			/* going home after a signal */
};

static struct sweep_run run;

static struct out_console *con(struct sweep_run *r)
{
	return &r->st[0].con;
}

/* State s's enter or leave command: 0, or -1 having said it failed. */
static int sw_cmd(struct sweep_run *r, int s, bool leave, bool home,
		  char *why, size_t n)
{
	const struct sweep_state *st = &r->sw.st[s];
	const char *cmd = leave ? st->leave : st->enter;

	if (!cmd)
		return 0;
	if (!shell_run(cmd, r->sw.cmd_timeout_ns, home, &r->env, why, n))
		return 0;
	out_printf(con(r), "sweep: %s's %s command (%s) failed: %s\n",
		   st->name, leave ? "leave" : "enter", cmd, why);
	return -1;
}

/* Candidate s failed: named, undone (its leave, once), not measured more. */
static void sw_drop(struct sweep_run *r, int s, bool leave_failed,
		    const char *what, const char *why)
{
	struct sweep_state *st = &r->sw.st[s];
	char w2[160];

	st->status = SW_FAILED;
	snprintf(st->why, sizeof(st->why), "its %s command failed: %s", what,
		 why);
	if (!leave_failed && st->leave &&
	    sw_cmd(r, s, true, r->stopping, w2, sizeof(w2)))
		out_printf(con(r), "sweep: %s may not be fully undone\n",
			   st->name);
	out_printf(con(r), "sweep: candidate %s dropped: %s; the sweep goes "
		   "on without it\n", st->name, st->why);
	r->state = -1;
}

/*
 * Leave the state in effect, enter s: 0, or -1. A candidate's failure
 * drops it and is no failure of the sweep's; the base's is (-2).
 */
static int sw_enter(struct sweep_run *r, int s)
{
	char why[160];
	int from = r->state;

	if (from == s)
		return 0;
	if (from >= 0 && sw_cmd(r, from, true, false, why, sizeof(why))) {
		if (!from)
			return -2;
		sw_drop(r, from, true, "leave", why);
	}
	r->state = -1;
	if (sw_cmd(r, s, false, false, why, sizeof(why))) {
		if (!s)
			return -2;
		sw_drop(r, s, false, "enter", why);
		return -1;
	}
	r->state = s;
	if (!r->read[s]) {
		machine_sysinfo_read(&r->st[s].sys, session_cgroup(&r->st[s]));
		r->read[s] = true;
	}
	return 0;
}

/* Every sweep ends in the base state; said when it cannot. */
static void sw_home(struct sweep_run *r)
{
	char why[160];
	bool left = true, in = true;
	int s = r->state;

	if (s == 0)
		return;
	if (s > 0 && r->sw.st[s].leave)
		left = !sw_cmd(r, s, true, true, why, sizeof(why));
	if (r->sw.st[0].enter)
		in = !sw_cmd(r, 0, false, true, why, sizeof(why));
	if (!in)
		out_printf(con(r), "sweep: the machine may not be in the base "
			   "state: its enter command failed\n");
	else if (!left)
		out_printf(con(r), "sweep: the machine may still be partly in "
			   "state %s: its leave command failed\n",
			   r->sw.st[s].name);
	else
		out_printf(con(r), "sweep: the machine is back in the base "
			   "state\n");
	r->state = 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	return remove(path) && errno != ENOENT ? -1 : 0;
}

/* IB_SWEEP_DIR and what the commands left in it, gone. */
static void sw_rmdir(struct sweep_run *r)
{
	if (r->dir[0] && nftw(r->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "interbench: warning: cannot remove %s: %s\n",
			r->dir, strerror(errno));
	r->dir[0] = '\0';
}

static const char *status_word(const struct sweep_state *st)
{
	return st->status == SW_SKIPPED ? "skipped" :
	       st->status == SW_FAILED ? "failed" : "measured";
}

/* What the judge is told: the states, the design, the cost. */
static void sw_input(struct sweep_run *r, struct sweep_in *in,
		     struct sweep_in_state *is, bool judge,
		     const char *interrupted)
{
	const struct plan *p = r->p[0];
	static char order[256], finished[32];
	int s;

	memset(in, 0, sizeof(*in));
	in->doc = r->sw.doc;
	in->html = r->sw.html;
	in->junit = r->sw.junit;
	in->id = r->sw.id;
	in->command_line = p->args;
	in->version = IB_VERSION;
	in->started = r->started;
	iso_now(finished, sizeof(finished));
	in->finished = judge ? finished : NULL;
	in->interrupted = interrupted;
	in->judge = judge;
	in->judged = r->sw.judged;
	snprintf(order, sizeof(order), "blocks of a cell and a pass, each in "
		 "the order of a row of a Williams square over the states "
		 "measured in it (labels shuffled by the seed; row: pass + "
		 "cell, modulo the rows)");
	in->order = order;
	in->seed = r->sw.seed;
	in->passes = r->passes;
	in->measured = r->measured;
	in->base_measured = r->base_measured;
	in->machine_s = r->t0 ? (double)(now_ns() - r->t0) / NSEC_PER_SEC : 0;
	for (s = 0; s < r->sw.n; s++) {
		const struct sweep_state *st = &r->sw.st[s];

		is[s] = (struct sweep_in_state){
			.name = st->name, .path = st->path,
			.page = st->page[0] ? st->page : NULL,
			.enter = st->enter, .leave = st->leave,
			.opts = st->opts, .status = status_word(st),
			.why = st->why[0] ? st->why : NULL,
			.pairs = st->pairs, .stop_pairs = st->stop_pairs,
			.stop_why = st->stop_why,
		};
		/* as many pairs, in an ab run of each: twice the cells */
		if (s && st->status != SW_SKIPPED)
			in->ab_equivalent += 2L * st->pairs * p->per_pass;
	}
	in->st = is;
	in->n = r->sw.n;
}

static void sw_options(const struct sweep_run *r, struct compare_options *o)
{
	compare_options_init(o);
	o->cmp.alpha = r->sw.alpha;
	if (r->sw.primary)
		o->cmp.primary = cmp_fig_named(r->sw.primary);
	o->plain = r->sw.plain;
	o->cmp.moderate = !r->sw.plain;
}

/* The sweep's document: the plan now, the verdicts at the end. */
static int sw_write_doc(struct sweep_run *r, bool judge,
			const char *interrupted, struct sweep_tally *t)
{
	struct sweep_in_state is[SWEEP_MAX + 1];
	struct compare_options o;
	struct sweep_in in;

	sw_options(r, &o);
	sw_input(r, &in, is, judge, interrupted);
	fflush(stdout);
	return sweep_judge(&in, &o, t);
}

static int sw_close(struct sweep_run *r)
{
	int s, ret = 0, e;

	/* the candidates write into the base's logfile: it closes it */
	for (s = r->sw.n - 1; s >= 0; s--) {
		if (s)
			r->st[s].con.log = NULL;
		if (r->sw.st[s].status == SW_SKIPPED)
			continue;
		e = session_close_outputs(&r->st[s]);
		if (e && !ret)
			ret = e;
	}
	return ret;
}

static void sw_say_files(const struct sweep_run *r)
{
	int s;

	for (s = 1; s < r->sw.n; s++)
		if (r->sw.st[s].status != SW_SKIPPED)
			session_say_written(&r->st[s]);
	session_say_files(&r->st[0]);
}

static void __attribute__((noreturn)) sw_stop(struct sweep_run *r,
					      enum session_end end)
{
	struct sweep_tally t;
	char why[32];
	int s, status = session_end_why(end, why, sizeof(why));

	r->stopping = true;
	for (s = 0; s < r->sw.n; s++) {
		if (r->sw.st[s].status == SW_SKIPPED)
			continue;
		if (cell_stopped())
			cell_abort(&r->st[s].runner);
		else
			cell_finish(&r->st[s].runner);
		r->st[s].info.interrupted = why;
	}
	out_progress(r->p[0], 0, NULL, NULL);
	sw_home(r);
	sw_rmdir(r);
	out_printf(con(r), "\nsweep stopped (%s) after %d passes begun; each "
		   "state's file keeps its cells\n", why, r->passes);
	if (sw_close(r))
		status = IB_EXIT_SETUP;
	sw_say_files(r);
	if (sw_write_doc(r, true, why, &t))
		status = IB_EXIT_SETUP;
	exit(status);
}

/*
 * -n auto, at a look after passes: each candidate still measured and
 * decided (compare_look on the files so far, at its share of alpha) is
 * measured no more. True when none is left.
 */
static bool sw_look(struct sweep_run *r, int passes, bool last)
{
	struct compare_options o;
	struct cmp_look l;
	int s, live = 0;

	sw_options(r, &o);
	for (s = 1; s < r->sw.n; s++) {
		struct sweep_state *st = &r->sw.st[s];

		if (st->status != SW_PLANNED)
			continue;
		if (compare_look(r->sw.st[0].path, st->path, &o, &l) < 0) {
			out_printf(con(r), "sweep: cannot judge %s's file so "
				   "far: going on\n", st->name);
			live++;
			continue;
		}
		if (!l.undecided || last) {
			st->stop_pairs = passes;
			st->stop_why = l.undecided ? "the most pairs asked" :
				       "every cell decided";
			st->view.stop_pairs = passes;
			st->view.stop_why = st->stop_why;
		}
		if (!l.undecided && !last) {
			st->status = SW_DECIDED;
			out_printf(con(r), "-n auto: %s decided after %d "
				   "pairs%s: not measured more\n", st->name,
				   passes, l.worse ? " (a cell worse)" : "");
		} else {
			live++;
		}
	}
	if (!last)
		out_printf(con(r), "-n auto: %d pairs, %d candidate%s still "
			   "undecided\n", passes, live, live == 1 ? "" : "s");
	return !live;
}

/* The states measured in pass pass: the base, then the live candidates. */
static int sw_live(const struct sweep_run *r, int *live)
{
	int s, m = 0;

	live[m++] = 0;
	for (s = 1; s < r->sw.n; s++)
		if (r->sw.st[s].status == SW_PLANNED)
			live[m++] = s;
	return m;
}

/* One block: cell c of pass pass, in each live state in its row's order. */
static void sw_block(struct sweep_run *r, int pass, int c)
{
	const struct plan *p = r->p[0];
	int live[SWEEP_MAX + 1], order[SWEEP_MAX + 1];
	int m = sw_live(r, live), i = pass * p->per_pass + c, k;
	enum session_end end;

	sweep_order(r->sw.seed, m, pass + c, order);
	for (k = 0; k < m; k++) {
		int s = live[order[k]], e;

		if (r->sw.st[s].status != SW_PLANNED)
			continue;	/* dropped in this block */
		e = sw_enter(r, s);
		if (e == -2 && !cell_stopped())
			sw_stop(r, SESSION_SIDE);
		if (cell_stopped())
			sw_stop(r, SESSION_SIGNAL);
		if (e)
			continue;
		end = session_cell_step(&r->st[s], i, p, i);
		r->measured++;
		r->base_measured += !s;
		if (end || cell_stopped())
			sw_stop(r, end ? end : SESSION_SIGNAL);
	}
}

static void sw_run_all(struct sweep_run *r)
{
	const struct plan *p = r->p[0];
	int pass, c, s;

	r->t0 = now_ns();
	for (pass = 0; pass < p->repeats; pass++) {
		if (pass && p->auto_repeats && plan_look(p, pass) &&
		    sw_look(r, pass, false))
			break;
		if (sw_live(r, (int[SWEEP_MAX + 1]){ 0 }) < 2)
			break;		/* every candidate failed */
		r->passes = pass + 1;
		for (c = 0; c < p->per_pass; c++)
			sw_block(r, pass, c);
		for (s = 1; s < r->sw.n; s++)
			if (r->sw.st[s].status == SW_PLANNED)
				r->sw.st[s].pairs = pass + 1;
	}
	out_progress(p, 0, NULL, NULL);
	if (p->auto_repeats && pass == p->repeats)
		sw_look(r, p->repeats, true);
}

/* ---- set-up ------------------------------------------------------------- */

/* Each candidate's needs tried: a failed one is skipped, said. */
static void sw_needs(struct sweep_run *r)
{
	char why[160];
	int s;

	for (s = 1; s < r->sw.n; s++) {
		struct sweep_state *st = &r->sw.st[s];

		if (!st->needs || !shell_run(st->needs, r->sw.cmd_timeout_ns,
					     false, &r->env, why, sizeof(why)))
			continue;
		st->status = SW_SKIPPED;
		if (st->needs_why)
			snprintf(st->why, sizeof(st->why), "%s", st->needs_why);
		else
			snprintf(st->why, sizeof(st->why), "its needs (%s) "
				 "failed: %s", st->needs, why);
		out_printf(con(r), "sweep: candidate %s skipped: %s\n",
			   st->name, st->why);
	}
}

/* What each state's file says of the sweep: ab's object, in its words. */
static void sw_views(struct sweep_run *r)
{
	struct sweep_plan *sw = &r->sw;
	const struct sweep_state *b = &sw->st[0];
	int s;

	for (s = 0; s < sw->n; s++) {
		struct sweep_state *st = &sw->st[s];
		struct ab_plan *v = &st->view;

		memset(v, 0, sizeof(*v));
		snprintf(v->id, sizeof(v->id), "%s", sw->id);
		v->seed = sw->seed;
		v->looks = sw->looks;
		v->alpha = sw->alpha;
		v->share = sw->judged;
		v->sweep_doc = sw->doc;
		v->side[0] = (struct ab_side){ .name = 'A', .cmd = b->enter,
			.undo = b->leave, .opts = b->opts, .label = b->name };
		snprintf(v->side[0].path, sizeof(v->side[0].path), "%s",
			 b->path);
		v->side[1] = (struct ab_side){ .name = 'B', .cmd = st->enter,
			.undo = st->leave, .opts = st->opts,
			.label = st->name };
		snprintf(v->side[1].path, sizeof(v->side[1].path), "%s",
			 s ? st->path : sw->doc);
		r->st[s].info.ab = v;
		r->st[s].info.ab_side = s ? 1 : 0;
	}
}

static int sw_check_outputs(const struct sweep_run *r)
{
	struct sys_output out[SWEEP_MAX + 4];
	const char *in[SWEEP_MAX + 1];
	struct sys_output_fault f;
	char is[64] = "";
	int s, n = 0;

	out[n++] = (struct sys_output){ .opt = "-o", .path = r->sw.doc };
	out[n++] = (struct sys_output){ .opt = "--junit", .path = r->sw.junit };
	out[n++] = (struct sys_output){ .opt = "--html", .path = r->sw.html };
	for (s = 1; s < r->sw.n; s++)
		if (r->sw.st[s].page[0])
			out[n++] = (struct sys_output){ .opt = "--html",
				.path = r->sw.st[s].page };
	for (s = 0; s < r->sw.n; s++)
		in[s] = r->sw.st[s].path;
	if (!sys_outputs_check(out, n, in, r->sw.n, &f))
		return 0;
	if (f.kind == SYS_OUT_INPUT)
		snprintf(is, sizeof(is), "%s's result file",
			 r->sw.st[f.other].name);
	return session_output_fault(out, &f, is);
}

static void sw_describe(struct sweep_run *r)
{
	const struct plan *p = r->p[0];
	const struct sweep_plan *sw = &r->sw;
	int s, k = sw->judged;

	out_printf(con(r), "\nsweep: the base and %d candidate%s, %d cell%s "
		   "each; a block is a cell of a pass in every state still "
		   "measured, in a Williams square's row (seed %u), ", k,
		   k == 1 ? "" : "s", p->per_pass, p->per_pass == 1 ? "" : "s",
		   sw->seed);
	if (p->auto_repeats)
		out_printf(con(r), "until each candidate is decided (at %d "
			   "looks) or %d passes\n", sw->looks, p->repeats);
	else
		out_printf(con(r), "%d passes\n", p->repeats);
	for (s = 0; s < sw->n; s++) {
		const struct sweep_state *st = &sw->st[s];

		out_printf(con(r), "  %-16s enter %s, leave %s, options %s -> "
			   "%s%s%s\n", st->name, st->enter ? st->enter : "-",
			   st->leave ? st->leave : "-",
			   st->opts ? st->opts : "-", st->path,
			   st->status == SW_SKIPPED ? ": skipped, " : "",
			   st->status == SW_SKIPPED ? st->why : "");
	}
	out_printf(con(r), "  each candidate's pair is the base measured in "
		   "its block; alpha %g is shared by the %d candidates (each "
		   "at %.3g, Bonferroni)\n", sw->alpha, k, sw->alpha / k);
	out_printf(con(r), "  a pass measures %d states where %d ab runs "
		   "would measure %d: %.2f of their cells; the sweep measures "
		   "the cells above in each state, at most %d cells\n", k + 1,
		   k, 2 * k, (k + 1) / (2.0 * k), (k + 1) * p->cells);
}

/*
 * Every state's checks, then what is made (the base's lock and logfile
 * serve all), then their start: 0 or the status that stops the sweep.
 */
static int sw_setup(struct sweep_run *r)
{
	struct plan **p = r->p;
	int s, e = 0;

	if (p[0]->cfg.uniprocessor)
		e = session_bind_cpu(p[0]->cfg.uni_cpu);
	for (s = 1; s < r->sw.n; s++)
		r->st[s].cg = session_cgroup(&r->st[0]);
	for (s = 0; !e && s < r->sw.n; s++) {
		e = session_check_rights(&r->st[s]);
		if (!e)
			e = session_check_files(&r->st[s]);
	}
	if (!e)
		e = sw_check_outputs(r);
	if (e)
		return e;
	if (p[0]->dry_run) {
		out_plan(p[0]);
		sw_describe(r);
		printf("--dry-run: no command was run (nor a candidate's "
		       "needs), nothing measured\n");
		return IB_EXIT_OK;
	}
	e = session_lock(&r->st[0]);
	if (!e)
		e = session_hold_dma_latency(p[0]);
	for (s = 0; !e && s < r->sw.n; s++)
		e = session_place_loads(&r->st[s], (char)('A' + s));
	if (!e)
		e = session_open_files(&r->st[0]);
	if (e)
		return e;
	for (s = 1; s < r->sw.n; s++)
		r->st[s].con.log = r->st[0].con.log;
	sw_needs(r);
	for (s = 1, r->sw.judged = 0; s < r->sw.n; s++)
		r->sw.judged += r->sw.st[s].status != SW_SKIPPED;
	if (!r->sw.judged)
		return session_fail(IB_EXIT_UNJUDGED, "sweep: every candidate "
				    "was skipped: nothing to measure");
	sw_views(r);
	e = session_start(&r->st[0], NULL);
	for (s = 1; !e && s < r->sw.n; s++)
		if (r->sw.st[s].status != SW_SKIPPED)
			e = session_start(&r->st[s], &r->st[0]);
	return e;
}

/* The base's table, the verdicts, the files: the exit status. */
static int sw_finish(struct sweep_run *r)
{
	struct sweep_tally t;
	int s, ret, nbad = 0;

	for (s = 0; s < r->sw.n; s++) {
		if (r->sw.st[s].status == SW_SKIPPED)
			continue;
		cell_finish(&r->st[s].runner);
		nbad += r->st[s].nbad;
	}
	out_printf(con(r), "\n== the base (%s): medians over its %d repeats "
		   "(each candidate's: its file, its page)\n",
		   r->sw.st[0].path, r->passes);
	out_tables(con(r), r->st[0].res, r->st[0].nres);
	out_steal(con(r), r->st[0].res, r->st[0].nres);
	if (nbad)
		out_printf(con(r), "%d cells were not measured (see their "
			   "files)\n", nbad);
	ret = sw_close(r);
	if (ret) {
		sw_say_files(r);
		return ret;
	}
	ret = sw_write_doc(r, true, NULL, &t);
	sw_say_files(r);
	if (ret)
		return IB_EXIT_SETUP;
	if (t.failed)
		return IB_EXIT_CANDIDATE;
	if (t.worse)
		return nbad ? IB_EXIT_FAIL_CELLS : IB_EXIT_FAIL;
	if (nbad)
		return IB_EXIT_CELLS;
	return t.judged ? IB_EXIT_OK : IB_EXIT_UNJUDGED;
}

int sweep_main(int argc, char **argv)
{
	struct sweep_run *r = &run;
	struct sweep_tally t;
	char err[512], names[256];
	int s, e;

	for (s = 0; s <= SWEEP_MAX; s++)
		r->p[s] = &r->st[s].plan;
	r->state = 0;
	e = sweep_parse(&r->sw, r->p, argc, argv, err, sizeof(err));
	if (e == 1) {
		sweep_usage(stdout);
		exit(fflush(stdout) ? IB_EXIT_SETUP : IB_EXIT_OK);
	}
	if (e)
		return session_fail(IB_EXIT_USAGE, "%s", err);
	if (r->sw.primary && cmp_fig_named(r->sw.primary) < 0) {
		figure_compare_names(", ", names, sizeof(names));
		return session_fail(IB_EXIT_USAGE, "option --primary: '%s' is "
				    "not a figure compare tests (%s)",
				    r->sw.primary, names);
	}
	shell_save(&r->env);
	r->sw.judged = r->sw.n - 1;
	e = sw_setup(r);
	if (e || r->p[0]->dry_run)
		return e;
	snprintf(r->dir, sizeof(r->dir), "/tmp/ib-sweep.XXXXXX");
	if (!mkdtemp(r->dir) || setenv("IB_SWEEP_DIR", r->dir, 1)) {
		r->dir[0] = '\0';
		return session_fail(IB_EXIT_SETUP, "sweep: cannot make its "
				    "directory for the commands: %s",
				    strerror(errno));
	}
	iso_now(r->started, sizeof(r->started));
	/* whole from the start: a sweep killed outright leaves its plan */
	if (sw_write_doc(r, false, NULL, &t))
		return IB_EXIT_SETUP;
	sw_describe(r);
	/* in no state yet: the first block enters its first state */
	r->state = -1;
	sw_run_all(r);
	sw_home(r);
	sw_rmdir(r);
	return sw_finish(r);
}
