// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpuwork.c - the calibrated CPU loop the simulators and loads burn.
 *
 * Simulated tasks ask for an amount of CPU (Audio: 5 % of 50 ms) and burn
 * it as a fixed number of loop iterations, measured once per machine. A
 * fixed amount of work, not a wall-clock spin, is what a real task needs:
 * when it is preempted its work takes longer, and that is what we measure.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "interbench.h"

void burn_loops(uint64_t n)
{
	uint64_t i;

	/* The empty asm keeps the compiler from deleting the loop. */
	for (i = 0; i < n; i++)
		__asm__ __volatile__("" : : : "memory");
}

static uint64_t loops_for(uint64_t loops_per_ms, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)loops_per_ms * ns / NSEC_PER_MSEC);
}

void burn_ns(uint64_t loops_per_ms, uint64_t ns)
{
	burn_loops(loops_for(loops_per_ms, ns));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Thread CPU ns that n loops take, as the median of reps tries. */
static uint64_t time_loops(uint64_t n, int reps)
{
	uint64_t t[16];
	int i;

	if (reps > 16)
		reps = 16;
	for (i = 0; i < reps; i++) {
		uint64_t c0 = thread_cpu_ns();

		burn_loops(n);
		t[i] = thread_cpu_ns() - c0;
	}
	qsort(t, (size_t)reps, sizeof(t[0]), cmp_u64);
	return t[reps / 2];
}

/*
 * Thread CPU time, not wall time: a preemption during calibration must not
 * make the loop look slower. Bounded: about 1.5 s on any machine.
 */
int calibrate_loops(struct calibration *cal)
{
	uint64_t n = 1000, t;
	int grow;

	/* Grow n until it takes >= 2 ms; at most ~40 doublings. */
	for (grow = 0; grow < 40; grow++) {
		t = time_loops(n, 1);
		if (t >= 2 * NSEC_PER_MSEC)
			break;
		n *= 2;
	}
	if (grow == 40 || !t)
		return -ERANGE;
	/* Warm up the CPU (frequency, caches) for about 200 ms. */
	burn_loops((uint64_t)((double)n * 200.0 * NSEC_PER_MSEC / (double)t));
	/* Then 9 runs of ~50 ms each and their median. */
	n = (uint64_t)((double)n * 50.0 * NSEC_PER_MSEC / (double)t);
	t = time_loops(n, 9);
	if (!t)
		return -ERANGE;
	cal->loops_per_ms = (uint64_t)((double)n * NSEC_PER_MSEC / (double)t);
	if (!cal->loops_per_ms)
		return -ERANGE;
	cal->measured = true;
	return 0;
}

/*
 * How closely burn_ns() costs what it is asked, in thread CPU time: the
 * median of 5 tries at 1, 5 and 20 ms, worst of the three sizes.
 */
int calibration_check(struct calibration *cal)
{
	static const uint64_t sizes[] = { 1, 5, 20 };
	double worst = 0;
	size_t i;

	if (!cal->loops_per_ms)
		return -EINVAL;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t want = sizes[i] * NSEC_PER_MSEC;
		uint64_t got = time_loops(loops_for(cal->loops_per_ms, want), 5);
		double err = ((double)got - (double)want) / (double)want;

		if (fabs(err) > fabs(worst))
			worst = err;
	}
	cal->error_pct = worst * 100.0;
	return 0;
}
