// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/x.c - the "X" load: the X simulator running in the background,
 * as a busy display server would.
 */
#include "loads/loads.h"
#include "core/load.h"

static int x_run(struct load_ctx *c)
{
	return load_run_sim(c);
}

const struct load_desc load_x = {
	.name = "X",
	.summary = "the X simulator in the background",
	.sim = &sim_x,
	.run = x_run,
};
