/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli/ab.h - `interbench ab`: the matrix measured in two states of the
 * machine, A and B, interleaved cell by cell in A B B A order so that
 * what drifts meanwhile (the host, the room's temperature) falls on both
 * alike. A side is a shell command that puts the machine in its state
 * (and one that takes it out again), and/or interbench options of its
 * own. Each side has its own plan and result file; the files carry one
 * id, by which compare knows them as pairs.
 *
 * This file is the command line; its plan and order are plan/ab.h and
 * plan/auto.c, the command runs it (cmd/ab.c), run/shell.c runs the
 * commands, compare judges.
 */
#ifndef INTERBENCH_AB_H
#define INTERBENCH_AB_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "plan/ab.h"
#include "plan/plan.h"
#include "lib/opt.h"

/* ab's own options, for --help and the completion. */
extern const struct opt ab_opts[];

/*
 * argv (argv[0] "ab") -> ab and a plan per side (each plan_init'ed here;
 * plan_free both, whatever the return). 0; 1 for --help; -EINVAL with a
 * one-line message in err.
 */
int ab_parse(struct ab_plan *ab, struct plan *const p[2], int argc,
	     char **argv, char *err, size_t n);
void ab_usage(FILE *f);

/*
 * What a side (ab's, a sweep's state) may have of its own: the options
 * flagged OF_SIDE (how it is scheduled, not what; whether it is traced).
 * ab_side_words: is each of w[0..nw-1] such an option (with its value)?
 * 0, or -EINVAL with "WHAT: ..." in err. ab_side_names: their names.
 */
bool ab_side_may(const struct opt *o);
/*
 * argv with the words of opts (a side's or a sweep state's own options,
 * or NULL) after it, parsed into p (plan_init'ed here) with more's
 * options beside interbench's; cmd ("ab ") and what ("option --b-opts")
 * name them in errors. 0, or -errno with a line in err.
 */
int ab_parse_words(struct plan *p, int argc, char **argv, const char *opts,
		   const struct opt_table *more, const char *cmd,
		   const char *what, char *err, size_t n);
int ab_side_words(const char *what, char **w, int nw, char *err, size_t n);
void ab_side_names(char *buf, size_t n);
/* A new run id ("TIME-16 hex digits") into id, and the order's seed. */
void ab_new_id(char *id, size_t n, uint32_t *seed);

#endif
