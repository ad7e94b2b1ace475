/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * system.h - what interbench asks of and learns from the machine:
 * privileges, memory locking, limits, the calibration file, and the
 * description of the machine the results are stamped with.
 */
#ifndef INTERBENCH_SYSTEM_H
#define INTERBENCH_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include "interbench.h"

#define CALIB_FILE	"interbench.loops_per_ms"

/* What the JSON says about the machine, read once at start. */
struct sysinfo_ib {
	char sysname[65], release[65], version[129], machine[65];
	char hostname[65];
	char cpu_model[128];		/* "" unknown */
	int cpus_online;
	int smt;			/* 1, 0, or -1 unknown */
	char governor[32];		/* "" unknown */
	char preempt[32];		/* "" unknown */
	char clocksource[32];		/* "" unknown */
	long long mem_total_kb, swap_total_kb;	/* -1 unknown */
};

void sysinfo_read(struct sysinfo_ib *si);

/* ISO 8601 UTC time of now into buf. */
void iso_now(char *buf, size_t n);

/* Highest SCHED_FIFO for us; children start SCHED_OTHER. */
bool sys_realtime(void);
/* Can a process of ours be niced to n? Asked of a child, to be sure. */
bool sys_can_nice(int n);
/*
 * mlockall where locking cannot make later allocations fail (root, or
 * no limit): 0 or -errno. Never in sanitizer builds (IB_NO_MLOCK).
 */
int sys_lock_memory(void);
/* Our and the children's open-file limit up to the hard limit. */
void sys_raise_fd_limit(void);
/* Best effort write of s to a /proc or /sys file. */
void sys_write_file(const char *path, const char *s);
/* Can a file be made at path, without making it? 0 or -errno. */
int sys_can_write(const char *path);

/*
 * Loops per ms saved in CALIB_FILE: 0 and *v, -ENOENT, or -EINVAL when
 * the file holds something else.
 */
int calib_load(uint64_t *v);
/* Save it: 0 or -errno. */
int calib_save(uint64_t v);

#endif
