/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loads/loads.h - the list of loads, which makes their declarations here
 * and the table (loads.c), and what the load files share among
 * themselves. What a load is: core/load.h.
 *
 * loads/ holds one file a load, each a const struct load_desc; the file
 * that runs any simulator as a load (simulator.c); and the declarations
 * of the Hack load's engine (hackbench.h, hackbench.c).
 */
#ifndef INTERBENCH_LOADS_H
#define INTERBENCH_LOADS_H

#include <stddef.h>
#include <stdint.h>
#include "core/load.h"

#define MIB			(1024ULL * 1024)
#define GIB			(1024 * MIB)

/*
 * The loads, in the matrix's order (and --list's): OWN(name) for
 * loads/name.c's const struct load_desc load_name; SIM(name) for the
 * simulator sim_name as a load, its descriptor's as_load (core/sim.h),
 * run by simulator.c.
 */
#define LOADS(OWN, SIM)							\
	OWN(none) SIM(video) SIM(x) OWN(burn) OWN(write) OWN(read)	\
	OWN(ring) OWN(compile) OWN(memload) OWN(hack) OWN(net)		\
	OWN(fork) OWN(hell) SIM(custom) SIM(audiograph)			\
	SIM(compositor) SIM(gameframe) SIM(rtapp)

#define LOAD_DECLARE(name) extern const struct load_desc load_##name;
#define LOAD_SIM_DECLARED(name)	/* in simulators/simulators.h */
LOADS(LOAD_DECLARE, LOAD_SIM_DECLARED)
#undef LOAD_DECLARE
#undef LOAD_SIM_DECLARED

extern const struct load_desc *const loads[];		/* NULL-ended */

/*
 * Run c->desc in the load's process until it is killed: its own run, or
 * its simulator's (simulator.c). Returns only on failure: -errno, with
 * c->work's why set.
 */
int load_run(struct load_ctx *c);

/* Loads that combine others run each in a thread: 0 or -errno. */
int load_run_parallel(struct load_ctx *c, const struct load_desc *const *l,
		      int n);

/*
 * Free bytes a load may fill in its directory (-D): leaves max(10 %,
 * 1 GiB) free.
 */
int64_t load_dir_usable_bytes(const struct load_ctx *c);

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
bool load_read_file_valid(const char *path);
/* Record that cfg->dir has only usable bytes to spare: -ENOSPC. */
int load_space_fail(struct load_ctx *c, int64_t usable);

/*
 * Fill buf with pseudo-random bytes, none of them zero, so filesystems
 * that compress or skip zeroes still see every byte.
 */
void load_fill_nonzero(void *buf, size_t len, uint64_t seed);

/* Sleep ns, re-sleeping after signals: never fails. */
void load_sleep_ns(uint64_t ns);

/*
 * MemAvailable in bytes (estimated on old kernels), or the room under the
 * run's cgroup's memory limits where that is less; or -errno.
 */
int64_t load_mem_available(const struct load_ctx *c);

/* An absolute CLOCK_REALTIME deadline ns from now, for sem_timedwait. */
struct timespec load_realtime_in(uint64_t ns);

#endif
