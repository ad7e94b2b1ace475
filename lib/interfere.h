/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/interfere.h - what else happened while a cell was measured: counters of
 * the benchmarked task's own threads and of the machine, read at the
 * start and the end of the measured time, never per sample.
 */
#ifndef INTERBENCH_INTERFERE_H
#define INTERBENCH_INTERFERE_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/cgroup.h"

/*
 * The benchmark's threads add their own counters here as they end (their
 * counters start at zero with the thread, so the end is their delta).
 * Lives in struct sim_result, in shared memory.
 */
struct task_acc {
	uint64_t run_ns;		/* on a CPU (schedstat) */
	uint64_t wait_ns;		/* runnable, waiting (schedstat) */
	uint64_t vcsw, ivcsw;		/* context switches */
	uint64_t migrations;		/* se.nr_migrations */
	uint32_t threads;		/* threads that added theirs */
	uint32_t no_schedstat;		/* threads without schedstat */
	uint32_t no_migrations;		/* threads without nr_migrations */
};

/*
 * Who used the run's CPUs, counted since boot (interfere.c): their busy
 * time (/proc/stat: user, nice, system, irq, softirq; USER_HZ ticks), the
 * kernel threads', the load's process group's (its reaped children too)
 * and interbench's own with its reaped children (getrusage).
 */
struct cpu_use {
	bool ok;
	int cpus;			/* the run's CPUs (our affinity) */
	uint64_t busy_ticks, kthread_ticks, load_ticks;
	uint64_t self_ns, children_ns;
};

/* The machine's counters at one moment. */
struct machine_counters {
	uint64_t t_ns;			/* CLOCK_MONOTONIC */
	bool have_stat;
	/* /proc/stat "cpu": user nice system idle iowait irq softirq steal */
	uint64_t jif[8];
	uint64_t ctxt, intr;
	bool have_psi[3];		/* cpu, io, memory */
	uint64_t psi_us[3];		/* their "some" total, us */
	struct cg_counters cg;		/* the run's cgroup (cgroup.h) */
	struct cpu_use use;		/* cpu_use_read(), by the caller */
};

/* The figures of a cell (figures.h's group "interference"); NaN unknown. */
struct interference {
	double steal_pct, irq_pct, softirq_pct, iowait_pct;
	double psi_cpu_some_pct, psi_io_some_pct, psi_memory_some_pct;
	double ctxt_per_s, intr_per_s;
	double task_runq_wait_pct;
	double task_voluntary_switches, task_involuntary_switches;
	double task_migrations;
	/*
	 * The share of the run's CPU time that tasks other than interbench's,
	 * its loads' and the kernel's threads used: another user's work, a
	 * test suite, a spinner.
	 */
	double others_cpu_pct;
	/*
	 * What the run's cgroup did (cgroup.h): its quota's throttling (the
	 * level that throttled most; 0 with no quota), its own pressure
	 * (v2, not the root), the memory limits' events.
	 */
	double cg_throttled_pct, cg_throttled_periods;
	double cg_psi_cpu_some_pct, cg_psi_memory_some_pct;
	double cg_memory_high, cg_memory_max, cg_oom_kills;
	char throttled_by[160];		/* "/ci: cpu.max 40000/100000"; "" */
};

/* More steal than this (% of the cell's CPU time) marks the cell. */
#define STEAL_MARK_PCT	1.0
/* More use by other tasks than this (% of the run's CPU time) marks it. */
#define BUSY_MARK_PCT	5.0
/* More throttling than this (% of the cell's CPU time) marks it too. */
#define THROTTLE_MARK_PCT	1.0

/* The calling thread's time on a CPU and runnable waiting: 0 or -1. */
int thread_schedstat(uint64_t *run_ns, uint64_t *wait_ns);
/* Add the calling thread's counters to acc (thread-safe). */
void task_acc_add_self(struct task_acc *acc);
/* The machine's counters now, and cg's (NULL: none). */
void machine_read(struct machine_counters *m, const struct cgroup_self *cg);
/* Who used the run's CPUs now; load_pgid: the load's group, 0 none. */
void cpu_use_read(struct cpu_use *u, int load_pgid);
/* The others' share (interference's others_cpu_pct) between a and b. */
double cpu_use_others_pct(const struct cpu_use *a, const struct cpu_use *b,
			  double secs);
/* The figures of the time between a and b with the task's counters. */
void interference_make(struct interference *out,
		       const struct machine_counters *a,
		       const struct machine_counters *b,
		       const struct task_acc *task,
		       const struct cgroup_self *cg);

#endif
