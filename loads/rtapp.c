// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/rtapp.c - the "RtApp" load: an rt-app workload in the background
 * (-w rtapp:FILE), run by the RtApp simulator (simulators/rtapp.c) from
 * the file the command line read (cfg->rtapp_load).
 *
 * It runs the simulator itself rather than through load_run_sim(): with
 * no .sim in its descriptor, an RtApp task still runs under an RtApp
 * load (two files), where a task is otherwise never its own load.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "loads/loads.h"
#include "core/load.h"
#include "core/raw.h"
#include "core/sim.h"

extern const struct sim_desc sim_rtapp;	/* simulators/rtapp.c */

static int rtapp_load_run(struct load_ctx *c)
{
	struct sim_result *res;
	struct sim_ctx sc;
	int rc;

	if (!c->cfg->rtapp_load) {
		load_fail(c->work, EINVAL, "the RtApp load runs a file: "
			  "-w rtapp:FILE.json");
		return -EINVAL;
	}
	/* the histograms are too big for a thread's stack */
	res = calloc(1, sizeof(*res));
	if (!res) {
		load_fail(c->work, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	/* the file says each thread's class: not -N, --load-policy */
	sc = (struct sim_ctx){
		.desc = &sim_rtapp,
		.cfg = c->cfg,
		.nice = c->cfg->load_nice,
		.policy = c->cfg->load_policy,
		.res = res,
		.work = c->work,
	};
	rc = sim_rtapp.run(&sc);
	/* it rests until killed once its threads are done: never back */
	if (rc >= 0)
		rc = res->status < 0 ? res->status : -EIO;
	if (res->why[0])
		load_fail(c->work, -rc, "%s", res->why);
	else
		load_fail(c->work, -rc, "RtApp stopped: %s", strerror(-rc));
	free(res);
	return rc;
}

const struct load_desc load_rtapp = {
	.name = "RtApp",
	.summary = "an rt-app JSON workload in the background: -w rtapp:FILE",
	.flags = LOAD_NAMED,
	.run = rtapp_load_run,
};
