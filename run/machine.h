/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/machine.h - what the results are stamped with about the machine
 * (machine.c): its identity, read once at start, and the state of the
 * machine that changes latency, with the warnings of what skews results.
 */
#ifndef INTERBENCH_MACHINE_H
#define INTERBENCH_MACHINE_H

#include <stdbool.h>
#include "lib/cgroup.h"

/*
 * The state of the machine that changes latency (machine.c): "" or -1
 * where unknown.
 */
struct machine_state {
	/*
	 * Where preempt (the mode in force) came from: "debugfs", "cmdline"
	 * (preempt=), "boot log" (the kernel's "Dynamic Preempt: X"),
	 * "build" (a kernel whose build fixes it); "" unknown.
	 */
	char preempt_source[16];
	/* the build: "dynamic", "dynamic, default none", "full", "rt", ... */
	char preempt_build[48];
	char sched_ext[64];		/* "none", or the scheduler's name */
	char cmdline[256];		/* latency options of the command line */
	char cpufreq_driver[32];
	char governors[128];		/* per CPU: "x" if all, else "0:x 1:y" */
	char cpuidle_driver[32], cpuidle_governor[32];
	char thp[16];			/* transparent hugepages: "madvise" */
	int autogroup;			/* 1, 0, -1 unknown */
	bool have_rt_runtime;
	long long rt_runtime_us;	/* -1: no real-time throttling */
	int vm;				/* 1, 0, -1 unknown */
	char hypervisor[64];		/* "" unknown */
};

struct sysinfo_ib;
struct plan;
/* Read it (with si's preemption model and version): machine.c. */
void machine_state_read(struct sysinfo_ib *si);
/* The one-line description, and the warnings of what skews results. */
typedef void (*machine_out)(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void machine_state_print(const struct sysinfo_ib *si, machine_out out,
			 void *ctx);
void machine_warnings(const struct sysinfo_ib *si, const struct plan *p,
		      machine_out out, void *ctx);

/* What the JSON says about the machine, read once at start. */
struct sysinfo_ib {
	char sysname[65], release[65], version[129], machine[65];
	char hostname[65];
	/*
	 * What the run was measured in, for compare's levels of replication:
	 * the boot (the kernel's random boot_id, "" unknown) and this
	 * process (a random id drawn once per invocation).
	 */
	char boot_id[40], invocation[40];
	char cpu_model[128];		/* "" unknown */
	int cpus_online;
	int smt;			/* 1, 0, or -1 unknown */
	char governor[32];		/* "" unknown */
	char preempt[32];		/* "" unknown */
	char clocksource[32];		/* "" unknown */
	long long mem_total_kb, swap_total_kb;	/* -1 unknown */
	struct machine_state st;	/* machine.c */
	/* the run's own cgroup, its limits: the run's, read once */
	const struct cgroup_self *cg;
};

/* The machine read, with cg, the run's cgroup (or NULL: not known). */
void machine_sysinfo_read(struct sysinfo_ib *si,
			  const struct cgroup_self *cg);

#endif
