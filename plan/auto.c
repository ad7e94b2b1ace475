// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan/auto.c - when a run of several passes may stop, and in which order
 * ab's sides run: -n auto's looks and its test that every cell is known
 * well enough, and the A B / B A order of each cell. See plan.h.
 */
#include "plan/ab.h"

/*
 * The cell's own index (plan_cell() runs every other pass backwards) and
 * its pass: each cell alternates A B and B A from pass to pass, and the
 * side in effect carries over from one cell to the next (A B, B A, ...).
 */
int plan_ab_first(const struct plan *p, int i)
{
	int pass = i / p->per_pass, c = i % p->per_pass;

	if (pass % 2)
		c = p->per_pass - 1 - c;
	return (c + pass) & 1;
}

/*
 * -n auto looks at 3 passes, then each time half as many again, and at
 * the last: few looks, so that the alpha each gets stays large.
 */
bool plan_look(const struct plan *p, int passes)
{
	int at = AUTO_REPEATS_MIN;

	if (passes >= p->repeats)
		return true;
	if (!p->auto_repeats)
		return false;
	while (at < passes)
		at += (at + 1) / 2;
	return at == passes;
}

int plan_nlooks(const struct plan *p)
{
	int i, n = 0;

	for (i = 1; i <= p->repeats; i++)
		n += plan_look(p, i);
	return n;
}
