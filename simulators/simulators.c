// SPDX-License-Identifier: GPL-2.0-or-later
/* The simulators, in the order the matrix runs them: one line each. */
#include <stddef.h>
#include "core/sim.h"

extern const struct sim_desc sim_audio, sim_video, sim_x, sim_gaming,
	sim_server, sim_custom;
extern const struct sim_desc sim_cyclic;
extern const struct sim_desc sim_audiograph, sim_compositor, sim_gameframe;
extern const struct sim_desc sim_rtapp;

const struct sim_desc *const simulators[] = {
	&sim_audio,
	&sim_video,
	&sim_x,
	&sim_gaming,
	&sim_server,
	&sim_custom,
	&sim_cyclic,
	&sim_audiograph,
	&sim_compositor,
	&sim_gameframe,
	&sim_rtapp,
	NULL
};
