// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/run.c - a run, the command without a name: the command line into
 * a plan (cli/), then one session (session/session.h) through its steps:
 * the checks, the lock and what is made, the start, every cell, the end;
 * the first step that fails gives the exit status. HACKING says more.
 */
#include <stdio.h>
#include <stdlib.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "lib/base.h"
#include "outputs/output.h"
#include "report/report.h"
#include "run/cell.h"
#include "session/session.h"

/* cmds: interbench's subcommands, for the shell's completion */
static void parse_command_line(struct plan *p, int argc, char **argv,
			       const struct opt_cmd *cmds, int ncmds)
{
	char err[512];

	if (plan_init(p))
		exit(session_fail(IB_EXIT_SETUP, "out of memory"));
	if (cli_parse(p, argc, argv, err, sizeof(err)))
		exit(session_fail(IB_EXIT_USAGE, "%s", err));
	switch (p->action) {
	case PLAN_RUN:
		return;
	case PLAN_HELP:
		cli_usage(stdout);
		break;
	case PLAN_LIST:
		cli_list(stdout);
		break;
	case PLAN_VERSION:
		printf("interbench %s\n", IB_VERSION);
		break;
	case PLAN_COMPLETION:
		completion_bash(stdout, cmds, ncmds);
		break;
	}
	exit(IB_EXIT_OK);
}

int run_main(int argc, char **argv, const struct opt_cmd *cmds, int ncmds)
{
	static struct session run;
	struct session *r = &run;
	int e = 0;

	parse_command_line(&r->plan, argc, argv, cmds, ncmds);
	/* --html: the page is drawn by the tower that judges */
	r->page = report_run_page;
	/* --ktap -: nothing but the document on stdout, from the start */
	e = session_stdout_aside(r);
	/* --on-late's shell commands run as interbench was started */
	shell_save(&r->late.env);
	/* First: SCHED_DEADLINE is refused on a CPU subset (check_rights) */
	if (!e && r->plan.cfg.uniprocessor)
		e = session_bind_cpu(r->plan.cfg.uni_cpu);
	if (!e)
		e = session_check_rights(r);
	if (!e)
		e = session_check_files(r);
	if (!e && r->plan.dry_run) {
		out_plan(&r->plan);
		return IB_EXIT_OK;
	}
	/* what is made from here on is undone at exit, whatever it is */
	if (!e)
		e = session_lock(r);
	if (!e)
		e = session_hold_dma_latency(&r->plan);
	if (!e)
		e = session_open_trace(r, r->plan.trace, r->plan.trace_timer);
	if (!e)
		e = session_place_loads(r, 0);
	if (!e)
		e = session_open_files(r);
	if (!e)
		e = session_start(r, NULL);
	if (!e)
		e = session_run_all(r);
	if (e)
		return e;
	if (cell_stopped())
		return session_end(r, SESSION_SIGNAL);
	return session_finish(r);
}
