// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GameFrame: a game's frame, fork-join, capped. At each tick of the cap
 * (144 FPS by default, the timing thread) the main thread simulates the
 * frame, hands it to the render thread and a pool of job workers side by
 * side, waits for all of them and presents. A frame not presented within
 * its tick is a late frame; its 1 % low is set by the slowest worker's
 * wakeup, where a scheduler's choices show.
 *
 * Engine threading as job systems size it: at most one worker a logical
 * CPU (Unity's documentation of its job system; README cites it), and
 * the main thread keeps a CPU of its own: one worker a CPU but one. The
 * stages run in the benchmarked tasks' class; their shares of a frame
 * are a choice: main 15 %, render 25 %, each worker 25 %, present 5 %.
 */
#include <errno.h>
#include <stdio.h>
#include "lib/base.h"
#include "core/sim.h"
#include "simulators/chain.h"
#include "simulators/engine.h"

struct game_opts {
	int fps;		/* the cap */
	int workers;		/* job workers */
};

#define GMO(field)	offsetof(struct game_opts, field)

static const struct opt game_opts_list[] = {
	{ .name = "game-fps", .type = OT_INT, .arg = "FPS",
	  .help = "GameFrame's frame cap (default 144, 10-1000)",
	  .off = GMO(fps), .min = 10, .max = 1000 },
	{ .name = "game-workers", .type = OT_INT, .arg = "N",
	  .help = "GameFrame's job workers (default: CPUs usable\n"
		  "less one, at least 1; 1-32)",
	  .off = GMO(workers), .min = 1, .max = CHAIN_COPIES },
	{ .name = NULL },
};

static void game_opts_init(void *opts, const struct run_cfg *cfg)
{
	struct game_opts *o = opts;

	o->fps = 144;
	o->workers = cfg->cpus > 1 ? cfg->cpus - 1 : 1;
	if (o->workers > CHAIN_COPIES)
		o->workers = CHAIN_COPIES;
}

static void game_spec(const void *opts, struct chain_spec *s)
{
	const struct game_opts *o = opts;
	uint64_t f = NSEC_PER_SEC / (uint64_t)o->fps;

	*s = (struct chain_spec){
		.period_ns = f, .deadline_ns = f, .miss = CHAIN_LATE,
		.nstages = 4,
		.stage = {
			{ "main", f * 15 / 100, 0, 1 },
			{ "render", f * 25 / 100, 1u << 0, 1 },
			{ "worker", f * 25 / 100, 1u << 0, o->workers },
			{ "present", f * 5 / 100, 1u << 1 | 1u << 2, 1 },
		},
	};
}

static int game_opts_check(const void *opts, char *err, size_t n)
{
	struct chain_spec s;

	game_spec(opts, &s);
	return chain_check(&s, err, n);
}

static int game_run(struct sim_ctx *c)
{
	return chain_sim_run(c, game_spec);
}

static void game_detail(const struct result *r, const void *opts,
			out_fn out, void *ctx)
{
	chain_sim_detail(r, opts, game_spec, out, ctx);
}

const struct sim_desc sim_gameframe = {
	.name = "GameFrame",
	.summary = "a capped game frame at 144 FPS: main > render+workers > "
		   "present",
	.flags = SIM_DEADLINES | SIM_NAMED,
	.set = "modern",
	.run = game_run,
	.opts = game_opts_list,
	.opts_size = sizeof(struct game_opts),
	.opts_init = game_opts_init,
	.opts_check = game_opts_check,
	.figures = chain_figures,
	.nfigures = CHAIN_NFIGURES,
	.detail = game_detail,
	.as_load = {
		.name = "GameFrame",
		.summary = "the GameFrame simulator in the background",
		.flags = LOAD_NAMED,
		.sim = &sim_gameframe,
	},
};
