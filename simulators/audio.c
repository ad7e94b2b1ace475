// SPDX-License-Identifier: GPL-2.0-or-later
/* Audio: wakes every 50 ms and needs 5 % of the CPU (2.5 ms a period). */
#include "lib/base.h"
#include "core/sim.h"
#include "simulators/engine.h"

static int audio_run(struct sim_ctx *c)
{
	static const struct periodic_spec spec = {
		.period_ns = 50 * NSEC_PER_MSEC,
		.deadline_ns = 50 * NSEC_PER_MSEC,
		.demand_ns = periodic_const_demand,
		.cpu_ns = 50 * NSEC_PER_MSEC * 5 / 100,
	};

	return periodic_run(c, &spec);
}

const struct sim_desc sim_audio = {
	.name = "Audio",
	.summary = "wakes every 50 ms, needs 5 % CPU",
	.flags = SIM_DEADLINES | SIM_PERIODIC,
	.run = audio_run,
};
