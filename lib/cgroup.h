/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/cgroup.h - the run's own cgroup: the limits it runs under (a CPU
 * quota, a cpuset, a memory limit, with those of every ancestor up to
 * the hierarchy's root, the tightest binding), read once at the start;
 * and what the limits did, read at each cell's start and end as the
 * other interference counters are (throttling, pressure, memory events).
 * Both hierarchies: v2 and v1's cpu, cpuset and memory controllers, in
 * any mix (a hybrid machine).
 *
 * The tests read a made-up tree: cgroup_read()'s root names a directory
 * holding the hierarchy (v2 if it has cgroup.controllers, else v1's
 * controllers as subdirectories named as mounted, "cpu,cpuacct") and a
 * file "proc-self-cgroup" in /proc/self/cgroup's format.
 */
#ifndef INTERBENCH_CGROUP_H
#define INTERBENCH_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The made-up tree's root, for the test suite only (doc/files.txt). */
#define CG_ROOT_ENV	"INTERBENCH_CGROUP_ROOT"

#define CG_LEVELS	16		/* ours and its ancestors, at most */
#define CG_NO_LIMIT	(-1LL)

/* The controllers read. */
enum cg_ctl { CG_CPU, CG_CPUSET, CG_MEMORY, CG_CTLS };

/* Where one controller has the run: its hierarchy and directory. */
struct cg_where {
	int version;			/* 2, 1; 0: not mounted */
	char path[256];			/* as /proc/self/cgroup names it */
	char dir[PATH_MAX];		/* its directory, ours */
	char top[PATH_MAX];		/* the hierarchy's root as we see it */
};

struct cgroup_self {
	bool read;			/* cgroup_read() ran */
	struct cg_where at[CG_CTLS];
	char unified[PATH_MAX];		/* our v2 directory (PSI); "" none */
	bool unified_root;		/* it is the root: PSI is the
					   machine's (/proc/pressure) */
	/* the tightest CPU quota of ours and our ancestors' */
	long long quota_us, period_us;	/* CG_NO_LIMIT: none */
	long long burst_us;		/* at the same level; CG_NO_LIMIT */
	char quota_at[256];		/* its cgroup */
	int nquota;			/* levels with a quota */
	bool quota_unknown;		/* a level's could not be read: what
					   throttled is unknown */
	char quota_dir[CG_LEVELS][PATH_MAX];	/* their directories */
	long long lquota[CG_LEVELS][2];	/* their quota and period, us */
	char quotas[512];		/* every level's: "/a 40000/100000" */
	long long weight;		/* ours: cpu.weight (v2), cpu.shares
					   (v1); CG_NO_LIMIT unknown */
	long long rt_runtime_us, rt_period_us;	/* v1 RT group; -2 none */
	char cpuset[128];		/* our CPUs, as a list; "" unknown */
	int cpus_usable;		/* in it (and online); 0 unknown */
	int cpus_machine;		/* the machine's online CPUs */
	/* the tightest memory limit (max), and high */
	long long mem_max, mem_high;	/* bytes; CG_NO_LIMIT: none */
	char mem_at[256];
	int nmem;			/* levels whose events are counted */
	char mem_dir[CG_LEVELS][PATH_MAX];
	long long lmem[CG_LEVELS];	/* their limit (max, or high if
					   lower), bytes; CG_NO_LIMIT */
	char unread[256];		/* what could not be read, said once */
};

/*
 * Read it: root NULL for the real one (/proc/self/mountinfo and
 * /proc/self/cgroup), else a made-up tree (above). Never fails: what is
 * not there is no limit, what cannot be read is unknown and named in
 * cg->unread.
 */
void cgroup_read(struct cgroup_self *cg, const char *root);

/* The CPUs the quota gives (quota / period), or 0: no quota. */
double cgroup_quota_cpus(const struct cgroup_self *cg);
/* "cpu.max 40000/100000" or "cpu.cfs_quota_us 40000/100000": buf. */
void cgroup_quota_text(const struct cgroup_self *cg, char *buf, size_t n);

/* "/ci: cpu.max 40000/100000": quota level k and its limit, into buf. */
void cgroup_level_text(const struct cgroup_self *cg, int k, char *buf,
		       size_t n);

/*
 * The memory left under ours and every ancestor's limits now (limit less
 * usage, the least of them), bytes; CG_NO_LIMIT where none limits.
 */
long long cgroup_mem_room(const struct cgroup_self *cg);

/* What the limits did, counted since boot; read at a cell's ends. */
struct cg_counters {
	bool have_cpu;			/* every quota level's cpu.stat */
	uint64_t throttled_ns[CG_LEVELS], nr_throttled[CG_LEVELS];
	bool have_psi[2];		/* our v2 cpu, memory pressure */
	uint64_t psi_us[2];		/* their "some" totals */
	bool have_mem;			/* every limited level's events */
	bool have_high;			/* v2 has memory.high's events */
	uint64_t mem_high, mem_max, oom_kill;
};

void cgroup_counters_read(const struct cgroup_self *cg,
			  struct cg_counters *c);

#endif
