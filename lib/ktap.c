// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/ktap.c - the lines of KTAP version 1 (see ktap.h): what the run's
 * --ktap (outputs/) and compare's (compare/) both write with.
 */
#include <stdio.h>
#include "lib/ktap.h"

void ktap_text(FILE *f, const char *s, bool name)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fputc('?', f);
		else if (name && *p == '#')
			fputc('_', f);
		else
			fputc(*p, f);
	}
}

void ktap_indent(FILE *f, int depth)
{
	fprintf(f, "%*s", depth * KTAP_INDENT, "");
}

void ktap_head(FILE *f, int depth, int n)
{
	ktap_indent(f, depth);
	fputs("KTAP version 1\n", f);
	ktap_indent(f, depth);
	fprintf(f, "1..%d\n", n);
}

void ktap_result(FILE *f, int depth, bool ok, int num, const char *name,
		 const char *directive)
{
	ktap_indent(f, depth);
	fprintf(f, "%s %d ", ok ? "ok" : "not ok", num);
	ktap_text(f, name, true);
	if (directive && *directive) {
		fputs(" # ", f);
		ktap_text(f, directive, false);
	}
	fputc('\n', f);
}
