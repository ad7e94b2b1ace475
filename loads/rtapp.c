// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/rtapp.c - the "RtApp" load: an rt-app workload in the background
 * (-w rtapp:FILE), run by the RtApp simulator (simulators/rtapp/rtapp.c)
 * from the file the command line read, in the simulator's options.
 *
 * LOAD_UNDER_SELF: an RtApp task still runs under an RtApp load (two
 * files), where a task is otherwise never its own load.
 */
#include "loads/loads.h"
#include "core/load.h"
#include "core/sim.h"

extern const struct sim_desc sim_rtapp;	/* simulators/rtapp/rtapp.c */

static int rtapp_load_run(struct load_ctx *c)
{
	/* The file says each thread's class: -N, --load-policy go unused. */
	return load_run_sim(c);
}

const struct load_desc load_rtapp = {
	.name = "RtApp",
	.summary = "an rt-app JSON workload in the background: -w rtapp:FILE",
	.flags = LOAD_NAMED | LOAD_UNDER_SELF,
	.sim = &sim_rtapp,
	.run = rtapp_load_run,
};
