// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/modern.c - the chain simulators (AudioGraph, Compositor,
 * GameFrame) as loads: music playing, a desktop redrawing, a game running
 * next to the benchmarked task. With the run's options for them; the
 * stages take the loads' class, but for AudioGraph's SCHED_FIFO nodes (a
 * sound server is real-time whoever else runs). Only when -w names them.
 */
#include "loads/loads.h"
#include "core/load.h"

static int modern_run(struct load_ctx *c)
{
	return load_run_sim(c);
}

const struct load_desc load_audiograph = {
	.name = "AudioGraph",
	.summary = "the AudioGraph simulator in the background",
	.flags = LOAD_NAMED,
	.sim = &sim_audiograph,
	.run = modern_run,
};

const struct load_desc load_compositor = {
	.name = "Compositor",
	.summary = "the Compositor simulator in the background",
	.flags = LOAD_NAMED,
	.sim = &sim_compositor,
	.run = modern_run,
};

const struct load_desc load_gameframe = {
	.name = "GameFrame",
	.summary = "the GameFrame simulator in the background",
	.flags = LOAD_NAMED,
	.sim = &sim_gameframe,
	.run = modern_run,
};
