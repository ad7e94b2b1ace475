/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/rowmarks.h - the marks a row carries on the console ([steal],
 * [busy], [throttled], [no rt], [stalled]: outputs/output.c), read back
 * from a result file's cells with the console's rules (the medians over
 * the cell's measured repeats), so that the pages, compare and ab say
 * the same marks the run said. Pure: no globals, no output.
 */
#ifndef INTERBENCH_ROWMARKS_H
#define INTERBENCH_ROWMARKS_H

#include <stdbool.h>
#include <stddef.h>
#include "core/resultfile.h"

enum rm_kind { RM_STEAL, RM_BUSY, RM_THROTTLED, RM_NO_RT, RM_STALLED,
	       RM_KINDS };

/* Each mark's name, as the console's row says it: "busy", "no rt". */
extern const char *const rm_names[RM_KINDS];
/* ... and as JSON says it: "busy", "no_rt". */
extern const char *const rm_keys[RM_KINDS];

/* One cell's marks. */
struct rm_cell {
	unsigned int has;		/* 1 << enum rm_kind, each it has */
	/*
	 * The figure behind each: the median % (steal, busy, throttled),
	 * the timing thread's median mean lateness in us (no rt), the
	 * repeats with a thread stalled (stalled).
	 */
	double v[RM_KINDS];
	int n_ok;			/* its measured repeats */
};

/* Did the file's run lack real-time rights (system.realtime_ok)? */
bool rm_file_no_rt(const struct result_file *rf);
/* Cell c's marks (no_rt: its file's): 0 or -ENOMEM. */
int rm_cell_marks(const struct file_cell *c, bool no_rt, struct rm_cell *m);
/*
 * m's marks as a row says them, each after prefix ("B "), joined by
 * ", " into buf: "B busy 34 %, B steal 2.1 %". Returns how many.
 */
int rm_cell_text(const struct rm_cell *m, const char *prefix, char *buf,
		 size_t n);

/* A file's marks over its cells. */
struct rm_file {
	int cells;			/* with a measured repeat */
	int marked;			/* ... and any mark */
	int n[RM_KINDS];		/* cells with each */
	double lo[RM_KINDS], hi[RM_KINDS];	/* their figures' range */
	char names[RM_KINDS][256];	/* "Audio/None, Audio/Burn" (cut) */
};

/* rf's marks into s: 0 or -ENOMEM. */
int rm_file_marks(const struct result_file *rf, struct rm_file *s);
/*
 * What kind's mark says of s's cells, one sentence without its end
 * ("other tasks used more than 5 % of the run's CPU time (34-50 %) in
 * 38 of 40 cells, marked [busy]: their figures include that work's
 * doing"); "" when no cell has it.
 */
void rm_file_text(const struct rm_file *s, int kind, char *buf, size_t n);
/*
 * What marks on a verdict's cells mean for trusting it, one sentence
 * (compare and ab say it under their summary).
 */
extern const char rm_verdict_caveat[];

#endif
