// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session/fail.c - a step's refusal: one line on stderr, and the status
 * the command exits with. Below setup.c, outputs.c and session.c, which
 * all refuse so: no two files of the session call each other.
 */
#include <stdarg.h>
#include <stdio.h>
#include "session/session.h"

int session_fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("interbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}
