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
 * This file is the command line and the order; the command runs it
 * (cmd/ab.c), run/shell.c runs the commands, compare judges.
 */
#ifndef INTERBENCH_AB_H
#define INTERBENCH_AB_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "plan/plan.h"
#include "lib/opt.h"

struct ab_side {
	char name;			/* 'A' or 'B' */
	const char *cmd;		/* --a/--b: into this state, or NULL */
	const char *undo;		/* --a-undo/--b-undo: out of it, or NULL */
	const char *opts;		/* --a-opts/--b-opts, or NULL */
	char path[PATH_MAX];		/* its result file */
	char kcidb[PATH_MAX];		/* --kcidb: its KCIDB file, or "" */
};

struct ab_plan {
	struct ab_side side[2];
	const char *prefix;		/* -o */
	uint64_t cmd_timeout_ns;	/* --cmd-timeout */
	bool bisect;			/* --bisect */
	const char *primary;		/* --primary, or NULL */
	bool moderate;			/* --moderate: the default */
	bool plain;			/* --plain: not moderated */
	/* -n auto: after how many pairs it stopped and why (JSON), or 0 */
	int stop_pairs;
	const char *stop_why;
	double alpha;			/* --alpha (0.05) */
	const char *junit;		/* --junit: compare's, or NULL */
	char id[40];			/* both result files carry it */
	int looks;			/* passes a verdict may stop at */
};

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
/* The side measured first in cell i of the run order: 0 (A) or 1 (B). */
int ab_first(const struct plan *p, int i);
/* After this many passes, may -n auto stop? (the last pass always) */
bool ab_look(const struct plan *p, int passes);
/* How many such looks the run has: its verdicts share alpha over them. */
int ab_nlooks(const struct plan *p);

#endif
