/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/run.h - what a run's files share with each other and with `ab`
 * (cmd/ab.c), whose two sides are runs: struct run, and the steps of a
 * run's life. Private to cmd/: run.c (the sequence, the cells and the
 * end), run_setup.c (the checks and what is made before the first cell)
 * and run_outputs.c (every output, as results come in and at the end).
 */
#ifndef INTERBENCH_CMD_RUN_H
#define INTERBENCH_CMD_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include "plan/plan.h"
#include "lib/cpuwork.h"
#include "lib/lock.h"
#include "outputs/output.h"
#include "outputs/results.h"
#include "outputs/sink.h"
#include "run/machine.h"
#include "run/placement.h"
#include "run/cell.h"
#include "run/trace.h"

/* run_outputs.c's table of sinks: --json, --junit, --kcidb, --html, --csv */
#define RUN_SINKS 5

/* Everything a run has: its plan, its results so far, its outputs. */
struct run {
	struct plan plan;
	struct placement place;		/* --load-group */
	struct calibration cal;
	struct sysinfo_ib sys;
	struct results_info info;
	struct out_console con;
	struct cell_runner runner;
	struct tracer tracer;		/* --trace */
	struct output_sink sink[RUN_SINKS];	/* in the table's order */
	bool cg_warned;			/* the cgroup's counters unreadable */
	struct run_lock lock;
	char log_name[PATH_MAX];
	struct result *res;		/* every cell of every repeat, in order */
	int nres, nbad;
	const struct run *ab_b;		/* ab's side A: B's run, whose own
					 * settings its header says too */
};

/* "interbench: " and the message on stderr, and exit(status). */
void die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* run_setup.c: each says what stops the run, and dies (exit 2 or 3). */
void check_rights(struct plan *p);
void check_files(struct run *r);
void open_files(struct run *r);
void take_lock(struct run *r);
void open_trace(struct run *r, bool trace, bool timer);
void say_trace(struct out_console *con, const char *lead,
	       const struct tracer *t, bool timer);
void hold_dma_latency(const struct plan *p);
void bind_one_cpu(int cpu);

/*
 * run_outputs.c: every sink asked for, made at the checks' end (dies,
 * exit 2, if one cannot be), begun once the run has started, told of
 * each result, closed at the end (3 if one is not whole). A failure is
 * said once a sink.
 */
void open_outputs(struct run *r);
void begin_outputs(struct run *r);
int close_outputs(struct run *r);
void result_done(struct run *r);
/*
 * At every end: where the logfile is, and the Read load's file of ours
 * removed (kept with --keep-files, and said).
 */
void say_files(const struct run *r);

/* run.c: ab's side B starts with A as its twin. */
void place_loads(struct run *r, char tag);
void start(struct run *r, const struct run *twin);

/* session.c: the cells, the end, and a signal's end. */
void run_all(struct run *r);
int finish(struct run *r);
void interrupted(struct run *r) __attribute__((noreturn));

#endif
