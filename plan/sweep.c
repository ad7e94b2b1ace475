// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan/sweep.c - the order of a sweep's states in each block: Williams
 * squares (plan/sweep.h). Pure: the order is known again from the seed
 * the sweep's document records.
 */
#include "plan/sweep.h"

/* splitmix64's finaliser: unrelated numbers for neighbouring inputs */
static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int sweep_rows(int m)
{
	return m % 2 ? 2 * m : m;
}

/*
 * The square's first row is 0, 1, m-1, 2, m-2, ...; row r adds r to each
 * (mod m). With m even, each treatment follows each other exactly once
 * over the m rows; with m odd, the mirrored rows make it twice over 2m.
 */
void sweep_order(uint32_t seed, int m, int b, int *order)
{
	int label[SWEEP_MAX + 1], first[SWEEP_MAX + 1];
	int rows = sweep_rows(m), r = b % rows, i, j, t;
	uint64_t s = seed;

	/* the labels: a Fisher-Yates shuffle of the seed's */
	for (i = 0; i < m; i++)
		label[i] = i;
	for (i = m - 1; i > 0; i--) {
		s = mix(s + (uint64_t)i * m);
		j = (int)(s % (uint64_t)(i + 1));
		t = label[i];
		label[i] = label[j];
		label[j] = t;
	}
	for (i = 0; i < m; i++)
		first[i] = i % 2 ? (i + 1) / 2 : (m - i / 2) % m;
	for (i = 0; i < m; i++) {
		int k = r < m ? i : m - 1 - i;	/* the mirror's rows */

		order[i] = label[(first[k] + r) % m];
	}
}
