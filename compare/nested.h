/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/nested.h - the statistics of `interbench study`, without any
 * output (tests/unit-components.c checks them on a known truth): the
 * variance components of one figure of one cell from values nested as
 * repeats within invocations within boots, and the cheapest design (boots
 * x invocations x repeats a side) that finds a given change, after
 * Kalibera and Jones, "Rigorous benchmarking in reasonable time" (ISMM
 * 2013). Pure: no globals, no allocation, no output.
 */
#ifndef INTERBENCH_NESTED_H
#define INTERBENCH_NESTED_H

#include <stdbool.h>
#include "compare/components.h"

/*
 * Values on the compared scale (cmp_value()), in order: boot by boot,
 * within a boot invocation by invocation, within those repeat by repeat.
 * invs[b]: boot b's invocations; reps[k]: the k-th invocation's repeats
 * (every one at least 1: an invocation without values is left out).
 */
struct nested_data {
	const double *y;
	const int *invs;
	const int *reps;
	int boots;
};

/*
 * The method of moments for an unbalanced nested design (the expected
 * mean squares of its ANOVA, each level's coefficient from its group
 * sizes). var[] is each component as estimated: it may come out below 0
 * (a known property of the estimator, when a level's true component is
 * small against the one below it); the caller says so and takes it as 0.
 * NaN: not measured (one boot: no boot component; no invocation with two
 * repeats: none at all). df[] is each level's mean square's degrees of
 * freedom: boots - 1, invocations - boots, values - invocations.
 */
struct nested_fit {
	double var[CL_LEVELS];
	double df[CL_LEVELS];
	double ms[CL_LEVELS];		/* the mean squares */
	int n, invocations, boots;
};

/* 0, or -EINVAL when d is not a nested design (no value, a group empty). */
int nested_fit(const struct nested_data *d, struct nested_fit *f);

/* What a design costs, in seconds, and what it must find. */
struct design_cost {
	double boot_s;		/* a boot (the kernel's, set up to run) */
	double inv_s;		/* an invocation's own overhead */
	double rep_s;		/* one repeat of every cell of the table */
};

struct design_goal {
	double delta;		/* the change, on the compared scale */
	double alpha;		/* two-sided, per figure */
	double power;		/* wanted */
	int max_b, max_i, max_r;	/* the search's bounds */
};

/* A design per side: B boots, I invocations a boot, R repeats each. */
struct design {
	int b, i, r;
	double power;
	double df;		/* of the t: the top measured level's */
	double cost_s;		/* both sides, the whole table */
	bool found;		/* false: none within the bounds */
};

/*
 * The power of design b x i x r to find delta at alpha, var[] being the
 * components (>= 0; NaN: not measured, then that level has one unit, a
 * boot, and its term is left out): the difference of the sides' means has
 * se = sqrt(2 (vb / B + vi / (B I) + vr / (B I R))), tested by Student's
 * t with 2 (n - 1) degrees of freedom, n the units at the top measured
 * level (B, or I in one boot). NaN when that is no test (n < 2).
 */
double design_power(const double *var, int b, int i, int r, double delta,
		    double alpha, double *df);
/* 2 B (boot + I (invocation + R repeat)): both sides, in seconds. */
double design_cost_s(const struct design_cost *c, int b, int i, int r);
/*
 * The cheapest design within g's bounds whose power is at least g->power
 * (ties: fewer boots, then fewer invocations); found false when none.
 * With no boot component (NaN) B is 1.
 */
void design_cheapest(const double *var, const struct design_cost *c,
		     const struct design_goal *g, struct design *out);

#endif
