// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * X: a window grabbed and dragged across the screen. Frame k needs
 * (k mod 101) % of its frame of CPU: a ramp 0 %, 1 %, ... 100 %, then again.
 *
 * The frame is 100 ms (1 ms per 1 % step, as interbench always did), but
 * shorter when -t is short, so that every run covers the whole 0-100 %
 * ramp at least once: frame = min(100 ms, duration / 101).
 *
 * Deadline: two frames after release. At 100 % a frame's work fills its
 * whole period, so a one-period deadline could only be met with zero
 * latency: interbench 0.31 counted that as missed on an idle machine.
 * A redraw that finishes during the next frame is still shown one frame
 * later (double buffering); one later than that is a visible jerk.
 */
#include "lib/base.h"
#include "core/sim.h"
#include "simulators/engine.h"

#define X_STEPS		101
#define X_FRAME_MAX_NS	(100 * NSEC_PER_MSEC)

static uint64_t x_demand(const struct periodic_spec *p, uint64_t k)
{
	return p->period_ns * (k % X_STEPS) / 100;
}

static int x_run(struct sim_ctx *c)
{
	struct periodic_spec spec = {
		.period_ns = X_FRAME_MAX_NS,
		.demand_ns = x_demand,
		.steps = X_STEPS,
	};
	uint64_t d = sim_duration(c);

	if (d && d / X_STEPS < X_FRAME_MAX_NS) {
		/* Whole microseconds keep the printed frame readable. */
		spec.period_ns = d / X_STEPS / NSEC_PER_USEC *
				 NSEC_PER_USEC;
		if (spec.period_ns < NSEC_PER_MSEC)
			spec.period_ns = NSEC_PER_MSEC;
	}
	spec.deadline_ns = 2 * spec.period_ns;
	return periodic_run(c, &spec);
}

const struct sim_desc sim_x = {
	.name = "X",
	.summary = "CPU ramps 0 % to 100 % in 1 % steps, a frame a step",
	.flags = SIM_DEADLINES | SIM_PERIODIC,
	.run = x_run,
	.as_load = {
		.name = "X",
		.summary = "the X simulator in the background",
		.sim = &sim_x,
	},
};
