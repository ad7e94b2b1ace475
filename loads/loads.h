/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loads/loads.h - the table of loads (loads.c) and what the load files
 * share among themselves. What a load is: core/load.h.
 *
 * loads/ holds one file a load, each a const struct load_desc, and the
 * declarations of the Hack load's engine (hackbench.h, hackbench.c).
 */
#ifndef INTERBENCH_LOADS_H
#define INTERBENCH_LOADS_H

#include <stddef.h>
#include <stdint.h>
#include "core/load.h"
#include "core/sim.h"

#define MIB			(1024ULL * 1024)
#define GIB			(1024 * MIB)

extern const struct load_desc *const loads[];		/* NULL-ended */

/* Loads that combine others run each in a thread: 0 or -errno. */
int load_run_parallel(struct load_ctx *c, const struct load_desc *const *l,
		      int n);

/* Free bytes a load may fill in dir: leaves max(10 %, 1 GiB) free. */
int64_t dir_usable_bytes(const char *dir);

/* Loads that are a simulator run in the background (simulators/). */
extern const struct sim_desc sim_video, sim_x, sim_custom, sim_audiograph,
	sim_compositor, sim_gameframe;

extern const struct load_desc load_none, load_video, load_x, load_burn,
	load_write, load_read, load_ring, load_compile, load_memload,
	load_hack, load_net, load_fork, load_hell, load_custom,
	load_audiograph, load_compositor, load_gameframe;

/* -w rtapp:FILE: an rt-app workload (loads/rtapp.c). */
extern const struct load_desc load_rtapp;

/* Run c->desc->sim until killed, as a load: -errno when it stops. */
int load_run_sim(struct load_ctx *c);
/* The same with the simulator sim, which c->desc need not name. */
int load_run_this_sim(struct load_ctx *c, const struct sim_desc *sim);

/*
 * Record a failure to "what" (create, write, open, ...) path with a why
 * a user can act on. Returns -err.
 */
int load_file_fail(struct load_ctx *c, int err, const char *what,
		   const char *path);
/*
 * Clear path for a file of the load's own: 0 when nothing is there or
 * what is there was ours and is gone; -EPERM (recorded) when it is
 * another user's, which is never removed (-D may be a shared
 * directory); or -errno.
 */
int load_clear_name(struct load_ctx *c, const char *path);
/*
 * Is path a Read load's file we made and finished (ours, its header, its
 * size)? What the end of a run removes, or keeps with --keep-files.
 */
bool read_file_valid(const char *path);
/* Record that cfg->dir has only usable bytes to spare: -ENOSPC. */
int load_space_fail(struct load_ctx *c, int64_t usable);

/*
 * Fill buf with pseudo-random bytes, none of them zero, so filesystems
 * that compress or skip zeroes still see every byte.
 */
void fill_nonzero(void *buf, size_t len, uint64_t seed);

/* Sleep ns, re-sleeping after signals: never fails. */
void sleep_ns(uint64_t ns);

/*
 * MemAvailable in bytes (estimated on old kernels), or the room under the
 * run's cgroup's memory limits where that is less; or -errno.
 */
int64_t mem_available(void);

/* An absolute CLOCK_REALTIME deadline ns from now, for sem_timedwait. */
struct timespec realtime_in(uint64_t ns);

#endif
