// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-outfiles.c - every command's output files checked in one place
 * (sys_outputs_check, lib/system.c), in a temporary directory: one file
 * named twice (by another spelling), an input it would replace, one that
 * cannot be made, "-" as standard output, a file its writer checks, and
 * the judging commands' words for each fault.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/system.h"
#include "check.h"

int main(void)
{
	char dir[64] = "/tmp/iboutfiles.XXXXXX", in[96], a[96], a2[96],
	     bad[96], text[512];
	struct sys_output out[3] = {
		{ .opt = "--json" }, { .opt = "--html" }, { .opt = "--ktap" },
	};
	const char *ins[1] = { in };
	struct sys_output_fault f;
	FILE *fp;

	if (!mkdtemp(dir)) {
		check(0, "mkdtemp: %s", strerror(errno));
		return check_done();
	}
	snprintf(in, sizeof(in), "%s/in.json", dir);
	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(a2, sizeof(a2), "%s/./a.json", dir);
	snprintf(bad, sizeof(bad), "%s/none/b.json", dir);
	fp = fopen(in, "we");
	if (fp)
		fclose(fp);

	check(!sys_outputs_check(out, 3, ins, 1, &f), "nothing asked: fine");
	out[0].path = a;
	out[1].path = a2;
	check(sys_outputs_check(out, 3, ins, 1, &f) && f.kind ==
	      SYS_OUT_TWICE && f.out == 1 && f.other == 0,
	      "one file by two spellings: the second refused");
	sys_output_fault_text(out, &f, text, sizeof(text));
	check(strstr(text, "--json and --html name one file") != NULL,
	      "said: %s", text);

	out[1].path = in;
	check(sys_outputs_check(out, 3, ins, 1, &f) && f.kind ==
	      SYS_OUT_INPUT && f.out == 1 && f.other == 0,
	      "an input: refused");
	sys_output_fault_text(out, &f, text, sizeof(text));
	check(strstr(text, "is a result file to read: --html would replace "
		     "it") != NULL, "said: %s", text);

	out[1].path = bad;
	check(sys_outputs_check(out, 3, ins, 1, &f) && f.kind ==
	      SYS_OUT_UNWRITABLE && f.out == 1 && f.err == -ENOENT,
	      "a directory that is not there: refused");
	sys_output_fault_text(out, &f, text, sizeof(text));
	check(!strncmp(text, "cannot write ", 13), "said: %s", text);
	out[1].later = true;
	check(!sys_outputs_check(out, 3, ins, 1, &f),
	      "its writer checks it: not here");

	out[2].path = "-";
	out[2].std = true;
	check(!sys_outputs_check(out, 3, ins, 1, &f),
	      "\"-\" as standard output is no file");
	out[0].path = "-";
	check(sys_outputs_check(out, 3, ins, 1, &f) && f.kind ==
	      SYS_OUT_TWICE && f.out == 2,
	      "but no other output may be \"-\" too");

	unlink(in);
	rmdir(dir);
	return check_done();
}
