/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/onlate.h - --on-late's actions: after each traced cell, before the
 * next empties the trace, every frame the cell kept over a rule's bound
 * (worst_frames' late list) is acted on in the order it came: its window
 * cut out of the trace into a file, a shell command, a signal, the run
 * stopped; at most --on-late-max frames a run. A failing action is said
 * and the run goes on.
 */
#ifndef INTERBENCH_ONLATE_H
#define INTERBENCH_ONLATE_H

#include <stdbool.h>
#include <stdint.h>
#include "core/figures.h"
#include "core/raw.h"
#include "plan/plan.h"
#include "run/shell.h"
#include "run/trace.h"

/* save's window: this long before the frame's release and after its run */
#define ONLATE_BEFORE_NS	(20 * NSEC_PER_MSEC)
#define ONLATE_AFTER_NS		(5 * NSEC_PER_MSEC)
/* shell='s command gets this long, then its group is ended */
#define ONLATE_SHELL_NS		(5 * NSEC_PER_SEC)

/* One action taken on one frame: an entry in the JSON's trace.on_late. */
struct onlate_entry {
	const char *bench, *load;
	int repeat, attempt;
	int frame;			/* the cell's late frames, from 1 */
	uint64_t latency_ns, bound_ns, release_ns;
	int cpu, tid;
	unsigned action;		/* LATE_SAVE ... (plan/late.h) */
	bool ok;
	char status[128];		/* "ok", or what went wrong */
	char file[128];			/* save's file, or "" */
};

/* The run's actions so far. */
struct onlate_log {
	struct shell_env env;		/* as interbench was started */
	struct onlate_entry *e;
	int n, cap;
	int frames;			/* acted on (<= --on-late-max) */
	int skipped;			/* late, past the max: not acted */
	bool stop;			/* a stop action: end the run (5) */
};

/*
 * After a traced cell's attempt (from 1) measured res, its trace stopped
 * but not yet emptied: act on the late frames sr kept (their window cut
 * from t's trace), one line each through out. Never fails the cell.
 */
void onlate_cell(struct onlate_log *l, const struct plan *p,
		 const struct tracer *t, const struct sim_result *sr,
		 const struct result *res, int attempt, out_fn out, void *ctx);
void onlate_free(struct onlate_log *l);

#endif
