/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/gate.h - --fail-if's gates: a figure of the table, a comparison
 * and a bound, judged on a cell's median or in K of its repeats
 * (figures.c; tests/unit-figures.c).
 */
#ifndef INTERBENCH_GATE_H
#define INTERBENCH_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/figures.h"

struct gate {
	const char *text;
	enum fig_id fig;
	int op;			/* '<', '>', 'l' (<=), 'g' (>=) */
	double value;		/* in the figure's unit (ns for latencies) */
	int k;			/* "@K": in K repeats or more; 0: median */
};

/* Parse "p99>20ms" or "p99>20ms@3": 0, or -EINVAL with why in err. */
int gate_parse(struct gate *g, const char *text, char *err, size_t n);
/* Is v (the figure's value) past the gate? NaN never is. */
bool gate_broken(const struct gate *g, double v);
/*
 * Is the cell of row w past the gate, judged as the gate asks: its
 * median over the repeats, or (@K) in at least K of the repeats res[0..n)
 * measured; *nbroke: how many repeats were past it.
 */
bool gate_judge(const struct gate *g, const struct row *w,
		const struct result *res, int n, int *nbroke);
/*
 * A percentile of fewer samples than it needs to be other than the
 * largest (100 / (100 - p): p99 needs 100) is their maximum: the samples
 * it rests on in the row (median), and how many it needs; 0 when it is
 * not a percentile or has enough.
 */
int gate_thin(const struct gate *g, const struct row *w, int *need);

#endif
