// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/margin.c - each figure's one margin (verdict.h): a row marked
 * only when its interval lies beyond it, within it only when inside, and
 * the tail's within from the frames late, unless a side has a dropout
 * (doc/compare.txt, "Unchanged: bounds its user would notice").
 */
#include <math.h>
#include "lib/count.h"
#include "compare/verdict_priv.h"

int cmp_beyond(double lo, double hi, double min)
{
	if (lo > min)
		return 1;
	if (hi < -min)
		return -1;
	return 0;
}

/* A worst frame this many times the other side's is outside its tail. */
#define DROPOUT_TIMES	2

/* The tail's latencies, told in the task's own time. */
static bool tail_latency(const struct cmp_metric *m)
{
	return m->fig == F_LAT_P99 || m->fig == F_LAT_MAX;
}

/*
 * "Unchanged"'s bound: the min change (points for percentages and
 * counts), or, for a latency of a task with a period,
 * CMP_EQUIV_PERIOD_PCT % of that period as a share of the row's base, if
 * wider: a wakeup 0.2 ms later does not matter to a 50 ms audio period,
 * whatever its ratio. A mark asks another question, whether the kernel
 * moved the figure, and needs the min change (cmp_row_mark): a cell
 * marked is never unchanged, and one within its user's bound but not
 * marked is unchanged for that user (doc/compare.txt says why the two
 * are not one margin: at -t 2 here a p50 varies by 46 % between runs,
 * so 5 % could never be shown).
 */
double cmp_row_bound(const struct cmp_row *r, const struct cmp_metric *m,
		     const struct cmp_opts *o, double period_us)
{
	double min = m->log && m->count == CMP_NO_COUNT ? o->min_change :
		     o->min_points;

	if (m->fig < 0 || figures[m->fig].unit != FU_NS ||
	    !(period_us > 0) || !(r->base > 0))
		return min;
	return fmax(min, 100 * period_us * CMP_EQUIV_PERIOD_PCT / 100 /
			 r->base);
}

/* Row r's interval on its margin's scale (a count's: its rates' less). */
static void margin_interval(const struct cmp_row *r,
			    const struct cmp_metric *m, double *lo, double *hi)
{
	*lo = m->count == CMP_NO_COUNT ? r->lo : r->dlo;
	*hi = m->count == CMP_NO_COUNT ? r->hi : r->dhi;
}

int cmp_row_mark(const struct cmp_row *r, const struct cmp_metric *m,
		 const struct cmp_opts *o, double period_us)
{
	int dir;

	(void)period_us;
	if (!(r->padj <= o->alpha))
		return 0;
	dir = cmp_beyond(r->lo, r->hi, m->log ? o->min_change :
			 o->min_points);
	/*
	 * Pairs: the pairs themselves must agree, not one of them.
	 * Moderation shrinks one wild pair's spread towards the table's,
	 * so a single burst of the host's in one pair could alone make a t
	 * of a max or a count. A figure: the randomisation test of its
	 * pairs' differences; a count: the sign test of the pairs that
	 * differ (its pairs' rates are too coarse to weigh).
	 */
	if (dir && o->paired && (m->count == CMP_NO_COUNT ?
	    (dir > 0 ? r->flip_up : r->flip_down) :
	    cnt_sign_p(dir > 0 ? r->up : r->down,
		       dir > 0 ? r->down : r->up)) > CMP_SIGN_P)
		dir = 0;
	return m->higher_better ? -dir : dir;
}

/* Is row r known to lie within its margin? */
static bool row_within(const struct cmp_row *r, const struct cmp_metric *m,
		       const struct cmp_opts *o, double period_us)
{
	double b = cmp_row_bound(r, m, o, period_us), lo, hi;

	margin_interval(r, m, &lo, &hi);
	return lo >= -b && hi <= b;
}

/*
 * Is row r known not worse than its margin: the end of its interval on
 * the worse side within it, whatever the better side's? What "better"
 * asks of a cell's other rows: a tail improved past the margin is no
 * tail unbounded.
 */
static bool row_not_worse(const struct cmp_row *r, const struct cmp_metric *m,
			  const struct cmp_opts *o, double period_us)
{
	double b = cmp_row_bound(r, m, o, period_us), lo, hi;

	margin_interval(r, m, &lo, &hi);
	return m->higher_better ? lo >= -b : hi <= b;
}

/*
 * A dropout: one side's worst frame (the largest max of its repeats)
 * beyond the other's by more than the max's margin, in the task's own
 * time, and outside the other's tail altogether (more than twice its
 * worst): two sides of one kernel differ in their worst frames by the
 * chance of the extremes, not by a factor of two. A rare stall in one pair of ten barely moves the max's interval
 * over the pairs and not at all the share of frames late; it is still
 * what a listener hears, so the tail is then never called unchanged.
 */
static int dropout(const struct cmp_cell *cc, const struct cmp_row *max,
		   const struct cmp_metric *m, const struct cmp_opts *o)
{
	const struct file_cell *f[2] = { cc->a, cc->b };
	double worst[2] = { 0, 0 }, b;
	size_t k;
	int s;

	if (!max || !(max->base > 0))
		return 0;
	for (s = 0; s < 2; s++)
		for (k = 0; k < f[s]->n_ok; k++)
			worst[s] = fmax(worst[s], f[s]->ok[k].v[F_LAT_MAX]);
	b = cmp_row_bound(max, &m[max->metric], o, cc->period_us) / 100 *
	    max->base;
	if (!(fabs(worst[1] - worst[0]) > b &&
	      fmax(worst[0], worst[1]) > DROPOUT_TIMES *
	      fmin(worst[0], worst[1])))
		return 0;
	return worst[1] > worst[0] ? 1 : -1;
}

void cmp_cell_within(struct cmp_pair *c, const struct cmp_cell *cc,
		     const struct cmp_opts *o, const struct cmp_metric *m)
{
	const struct cmp_row *max = NULL;
	bool late = false;
	int j, drop;

	for (j = cc->row0; j < cc->row0 + cc->nrows; j++) {
		struct cmp_row *r = &c->rows[j];
		const struct cmp_metric *mm = &m[r->metric];

		r->within = r->bounds && row_within(r, mm, o, cc->period_us);
		r->not_worse = r->bounds &&
			       row_not_worse(r, mm, o, cc->period_us);
		late |= mm->count == CMP_LATE && r->within;
		if (mm->fig == F_LAT_MAX)
			max = r;
	}
	drop = dropout(cc, max, m, o);
	for (j = cc->row0; j < cc->row0 + cc->nrows; j++) {
		struct cmp_row *r = &c->rows[j];
		const struct cmp_metric *mm = &m[r->metric];

		if (!r->bounds || !(tail_latency(mm) || mm->fig == F_FPS_LOW1))
			continue;
		r->within = !drop && (r->within || late);
		/* a dropout of BASE's is no worse tail of NEW's */
		r->not_worse = drop <= 0 && (r->not_worse || late);
	}
}
