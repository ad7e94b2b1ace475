/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/base.h - what every part of interbench may use: the version, the
 * exit statuses, the real-time priorities, and time in nanoseconds.
 *
 * lib/ is the bottom of the house: its modules (options, the calibrated
 * burn, JSON, scheduling classes, interference counters, the run lock,
 * the system's files, statistics for compare, SVG) know nothing of
 * simulators, loads, cells or results, and include nothing above lib/.
 */
#ifndef INTERBENCH_BASE_H
#define INTERBENCH_BASE_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

#define IB_VERSION		"0.41"

/* Exit statuses (documented in README and interbench.8). */
#define IB_EXIT_OK		0	/* run finished, every cell measured */
#define IB_EXIT_FAIL		1	/* a gate or a threshold failed */
#define IB_EXIT_USAGE		2	/* bad command line or input file */
#define IB_EXIT_SETUP		3	/* cannot set up, or write an output */
#define IB_EXIT_CELLS		4	/* run finished, some cells failed */
#define IB_EXIT_BREAK		5	/* --breaktrace: a frame was that late */
#define IB_EXIT_SIDE		6	/* ab: a side's command failed */
#define IB_EXIT_FAIL_CELLS	7	/* 1 and 4 both: a gate (or a worse
					 * cell) and cells not measured */
#define IB_EXIT_UNJUDGED	8	/* compare, ab: no cell could be
					 * judged (too few repeats) */
#define IB_EXIT_CANDIDATE	9	/* sweep: a candidate's command
					 * failed (undone, dropped) */
#define IB_EXIT_SKIP		125	/* --bisect: the data cannot decide */

/* Real-time priorities used (the parent takes the maximum). */
#define PRIO_PARENT		(sched_get_priority_max(SCHED_FIFO))
#define PRIO_TIMING		(sched_get_priority_max(SCHED_FIFO) - 1)
#define PRIO_SIM		(sched_get_priority_max(SCHED_FIFO) - 2)

/*
 * Our processes' names (comm): "ib:ROLE:NAME" (run/cell.c). A periodic
 * benchmark's timing thread renames itself COMM_TIMER NAME and its
 * simulated thread COMM_SIM NAME, so that --trace's filter can tell the
 * two threads whose switches are on a frame's path (run/trace.c).
 */
#define COMM_BENCH		"ib:bench:"
#define COMM_TIMER		"ib:timer:"
#define COMM_SIM		"ib:sim:"

#define NSEC_PER_USEC		1000ULL
#define NSEC_PER_MSEC		1000000ULL
#define NSEC_PER_SEC		1000000000ULL

static inline uint64_t ts_to_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NSEC_PER_SEC + (uint64_t)ts->tv_nsec;
}

static inline struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};
	return ts;
}

/* CLOCK_MONOTONIC now, in ns. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_to_ns(&ts);
}

/* CPU time the calling thread has used, in ns. */
static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts_to_ns(&ts);
}

#endif
