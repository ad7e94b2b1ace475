// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaming: uses all the CPU it can get, in frames of 1/60 s of work. No
 * deadlines: its latency is how much longer than its CPU time a frame
 * took, and % desired CPU is the share of wall time it ran.
 */
#include "lib/base.h"
#include "core/sim.h"
#include "simulators/engine.h"

static int gaming_run(struct sim_ctx *c)
{
	return greedy_run(c, NSEC_PER_SEC / 60);
}

const struct sim_desc sim_gaming = {
	.name = "Gaming",
	.summary = "uses all the CPU it can, 60 frames of work a second",
	.flags = 0,
	.run = gaming_run,
};
