// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/nested.c - variance components of a nested design and the
 * cheapest design (nested.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "compare/nested.h"
#include "lib/infer.h"

/* The sums one pass over the design gives. */
struct nested_sums {
	double ss[CL_LEVELS];		/* about each level's means */
	double n, sum_n2;		/* values; sum of n_i^2 over invocations */
	double within;			/* sum over boots of sum_i n_i^2 / N_b */
	double sum_nb2;			/* sum of N_b^2 over boots */
	int m;				/* invocations */
};

/* Boot b's values from y, its invocations from reps: its sums into s. */
static void boot_sums(const double *y, const int *reps, int ninv,
		      double grand, struct nested_sums *s)
{
	double nb = 0, mb = 0, n2 = 0;
	int k, j;
	const double *p = y;

	for (k = 0; k < ninv; k++)
		for (j = 0; j < reps[k]; j++, nb++)
			mb += *p++;
	mb /= nb;
	p = y;
	for (k = 0; k < ninv; k++) {
		double mi = 0;

		for (j = 0; j < reps[k]; j++)
			mi += p[j];
		mi /= reps[k];
		for (j = 0; j < reps[k]; j++)
			s->ss[CL_REPEAT] += (p[j] - mi) * (p[j] - mi);
		s->ss[CL_INVOCATION] += reps[k] * (mi - mb) * (mi - mb);
		n2 += (double)reps[k] * reps[k];
		p += reps[k];
	}
	s->ss[CL_BOOT] += nb * (mb - grand) * (mb - grand);
	s->sum_n2 += n2;
	s->within += n2 / nb;
	s->sum_nb2 += nb * nb;
	s->m += ninv;
}

int nested_fit(const struct nested_data *d, struct nested_fit *f)
{
	struct nested_sums s;
	double grand = 0, a, k1, k2, k3;
	size_t n = 0, i;
	int b, k = 0;
	const double *y = d->y;

	memset(&s, 0, sizeof(s));
	for (b = 0; b < d->boots; b++) {
		if (d->invs[b] < 1)
			return -EINVAL;
		for (i = 0; i < (size_t)d->invs[b]; i++, k++) {
			if (d->reps[k] < 1)
				return -EINVAL;
			n += (size_t)d->reps[k];
		}
	}
	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		grand += y[i];
	grand /= (double)n;
	k = 0;
	for (b = 0; b < d->boots; b++) {
		int len = 0;

		for (i = 0; i < (size_t)d->invs[b]; i++)
			len += d->reps[k + i];
		boot_sums(y, d->reps + k, d->invs[b], grand, &s);
		y += len;
		k += d->invs[b];
	}
	s.n = (double)n;
	a = d->boots;
	f->n = (int)n;
	f->invocations = s.m;
	f->boots = d->boots;
	f->df[CL_REPEAT] = s.n - s.m;
	f->df[CL_INVOCATION] = s.m - a;
	f->df[CL_BOOT] = a - 1;
	for (b = 0; b < CL_LEVELS; b++) {
		f->ms[b] = f->df[b] > 0 ? s.ss[b] / f->df[b] : NAN;
		f->var[b] = NAN;
	}
	/* E[MS] = vr; vr + k1 vi; vr + k2 vi + k3 vb (unbalanced, nested) */
	k1 = f->df[CL_INVOCATION] > 0 ?
		(s.n - s.within) / f->df[CL_INVOCATION] : NAN;
	k2 = a > 1 ? (s.within - s.sum_n2 / s.n) / (a - 1) : NAN;
	k3 = a > 1 ? (s.n - s.sum_nb2 / s.n) / (a - 1) : NAN;
	f->var[CL_REPEAT] = f->ms[CL_REPEAT];
	if (!isnan(f->ms[CL_REPEAT]) && !isnan(f->ms[CL_INVOCATION]))
		f->var[CL_INVOCATION] = (f->ms[CL_INVOCATION] -
					 f->ms[CL_REPEAT]) / k1;
	/*
	 * One invocation a boot: the boot's component holds the
	 * invocation's (they cannot be told apart), k2's term drops out.
	 */
	if (a > 1 && !isnan(f->ms[CL_REPEAT]))
		f->var[CL_BOOT] = (f->ms[CL_BOOT] - f->ms[CL_REPEAT] -
				   (isnan(f->var[CL_INVOCATION]) ? 0 :
				    k2 * f->var[CL_INVOCATION])) / k3;
	return 0;
}

static double nz(double v)
{
	return isnan(v) || v < 0 ? 0 : v;
}

double design_power(const double *var, int b, int i, int r, double delta,
		    double alpha, double *df)
{
	double se, t, units, ncp;

	if (!isnan(var[CL_BOOT]))
		units = b;
	else if (!isnan(var[CL_INVOCATION]))
		units = (double)b * i;
	else
		units = (double)b * i * r;
	if (df)
		*df = 2 * (units - 1);
	if (units < 2)
		return NAN;
	se = sqrt(2 * (nz(var[CL_BOOT]) / b +
		       nz(var[CL_INVOCATION]) / ((double)b * i) +
		       nz(var[CL_REPEAT]) / ((double)b * i * r)));
	if (!(se > 0))
		return delta > 0 ? 1 : alpha;
	t = inf_t_quantile(1 - alpha / 2, 2 * (units - 1));
	ncp = fabs(delta) / se;
	/* the shifted central t: the noncentral t's usual approximation */
	return 1 - inf_t_cdf(t - ncp, 2 * (units - 1)) +
	       inf_t_cdf(-t - ncp, 2 * (units - 1));
}

double design_cost_s(const struct design_cost *c, int b, int i, int r)
{
	return 2.0 * b * (c->boot_s + i * (c->inv_s + r * c->rep_s));
}

static bool cheaper(double cost, int b, int i, const struct design *best)
{
	if (!best->found || cost < best->cost_s)
		return true;
	return cost == best->cost_s &&
	       (b < best->b || (b == best->b && i < best->i));
}

void design_cheapest(const double *var, const struct design_cost *c,
		     const struct design_goal *g, struct design *out)
{
	int b, i, r, b0 = 1, bmax = g->max_b;
	double p = NAN, df = NAN;

	out->found = false;
	out->b = out->i = out->r = 0;
	out->power = out->df = out->cost_s = NAN;
	if (isnan(var[CL_BOOT]))
		bmax = 1;
	else
		b0 = 2;
	for (b = b0; b <= bmax; b++) {
		if (!cheaper(design_cost_s(c, b, 1, 1), b, 1, out))
			break;
		for (i = 1; i <= g->max_i; i++) {
			if (!cheaper(design_cost_s(c, b, i, 1), b, i, out))
				break;
			/* the power grows with r: the first that is enough */
			for (r = 1; r <= g->max_r; r++) {
				p = design_power(var, b, i, r, g->delta,
						 g->alpha, &df);
				if (p >= g->power)
					break;
			}
			if (r > g->max_r ||
			    !cheaper(design_cost_s(c, b, i, r), b, i, out))
				continue;
			out->found = true;
			out->b = b;
			out->i = i;
			out->r = r;
			out->power = p;
			out->df = df;
			out->cost_s = design_cost_s(c, b, i, r);
		}
	}
}
