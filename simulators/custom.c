// SPDX-License-Identifier: GPL-2.0-or-later
/* Custom: wakes every -I microseconds and needs -C percent of the CPU. */
#include "core/cfg.h"
#include "core/sim.h"
#include "simulators/engine.h"

static int custom_run(struct sim_ctx *c)
{
	const struct run_cfg *cfg = c->cfg;
	struct periodic_spec spec = {
		.period_ns = cfg->custom_interval_ns,
		.deadline_ns = cfg->custom_interval_ns,
		.demand_ns = periodic_const_demand,
		.cpu_ns = cfg->custom_interval_ns * cfg->custom_cpu_pct / 100,
	};

	return periodic_run(c, &spec);
}

/* Its last frames may end two intervals after the run. */
static uint64_t custom_grace(const struct run_cfg *cfg, const void *opts)
{
	(void)opts;
	return 2 * cfg->custom_interval_ns;
}

const struct sim_desc sim_custom = {
	.name = "Custom",
	.summary = "wakes every -I us, needs -C % CPU",
	.flags = SIM_DEADLINES | SIM_CUSTOM | SIM_PERIODIC,
	.run = custom_run,
	.grace_ns = custom_grace,
	.as_load = {
		.name = "Custom",
		.summary = "the Custom simulator (-C, -I) in the background",
		.flags = LOAD_CUSTOM,
		.sim = &sim_custom,
	},
};
