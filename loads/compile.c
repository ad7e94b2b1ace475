// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/compile.c - the "Compile" load: what building a big project does
 * to a machine, CPU burning, writing and reading files all at once. It is
 * Burn, Write and Read run side by side in one process.
 */
#include "loads/loads.h"
#include "core/load.h"

static const struct load_desc *const compile_parts[] = {
	&load_burn, &load_write, &load_read,
};

static int compile_prepare(struct load_ctx *c)
{
	int rc;

	rc = load_write.prepare(c);
	if (rc)
		return rc;
	rc = load_read.prepare(c);
	if (rc)
		load_write.cleanup(c);
	return rc;
}

static int compile_run(struct load_ctx *c)
{
	int n = (int)(sizeof(compile_parts) / sizeof(compile_parts[0]));

	return load_run_parallel(c, compile_parts, n);
}

static void compile_cleanup(struct load_ctx *c)
{
	load_write.cleanup(c);
}

const struct load_desc load_compile = {
	.name = "Compile",
	.summary = "Burn, Write and Read at once, like a big build",
	.flags = LOAD_FILES | LOAD_READ_FILE | LOAD_WRITE_FILE,
	.prepare = compile_prepare,
	.run = compile_run,
	.cleanup = compile_cleanup,
};
