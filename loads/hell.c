// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/hell.c - the "Hell" load: the worst case we have, CPU burning,
 * streaming writes, a loopback network flood and a fork storm all at
 * once. It is Burn, Write, Net and Fork run side by side in one process.
 */
#include "loads/loads.h"
#include "core/load.h"

static const struct load_desc *const hell_parts[] = {
	&load_burn, &load_write, &load_net, &load_fork,
};

/* Only Write has files to make and remove. */
static int hell_prepare(struct load_ctx *c)
{
	return load_write.prepare(c);
}

static int hell_run(struct load_ctx *c)
{
	int n = (int)(sizeof(hell_parts) / sizeof(hell_parts[0]));

	return load_run_parallel(c, hell_parts, n);
}

static void hell_cleanup(struct load_ctx *c)
{
	load_write.cleanup(c);
}

const struct load_desc load_hell = {
	.name = "Hell",
	.summary = "Burn, Write, Net and Fork at once: the worst case",
	.flags = LOAD_FILES,
	.prepare = hell_prepare,
	.run = hell_run,
	.cleanup = hell_cleanup,
};
