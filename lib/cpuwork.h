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
	double spread_pct;	/* (slowest - fastest) / median sample, in % */
	double error_pct;	/* worst (CPU time - asked) / asked, in % */
	bool measured;		/* measured this run (not read from file) */
	/*
	 * What else happened while measuring (measured only). A sample is
	 * undisturbed when its thread was off the CPU for at most 2 % of
	 * its wall time. The shares are of the samples' wall time; NaN
	 * unknown (no schedstat).
	 */
	int samples, undisturbed;
	double speed_spread_pct;	/* the undisturbed ones'; NaN under 3 */
	double off_pct;		/* the thread did not run */
	double others_pct;	/* it waited for other tasks (schedstat) */
	double host_pct;	/* the rest: the host (steal) */
	/* other tasks' share of the machine's CPU time but ours */
	double others_machine_pct;
	bool cpufreq;		/* the kernel scales the CPU's frequency */
	/*
	 * The check (calibration_check()): the share of its wall time its
	 * thread was off the CPU, and of that the share it waited for
	 * other tasks (schedstat; NaN unknown), the rest the host's.
	 */
	double check_off_pct, check_others_pct;
};

/*
 * A sample or check whose thread was off the CPU longer than this, in %
 * of its wall time, was disturbed: others had the CPU, so its figures
 * are theirs too. On a quiet machine the thread is not off at all.
 */
#define CAL_UNDISTURBED_PCT	2.0

/* Measure loops_per_ms, bounded to a few seconds. 0 or -errno. */
int calibrate_loops(struct calibration *cal);
/*
 * Check how closely burn_ns() costs what it is asked: sets error_pct,
 * and check_off_pct and check_others_pct.
 */
int calibration_check(struct calibration *cal);
/*
 * Was the check disturbed (others held its thread's CPU): the evidence of
 * a busy machine, where error_pct, which is this machine's own cost of
 * its interrupts (+3 to +5 % on a quiet VM), is not.
 */
bool calibration_disturbed(const struct calibration *cal);

#endif
