/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/verdict_priv.h - what verdict.c shares with its parts: the
 * counted rows (counted.c) and moderation (moderate.c). Not for the rest
 * of compare/: verdict.h is its interface.
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

/* Each metric's tested rows of c moderated: 0, or -ENOMEM. */
int cmp_moderate(struct cmp_pair *c, const struct cmp_opts *o,
		 const struct cmp_metric *m, int nm);

/*
 * Sides of one boot (or invocation) each: every tested figure widened by
 * this machine's measured components of the levels its sides cannot
 * replicate (o->rep; widen.c).
 */
void cmp_widen(struct cmp_pair *c, const struct cmp_opts *o,
	       const struct cmp_metric *m);

#endif
