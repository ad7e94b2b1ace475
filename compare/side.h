/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/side.h - a side of a comparison as one or several result files
 * (a file, a directory of them, or a list joined by commas), and the level
 * its values are replicated at: the boot, the invocation (one interbench
 * process) or the repeat inside one process (doc/compare.txt, "Boots,
 * invocations and repeats").
 *
 * A kernel A/B compares boots: whatever one boot does to a cell (where
 * memory landed, which CPU takes which IRQ) is in every repeat of that
 * boot. So the unit of replication is the highest level at which the sides
 * differ: each unit's values of a cell are pooled into one (the mean of
 * their logs, the mean of their points, their counts summed), and the
 * verdict tests the units. A side with one unit of that level cannot tell
 * its own effect from the change's: that is said, and a measured component
 * of this machine's (interbench study --save) widens the test where given.
 */
#ifndef INTERBENCH_SIDE_H
#define INTERBENCH_SIDE_H

#include <stdbool.h>
#include "core/resultfile.h"
#include "compare/components.h"

#define SIDE_MAX_FILES	1000

struct cmp_side {
	const char *arg;		/* as given on the command line */
	char **paths;
	int nfiles;
	struct result_file *files;
	struct result_file merged;	/* the units, when pooled */
	struct result_file *use;	/* what the verdict reads */
	int units[CL_LEVELS];		/* distinct boots, invocations, and
					 * the most repeats of a cell */
	bool unknown;			/* a file records no boot or process */
};

/* How the sides are replicated, and what is said of it. */
struct cmp_replication {
	enum cmp_level differ;		/* the highest level the sides differ at */
	enum cmp_level unit;		/* the unit the verdict tests */
	bool one_a_side;		/* a side holds one unit of differ */
	bool unknown;			/* a file does not record its boot */
	const struct components *comp;	/* --components, or NULL */
	/*
	 * The levels between unit and differ whose component each side's
	 * mean lacks: added from comp where measured (2 var: one draw a side).
	 */
	bool add[CL_LEVELS];
	bool added[CL_LEVELS];		/* ... and found in comp */
	char note[640];			/* the one line said, or "" */
};

/*
 * arg's files read and checked: a file, a directory (every *.json in it,
 * by name) or a list joined by commas. 0, or -errno with "what is wrong"
 * in err. Files of one side must be of one kernel and one schedule.
 */
int cmp_side_open(struct cmp_side *s, const char *arg, char *err, size_t n);
void cmp_side_free(struct cmp_side *s);
/* s's units and whether a file lacks its ids, from its files (open does). */
void cmp_side_count(struct cmp_side *s);

/*
 * The level the sides differ at and the unit to test, from what their
 * files record; r->comp is kept. Then each side pooled to its units (a
 * side of one file at the repeat level is read as it is). 0 or -ENOMEM.
 */
int cmp_sides_replicate(struct cmp_side *s, int n,
			struct cmp_replication *r);

/*
 * A side's files pooled into out, each unit of level one repeat (numbered
 * from 1): a figure's mean of logs (latencies, rates) or of points, counts
 * (frames, frames met) summed, histograms joined. Pure; 0 or -ENOMEM.
 * Exposed for the tests (tests/unit-boots.c).
 */
int cmp_pool(const struct result_file *files, int n, enum cmp_level level,
	     struct result_file *out);
/* Frees what cmp_pool() made (not the files' documents it points at). */
void cmp_pool_free(struct result_file *out);

/* "boot", "invocation", "repeat" in the plural, for the words. */
const char *cmp_level_plural(enum cmp_level l);

#endif
