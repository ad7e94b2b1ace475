// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/hack.c - the "Hack" load: hackbench's groups of senders and
 * receivers passing small messages over sockets, sized to the machine.
 */
#include "loads/loads.h"
#include "core/load.h"
#include "loads/hackbench.h"

static int hack_run(struct load_ctx *c)
{
	struct hack_cfg h;

	hackbench_size(&h, c->cfg->cpus);
	return hackbench_run(&h, c->work);
}

const struct load_desc load_hack = {
	.name = "Hack",
	.summary = "hackbench: many threads passing messages over sockets",
	.run = hack_run,
};
