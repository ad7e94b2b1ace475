// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/undecided.c - what compare says of the cells it could not
 * decide: about how many pairs (repeats) would decide one, or that none
 * would at this noise (more than -n takes); a comparison none of whose
 * cells could be judged, and why; and ab -n auto's look at the files so
 * far (compare_look), judged as compare judges them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan/plan.h"
#include "compare/compare.h"

/* ab's two files are judged as pairs, at their looks' share of alpha. */
void cmp_ab_pair(const struct result_file *f, int n,
		 struct compare_options *o)
{
	int looks;

	o->looks = 1;
	if (n != 2 || !f[0].ab_id || !f[1].ab_id ||
	    strcmp(f[0].ab_id, f[1].ab_id) || f[0].ab_side == f[1].ab_side)
		return;
	looks = f[0].ab_looks > f[1].ab_looks ? f[0].ab_looks :
						f[1].ab_looks;
	o->ab_id = f[0].ab_id;
	o->looks = looks;
	o->cmp.paired = true;
	o->cmp.alpha /= looks;
	o->cmp.level = 1 - (1 - o->cmp.level) / looks;
}

/* Where the estimate is infinite: more than any bound. */
#define NEED_MAX	100000

static const struct file_cell *cell_of(const struct cmp_cell *cc)
{
	return cc->a ? cc->a : cc->b;
}

/* k times n, rounded up, at most NEED_MAX; k infinite or NaN: NEED_MAX. */
static int times(double k, int n)
{
	return k * n < NEED_MAX ? (int)ceil(k * n) : NEED_MAX;
}

/*
 * About how many pairs (or repeats) row r of a cell needs: *mark, for it
 * to be marked (a tested figure's interval to clear the min change, as it
 * narrows with one over the root of their number; a count's share of
 * counted frames, at the rate seen, to reach the p a lone row of the
 * table's tests needs, with *longer how many times the frames that is:
 * more runs or longer ones); *within, for a figure that bounds
 * "unchanged", for its interval to fit inside its bound. NEED_MAX where
 * that cannot happen at the estimate seen; 0 where it already has.
 */
static void needed(const struct cmp_row *r, const struct cmp_metric *m,
		   const struct cmp_opts *o, int tests, double period_us,
		   int *mark, int *within, double *longer)
{
	double d, half, minc, eps, k;

	*mark = *within = NEED_MAX;
	*longer = 0;
	if (isnan(r->lo) || r->na < 2)
		return;
	if (m->count != CMP_NO_COUNT) {
		k = cnt_scale_needed(&r->fit, r->phi, o->alpha / 2 /
				     (tests > 0 ? tests : 1));
		if (k > 0) {
			*longer = k;
			*mark = times(fmax(k, 1), r->na);
		}
		return;
	}
	if (m->log) {
		d = log1p(r->change / 100);
		half = (log1p(r->hi / 100) - log1p(r->lo / 100)) / 2;
		minc = log1p(o->min_change / 100);
		eps = log1p(cmp_row_bound(r, m, o, period_us) / 100);
	} else {
		d = r->change;
		half = (r->hi - r->lo) / 2;
		minc = eps = o->min_points;
	}
	if (r->decides && fabs(d) > minc)
		*mark = times(pow(half / (fabs(d) - minc), 2), r->na);
	if (r->bounds)
		*within = r->within ? 0 : fabs(d) < eps ?
			  times(pow(half / (eps - fabs(d)), 2), r->na) :
			  NEED_MAX;
}

/* The decision rows tested in c: the family a lone row stands in. */
static int decision_tests(const struct cmp_pair *c)
{
	int i, n = 0;

	for (i = 0; i < c->nrows; i++)
		n += c->rows[i].decides && !isnan(c->rows[i].p);
	return n;
}

/*
 * A cell is decided when a row is marked, or when every bounding row is
 * within its bound: the sooner of the two ways, at the estimates seen.
 */
int cmp_cell_need(const struct cmp_pair *c, const struct cmp_cell *cc,
		  const struct cmp_metric *m, const struct cmp_opts *o,
		  double *longer, char *what, size_t n)
{
	int j, first = NEED_MAX, all_within = 0, tests = decision_tests(c);
	double first_longer = 0;
	const struct cmp_row *by = NULL;

	*longer = 0;
	what[0] = '\0';
	for (j = cc->row0; j < cc->row0 + cc->nrows; j++) {
		const struct cmp_row *r = &c->rows[j];
		int mark, within;
		double l;

		if (!r->decides && !r->bounds)
			continue;
		needed(r, &m[r->metric], o, tests, cc->period_us, &mark,
		       &within, &l);
		if (r->decides && !r->mark && mark < first) {
			first = mark;
			first_longer = l;
			by = r;
		}
		if (r->bounds && within > all_within)
			all_within = within;
	}
	if (all_within <= first) {
		if (all_within >= NEED_MAX)
			return 0;
		return all_within > REPEATS_MAX ? CMP_NEED_NEVER : all_within;
	}
	if (first > REPEATS_MAX)
		return CMP_NEED_NEVER;
	/* a rare event's count decides it soonest: said with its counts */
	if (by && first_longer > 0) {
		*longer = first_longer;
		snprintf(what, n, "%s %g in new against %g in base",
			 m[by->metric].count == CMP_LATE ? "frames late" :
			 "deadlines missed", by->fit.yb, by->fit.ya);
	}
	return first;
}

void cmp_need_text(int need, bool paired, char *buf, size_t n)
{
	if (need == CMP_NEED_NEVER)
		snprintf(buf, n, "cannot be decided at this noise: it would "
			 "take more than %d %s, the most -n takes",
			 REPEATS_MAX, paired ? "pairs" : "repeats a file");
	else if (need > 0)
		snprintf(buf, n, "about %d %s would decide it", need,
			 paired ? "pairs" : "repeats a file");
	else
		snprintf(buf, n, "%s", "");
}

static const char *plural(size_t k)
{
	return k == 1 ? "" : "s";
}

bool cmp_unjudged(const struct cmp_pair *c, const char *base,
		  const char *cur, char *why, size_t n)
{
	size_t ma = 0, mb = 0;
	int i, judged = 0;

	for (i = CV_UNCHANGED; i <= CV_INCONCLUSIVE; i++)
		judged += c->count[i];
	if (judged)
		return false;
	/* the most repeats a cell too short had, in each file */
	for (i = 0; i < c->ncells; i++)
		if (c->cells[i].verdict == CV_FEW) {
			if (c->cells[i].a->n_ok > ma)
				ma = c->cells[i].a->n_ok;
			if (c->cells[i].b->n_ok > mb)
				mb = c->cells[i].b->n_ok;
		}
	if (!c->count[CV_FEW])
		snprintf(why, n, "no cell could be judged: no cell was "
			 "measured in both files");
	else if (ma == mb)
		snprintf(why, n, "no cell could be judged: each file has %zu "
			 "repeat%s; a verdict needs %d or more (-n %d)", ma,
			 plural(ma), CMP_MIN_REPEATS, CMP_MIN_REPEATS);
	else if (ma < CMP_MIN_REPEATS && mb < CMP_MIN_REPEATS)
		snprintf(why, n, "no cell could be judged: %s has %zu "
			 "repeat%s, %s %zu; a verdict needs %d or more in each "
			 "(-n %d)", base, ma, plural(ma), cur, mb,
			 CMP_MIN_REPEATS, CMP_MIN_REPEATS);
	else
		snprintf(why, n, "no cell could be judged: %s has %zu "
			 "repeat%s; a verdict needs %d or more in each file "
			 "(-n %d)",
			 ma < CMP_MIN_REPEATS ? base : cur,
			 ma < CMP_MIN_REPEATS ? ma : mb,
			 plural(ma < CMP_MIN_REPEATS ? ma : mb),
			 CMP_MIN_REPEATS, CMP_MIN_REPEATS);
	return true;
}

int compare_look(const char *path_a, const char *path_b,
		 const struct compare_options *opts, struct cmp_look *l)
{
	struct result_file f[2];
	struct cmp_metric m[CMP_MAX_METRICS];
	struct compare_options o = *opts;
	struct cmp_pair c;
	char err[512], what[96];
	size_t used = 0, n = sizeof(l->list);
	int i, nm = cmp_metrics(m, CMP_MAX_METRICS);

	memset(l, 0, sizeof(*l));
	if (rf_load(&f[0], path_a, err, sizeof(err)))
		return -EIO;
	if (rf_load(&f[1], path_b, err, sizeof(err))) {
		rf_free(&f[0]);
		return -EIO;
	}
	cmp_ab_pair(f, 2, &o);
	if (cmp_pair_run(&f[0], &f[1], &o.cmp, m, nm, &c)) {
		rf_free(&f[0]);
		rf_free(&f[1]);
		return -ENOMEM;
	}
	l->worse = c.count[CV_WORSE] + c.count[CV_MIXED];
	for (i = 0; i < c.ncells; i++) {
		const struct cmp_cell *cc = &c.cells[i];
		double longer;
		int need;

		if (cc->verdict != CV_INCONCLUSIVE && cc->verdict != CV_FEW)
			continue;
		need = cmp_cell_need(&c, cc, m, &o.cmp, &longer, what,
				     sizeof(what));
		l->undecided++;
		if (used < n)
			used += (size_t)snprintf(l->list + used, n - used,
						 "%s%s/%s", l->undecided > 1 ?
						 ", " : "", cell_of(cc)->bench,
						 cell_of(cc)->load);
		if (need == CMP_NEED_NEVER && used < n)
			used += (size_t)snprintf(l->list + used, n - used,
						 " (cannot be decided at this "
						 "noise)");
		else if (need && used < n)
			used += (size_t)snprintf(l->list + used, n - used,
						 " (about %d pairs%s%s)", need,
						 *what ? ": " : "", what);
	}
	cmp_pair_free(&c);
	rf_free(&f[0]);
	rf_free(&f[1]);
	return 0;
}
