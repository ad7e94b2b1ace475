/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan/sweep.h - `interbench sweep`'s plan: a base state and K candidate
 * states of the machine, each with a plan and a result file of its own,
 * measured cell by cell in blocks (a block: one cell of one pass, in
 * every state still measured), each block in the order of a row of a
 * Williams square over those states, so that each state is measured as
 * often in each place of a block and after each other state, and the
 * order and the drift cancel. Each candidate's pair is the base measured
 * in the same block. cli/sweep.c makes it from argv and a sweep file,
 * cmd/sweep.c runs it, compare/sweep.c judges it.
 */
#ifndef INTERBENCH_PLAN_SWEEP_H
#define INTERBENCH_PLAN_SWEEP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "plan/ab.h"

#define SWEEP_MAX	16		/* candidates */
#define SWEEP_NAME_MAX	32		/* a state's name, bytes */

enum sweep_status {
	SW_PLANNED,			/* to be measured */
	SW_SKIPPED,			/* its "needs" failed: never entered */
	SW_FAILED,			/* its command failed: undone, dropped */
	SW_DECIDED,			/* -n auto: decided, not measured more */
};

struct sweep_state {
	char name[SWEEP_NAME_MAX + 1];	/* "base", or the candidate's */
	const char *enter, *leave;	/* shell commands, or NULL */
	const char *opts;		/* its interbench options, or NULL */
	const char *needs;		/* a command that must succeed first */
	const char *needs_why;		/* what its failure means, or NULL */
	char path[PATH_MAX];		/* its result file */
	char kcidb[PATH_MAX];		/* its KCIDB file, or "" */
	char page[PATH_MAX];		/* its comparison page, or "" */
	enum sweep_status status;
	char why[256];			/* skipped, failed: why */
	int pairs;			/* passes it was measured in */
	int stop_pairs;			/* -n auto decided it after these */
	const char *stop_why;
	/* what its result file says of the sweep, in ab's words: the base
	 * is side A, a candidate side B of the sweep's id */
	struct ab_plan view;
};

struct sweep_plan {
	struct sweep_state st[SWEEP_MAX + 1];	/* st[0]: the base */
	int n;				/* states: 1 + candidates */
	const char *prefix;		/* -o */
	const char *file;		/* --file: the sweep file */
	char *file_text;		/* ... read: the states' strings */
	uint64_t cmd_timeout_ns;
	double alpha;
	const char *primary;
	bool plain, moderate;
	const char *junit, *html;	/* the sweep's, not a state's */
	char doc[PATH_MAX];		/* PREFIX.sweep.json */
	char id[40];
	uint32_t seed;			/* the Williams rows' labels */
	int looks;			/* -n auto's looks */
	int judged;			/* K: candidates sharing alpha */
};

/*
 * Block b's order over m states (0 .. m-1, the states measured in it):
 * into order[0..m-1]. The rows of a Williams square (m even: one square;
 * m odd: it and its mirror), the labels of its columns shuffled by seed;
 * block b takes row b mod the rows. Pure.
 */
void sweep_order(uint32_t seed, int m, int b, int *order);
/* How many rows the design has for m states: m, or 2m when m is odd. */
int sweep_rows(int m);

#endif
