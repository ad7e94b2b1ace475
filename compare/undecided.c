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

#include "lib/infer.h"
#include "core/cfg.h"
#include "compare/compare.h"

/* ab's two files are judged as pairs, at their looks' share of alpha. */
void cmp_ab_pair(const struct result_file *f, int n,
		 struct compare_options *o)
{
	int looks, share;

	o->looks = 1;
	o->share = 1;
	if (n != 2 || !f[0].ab_id || !f[1].ab_id ||
	    strcmp(f[0].ab_id, f[1].ab_id) || f[0].ab_side == f[1].ab_side)
		return;
	looks = f[0].ab_looks > f[1].ab_looks ? f[0].ab_looks :
						f[1].ab_looks;
	/* a sweep's candidate: alpha shared by its candidates too */
	share = f[0].ab_share > f[1].ab_share ? f[0].ab_share : f[1].ab_share;
	if (share < 1)
		share = 1;
	o->ab_id = f[0].ab_id;
	o->looks = looks;
	o->share = share;
	o->cmp.paired = true;
	o->cmp.alpha /= (double)looks * share;
	o->cmp.level = 1 - (1 - o->cmp.level) / ((double)looks * share);
}

/* Where the estimate is infinite: more than any bound. */
#define NEED_MAX	100000

/*
 * The power "about N pairs would decide it" is told at, and the ends of
 * the range it is shown as: the power curve's 60 to 90 %, at the
 * estimates seen. Why the curve and not the estimate's interval: an
 * undecided cell's interval reaches within the min change (that is why it
 * is undecided), so "from the end nearest the null" would be "never"
 * nearly every time; the curve says how fast more pairs buy certainty.
 */
#define NEED_POWER	0.8
#define NEED_FROM	0.6
#define NEED_TO		0.9

static const struct file_cell *cell_of(const struct cmp_cell *cc)
{
	return cc->a ? cc->a : cc->b;
}

static double norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* What a cell's rows need, at n pairs (repeats a file) instead of na. */
struct need_ctx {
	const struct cmp_pair *c;
	const struct cmp_cell *cc;
	const struct cmp_metric *m;
	const struct cmp_opts *o;
	int tests;		/* the decision rows tested: BH's family */
};

/*
 * The two-sided p row r needs to be marked in BH's family of the table's
 * decision rows, its direction's: alpha times its rank over the family,
 * its rank one more than the rows already marked its way.
 */
static double p_needed(const struct need_ctx *x, const struct cmp_row *r)
{
	int i, rank = 1, dir = r->t_d > 0 ? 1 : -1;

	if (x->m[r->metric].higher_better)
		dir = -dir;
	for (i = 0; i < x->c->nrows; i++)
		rank += x->c->rows[i].decides && x->c->rows[i].mark == dir;
	return fmin(1, x->o->alpha * rank / (x->tests > 0 ? x->tests : 1));
}

/*
 * The chance that row r is marked at n: its estimate d taken as the
 * truth, its standard error shrinking as one over the root of n (each
 * side's n, without pairs), its degrees of freedom growing with n. Marked
 * means its p below p_needed() and its interval clear of the min change:
 * the estimate past the larger of the two lines. A count: its z grows as
 * the root of the frames, from the scale cnt_scale_needed() gives.
 */
/*
 * Pairs: the chance that n pairs lean the row's way enough for its mark
 * (cmp_row_mark's check), each leaning so with the chance its shift over
 * a pair's spread gives: the sign test's, which the randomisation test
 * of a figure passes at least as often; 1 for separate runs.
 */
static double p_pairs_agree(const struct need_ctx *x, const struct cmp_row *r,
			    int n)
{
	double q, term, p = 0;
	int k, lo;

	if (!x->o->paired || !(r->t_se > 0) || !(r->t_v > 0))
		return 1;
	q = norm_cdf(fabs(r->t_d) / (r->t_se / sqrt(r->t_v)));
	for (lo = 0; lo <= n && cnt_sign_p(lo, n - lo) > CMP_SIGN_P; lo++)
		;
	/* P(X >= lo), X binomial (n, q) */
	for (k = lo; k <= n; k++) {
		int i;

		term = pow(q, k) * pow(1 - q, n - k);
		for (i = 0; i < k; i++)
			term *= (double)(n - i) / (i + 1);
		p += term;
	}
	return fmin(1, p);
}

static double p_mark(const struct need_ctx *x, const struct cmp_row *r,
		     int n)
{
	const struct cmp_metric *m = &x->m[r->metric];
	double v, se, df, qa, qb, minc, line, k, za;

	if (m->count != CMP_NO_COUNT) {
		za = -inf_norm_quantile(p_needed(x, r) / 2);
		k = cnt_scale_needed(&r->fit, r->phi, p_needed(x, r) / 2);
		if (!(k > 0))
			return 0;
		return norm_cdf(za * (sqrt((double)n / r->na / k) - 1));
	}
	if (!(r->t_se > 0) || !(r->t_v > 0))
		return 0;
	v = x->o->paired ? 1.0 / n : 2.0 / n;
	se = r->t_se * sqrt(v / r->t_v);
	df = r->df + (n - r->na) * (x->o->paired ? 1 : 2);
	qa = inf_t_quantile(1 - p_needed(x, r) / 2, df);
	qb = inf_t_quantile(0.5 + x->o->level / 2, df);
	minc = m->log ? log1p(x->o->min_change / 100) : x->o->min_points;
	line = fmax(minc + qb * se, qa * se);
	return norm_cdf((fabs(r->t_d) - line) / se) * p_pairs_agree(x, r, n);
}

/*
 * Where bounding row r's interval will be at n: its difference *d, the
 * standard error *se and the room its end has, *room (the bound less
 * the interval's half width), in the row's own scale. 0, or -1 when its
 * spread is unknown (then only what it is now counts).
 */
static int spread_at(const struct need_ctx *x, const struct cmp_row *r,
		     int n, double *d, double *se, double *room)
{
	const struct cmp_metric *m = &x->m[r->metric];
	double v, df, q, eps;

	/*
	 * A count's bound is on B's rate less A's: its interval narrows as
	 * the root of the frames, about that of the pairs (repeats).
	 */
	if (m->count != CMP_NO_COUNT) {
		if (isnan(r->dlo) || isnan(r->dhi) || r->na < 1)
			return -1;
		q = inf_norm_quantile(0.5 + x->o->level / 2);
		/*
		 * None counted on either side: the bound is the rule of
		 * three's, as the frames, not their root.
		 */
		v = r->fit.ya + r->fit.yb > 0 ? sqrt((double)r->na / n) :
		    (double)r->na / n;
		*se = (r->dhi - r->dlo) / 2 / q * v;
		*d = (r->dlo + r->dhi) / 2;
		*room = x->o->min_points - q * *se;
		return 0;
	}
	if (!(r->t_se > 0) || !(r->t_v > 0))
		return -1;
	v = x->o->paired ? 1.0 / n : 2.0 / n;
	*se = r->t_se * sqrt(v / r->t_v);
	df = r->df + (n - r->na) * (x->o->paired ? 1 : 2);
	q = inf_t_quantile(0.5 + x->o->level / 2, df);
	eps = cmp_row_bound(r, m, x->o, x->cc->period_us);
	eps = m->log ? log1p(eps / 100) : eps;
	*d = r->t_d;
	*room = eps - q * *se;
	return 0;
}

/* The chance that bounding row r's interval lies within its bound at n. */
static double p_within(const struct need_ctx *x, const struct cmp_row *r,
		       int n)
{
	double d, se, room;

	if (spread_at(x, r, n, &d, &se, &room))
		return r->within ? 1 : 0;
	if (room <= 0)
		return 0;
	if (!(se > 0))
		return fabs(d) < room ? 1 : 0;
	return norm_cdf((room - d) / se) - norm_cdf((-room - d) / se);
}

/*
 * The chance that row r's interval's worse end lies within its bound at
 * n: what a cell already marked better waits for of its other rows.
 */
static double p_not_worse(const struct need_ctx *x, const struct cmp_row *r,
			  int n)
{
	double d, se, room;

	if (spread_at(x, r, n, &d, &se, &room))
		return r->not_worse ? 1 : 0;
	/* the worse direction as a positive difference */
	if (x->m[r->metric].higher_better)
		d = -d;
	if (!(se > 0))
		return room > 0 && d < room ? 1 : 0;
	return norm_cdf((room - d) / se);
}

/*
 * The chance the cell is decided at n: one of its decision rows marked
 * (the likeliest: they move together, p99 and max often as one, so their
 * chances are not added), or every bounding row within its bound (the
 * least likely, for the same reason); the two cannot both happen. A cell
 * already marked better (and not worse) is decided when each row not
 * marked is known not worse, the least likely of them. *by: the row
 * likeliest marked.
 */
static double p_decided(const struct need_ctx *x, int n,
			const struct cmp_row **by)
{
	double mark = 0, within = 1, nw = 1, p;
	int j, bounding = 0, better = 0, worse = 0;

	*by = NULL;
	for (j = x->cc->row0; j < x->cc->row0 + x->cc->nrows; j++) {
		const struct cmp_row *r = &x->c->rows[j];

		if (r->decides) {
			better |= r->mark < 0;
			worse |= r->mark > 0;
		}
		if (isnan(r->lo) || r->na < 2)
			continue;
		if (r->decides && !r->mark &&
		    (p = p_mark(x, r, n)) > mark) {
			mark = p;
			*by = r;
		}
		/* the hardest bounding row: they move together too */
		if (r->bounds) {
			within = fmin(within, p_within(x, r, n));
			bounding++;
		}
		if ((r->decides || r->bounds) && !r->mark)
			nw = fmin(nw, p_not_worse(x, r, n));
	}
	if (better && !worse)
		return nw;
	return fmin(1, mark + (bounding ? within : 0));
}

/*
 * The fewest pairs (repeats) past na at which the cell is decided with
 * chance power at least, NEED_MAX if more than REPEATS_MAX: the chance
 * grows with n (where it does not, it stays far below), so halving finds
 * it.
 */
static int need_at(const struct need_ctx *x, int na, double power)
{
	const struct cmp_row *by;
	int lo = na + 1, hi = REPEATS_MAX;

	if (lo > hi || !(p_decided(x, hi, &by) >= power))
		return NEED_MAX;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (p_decided(x, mid, &by) >= power)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The decision rows tested in c: the family a lone row stands in. */
static int decision_tests(const struct cmp_pair *c)
{
	int i, n = 0;

	for (i = 0; i < c->nrows; i++)
		n += c->rows[i].decides && !isnan(c->rows[i].p);
	return n;
}

int cmp_cell_need(const struct cmp_pair *c, const struct cmp_cell *cc,
		  const struct cmp_metric *m, const struct cmp_opts *o,
		  struct cmp_need *nd)
{
	struct need_ctx x = { c, cc, m, o, decision_tests(c) };
	const struct cmp_row *by;
	int j, na = 0;

	memset(nd, 0, sizeof(*nd));
	for (j = cc->row0; j < cc->row0 + cc->nrows; j++)
		if ((c->rows[j].decides || c->rows[j].bounds) &&
		    !isnan(c->rows[j].lo) && c->rows[j].na > na)
			na = c->rows[j].na;
	if (na < 2)
		return 0;
	nd->pairs = need_at(&x, na, NEED_POWER);
	if (nd->pairs > REPEATS_MAX)
		return nd->pairs = CMP_NEED_NEVER;
	nd->from = need_at(&x, na, NEED_FROM);
	nd->to = need_at(&x, na, NEED_TO);
	if (nd->to > REPEATS_MAX)
		nd->to = CMP_NEED_MORE;
	/* a rare event's count decides it likeliest: said with its counts */
	p_decided(&x, nd->pairs, &by);
	if (by && m[by->metric].count != CMP_NO_COUNT) {
		nd->longer = (double)nd->pairs / by->na;
		snprintf(nd->what, sizeof(nd->what), "%s %g in new against "
			 "%g in base", m[by->metric].count == CMP_LATE ?
			 "frames late" : "deadlines missed", by->fit.yb,
			 by->fit.ya);
	}
	return nd->pairs;
}

void cmp_need_text(const struct cmp_need *nd, bool paired, char *buf,
		   size_t n)
{
	const char *what = paired ? "pairs" : "repeats a file";

	if (nd->pairs == CMP_NEED_NEVER)
		snprintf(buf, n, "cannot be decided at this noise: it would "
			 "take more than %d %s, the most -n takes",
			 REPEATS_MAX, what);
	else if (nd->pairs <= 0)
		snprintf(buf, n, "%s", "");
	else if (nd->to == CMP_NEED_MORE)
		snprintf(buf, n, "about %d to over %d %s would decide it",
			 nd->from, REPEATS_MAX, what);
	else if (nd->from == nd->to)
		snprintf(buf, n, "about %d %s would decide it", nd->from,
			 what);
	else
		snprintf(buf, n, "about %d to %d %s would decide it",
			 nd->from, nd->to, what);
}

static const char *plural(size_t k)
{
	return k == 1 ? "" : "s";
}

/*
 * A cell none of -n's repeats would decide only waits for less noise:
 * telling its user to take more pairs would cost up to 100 passes and
 * decide nothing. Each option named is one they would give again.
 */
void cmp_help_text(bool paired, int k, int most, int never, char *buf,
		   size_t n)
{
	const char *what = paired ? "pairs" : "repeats a file";
	const char *less = "longer cells (-t), a quieter machine (no other "
			   "work, no steal), or a larger --min-change if a "
			   "smaller change does not matter";
	char opt[48];

	if (paired)
		snprintf(opt, sizeof(opt), "ab -n auto:%d, or -n %d", most,
			 most);
	else
		snprintf(opt, sizeof(opt), "-n %d on both runs", most);
	if (never >= k)
		snprintf(buf, n, "less noise, not more %s (over %d, the "
			 "most -n takes): %s", what, REPEATS_MAX, less);
	else if (most <= 0)
		snprintf(buf, n, "more %s (-n), or less noise: %s", what,
			 less);
	else if (never)
		snprintf(buf, n, "about %d %s (%s) for all but %d, which need "
			 "less noise: %s", most, what, opt, never, less);
	else
		snprintf(buf, n, "about %d %s (%s), or less noise: %s", most,
			 what, opt, less);
}

/* text on stdout, its lines broken at blanks before column 78 */
static void say_wrapped(const char *text)
{
	const char *p = text, *end, *brk;

	while (*p) {
		end = p + strlen(p) > p + 77 ? p + 77 : p + strlen(p);
		brk = end;
		if (*end)
			while (brk > p && *brk != ' ')
				brk--;
		if (brk == p)
			brk = end;
		printf("%.*s\n", (int)(brk - p), p);
		p = *brk == ' ' ? brk + 1 : brk;
	}
}

void cmp_say_undecided(const struct cmp_pair *c, const struct cmp_metric *m,
		       const struct cmp_opts *o)
{
	int i, k = c->count[CV_INCONCLUSIVE], most = 0, never = 0;
	char help[400], text[640];

	if (!k)
		return;
	for (i = 0; i < c->ncells; i++) {
		struct cmp_need nd;

		if (c->cells[i].verdict != CV_INCONCLUSIVE)
			continue;
		cmp_cell_need(c, &c->cells[i], m, o, &nd);
		if (nd.pairs == CMP_NEED_NEVER)
			never++;
		else if (nd.pairs > most)
			most = nd.pairs;
	}
	cmp_help_text(o->paired, k, most, never, help, sizeof(help));
	snprintf(text, sizeof(text), "%d cell%s inconclusive: at this noise "
		 "no change past +/-%g %% (%g point%s) could be shown, nor "
		 "ruled out. What would decide %s: %s.", k,
		 k == 1 ? " is" : "s are", o->min_change, o->min_points,
		 o->min_points == 1 ? "" : "s", k == 1 ? "it" : "them", help);
	say_wrapped(text);
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

/* The need's range, short, for ab's list: "about 8 to 20 pairs". */
static const char *need_range(const struct cmp_need *nd, char *buf,
			      size_t n)
{
	if (nd->to == CMP_NEED_MORE)
		snprintf(buf, n, "about %d to over %d pairs", nd->from,
			 REPEATS_MAX);
	else if (nd->from == nd->to)
		snprintf(buf, n, "about %d pairs", nd->from);
	else
		snprintf(buf, n, "about %d to %d pairs", nd->from, nd->to);
	return buf;
}

int compare_look(const char *path_a, const char *path_b,
		 const struct compare_options *opts, struct cmp_look *l)
{
	struct result_file f[2];
	struct cmp_metric m[CMP_MAX_METRICS];
	struct compare_options o = *opts;
	struct cmp_pair c;
	char err[512], what[64];
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
		struct cmp_need nd;

		if (cc->verdict != CV_INCONCLUSIVE && cc->verdict != CV_FEW)
			continue;
		cmp_cell_need(&c, cc, m, &o.cmp, &nd);
		l->undecided++;
		if (nd.pairs == CMP_NEED_NEVER)
			l->never++;
		else if (nd.pairs > l->most)
			l->most = nd.pairs;
		if (used < n)
			used += (size_t)snprintf(l->list + used, n - used,
						 "%s%s/%s", l->undecided > 1 ?
						 ", " : "", cell_of(cc)->bench,
						 cell_of(cc)->load);
		if (nd.pairs == CMP_NEED_NEVER && used < n)
			used += (size_t)snprintf(l->list + used, n - used,
						 " (cannot be decided at this "
						 "noise)");
		else if (nd.pairs && used < n)
			used += (size_t)snprintf(l->list + used, n - used,
						 " (%s%s%s)", need_range(&nd,
						 what, sizeof(what)),
						 *nd.what ? ": " : "",
						 nd.what);
	}
	cmp_pair_free(&c);
	rf_free(&f[0]);
	rf_free(&f[1]);
	return 0;
}
