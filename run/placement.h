/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/placement.h - where the loads live (--load-group): in interbench's
 * own group, as 0.31 (same); in a session of their own, so that the
 * kernel's autogroup gives them their own group as it gives a second
 * terminal (session); or in a cgroup of their own with a CPU weight, as
 * a desktop puts background work in a slice (cgroup[:WEIGHT]).
 *
 * The cgroup is made in the group interbench runs in under v1's cpu
 * controller (cpu.shares, weight x 1024 / 100), so that a quota of the
 * run's cgroup binds the loads as before; under cgroup v2 (cpu.weight,
 * where /sys/fs/cgroup is v2 with the cpu controller) a group holding
 * processes can have no child with a controller, so it is made at the
 * top, and said to be outside the run's cgroup when that is not the top. Only the loads move; the benchmarked task stays where
 * interbench is (a v1 group would forbid its SCHED_FIFO timing thread
 * without RT group runtime). The group is removed at exit, whatever the
 * exit but SIGKILL; a killed run's group is removed by the next run.
 */
#ifndef INTERBENCH_PLACEMENT_H
#define INTERBENCH_PLACEMENT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "core/cfg.h"

struct placement {
	enum load_group group;
	unsigned int weight;		/* cgroup: 1 to 10000 */
	char tag;			/* ab's side ('A', 'B'), or 0 */
	char own[PATH_MAX - 64];	/* v1: interbench's cpu cgroup's
					   directory ("" the top); v2: its
					   path, when not "/" */
	int version;			/* cgroup: 1 or 2; 0 none made */
	char dir[PATH_MAX];		/* the group made, "" none */
	char procs[PATH_MAX + 16];	/* its cgroup.procs, for the load */
	char what[2 * PATH_MAX + 128];	/* "v2 DIR, cpu.weight 10" */
};

/*
 * Make the loads' group (cgroup only; nothing for the others): 0, or
 * -errno with one line in err. Removes groups of runs that are gone.
 */
int placement_setup(struct placement *pl, char *err, size_t n);
/* In the load's child: join the group. 0 or -errno. */
int placement_join(const struct placement *pl);
/* Remove the group made (its loads gone): waits at most 2 s. */
void placement_remove(struct placement *pl);

#endif
