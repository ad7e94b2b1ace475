// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/ab.c - `interbench ab`: two states of the machine, A and B, each a
 * session (session/session.h) with its own plan and files, their cells
 * interleaved (A B or B A by a coin, then the other way round), the
 * sides' commands run between them, state A at every end; compare's
 * verdict on the pairs is the exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/ab.h"
#include "cmd/cmd.h"
#include "session/session.h"
#include "compare/compare.h"
#include "core/figures.h"
#include "lib/base.h"
#include "lib/safefile.h"
#include "lib/system.h"
#include "outputs/output.h"
#include "run/shell.h"

/* ---- interbench ab: two states of the machine, interleaved ---------- */

struct ab_run {
	struct ab_plan ab;
	struct session side[2];		/* A's and B's plans, results, files */
	struct shell_env env;		/* how we were started: for commands */
	int state;			/* the side in effect; -1: neither */
	int half;			/* a side half entered or left, or -1 */
	bool read[2];			/* the side's machine state read */
	const char *failed;		/* the command that failed */
	FILE *ktap_std;			/* --ktap -: stdout, for compare */
};

/*
 * Side s's command, or its undo: 0, or -1 having said which failed and
 * how. After a signal (home) it is still run: the machine goes back.
 */
static int ab_cmd(struct ab_run *a, int s, bool undo, bool home)
{
	const struct ab_side *sd = &a->ab.side[s];
	const char *cmd = undo ? sd->undo : sd->cmd;
	char why[160];

	if (!cmd)
		return 0;
	if (!shell_run(cmd, a->ab.cmd_timeout_ns, home, &a->env, why,
		       sizeof(why)))
		return 0;
	a->failed = cmd;
	out_printf(&a->side[0].con, "ab: side %c's %s (%s) failed: %s\n",
		   sd->name, undo ? "undo" : "command", cmd, why);
	return -1;
}

/* Leave the side in effect (its undo) and enter s (its command). */
static int ab_enter(struct ab_run *a, int s)
{
	if (a->state == s)
		return 0;
	if (a->state >= 0 && ab_cmd(a, a->state, true, false)) {
		a->half = a->state;
		a->state = -1;
		return -1;
	}
	a->state = -1;
	if (ab_cmd(a, s, false, false)) {
		a->half = s;
		return -1;
	}
	a->state = s;
	/* what the side's command changed is the side's machine state */
	if (!a->read[s]) {
		machine_sysinfo_read(&a->side[s].sys,
				     session_cgroup(&a->side[s]));
		a->read[s] = true;
	}
	return 0;
}

/*
 * Every run ends in state A: out of B (or of a side half entered), into
 * A. Said when it cannot be.
 */
static void ab_home(struct ab_run *a)
{
	const struct ab_side *sd = a->ab.side;
	bool b_left = true, a_in = true;

	if (a->state == 0)
		return;
	/* out of B, or of B half entered; a command that failed is not
	 * run again */
	if ((a->state == 1 || a->half == 1) && sd[1].undo)
		b_left = sd[1].undo != a->failed && !ab_cmd(a, 1, true, true);
	if (sd[0].cmd)
		a_in = sd[0].cmd != a->failed && !ab_cmd(a, 0, false, true);
	if (!a_in)
		out_printf(&a->side[0].con, "ab: the machine may not be in "
			   "state A: A's command failed\n");
	else if (!b_left)
		out_printf(&a->side[0].con, "ab: the machine may still be "
			   "partly in state B: B's undo failed\n");
	else
		out_printf(&a->side[0].con, "ab: the machine is back in "
			   "state A\n");
	a->state = 0;
}

/* Both sides' files whole, with why the run stopped early, if it did. */
static int ab_close(struct ab_run *a)
{
	int s, ret = 0, e;

	/* B writes into A's logfile: A closes it */
	a->side[1].con.log = NULL;
	for (s = 1; s >= 0; s--) {
		e = session_close_outputs(&a->side[s]);
		if (e && !ret)
			ret = e;
	}
	return ret;
}

static void __attribute__((noreturn)) ab_stop(struct ab_run *a,
					      enum session_end end)
{
	const struct plan *p = &a->side[0].plan;
	char why[32];
	int s, status = session_end_why(end, why, sizeof(why));

	for (s = 0; s < 2; s++) {
		if (cell_stopped())
			cell_abort(&a->side[s].runner);
		else
			cell_finish(&a->side[s].runner);
		a->side[s].info.interrupted = why;
	}
	out_progress(p, 0, NULL, NULL);
	ab_home(a);
	out_printf(&a->side[0].con, "\nab stopped (%s) after %d and %d of %d "
		   "cells of A and B; the files keep them: %s, %s\n", why,
		   a->side[0].nres, a->side[1].nres, p->cells,
		   a->ab.side[0].path, a->ab.side[1].path);
	ab_close(a);
	session_say_files(&a->side[0]);
	exit(status);
}

/* compare's options, as ab's command line gave them. */
static void ab_compare_options(const struct ab_run *a,
			       struct compare_options *o)
{
	compare_options_init(o);
	o->cmp.alpha = a->ab.alpha;
	if (a->ab.primary)
		o->cmp.primary = cmp_fig_named(a->ab.primary);
	o->plain = a->ab.plain;
	o->cmp.moderate = !a->ab.plain;
	o->bisect = a->ab.bisect;
	o->junit = a->ab.junit;
	o->html = a->ab.html;
	o->ktap = a->ab.ktap;
	o->ktap_std = a->ktap_std;
}

/*
 * -n auto, at a look: may it stop, as compare judges the files so far?
 * When every cell is decided, or (--bisect) when a cell is worse: a
 * bisect needs no more than one worse cell to call the commit bad, and
 * the look's verdict is valid at its share of alpha whatever comes after.
 * At the last look, the cells still undecided are named with what would
 * decide them.
 */
static bool ab_decided(struct ab_run *a, int passes, bool last)
{
	struct plan *p[2] = { &a->side[0].plan, &a->side[1].plan };
	struct compare_options co;
	struct cmp_look l;
	const char *why = NULL;
	char help[400];
	int err, s;

	ab_compare_options(a, &co);
	err = compare_look(a->ab.side[0].path, a->ab.side[1].path, &co, &l);
	if (err < 0) {
		out_printf(&a->side[0].con, "ab: cannot judge the files so "
			   "far (%s): going on to -n %d\n", strerror(-err),
			   p[0]->repeats);
		return false;
	}
	/* a bisect's reason first: it is what the step's answer rests on */
	if (a->ab.bisect && l.worse)
		why = "a cell worse (--bisect: the commit is bad)";
	else if (!l.undecided)
		why = "every cell decided";
	if (why || last) {
		a->ab.stop_pairs = passes;
		a->ab.stop_why = why ? why : "the most pairs asked";
	}
	if (why) {
		out_printf(&a->side[0].con, "\n-n auto: stopped after %d "
			   "pairs: %s\n", passes, why);
		for (s = 0; s < 2; s++) {
			p[s]->repeats = passes;
			p[s]->cells = passes * p[s]->per_pass;
		}
		return true;
	}
	if (last) {
		cmp_help_text(true, l.undecided, l.most, l.never, help,
			      sizeof(help));
		out_printf(&a->side[0].con, "\n-n auto: after %d pairs, the "
			   "most asked, %d cell%s undecided: %s. What would "
			   "decide %s: %s\n", passes, l.undecided,
			   l.undecided == 1 ? " is" : "s are", l.list,
			   l.undecided == 1 ? "it" : "them", help);
	} else
		out_printf(&a->side[0].con, "-n auto: %d pairs, %d cell%s "
			   "undecided%s\n", passes, l.undecided,
			   l.undecided == 1 ? "" : "s",
			   l.worse ? ", a cell worse" : "");
	return false;
}

static void ab_describe(struct ab_run *a)
{
	struct out_console *con = &a->side[0].con;
	const struct plan *p = &a->side[0].plan;
	const struct sysinfo_ib *sys = &a->side[0].sys;
	int s;

	out_printf(con, "\nab: %d cell%s, each measured in A and in B side by "
		   "side (A B or B A by a coin, then the other way round; "
		   "seed %u), ", p->per_pass, p->per_pass == 1 ? "" : "s",
		   a->ab.seed);
	if (p->auto_repeats)
		out_printf(con, "until every cell is decided (at %d looks) or "
			   "%d pairs\n", a->ab.looks, p->repeats);
	else
		out_printf(con, "%d pairs\n", p->repeats);
	for (s = 0; s < 2; s++) {
		const struct ab_side *sd = &a->ab.side[s];

		out_printf(con, "  %c: command %s%s%s, undo %s%s%s, options "
			   "%s -> %s%s%s\n", sd->name, sd->cmd ? "'" : "",
			   sd->cmd ? sd->cmd : "none", sd->cmd ? "'" : "",
			   sd->undo ? "'" : "", sd->undo ? sd->undo : "none",
			   sd->undo ? "'" : "", sd->opts ? sd->opts : "none",
			   sd->path, sd->kcidb[0] ? ", KCIDB " : "", sd->kcidb);
	}
	for (s = 0; s < 2; s++)
		if (a->side[s].plan.trace)
			session_say_trace(con, s ? "  B traced" : "  A traced",
				  &a->side[0].tracer,
				  a->side[s].plan.trace_timer);
	if (a->side[0].plan.trace != a->side[1].plan.trace)
		out_printf(con, "  the other side's cells run with no event "
			   "of ours enabled: the pairs say what tracing "
			   "costs\n");
	/*
	 * By construction: what a boot sets up (memory layout, the order
	 * devices came up) is one for both, so the verdict is this boot's.
	 * --dry-run has not read the machine: no id then.
	 */
	out_printf(con, "  A and B measured in one boot%s%.8s%s and one "
		   "process: a boot's effect falls on both alike\n",
		   sys->boot_id[0] ? " (boot id " : "", sys->boot_id,
		   sys->boot_id[0] ? ")" : "");
	if (!a->ab.side[0].cmd && !a->ab.side[1].cmd && !a->ab.side[0].opts &&
	    !a->ab.side[1].opts)
		out_printf(con, "  A and B are the same: an A/A run; a cell "
			   "marked better or worse is a false mark\n");
}

static void ab_run_all(struct ab_run *a)
{
	const struct plan *p = &a->side[0].plan;
	enum session_end end = SESSION_ON;
	int i, k;

	for (i = 0; i < p->cells; i++) {
		int first = plan_ab_first(p, a->ab.seed, i);
		int pass = i / p->per_pass;

		if (i && i % p->per_pass == 0 && p->auto_repeats &&
		    plan_look(p, pass) && ab_decided(a, pass, false)) {
			out_progress(p, 0, NULL, NULL);
			return;
		}
		for (k = 0; !end && k < 2; k++) {
			int s = k ? !first : first;

			if (ab_enter(a, s) && !cell_stopped())
				ab_stop(a, SESSION_SIDE);
			end = cell_stopped() ? SESSION_SIGNAL :
			      session_cell_step(&a->side[s], i, p, i);
		}
		if (end || cell_stopped())
			ab_stop(a, end ? end : SESSION_SIGNAL);
	}
	out_progress(p, 0, NULL, NULL);
	if (p->auto_repeats)
		ab_decided(a, p->repeats, true);
}

/* The sides' tables, then compare's verdict on their pairs: its status. */
static int ab_finish(struct ab_run *a)
{
	const char *paths[2] = { a->ab.side[0].path, a->ab.side[1].path };
	struct compare_options co;
	struct cmp_tally t;
	int s, ret, nbad = 0;

	for (s = 0; s < 2; s++) {
		struct session *r = &a->side[s];

		cell_finish(&r->runner);
		out_printf(&r->con, "\n== %c (%s): medians over its %d "
			   "repeats\n", a->ab.side[s].name, a->ab.side[s].path,
			   r->plan.repeats);
		out_tables(&r->con, r->res, r->nres);
		out_steal(&r->con, r->res, r->nres);
		nbad += r->nbad;
	}
	if (nbad)
		out_printf(&a->side[0].con, "%d cells were not measured (see "
			   "their rows)\n", nbad);
	ret = ab_close(a);
	if (a->side[0].plan.trace || a->side[1].plan.trace)
		trace_close(&a->side[0].tracer);
	session_say_files(&a->side[0]);
	if (ret)
		return ret;
	out_printf(&a->side[0].con, "\n");
	fflush(stdout);
	ab_compare_options(a, &co);
	ret = compare_files(&co, paths, 2, &t) ? IB_EXIT_USAGE :
	      cmp_status(&t, co.bisect);
	/*
	 * as a run's: worse and unmeasured is 7; undecided beats unmeasured;
	 * unmeasured beats nothing judged (compare said why), which cells
	 * not measured may be the cause of
	 */
	if (nbad && ret == IB_EXIT_FAIL)
		return IB_EXIT_FAIL_CELLS;
	return (ret == IB_EXIT_OK || ret == IB_EXIT_UNJUDGED) && nbad ?
	       IB_EXIT_CELLS : ret;
}

/*
 * The verdict's files, written by compare at the end: neither side's
 * result file nor one another, and each one that can be made. 0 or the
 * status, said. --ktap's "-" was set aside first thing (ab_main).
 */
static int ab_check_outputs(const struct ab_run *a)
{
	const char *k = a->ab.ktap;
	const struct sys_output out[] = {
		{ .opt = "--junit", .path = a->ab.junit },
		{ .opt = "--html", .path = a->ab.html },
		{ .opt = "--ktap",
		  .path = k && strcmp(k, SAFE_STDOUT) ? k : NULL },
	};
	const char *in[2] = { a->ab.side[0].path, a->ab.side[1].path };
	struct sys_output_fault f;
	char is[32] = "";

	if (!sys_outputs_check(out, 3, in, 2, &f))
		return 0;
	if (f.kind == SYS_OUT_INPUT)
		snprintf(is, sizeof(is), "%c's result file",
			 a->ab.side[f.other].name);
	return session_output_fault(out, &f, is);
}

/*
 * Both sessions' checks, then what is made (A's lock, logfile and trace
 * instance serve both), then their start: 0 or the status that stops
 * ab, said. With --dry-run, the plan and nothing made.
 */
static int ab_setup(struct ab_run *a)
{
	struct plan *p[2] = { &a->side[0].plan, &a->side[1].plan };
	int s, e = 0;

	if (p[0]->cfg.uniprocessor)
		e = session_bind_cpu(p[0]->cfg.uni_cpu);
	/* one process, one cgroup: B's is A's, read once */
	a->side[1].cg = session_cgroup(&a->side[0]);
	for (s = 0; !e && s < 2; s++) {
		e = session_check_rights(&a->side[s]);
		if (!e)
			e = session_check_files(&a->side[s]);
	}
	/* the verdict's files: checked now, written by compare at the end */
	if (!e)
		e = ab_check_outputs(a);
	if (e)
		return e;
	if (p[0]->dry_run) {
		out_plan(p[0]);
		ab_describe(a);
		printf("--dry-run: no command was run, nothing measured\n");
		return IB_EXIT_OK;
	}
	e = session_lock(&a->side[0]);
	if (!e)
		e = session_hold_dma_latency(p[0]);
	/* one instance, A's, records the cells of the sides that trace */
	if (!e)
		e = session_open_trace(&a->side[0], p[0]->trace || p[1]->trace,
				       p[0]->trace_timer || p[1]->trace_timer);
	for (s = 0; !e && s < 2; s++)
		e = session_place_loads(&a->side[s], a->ab.side[s].name);
	if (!e)
		e = session_open_files(&a->side[0]);
	if (e)
		return e;
	for (s = 0; s < 2; s++) {
		a->side[s].info.ab = &a->ab;
		a->side[s].info.ab_side = s;
	}
	a->side[1].con.log = a->side[0].con.log;
	/* A's header says B's own settings too, where they differ */
	a->side[0].ab_b = &a->side[1];
	e = session_start(&a->side[0], NULL);
	if (!e)
		e = session_start(&a->side[1], &a->side[0]);
	if (e)
		return e;
	for (s = 0; s < 2; s++)
		if (p[s]->trace) {
			a->side[s].runner.trace = &a->side[0].tracer;
			a->side[s].info.trace = &a->side[0].tracer;
		}
	return 0;
}

int ab_main(int argc, char **argv)
{
	static struct ab_run run;
	struct ab_run *a = &run;
	struct plan *p[2] = { &a->side[0].plan, &a->side[1].plan };
	char err[512], names[256];
	int r, e;

	a->state = 0;
	a->half = -1;
	r = ab_parse(&a->ab, p, argc, argv, err, sizeof(err));
	if (r == 1) {
		ab_usage(stdout);
		exit(fflush(stdout) ? IB_EXIT_SETUP : IB_EXIT_OK);
	}
	if (r)
		return session_fail(IB_EXIT_USAGE, "%s", err);
	if (a->ab.plain && a->ab.moderate)
		return session_fail(IB_EXIT_USAGE, "--plain and --moderate ask "
				    "for opposite tests: give one");
	if (a->ab.primary && cmp_fig_named(a->ab.primary) < 0) {
		figure_compare_names(", ", names, sizeof(names));
		return session_fail(IB_EXIT_USAGE, "option --primary: '%s' is "
				    "not a figure compare tests (%s)",
				    a->ab.primary, names);
	}
	/* --ktap -: nothing but the document on stdout, from the start */
	if (a->ab.ktap && !strcmp(a->ab.ktap, SAFE_STDOUT) &&
	    !(a->ktap_std = safe_stdout_aside()))
		return session_fail(IB_EXIT_SETUP, "option --ktap: standard "
				    "output: %s", strerror(errno));
	shell_save(&a->env);
	e = ab_setup(a);
	if (e || p[0]->dry_run)
		return e;
	ab_describe(a);
	/* in neither state yet: the first cell enters A (A's command) */
	a->state = -1;
	ab_run_all(a);
	ab_home(a);
	return ab_finish(a);
}
