// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/none.c - the "None" load: no work at all. It still gets its own
 * process like every other load, so all cells are set up the same way.
 */
#include <unistd.h>
#include "loads/loads.h"
#include "core/load.h"

static int none_run(struct load_ctx *c)
{
	(void)c;
	for (;;)
		pause();
	return 0;
}

const struct load_desc load_none = {
	.name = "None",
	.summary = "no background load",
	.flags = LOAD_IDLE,
	.run = none_run,
};
