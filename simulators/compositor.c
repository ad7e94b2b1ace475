// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compositor: a desktop frame on the display's vblank clock. At each
 * vblank (the timing thread) the compositor reads input and hands it to
 * the client, the client renders, the compositor composes its buffer and
 * the frame is handed to the display (scanout). A frame not done by the
 * next vblank leaves the old one on the screen for another refresh: a
 * repeated frame.
 *
 * Refresh rates as displays sell them: 60 Hz (the default), 75, 120, 144,
 * 165, 240. The stages run in the benchmarked tasks' class (a desktop's
 * compositor and clients are normal tasks); their shares of a frame are a
 * choice (--compositor-client sets the client's, the biggest): 40 % in
 * all by default, Video's 40 %, so that the two differ only in being one
 * thread or a chain of four.
 */
#include <errno.h>
#include <stdio.h>
#include "lib/base.h"
#include "core/sim.h"
#include "simulators/chain.h"
#include "simulators/engine.h"

struct comp_opts {
	int hz;			/* refreshes a second */
	int client_pct;		/* the client's render, % of a frame */
};

#define CO(field)	offsetof(struct comp_opts, field)

static const struct opt comp_opts_list[] = {
	{ .name = "compositor-hz", .type = OT_INT, .arg = "HZ",
	  .help = "Compositor's refresh rate (default 60, 24-500)",
	  .off = CO(hz), .min = 24, .max = 500 },
	{ .name = "compositor-client", .type = OT_INT, .arg = "PCT",
	  .help = "Compositor's client render, % of a frame\n"
		  "(default 24, 1-80; input 2 %, composing 12 %,\n"
		  "scanout 2 %)",
	  .off = CO(client_pct), .min = 1, .max = 80 },
	{ .name = NULL },
};

static void comp_opts_init(void *opts, const struct run_cfg *cfg)
{
	(void)cfg;
	*(struct comp_opts *)opts = (struct comp_opts){ .hz = 60,
							.client_pct = 24 };
}

static void comp_spec(const void *opts, struct chain_spec *s)
{
	const struct comp_opts *o = opts;
	uint64_t f = NSEC_PER_SEC / (uint64_t)o->hz;

	*s = (struct chain_spec){
		.period_ns = f, .deadline_ns = f, .miss = CHAIN_REPEAT,
		.nstages = 4,
		.stage = {
			{ "input", f * 2 / 100, 0, 1 },
			{ "client", f * (uint64_t)o->client_pct / 100,
			  1u << 0, 1 },
			{ "compose", f * 12 / 100, 1u << 1, 1 },
			{ "scanout", f * 2 / 100, 1u << 2, 1 },
		},
	};
}

static int comp_opts_check(const void *opts, char *err, size_t n)
{
	struct chain_spec s;

	comp_spec(opts, &s);
	return chain_check(&s, err, n);
}

static int comp_run(struct sim_ctx *c)
{
	return chain_sim_run(c, comp_spec);
}

static void comp_detail(const struct result *r, const void *opts,
			out_fn out, void *ctx)
{
	chain_sim_detail(r, opts, comp_spec, out, ctx);
}

const struct sim_desc sim_compositor = {
	.name = "Compositor",
	.summary = "a frame each 60 Hz vblank: input > client > compose > "
		   "scanout",
	.flags = SIM_DEADLINES | SIM_NAMED,
	.set = "modern",
	.run = comp_run,
	.opts = comp_opts_list,
	.opts_size = sizeof(struct comp_opts),
	.opts_init = comp_opts_init,
	.opts_check = comp_opts_check,
	.figures = chain_figures,
	.nfigures = CHAIN_NFIGURES,
	.detail = comp_detail,
	.as_load = {
		.name = "Compositor",
		.summary = "the Compositor simulator in the background",
		.flags = LOAD_NAMED,
		.sim = &sim_compositor,
	},
};
