/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli/sweep.h - `interbench sweep`: the matrix measured in a base state
 * and K candidate states of the machine, interleaved (plan/sweep.h), each
 * candidate judged against the base as ab judges B against A, alpha
 * shared over the candidates (compare/sweep.h). A state is shell commands
 * that enter and leave it, and/or interbench options of its own, from the
 * command line (--candidate NAME --enter CMD ...) or a sweep file
 * (--file FILE, doc/sweep.txt).
 */
#ifndef INTERBENCH_CLI_SWEEP_H
#define INTERBENCH_CLI_SWEEP_H

#include <stdio.h>
#include "plan/sweep.h"
#include "plan/plan.h"
#include "lib/opt.h"

/* sweep's own options, for --help and the completion. */
extern const struct opt sweep_opts[];

/*
 * argv (argv[0] "sweep") -> sw and a plan per state, p[0] the base's
 * (each plan_init'ed here; plan_free them whatever the return). 0; 1 for
 * --help; -EINVAL with a one-line message in err.
 */
int sweep_parse(struct sweep_plan *sw, struct plan *const *p, int argc,
		char **argv, char *err, size_t n);
void sweep_usage(FILE *f);
/*
 * A sweep file's text (its path for messages) into sw's states, after
 * those sw has: 0, or -EINVAL with "FILE:LINE: what" in err. The text is
 * kept (the states point into it).
 */
int sweep_file_parse(struct sweep_plan *sw, const char *path, char *text,
		     char *err, size_t n);

#endif
