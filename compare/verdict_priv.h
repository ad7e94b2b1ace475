/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/verdict_priv.h - what verdict.c shares with its parts: the
 * counted rows (counted.c), moderation (moderate.c), the margins
 * (margin.c), the widening (widen.c) and the summaries (summary.c). Not
 * for the rest of compare/: verdict.h is its interface.
 */
#ifndef INTERBENCH_VERDICT_PRIV_H
#define INTERBENCH_VERDICT_PRIV_H

#include <math.h>
#include "compare/verdict.h"

/* On the metric's own scale: % of change for logs, points otherwise. */
static inline double cmp_shown(const struct cmp_metric *m, double d)
{
	return m->log ? expm1(d) * 100 : d;
}

/*
 * A counted row of metric m (frames late, deadlines missed) for cells a
 * and b: each repeat's count, tested at the dispersion the runs show.
 * 0, or -ENOMEM.
 */
int cmp_count_fill(struct cmp_row *r, const struct cmp_metric *m,
		   const struct file_cell *a, const struct file_cell *b,
		   const struct cmp_opts *o);

/*
 * Count row r's difference of rates (B's less A's, points) into its dlo,
 * dhi: each side's exact interval at level, at the row's dispersion, the
 * lower end of one less the upper of the other.
 */
void cmp_count_diff(struct cmp_row *r, double level);

/*
 * Row r marked (margin.c): +1 worse, -1 better, 0; its p adjusted
 * already, period_us its cell's.
 */
int cmp_row_mark(const struct cmp_row *r, const struct cmp_metric *m,
		 const struct cmp_opts *o, double period_us);

/*
 * Each bounding row's within in cell cc (margin.c): its own interval
 * inside its margin; the tail's (p99, max, 1 % low FPS: one or two frames
 * of a run) also when the frames late, every frame counted, are within
 * theirs; and none of the tail's when a side has a dropout the other has
 * not.
 */
void cmp_cell_within(struct cmp_pair *c, const struct cmp_cell *cc,
		     const struct cmp_opts *o, const struct cmp_metric *m);

/* Each metric's tested rows of c moderated: 0, or -ENOMEM. */
int cmp_moderate(struct cmp_pair *c, const struct cmp_opts *o,
		 const struct cmp_metric *m, int nm);

/*
 * Per task and over all, the ratio metrics of the table of figures: their
 * geometric mean of new/base over c's cells (summary.c), va and vb room
 * for a run's mean per repeat number. 0, or -ENOMEM.
 */
int cmp_summaries(struct cmp_pair *c, const struct cmp_opts *o,
		  const struct cmp_metric *m, int nm, double *va, double *vb);
/* The largest repeat number in c's cells. */
int cmp_max_repeat(const struct cmp_pair *c);

/*
 * Sides of one boot (or invocation) each: every tested figure widened by
 * this machine's measured components of the levels its sides cannot
 * replicate (o->rep; widen.c).
 */
void cmp_widen(struct cmp_pair *c, const struct cmp_opts *o,
	       const struct cmp_metric *m);

#endif
