// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/outcome.c - every NEW file judged against BASE, once, into the
 * outcome its renderers tell (outcome.h), and what compare's exit status
 * is made of.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/outcome.h"
#include "lib/base.h"

bool cmp_cell_breaches(const struct cmp_cell *cc,
		       const struct compare_options *o)
{
	return o->have_threshold && cc->verdict == CV_LOST;
}

bool cmp_row_breaches(const struct cmp_row *r,
		      const struct compare_options *o)
{
	return o->have_threshold && r->decides && r->mark > 0 &&
	       fabs(r->change) > o->threshold;
}

/* --threshold's breaches in one pair: how many. */
static int breaches(const struct cmp_pair *c, const struct compare_options *o)
{
	int i, j, n = 0;

	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];

		n += cmp_cell_breaches(cc, o);
		for (j = cc->row0; j < cc->row0 + cc->nrows; j++)
			n += cmp_row_breaches(&c->rows[j], o);
	}
	return n;
}

/* One judged pair added to what the status is made of. */
static void tally_add(struct cmp_tally *t, const struct cmp_judged *p)
{
	const int *count = p->c.count;

	t->breached += p->breached;
	t->worse += count[CV_WORSE] + count[CV_MIXED];
	t->undecided += count[CV_INCONCLUSIVE] + count[CV_FEW];
	if (p->unjudged && !t->unjudged++) {
		t->file = p->cur->path;
		snprintf(t->why, sizeof(t->why), "%s", p->why);
	}
}

int cmp_outcome_judge(struct cmp_outcome *oc, const struct result_file *files,
		      int n, const struct cmp_side *sides,
		      const struct compare_options *o,
		      const struct cmp_metric *m, int nm)
{
	int i;

	memset(oc, 0, sizeof(*oc));
	oc->files = files;
	oc->nfiles = n;
	oc->sides = sides;
	oc->m = m;
	oc->nm = nm;
	oc->stop_pairs = files[0].ab_stop_pairs;
	oc->stop_why = files[0].ab_stop_why;
	oc->pairs = calloc((size_t)(n > 1 ? n - 1 : 1), sizeof(*oc->pairs));
	if (!oc->pairs)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		struct cmp_judged *p = &oc->pairs[i - 1];

		p->base = &files[0];
		p->cur = &files[i];
		if (cmp_pair_run(p->base, p->cur, &o->cmp, m, nm, &p->c)) {
			cmp_outcome_free(oc);
			return -ENOMEM;
		}
		oc->npairs++;
		p->unjudged = cmp_unjudged(&p->c, p->base->path, p->cur->path,
					   p->why, sizeof(p->why));
		p->breached = breaches(&p->c, o);
		tally_add(&oc->tally, p);
	}
	return 0;
}

void cmp_outcome_free(struct cmp_outcome *oc)
{
	int i;

	for (i = 0; oc->pairs && i < oc->npairs; i++)
		cmp_pair_free(&oc->pairs[i].c);
	free(oc->pairs);
	oc->pairs = NULL;
	oc->npairs = 0;
}

int cmp_status(const struct cmp_tally *t, bool bisect)
{
	if (t->breached || t->worse)
		return IB_EXIT_FAIL;
	if (bisect && t->undecided)
		return IB_EXIT_SKIP;
	return t->unjudged ? IB_EXIT_UNJUDGED : IB_EXIT_OK;
}
