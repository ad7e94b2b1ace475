/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/cfg.h - the configuration of a run, read-only after the command line:
 * what every simulator and load is handed in its context.
 *
 * core/ holds the contracts and the result model between the plug-ins
 * and the rest: the run's configuration (cfg.h), what a simulator is
 * (sim.h) and measures raw (raw.h), what a load is (load.h), the table
 * of figures (figures.h), the JSON's names (schema.h) and result files
 * read back (resultfile.h). It uses lib/ and stats.h only.
 */
#ifndef INTERBENCH_CFG_H
#define INTERBENCH_CFG_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "lib/base.h"

/* --load-group: where the loads live (run/placement.h) */
enum load_group { LG_SAME, LG_SESSION, LG_CGROUP };
extern const char *const load_group_names[];	/* same, session, cgroup */
#define LG_WEIGHT_DEFAULT	100		/* cgroup v2's default */

struct run_cfg {
	uint64_t duration_ns;		/* -t per cell */
	uint64_t loops_per_ms;		/* calibrated */
	int load_threads;		/* -L */
	int bench_nice;			/* -B */
	int load_nice;			/* -N */
	bool rt;			/* a real-time class: figures in us */
	int bench_policy;		/* --bench-policy (-r: fifo) */
	uint64_t bench_slice_ns;	/* --bench-slice; 0: the kernel's */
	uint64_t timer_slack_ns;	/* --timer-slack; 0: as inherited */
	int load_policy;		/* --load-policy */
	enum load_group load_group;	/* --load-group */
	unsigned int load_weight;	/* --load-group cgroup:WEIGHT */
	bool rt_ok;			/* we may use SCHED_FIFO at all */
	bool uniprocessor;		/* -u */
	int uni_cpu;			/* -u's CPU: the first we may use */
	int cpus;			/* the CPUs we may use (affinity,
					   the cgroup's cpuset) */
	unsigned custom_cpu_pct;	/* -C */
	uint64_t custom_interval_ns;	/* -I */
	char dir[PATH_MAX];		/* -D: where load files go */
	char read_file[PATH_MAX];	/* the Read load's file, kept for reuse */
	char write_file[PATH_MAX];	/* the Write load's file, per run */
};

/*
 * -n: at most this many repeats. Every repeat's results stay in memory
 * and in the JSON: 100 passes of the full matrix is already a
 * 5000-result file. compare says a cell that would need more pairs
 * cannot be decided at its noise (so both towers need it: it is here).
 */
#define REPEATS_MAX		100

/*
 * How long a load settles before a cell of duration_ns is measured: a
 * tenth of it, from 0.1 s to 2 s. The run waits it; study counts it in
 * a repeat's cost.
 */
static inline uint64_t cell_settle_ns(uint64_t duration_ns)
{
	uint64_t t = duration_ns / 10;

	if (t < 100 * NSEC_PER_MSEC)
		t = 100 * NSEC_PER_MSEC;
	if (t > 2 * NSEC_PER_SEC)
		t = 2 * NSEC_PER_SEC;
	return t;
}

#endif
