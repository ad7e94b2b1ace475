/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/sim.h - the simulator's contract: a const struct sim_desc in one
 * file of simulators/, listed in simulators/simulators.h, run in its own
 * process with a struct sim_ctx. Run-time state lives in the context,
 * never in globals; helpers return 0 or a negative errno.
 */
#ifndef INTERBENCH_SIM_H
#define INTERBENCH_SIM_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/cfg.h"
#include "core/load.h"
#include "core/raw.h"
#include "lib/opt.h"

struct load_work;

struct sim_desc;

struct sim_ctx {
	const struct sim_desc *desc;
	const struct run_cfg *cfg;
	const void *opts;		/* the simulator's own options, or NULL */
	/* How long past its duration it may take: sim_grace_ns(). */
	uint64_t grace_ns;
	int nice;			/* for the simulated thread */
	int policy;			/* its class: enum sched_pol */
	uint64_t slice_ns;		/* its EEVDF slice request, or 0 */
	bool timing_rt;			/* timing thread SCHED_FIFO (benchmarks) */
	struct sim_result *res;		/* where the figures go */
	struct load_work *work;		/* counts frames when run as a load */
};

/*
 * How long the simulator runs: cfg->duration_ns when benchmarked, 0
 * (until its process is killed) when run as a load (work is set).
 */
static inline uint64_t sim_duration(const struct sim_ctx *c)
{
	return c->work ? 0 : c->cfg->duration_ns;
}

#define SIM_DEADLINES	0x1	/* has deadlines (% Deadlines Met column) */
#define SIM_CUSTOM	0x2	/* needs -C/-I; not in the default matrix */
#define SIM_NAMED	0x4	/* runs only when -W names it */
#define SIM_PERIODIC	0x8	/* periodic_run(): can be SCHED_DEADLINE */

/* Print to the console and the logfile (the run's out_cb(), outputs/). */
typedef void (*out_fn)(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct result;
struct figure;

/* What a simulator's notes (sim_desc.notes) are told of the run. */
struct sim_notes_in {
	const struct run_cfg *cfg;
	const void *opts;		/* its own option block, or NULL */
	bool task;			/* it runs as a task (-W) */
	bool start;			/* the run starts (not --dry-run) */
	bool dma_given;			/* --dma-latency was given */
};

struct sim_desc {
	const char *name;
	const char *summary;
	unsigned flags;
	/* Optional: a set -W/-w name it in with others ("modern"). */
	const char *set;
	int (*run)(struct sim_ctx *c);	/* in its own process */
	/* Optional: own options, their defaults, a check of them all. */
	const struct opt *opts;		/* ends with a NULL name */
	size_t opts_size;
	void (*opts_init)(void *opts, const struct run_cfg *cfg);
	int (*opts_check)(const void *opts, char *err, size_t n);
	/* Optional: free what the block holds (not the block itself). */
	void (*opts_free)(void *opts);
	/*
	 * Optional: how much longer than everyone's base (sim_grace_ns())
	 * it may still be finishing after its duration, e.g. a long
	 * interval or budget.
	 */
	uint64_t (*grace_ns)(const struct run_cfg *cfg, const void *opts);
	/*
	 * Optional: figures of its own (figures.h), written into each of its
	 * results after the histogram, read from its sim_result.
	 */
	const struct figure *figures;
	int nfigures;
	/*
	 * Optional: keep what its figures and detail need of res->own past
	 * the cell (a malloc'd copy, freed with the result), or NULL.
	 */
	void *(*keep)(const struct sim_result *res);
	/* Optional: more lines under the result's row in the table. */
	void (*detail)(const struct result *r, const void *opts, out_fn out,
		       void *ctx);
	/*
	 * Optional: a mark of the result for its row in the table, e.g.
	 * "stalled: a[0], b[0]" (RtApp's threads that stalled); "" none.
	 */
	void (*mark)(const struct result *r, char *buf, size_t n);
	/*
	 * Optional: its own notes on the run ("NOTE: ...\n" lines), as the
	 * run starts and in --dry-run's plan. Asked of every simulator in
	 * the table's order, whether it runs or not (plan_notes()).
	 */
	void (*notes)(const struct sim_notes_in *in, out_fn out, void *ctx);
	/*
	 * Optional: a file it reads as a task (load false) or as a load,
	 * by its option block (opts), or NULL; *opt says how it was given ("-W rtapp:"). No output of
	 * the run may replace it.
	 */
	const char *(*input)(const void *opts, bool load, const char **opt);
	/*
	 * Optional: named with an argument, -W name:ARG or -w name:ARG (as
	 * RtApp's rtapp:FILE), and never without one: arg_what and arg_name
	 * say what ARG is ("an rt-app file", "FILE.json"); take reads it
	 * into the block as the task's or (load) the load's: 0 with *ident
	 * (what the settings record of it), or -errno with one line in err.
	 */
	const char *arg_what, *arg_name;
	const char *arg_key[2];		/* ARG's name in the settings */
	int (*take)(void *opts, const char *arg, bool load,
		    const char **ident, char *err, size_t n);
	/*
	 * Optional: every CPU the block names is in allowed (-u: why says
	 * so): 0, or -EINVAL with one line in err.
	 */
	int (*check_cpus)(const void *opts, const cpu_set_t *allowed,
			  const char *why, char *err, size_t n);
	/*
	 * Optional: the simulator as a background load too (-w), when
	 * as_load.name is set: its name, summary and flags (LOAD_NAMED,
	 * LOAD_CUSTOM), and .sim, the simulator itself (a task never runs
	 * under its own load). Its .run stays NULL: loads/simulator.c runs
	 * the simulator; loads/loads.h's list LOADS() places it.
	 */
	struct load_desc as_load;
};

#endif
