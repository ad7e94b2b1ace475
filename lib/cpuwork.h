/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/cpuwork.h - the calibrated CPU burn (cpuwork.c): how simulated
 * tasks and the Burn load spend a given amount of CPU time.
 */
#ifndef INTERBENCH_CPUWORK_H
#define INTERBENCH_CPUWORK_H

#include <stdbool.h>
#include <stdint.h>

/* Spin through n iterations of the calibrated loop. */
void burn_loops(uint64_t n);
/*
 * Run the calibrated loop for ns of the calling thread's running time,
 * in steps of about 1 us sized by loops_per_ms, looking only at
 * CLOCK_MONOTONIC (no system call: see cpuwork.c for why). Returns the
 * time meanwhile the thread did not run (gaps over 5 us).
 */
uint64_t burn_ns(uint64_t loops_per_ms, uint64_t ns);

/* Far above any CPU's loop speed; beyond it a burn chunk never ends. */
#define MAX_LOOPS_PER_MS	100000000ULL

struct calibration {
	uint64_t loops_per_ms;
	double spread_pct;	/* (slowest - fastest) / median run, in % */
	double error_pct;	/* worst (CPU time - asked) / asked, in % */
	bool measured;		/* measured this run (not read from file) */
};

/* Measure loops_per_ms, bounded to a few seconds. 0 or -errno. */
int calibrate_loops(struct calibration *cal);
/* Check how closely burn_ns() costs what it is asked: sets error_pct. */
int calibration_check(struct calibration *cal);

#endif
