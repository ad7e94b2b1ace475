/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/components.h - how much of a cell's variation sits at each level
 * of replication (the boot, the invocation, the repeat inside one process),
 * as `interbench study` measures it from a study of result files and
 * saves it (--save FILE), and as compare reads it back (--components
 * FILE) to widen a verdict whose sides hold one boot or one invocation
 * each (doc/effects.txt, "Boots, invocations, repeats").
 *
 * Each component is a variance on the figure's compared scale: the log of
 * a latency or a rate (so a component of 0.0025 is a 5 % SD), points for
 * a percentage. NaN: not measured (a study of one boot has no boot
 * component). Pure: no globals, no output.
 */
#ifndef INTERBENCH_COMPONENTS_H
#define INTERBENCH_COMPONENTS_H

#include <stddef.h>

#define COMPONENTS_SCHEMA	"interbench-components/1"

/* The levels, lowest first: the unit of replication is one of them. */
enum cmp_level { CL_REPEAT, CL_INVOCATION, CL_BOOT, CL_LEVELS };

/* "repeat", "invocation", "boot". */
extern const char *const cmp_level_names[CL_LEVELS];

/* One cell's figure: its variance at each level, with degrees of freedom. */
struct comp_entry {
	char bench[32], load[32];
	char metric[48];		/* the cmp_metric's label */
	double var[CL_LEVELS];		/* NaN: not measured */
	double df[CL_LEVELS];
};

/* A components file read back. */
struct components {
	char path[256];
	char hostname[65], cpu_model[128];	/* where it was measured */
	char measured[32];			/* when (ISO 8601) */
	struct comp_entry *e;
	size_t n, cap;
};

/*
 * Read path into c: 0, or -errno with "path: what is wrong" in err (not a
 * components file, a component negative, ...).
 */
int comp_load(struct components *c, const char *path, char *err,
	      size_t errlen);
void comp_free(struct components *c);

/*
 * The variance of cell bench/load's metric (its label) at level, and its
 * degrees of freedom into *df: NaN (and *df 0) when the file has none.
 */
double comp_var(const struct components *c, const char *bench,
		const char *load, const char *metric, enum cmp_level level,
		double *df);

/* What a study was made of, for the file's header (comp_save). */
struct comp_study {
	int files, boots, invocations;
};

/*
 * Write c as path, schema COMPONENTS_SCHEMA, through lib/safefile.h (a
 * reader never sees half a file): 0 or -errno. Every component must be
 * NaN (written null) or >= 0: a negative estimate is saved as 0, and
 * note[i] (NULL, or notes NULL: none) says so beside entry i.
 */
int comp_save(const struct components *c, const struct comp_study *st,
	      const char *const *note, const char *path);

#endif
