// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/simulator.c - any simulator as a background load: one whose
 * descriptor fills as_load (core/sim.h), placed in the list by SIM(name)
 * (loads.h). Video runs as a video player would next to the benchmarked
 * task, X as a busy display server, the chain simulators as music
 * playing, a desktop redrawing, a game running, RtApp as an rt-app file
 * (-w rtapp:FILE). The simulator runs with no duration until the load's
 * process is killed, with the run's options for it and the loads' nice
 * and class, but for what it sets itself (AudioGraph's SCHED_FIFO nodes,
 * an rt-app file's classes); its frames are the load's work.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "loads/loads.h"
#include "core/load.h"
#include "core/raw.h"
#include "core/sim.h"

/*
 * The simulator whose descriptor holds d: a load with no run of its own
 * is always a simulator's as_load.
 */
static const struct sim_desc *sim_of(const struct load_desc *d)
{
	return (const struct sim_desc *)((const char *)d -
					  offsetof(struct sim_desc, as_load));
}

static int run_sim(struct load_ctx *c, const struct sim_desc *sim)
{
	struct sim_result *res;
	struct sim_ctx sc;
	int rc;

	/* ~180 KB of histograms: too big for a thread's stack. */
	res = calloc(1, sizeof(*res));
	if (!res) {
		load_fail(c->work, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	sc = (struct sim_ctx){
		.desc = sim,
		.cfg = c->cfg,
		.nice = c->cfg->load_nice,
		.policy = c->cfg->load_policy,
		.opts = c->sim_opts,
		.res = res,
		.work = c->work,
	};
	rc = sim->run(&sc);
	/* With no duration the simulator should never come back. */
	if (rc >= 0)
		rc = res->status < 0 ? res->status : -EIO;
	if (res->why[0])
		load_fail(c->work, -rc, "%s", res->why);
	else
		load_fail(c->work, -rc, "%s simulator stopped: %s",
			  sim->name, strerror(-rc));
	free(res);
	return rc;
}

int load_run(struct load_ctx *c)
{
	if (c->desc->run)
		return c->desc->run(c);
	return run_sim(c, sim_of(c->desc));
}
