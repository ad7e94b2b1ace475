// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/moderate.c - compare's tests moderated, as limma's (verdict.h):
 * each metric's variances over the table's cells set a prior each cell's
 * own is shrunk to.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "lib/count.h"
#include "lib/infer.h"
#include "compare/verdict_priv.h"

/*
 * Moderation (compare's default; verdict.h): each metric's tested rows
 * shrink their variance to the prior that its spread over the table
 * gives, and are tested again with the prior's degrees of freedom added.
 * Counted rows, late and missed alike, share one prior for their
 * dispersion: how much runs differ is the cell's and the machine's, not
 * the bound's, and most cells miss no deadline at all. The prior is never taken as known
 * better than every other row's own degrees of freedom together make it:
 * estimated from 4 cells it is worth at most their data, not infinitely
 * many (an ab run's table; doc/compare.txt says what uncapped did). Below
 * 3 such rows, as they are.
 */
/* Is metric j in the prior of metric k (itself, or both counted)? */
static bool same_prior(const struct cmp_metric *m, int j, int k)
{
	return j == k || (m[j].count != CMP_NO_COUNT &&
			  m[k].count != CMP_NO_COUNT);
}

int cmp_moderate(struct cmp_pair *c, const struct cmp_opts *o,
		    const struct cmp_metric *m, int nm)
{
	double *s2 = malloc(((size_t)c->nrows + 1) * sizeof(*s2));
	double *df = malloc(((size_t)c->nrows + 1) * sizeof(*df));
	int i, k, n;

	if (!s2 || !df) {
		free(s2);
		free(df);
		return -ENOMEM;
	}
	for (k = 0; k < nm; k++) {
		bool cnt = m[k].count != CMP_NO_COUNT;
		double d0, s02, total = 0;

		/* the counted rows are moderated together, at the first */
		if (cnt && m[k].count != CMP_LATE)
			continue;
		for (i = n = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];

			if (!same_prior(m, r->metric, k) || isnan(r->p))
				continue;
			/* structural zeros (nothing counted on either
			 * side) are no test and tell no dispersion */
			if (cnt ? !(r->fit.phi_hat > 0 && r->fit.df > 0 &&
				    r->fit.ya + r->fit.yb > 0) :
			    !(r->t_se > 0))
				continue;
			s2[n] = cnt ? r->fit.phi_hat :
				r->t_se * r->t_se / r->t_v;
			df[n] = cnt ? r->fit.df : r->df;
			total += df[n++];
		}
		if (inf_ebayes_prior(s2, df, (size_t)n, &d0, &s02))
			continue;
		for (i = 0; i < c->nrows; i++) {
			struct cmp_row *r = &c->rows[i];
			double own, own_df, d, se, half;
			struct cnt_test t;

			if (!same_prior(m, r->metric, k) || isnan(r->p))
				continue;
			own_df = cnt ? r->fit.df : r->df;
			own = cnt ? r->fit.phi_hat : r->t_se * r->t_se / r->t_v;
			if (!cnt && !(r->t_se > 0))
				continue;
			/* the others' degrees of freedom, at most */
			d = fmin(d0, total - (own > 0 && own_df > 0 ? own_df :
					      0));
			if (!(d > 0))
				continue;
			if (cnt) {
				r->phi = isnan(own) || !(own_df > 0) ? s02 :
					 inf_ebayes_var(own, own_df, d, s02);
				r->phi_df = (own_df > 0 ? own_df : 0) + d;
				cnt_test(&r->fit, r->phi, r->phi_df, o->level,
					 &t);
				r->df = r->phi_df;
				r->p = t.p;
				r->t_se = t.se;
				r->lo = expm1(t.lo) * 100;
				r->hi = expm1(t.hi) * 100;
				cmp_count_diff(r, o->level);
				continue;
			}
			se = sqrt(inf_ebayes_var(own, own_df, d, s02) * r->t_v);
			r->df = own_df + d;
			r->t_se = se;
			r->p = 2 * inf_t_cdf(-fabs(r->t_d) / se, r->df);
			half = inf_t_quantile(0.5 + o->level / 2, r->df) * se;
			r->lo = cmp_shown(&m[k], r->t_d - half);
			r->hi = cmp_shown(&m[k], r->t_d + half);
		}
	}
	free(s2);
	free(df);
	return 0;
}

