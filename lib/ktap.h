/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/ktap.h - the lines of KTAP version 1, the kernel's test output
 * (Documentation/dev-tools/ktap.rst): the header and plan, a result
 * line, text made safe for a line. A run's --ktap (outputs/ktap.c) and
 * compare's (compare/compare_ktap.c) both write with them.
 */
#ifndef INTERBENCH_LIB_KTAP_H
#define INTERBENCH_LIB_KTAP_H

#include <stdbool.h>
#include <stdio.h>

/* A subtest's lines are indented this much more than its parent's. */
#define KTAP_INDENT	4

/*
 * s as KTAP text at f: a line of it, so a newline or other control
 * character is '?'; in a test's name (name) '#' is '_' too, as a result
 * line's description ends at its first '#'.
 */
void ktap_text(FILE *f, const char *s, bool name);
/* depth levels of subtest indentation. */
void ktap_indent(FILE *f, int depth);
/* "KTAP version 1" and the plan "1..n", at depth. */
void ktap_head(FILE *f, int depth, int n);
/*
 * A result line at depth: "ok N name" or "not ok N name", then " # " and
 * the directive or diagnostic data (directive: "SKIP reason", or a word
 * such as "worse") unless directive is NULL or "".
 */
void ktap_result(FILE *f, int depth, bool ok, int num, const char *name,
		 const char *directive);

#endif
