// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AudioGraph: a sound server's cycle at a small quantum. The device's
 * clock (the timing thread) starts each cycle every quantum; the client
 * nodes make their buffers side by side, a filter mixes them and the
 * device node writes the result. A cycle not done by the next quantum is
 * an xrun (the card plays silence or old data).
 *
 * Sized from PipeWire's defaults (README cites them): 48 kHz, nodes
 * SCHED_FIFO at priority 88 (module-rt's rt.prio); the quantum is the
 * smallest any client asks for (PipeWire's default 1024 frames when none
 * asks), 256 here: 5.33 ms. How much of the quantum the graph's work takes
 * is a choice (--graph-load), not a measurement of any one desktop.
 */
#include <errno.h>
#include <stdio.h>
#include "lib/base.h"
#include "core/sim.h"
#include "simulators/chain.h"
#include "simulators/engine.h"

#define GRAPH_RT_PRIO	88	/* PipeWire module-rt's rt.prio */

struct graph_opts {
	int quantum;		/* frames a cycle */
	int rate;		/* frames a second */
	int load_pct;		/* the cycle's work, % of the quantum */
	int clients;		/* client nodes side by side */
	bool fair;		/* the run's class instead of SCHED_FIFO */
};

#define GO(field)	offsetof(struct graph_opts, field)

static const struct opt graph_opts_list[] = {
	{ .name = "graph-quantum", .type = OT_INT, .arg = "FRAMES",
	  .help = "AudioGraph's quantum in frames (default 256;\n"
		  "PipeWire's 1024, 256 and 64 are 21.3, 5.33 and\n"
		  "1.33 ms at 48 kHz; 16-8192)",
	  .off = GO(quantum), .min = 16, .max = 8192 },
	{ .name = "graph-rate", .type = OT_INT, .arg = "HZ",
	  .help = "AudioGraph's sample rate (default 48000)",
	  .off = GO(rate), .min = 8000, .max = 768000 },
	{ .name = "graph-load", .type = OT_INT, .arg = "PCT",
	  .help = "AudioGraph's work, % of its quantum (default\n"
		  "20: clients 40 %, filter 35 %, device 25 % of it)",
	  .off = GO(load_pct), .min = 1, .max = 95 },
	{ .name = "graph-clients", .type = OT_INT, .arg = "N",
	  .help = "AudioGraph's client nodes side by side, each\n"
		  "doing the clients' share (default 1, 1-16)",
	  .off = GO(clients), .min = 1, .max = 16 },
	{ .name = "graph-fair", .type = OT_FLAG,
	  .help = "AudioGraph's nodes in the benchmarked tasks'\n"
		  "class (-r, -B, --bench-policy) instead of\n"
		  "SCHED_FIFO 88",
	  .off = GO(fair) },
	{ .name = NULL },
};

static void graph_opts_init(void *opts, const struct run_cfg *cfg)
{
	struct graph_opts *o = opts;

	(void)cfg;
	*o = (struct graph_opts){ .quantum = 256, .rate = 48000,
				  .load_pct = 20, .clients = 1 };
}

static void graph_spec(const void *opts, struct chain_spec *s)
{
	const struct graph_opts *o = opts;
	uint64_t q = (uint64_t)o->quantum * NSEC_PER_SEC / (uint64_t)o->rate;
	uint64_t work = q * (uint64_t)o->load_pct / 100;

	*s = (struct chain_spec){
		.period_ns = q, .deadline_ns = q, .miss = CHAIN_XRUN,
		.rt = !o->fair, .rt_prio = GRAPH_RT_PRIO, .nstages = 3,
		.stage = {
			{ "client", work * 40 / 100, 0, o->clients },
			{ "filter", work * 35 / 100, 1u << 0, 1 },
			{ "device", work * 25 / 100, 1u << 1, 1 },
		},
	};
}

static int graph_opts_check(const void *opts, char *err, size_t n)
{
	const struct graph_opts *o = opts;
	struct chain_spec s;

	graph_spec(o, &s);
	if (s.period_ns < 100 * NSEC_PER_USEC) {
		snprintf(err, n, "a quantum of %d frames at %d Hz is under "
			 "0.1 ms", o->quantum, o->rate);
		return -EINVAL;
	}
	return chain_check(&s, err, n);
}

static int graph_run(struct sim_ctx *c)
{
	return chain_sim_run(c, graph_spec);
}

static void graph_detail(const struct result *r, const void *opts,
			 out_fn out, void *ctx)
{
	chain_sim_detail(r, opts, graph_spec, out, ctx);
}

const struct sim_desc sim_audiograph = {
	.name = "AudioGraph",
	.summary = "a sound server's cycle: client > filter > device "
		   "every 5.33 ms, SCHED_FIFO",
	.flags = SIM_DEADLINES | SIM_NAMED,
	.set = "modern",
	.run = graph_run,
	.opts = graph_opts_list,
	.opts_size = sizeof(struct graph_opts),
	.opts_init = graph_opts_init,
	.opts_check = graph_opts_check,
	.figures = chain_figures,
	.nfigures = CHAIN_NFIGURES,
	.detail = graph_detail,
	.as_load = {
		.name = "AudioGraph",
		.summary = "the AudioGraph simulator in the background",
		.flags = LOAD_NAMED,
		.sim = &sim_audiograph,
	},
};
