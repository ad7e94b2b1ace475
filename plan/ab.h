/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan/ab.h - `interbench ab`'s plan: its two sides, each a state of the
 * machine with a plan of its own, and the order they run in, cell by
 * cell, A B or B A by a coin, then the other way round (auto.c); with -n
 * auto, the passes after which its verdict may stop. cli/ab.c makes it from argv, cmd/ab.c runs it.
 */
#ifndef INTERBENCH_PLAN_AB_H
#define INTERBENCH_PLAN_AB_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "plan/plan.h"

struct ab_side {
	char name;			/* 'A' or 'B' */
	const char *cmd;		/* --a/--b: into this state, or NULL */
	const char *undo;		/* --a-undo/--b-undo: out of it, or NULL */
	const char *opts;		/* --a-opts/--b-opts, or NULL */
	const char *label;		/* a sweep's state: its name, or NULL */
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
	const char *html;		/* --html: compare's page, or NULL */
	const char *ktap;		/* --ktap: compare's, or NULL */
	char id[40];			/* both result files carry it */
	uint32_t seed;			/* the coins of the sides' order */
	int looks;			/* passes a verdict may stop at */
	/*
	 * `interbench sweep`'s view of a state as ab's (plan/sweep.h): the
	 * candidates alpha is shared by, and the sweep's document; 0, NULL
	 * for ab
	 */
	int share;
	const char *sweep_doc;
};

/*
 * The side measured first in cell i of the run order: 0 (A) or 1 (B).
 * Each cell's passes go in blocks of two, A B then B A or B A then A B,
 * a fair coin drawn from seed choosing for each cell and block.
 */
int plan_ab_first(const struct plan *p, uint32_t seed, int i);
/*
 * The whole plan's order as text, a letter for each cell of the run
 * order: the side it measures first ("ABBA..."). 0, or -ENOSPC.
 */
int plan_ab_order(const struct plan *p, uint32_t seed, char *buf, size_t n);
/* After this many passes, may -n auto stop? (the last pass always) */
bool plan_look(const struct plan *p, int passes);
/* How many such looks the run has: its verdicts share alpha over them. */
int plan_nlooks(const struct plan *p);

#endif
