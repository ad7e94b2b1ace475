// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/widen.c - a side of one boot (or one invocation) measured against
 * another: each side's mean carries its own boot's effect, which the
 * repeats inside it cannot show. Where this machine's component of that
 * level was measured (interbench study --save; compare --components), each
 * tested figure's variance gets it twice (one draw a side), and is tested
 * again at Satterthwaite's degrees of freedom; a count's log rate too,
 * where the file has its component (its interval then a t interval).
 */
#include <math.h>
#include "lib/infer.h"
#include "compare/side.h"
#include "compare/verdict_priv.h"

static const struct file_cell *cell_of(const struct cmp_cell *cc)
{
	return cc->a ? cc->a : cc->b;
}

/* Row r of cell cc widened by its components: the variance added. */
static double widen_row(struct cmp_row *r, const struct cmp_cell *cc,
			const struct cmp_metric *m, const struct cmp_opts *o)
{
	const struct cmp_replication *rep = o->rep;
	double add = 0, denom, se2, half, df;
	int l;

	if (isnan(r->p) || !(r->t_se > 0))
		return 0;
	se2 = r->t_se * r->t_se;
	denom = se2 * se2 / r->df;
	for (l = 0; l < CL_LEVELS; l++) {
		double v, vdf;

		if (!rep->add[l])
			continue;
		v = comp_var(rep->comp, cell_of(cc)->bench, cell_of(cc)->load,
			     m->label, (enum cmp_level)l, &vdf);
		if (isnan(v) || !(v > 0))
			continue;
		add += 2 * v;
		denom += 4 * v * v / (vdf > 0 ? vdf : 1);
	}
	if (!(add > 0))
		return 0;
	df = (se2 + add) * (se2 + add) / denom;
	r->t_se = sqrt(se2 + add);
	r->df = df;
	r->p = 2 * inf_t_cdf(-fabs(r->t_d) / r->t_se, df);
	half = inf_t_quantile(0.5 + o->level / 2, df) * r->t_se;
	r->lo = cmp_shown(m, r->t_d - half);
	r->hi = cmp_shown(m, r->t_d + half);
	return add;
}

void cmp_widen(struct cmp_pair *c, const struct cmp_opts *o,
	       const struct cmp_metric *m)
{
	int i, j;

	if (!o->rep || !o->rep->comp || o->paired)
		return;
	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];

		for (j = cc->row0; j < cc->row0 + cc->nrows; j++) {
			struct cmp_row *r = &c->rows[j];

			r->widened = widen_row(r, cc, &m[r->metric], o);
		}
	}
}
