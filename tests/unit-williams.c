// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-williams - a sweep's blocks (plan/sweep.c): each row a permutation
 * of the states; over the design's rows each state in each place equally
 * often and after each other state equally often (a Williams square:
 * first-order carry-over balanced), for 2 to 17 states and several seeds;
 * the same seed gives the same order, another seed another labelling.
 */
#include <string.h>
#include "plan/sweep.h"
#include "tests/check.h"

#define M_MAX	(SWEEP_MAX + 1)

/* Every row of the design for m states and seed: balanced? */
static void balanced(uint32_t seed, int m, bool *perm, bool *places,
		     bool *after)
{
	int rows = sweep_rows(m), place[M_MAX][M_MAX], next[M_MAX][M_MAX];
	int o[M_MAX], b, i, k;

	memset(place, 0, sizeof(place));
	memset(next, 0, sizeof(next));
	*perm = *places = *after = true;
	for (b = 0; b < rows; b++) {
		bool seen[M_MAX] = { false };

		sweep_order(seed, m, b, o);
		for (i = 0; i < m; i++) {
			if (o[i] < 0 || o[i] >= m || seen[o[i]])
				*perm = false;
			else
				seen[o[i]] = true;
			if (o[i] >= 0 && o[i] < m) {
				place[o[i]][i]++;
				if (i && o[i - 1] >= 0 && o[i - 1] < m)
					next[o[i - 1]][o[i]]++;
			}
		}
	}
	for (i = 0; i < m; i++)
		for (k = 0; k < m; k++) {
			if (place[i][k] != rows / m)
				*places = false;
			if (i != k && next[i][k] != (rows - rows / m) / (m - 1))
				*after = false;
		}
}

int main(void)
{
	static const uint32_t seeds[] = { 0, 1, 12345, 0xdeadbeef };
	int a[M_MAX], b[M_MAX], m, s, differ = 0;

	for (m = 2; m <= M_MAX; m++) {
		bool perm = true, places = true, after = true;

		for (s = 0; s < 4; s++) {
			bool p, pl, af;

			balanced(seeds[s], m, &p, &pl, &af);
			perm &= p;
			places &= pl;
			after &= af;
		}
		check(perm && places && after, "%d states (%d rows): each row "
		      "a permutation %d, each state in each place alike %d, "
		      "after each other alike %d", m, sweep_rows(m), perm,
		      places, after);
	}
	/* the order is the seed's: known again from the document */
	sweep_order(777, 9, 5, a);
	sweep_order(777, 9, 5, b);
	check(!memcmp(a, b, sizeof(int) * 9), "one seed, one order");
	for (s = 0; s < 20; s++) {
		sweep_order((uint32_t)s, 9, 0, b);
		differ += !!memcmp(a, b, sizeof(int) * 9);
	}
	check(differ >= 18, "other seeds, other labels (%d of 20 differ)",
	      differ);
	/* block b and b + rows: the same row */
	sweep_order(777, 9, 5 + sweep_rows(9), b);
	check(!memcmp(a, b, sizeof(int) * 9), "block b + rows repeats row b");
	return check_done();
}
