/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/study.h - `interbench study FILE...`: result files of one kernel
 * on one host, labelled by the boot and the invocation each was measured
 * in, taken as a nested design; each cell's decision figures' variance
 * split by level (nested.h), the cheapest design a side that finds
 * --change at --power, and the components file (--save, components.h).
 * The command is cmd/study.c; doc/effects.txt, "Boots, invocations,
 * repeats", says what it found on the 2-CPU VM.
 */
#ifndef INTERBENCH_STUDY_H
#define INTERBENCH_STUDY_H

#include <stdbool.h>
#include <stdio.h>
#include "compare/nested.h"
#include "compare/verdict.h"
#include "core/resultfile.h"
#include "lib/opt.h"

/* The search's bounds: boots, invocations a boot, repeats a side. */
#define STUDY_MAX_B	20
#define STUDY_MAX_I	20
#define STUDY_MAX_R	50

struct study_opts {
	double change;		/* %, for figures compared as ratios */
	double points;		/* the same in points, for % figures */
	double power;		/* wanted of a design */
	double alpha;		/* two-sided, per figure */
	double boot_cost;	/* seconds */
	bool boot_cost_seen;	/* given: not said to be assumed */
	const char *save;	/* --save FILE */
};

extern const struct opt study_opts[];

/* One figure of one cell: its components and its cheapest design. */
struct study_row {
	const char *bench, *load;
	int metric;			/* in study.m[] */
	struct nested_fit fit;
	double total;			/* the components taken >= 0 */
	struct design d;
};

struct study {
	const struct study_opts *o;
	struct result_file *files;
	int nfiles;
	struct cmp_metric m[CMP_MAX_METRICS];
	int nm;
	int *order;			/* files by boot, then as given */
	int *invs;			/* invocations of each boot */
	const char **boot_id;		/* each boot's id */
	int boots;
	const char *kernel, *hostname, *cpu_model, *started;
	double duration_s;		/* -t, every file's */
	double settle_s;		/* the load's settle a cell */
	int ncells;			/* in the table (the first file's) */
	double inv_s;			/* an invocation's own, measured */
	int inv_n;			/* ... from so many files' stamps */
	struct design_cost cost;
	struct study_row *rows;
	int nrows;
};

/*
 * The files checked as one study and put in order: 0, or -EINVAL with
 * the one line that says what is wrong in err (a file without its boot
 * or invocation, two kernels or hosts, one invocation twice, fewer than
 * two, another -t), or -ENOMEM.
 */
int study_check(struct study *s, char *err, size_t n);
/* Every cell's figures' components and designs: 0 or -ENOMEM. */
int study_run(struct study *s);
void study_print(const struct study *s, FILE *f);
/* The components file: 0 or -errno. */
int study_save(const struct study *s, const char *path);
void study_free(struct study *s);

#endif
