/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/chain.h - the chain engine (chain.c): a frame is a graph of
 * stages, each a thread (or several side by side) with its own work,
 * woken by the stages it waits for; the first stages are woken by the
 * real-time timing thread at the frame's release. A sound server's cycle
 * (client -> filter -> device), a compositor's frame (input -> client ->
 * compositor -> scanout) and a game's fork-join frame (main -> render
 * and workers -> present) are descriptors on it.
 *
 * Measured: every hop's wakeup (post -> running), the frame's end-to-end
 * time (release -> last stage done) and its lateness (that time less the
 * longest path of work through the graph), frames that miss their
 * deadline counted as the task's kind of miss (xrun, repeated frame,
 * late frame). Frame rules as the periodic engine's (timing.c): one
 * frame at a time, a late one catches up, one past its deadline while a
 * newer waits is dropped (and missed).
 */
#ifndef INTERBENCH_CHAIN_H
#define INTERBENCH_CHAIN_H

#include <stdbool.h>
#include <stdint.h>
#include "core/sim.h"
#include "core/figures.h"
#include "stats.h"

#define CHAIN_STAGES	8	/* stages of a graph */
#define CHAIN_COPIES	32	/* threads of one stage, side by side */

/* What a frame that misses its deadline is, by kind of task. */
enum chain_miss { CHAIN_XRUN, CHAIN_REPEAT, CHAIN_LATE };

struct chain_stage {
	const char *name;	/* "client", "render", ... */
	uint64_t work_ns;	/* CPU work of each copy, a frame */
	uint32_t after;		/* bit i: waits for stage i; 0: the clock */
	int copies;		/* threads doing it side by side, >= 1 */
};

struct chain_spec {
	uint64_t period_ns;
	uint64_t deadline_ns;	/* after release; >= period_ns */
	enum chain_miss miss;
	bool rt;		/* every stage SCHED_FIFO at rt_prio */
	int rt_prio;
	int nstages;
	struct chain_stage stage[CHAIN_STAGES];
};

/* What a chain keeps in its sim_result's own[] (chain_figures read it). */
struct chain_own {
	int32_t nstages;
	int32_t miss;			/* enum chain_miss */
	uint64_t misses;		/* frames dropped or done late */
	struct lat_stats total;		/* release -> last stage done */
	struct lat_stats hop[CHAIN_STAGES];	/* post -> running */
};

/* Run the chain s (checked) in c's process: 0 or -errno (c->res says). */
int chain_run(struct sim_ctx *c, const struct chain_spec *s);
/* Is s a graph the engine can run? 0, or -EINVAL with err set. */
int chain_check(const struct chain_spec *s, char *err, size_t n);
/* The longest path of work through s: a frame's time with no waits. */
uint64_t chain_ideal_ns(const struct chain_spec *s);
/* "client > filter > device", "main > render+worker x3 > present". */
void chain_shape(const struct chain_spec *s, char *buf, size_t n);

/*
 * A chain simulator's run and detail: its options (c->opts, or its
 * defaults when it has none) made into its chain by spec().
 */
typedef void (*chain_spec_fn)(const void *opts, struct chain_spec *s);
int chain_sim_run(struct sim_ctx *c, chain_spec_fn spec);
void chain_sim_detail(const struct result *r, const void *opts,
		      chain_spec_fn spec, out_fn out, void *ctx);

/* Every chain simulator's own figures (a descriptor's figures[]). */
#define CHAIN_NFIGURES	(9 + 3 * CHAIN_STAGES)
extern const struct figure chain_figures[CHAIN_NFIGURES];
/* Detail lines under a result's row: the chain, the misses, each stage. */
void chain_detail(const struct result *r, const struct chain_spec *s,
		  out_fn out, void *ctx);

#endif
