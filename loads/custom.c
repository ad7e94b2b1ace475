// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/custom.c - the "Custom" load: the Custom simulator (-C and -I)
 * running in the background. Only used when asked for.
 */
#include "loads/loads.h"
#include "core/load.h"

static int custom_run(struct load_ctx *c)
{
	return load_run_sim(c);
}

const struct load_desc load_custom = {
	.name = "Custom",
	.summary = "the Custom simulator (-C, -I) in the background",
	.flags = LOAD_CUSTOM,
	.sim = &sim_custom,
	.run = custom_run,
};
