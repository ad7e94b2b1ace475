/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/load.h - the load's contract: a const struct load_desc in one file
 * of loads/ (or a simulator's as_load), listed in loads/loads.h, run in
 * its own process with a struct load_ctx; what a load got done is counted
 * in struct load_work (shared with the parent), by the kinds of work below
 * (core/load.c).
 */
#ifndef INTERBENCH_LOAD_H
#define INTERBENCH_LOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/cfg.h"

struct sim_desc;
struct cgroup_self;


/* Kinds of work a load can count; add one line here and in work_units. */
enum work_kind {
	WORK_BURN_LOOPS,
	WORK_BYTES_WRITTEN,
	WORK_BYTES_READ,
	WORK_RING_WAKEUPS,
	WORK_HACK_MESSAGES,
	WORK_MEM_BYTES,
	WORK_FRAMES,
	WORK_NET_PACKETS,
	WORK_NET_BYTES,
	WORK_FORKS,
	WORK_KINDS
};

struct work_unit {
	const char *key;	/* machine-readable name, e.g. "burn_loops" */
	const char *unit;	/* per second in tables, e.g. "loops/s" */
	double scale;		/* divide count by this for the table */
};
extern const struct work_unit work_units[WORK_KINDS];

/* Lives in shared memory; loads add to it, the parent reads it. */
struct load_work {
	_Atomic uint64_t count[WORK_KINDS];
	_Atomic int failed;	/* -errno of the first failure, or 0 */
	char why[128];		/* written once, before failed is set */
};

struct load_desc;

struct load_ctx {
	const struct load_desc *desc;
	const struct run_cfg *cfg;
	struct load_work *work;		/* shared with the parent */
	const void *sim_opts;		/* its simulator's options, or NULL */
	const struct cgroup_self *cg;	/* the run's cgroup, or NULL */
};

#define LOAD_CUSTOM	0x1	/* needs -C/-I; not in the default matrix */
#define LOAD_FILES	0x2	/* writes files into cfg->dir */
#define LOAD_IDLE	0x4	/* does no work on purpose (None) */
#define LOAD_READ_FILE	0x8	/* it reads cfg->read_file */
#define LOAD_WRITE_FILE	0x10	/* it writes cfg->write_file */
#define LOAD_NAMED	0x20	/* runs only when -w names it */
/* Its simulator, benchmarked, may run under it: each has its own work. */
#define LOAD_UNDER_SELF	0x40

struct load_desc {
	const char *name;
	const char *summary;
	unsigned flags;
	/*
	 * The simulator this load runs, so a bench skips itself as a load
	 * (set in a simulator's as_load, core/sim.h).
	 */
	const struct sim_desc *sim;
	/*
	 * In the parent, before the load's process starts (make files).
	 * 0, or -errno with ctx->work->why saying why (the cell is skipped).
	 */
	int (*prepare)(struct load_ctx *c);
	/*
	 * In the load's own process: work until killed. Count work in
	 * c->work. Returns only on failure (-errno, with why set). NULL in
	 * a simulator's as_load: loads/simulator.c runs the simulator
	 * (load_run()).
	 */
	int (*run)(struct load_ctx *c);
	/* In the parent, after the load's process is gone (remove files). */
	void (*cleanup)(struct load_ctx *c);
	/* In the parent at exit (remove files kept across cells). */
	void (*finish)(const struct run_cfg *cfg);
};

/* Record a load failure once (thread-safe, async-signal-unsafe). */
void load_fail(struct load_work *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void work_add(struct load_work *w, enum work_kind k,
			    uint64_t n)
{
	atomic_fetch_add_explicit(&w->count[k], n, memory_order_relaxed);
}

#endif
