/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/cell.h - one cell's life: its load's process, its benchmark's process,
 * supervision, and clean-up, whatever happens.
 *
 * Each cell runs the load in one process and the benchmark in another,
 * each in its own process group, while the parent waits at the highest
 * real-time priority. The children report through a shared mapping.
 *
 * run/ is one run's life on the machine: each cell's processes and their
 * supervision (cell.h), the machine's description (machine.h) and --trace
 * (trace.h). It uses the plan (plan/plan.h) and the plug-ins' tables.
 */
#ifndef INTERBENCH_RUN_H
#define INTERBENCH_RUN_H

#include <signal.h>
#include <sys/types.h>
#include "plan/plan.h"
#include "core/figures.h"
#include "core/raw.h"
#include "core/load.h"
#include "run/placement.h"

/* What the children hand back (a shared anonymous mapping). */
struct cell_shared {
	struct sim_result res;
	struct load_work work;
};

struct cell_runner {
	const struct plan *plan;
	struct cell_shared *sh;
	pid_t kids[2];			/* process groups alive now */
	bool read_file_dirty;		/* made this run and not complete */
	struct tracer *trace;		/* --trace, or NULL */
	const struct placement *place;	/* --load-group: where loads go */
	bool broke;			/* --breaktrace: the last cell broke */
	const struct cgroup_self *cg;	/* the run's cgroup, or NULL */
};

/* The shared mapping: 0 or -errno. */
int cell_runner_init(struct cell_runner *rn, const struct plan *p);
/* SIGINT, SIGTERM, SIGHUP, SIGPIPE ask us to stop; SIGCHLD wakes us. */
void cell_signals(void);
/* The signal that asked us to stop, or 0. */
int cell_stopped(void);
/*
 * Run one cell into r (r->sim, r->load and r->repeat set): 0 with r's
 * status saying how it went, or -EINTR when a signal asked us to stop
 * (r is not measured then).
 */
int cell_run(struct cell_runner *rn, struct result *r);
/* After a signal: end every process and the loads' files. */
void cell_abort(struct cell_runner *rn);
/* At the end: remove what the loads kept across cells. */
void cell_finish(struct cell_runner *rn);

#endif
