// SPDX-License-Identifier: GPL-2.0-or-later
/* Video: 60 frames a second, each needing 40 % of its frame time. */
#include "lib/base.h"
#include "core/sim.h"
#include "simulators/engine.h"

#define VIDEO_PERIOD_NS	(NSEC_PER_SEC / 60)

static int video_run(struct sim_ctx *c)
{
	static const struct periodic_spec spec = {
		.period_ns = VIDEO_PERIOD_NS,
		.deadline_ns = VIDEO_PERIOD_NS,
		.demand_ns = periodic_const_demand,
		.cpu_ns = VIDEO_PERIOD_NS * 40 / 100,
	};

	return periodic_run(c, &spec);
}

const struct sim_desc sim_video = {
	.name = "Video",
	.summary = "60 frames a second, needs 40 % CPU",
	.flags = SIM_DEADLINES | SIM_PERIODIC,
	.run = video_run,
	.as_load = {
		.name = "Video",
		.summary = "the Video simulator in the background",
		.sim = &sim_video,
	},
};
