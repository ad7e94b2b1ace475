// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/run.c - a run, the command without a name: the command line into
 * a plan (cli/), the checks and the set-up (run_setup.c), the machine's
 * calibration, the cells in order (run/cell.c) with -n auto and
 * --remeasure-if, each result to the outputs (run_outputs.c), and the
 * exit status. A signal or --breaktrace ends it early, its files whole.
 * Simulators are in simulators/, loads in loads/. HACKING says more.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "session/session.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "lib/system.h"
#include "outputs/output.h"
#include "outputs/results.h"
#include "run/machine.h"
#include "run/placement.h"
#include "run/cell.h"
#include "run/trace.h"

/* ---- set-up --------------------------------------------------------- */

/* cmds: interbench's subcommands, for the shell's completion */
static void parse_command_line(struct plan *p, int argc, char **argv,
			       const struct opt_cmd *cmds, int ncmds)
{
	char err[512];

	if (plan_init(p))
		die(IB_EXIT_SETUP, "out of memory");
	if (cli_parse(p, argc, argv, err, sizeof(err)))
		die(IB_EXIT_USAGE, "%s", err);
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
	static struct run run;
	struct run *r = &run;

	parse_command_line(&r->plan, argc, argv, cmds, ncmds);
	/* First: SCHED_DEADLINE is refused on a CPU subset (check_rights) */
	if (r->plan.cfg.uniprocessor)
		bind_one_cpu(r->plan.cfg.uni_cpu);
	check_rights(&r->plan);
	check_files(r);
	if (r->plan.dry_run) {
		out_plan(&r->plan);
		return IB_EXIT_OK;
	}
	take_lock(r);
	hold_dma_latency(&r->plan);
	open_trace(r, r->plan.trace, r->plan.trace_timer);
	place_loads(r, 0);
	open_files(r);
	start(r, NULL);
	run_all(r);
	if (cell_stopped())
		interrupted(r);
	return finish(r);
}
