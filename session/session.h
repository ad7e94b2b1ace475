/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session/session.h - a run's life, from its plan to its exit status:
 * struct session, and the steps a command takes it through. A run
 * (cmd/run.c) is one session; ab (cmd/ab.c) is two, their cells
 * interleaved. Nothing here exits: each step returns 0 or the status,
 * having said why, and the command exits with it.
 *
 * session/ is the top of the tower that measures, above outputs/, whose
 * sinks it drives (--html's drawer, report/'s, comes from cmd/): its
 * files are setup.c (the checks and what is made before the first
 * cell), outputs.c (every output, as results come in and at the end)
 * and session.c (the calibration, the cells, the end).
 */
#ifndef INTERBENCH_SESSION_H
#define INTERBENCH_SESSION_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include "plan/plan.h"
#include "lib/cpuwork.h"
#include "lib/lock.h"
#include "lib/system.h"
#include "outputs/output.h"
#include "outputs/results.h"
#include "outputs/sink.h"
#include "run/machine.h"
#include "run/placement.h"
#include "run/cell.h"
#include "run/onlate.h"
#include "run/trace.h"

/*
 * outputs.c's table of sinks: --json, --junit, --kcidb, --ktap, --html,
 * --csv, --trace-out
 */
#define RUN_SINKS 7

/* Everything a run has: its plan, its results so far, its outputs. */
struct session {
	struct plan plan;
	struct placement place;		/* --load-group */
	struct calibration cal;
	struct sysinfo_ib sys;
	struct results_info info;
	struct out_console con;
	struct cell_runner runner;
	struct tracer tracer;		/* --trace */
	struct onlate_log late;		/* --on-late */
	struct output_sink sink[RUN_SINKS];	/* in the table's order */
	/* the run's cgroup, read once (session_cgroup); ab's B has A's */
	const struct cgroup_self *cg;
	struct cgroup_self cg_own;
	bool cg_warned;			/* the cgroup's counters unreadable */
	char end_words[32];		/* why it ended early, for
					   info.interrupted */
	struct run_lock lock;
	char log_name[PATH_MAX];
	const char *log_how;	/* created, appended to: the last line */
	struct result *res;		/* every cell of every repeat, in order */
	int nres, nbad;
	/* ab's side A: B's session, whose own settings its header says */
	const struct session *ab_b;
	out_page_fn page;		/* --html's drawer, from cmd/ */
};

/* "interbench: " and the message on stderr; returns status. */
int session_fail(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * setup.c, in the order a run takes them: each 0, or the status that
 * stops the run (2 or 3), having said why in one line. Nothing is made
 * before the lock.
 */
int session_bind_cpu(int cpu);
/*
 * The run's cgroup (lib/cgroup.h), read at the first step that asks and
 * kept for every other: the checks, the loads' place, the machine's
 * state, each cell's counters, the loads' memory.
 */
const struct cgroup_self *session_cgroup(struct session *s);
int session_check_rights(struct session *s);
int session_check_files(struct session *s);
int session_lock(struct session *s);
int session_hold_dma_latency(const struct plan *p);
int session_open_trace(struct session *s, bool trace, bool timer);
int session_open_files(struct session *s);
void session_say_trace(struct out_console *con, const char *lead,
		       const struct tracer *t, bool timer);

/*
 * outputs.c: every sink asked for, made at the checks' end (2 if one
 * cannot be), begun once the run has started, told of each result,
 * closed at the end (3 if one is not whole). A failure is said once a
 * sink.
 */
/*
 * An output on standard output ("-", as --ktap -): stdout kept for it and
 * everything the run prints sent to stderr from here on (safefile.h), so
 * that the document is never interleaved with the tables. First, before
 * anything is printed: 0 or the exit status, said.
 */
int session_stdout_aside(struct session *s);
/* The table's outputs, as lib/system.h checks them: RUN_SINKS of them. */
void session_outputs(const struct plan *p, struct sys_output *out);
/*
 * Refuse what sys_outputs_check() found, in a run's words: one line,
 * exit 2. input_is: the input at fault, as "X's result file".
 */
int session_output_fault(const struct sys_output *out,
			 const struct sys_output_fault *f,
			 const char *input_is);
int session_open_outputs(struct session *s);
void session_begin_outputs(struct session *s);
int session_close_outputs(struct session *s);
void session_result_done(struct session *s);
/*
 * At every end: where the logfile is, and the Read load's file of ours
 * removed (kept with --keep-files, and said).
 */
void session_say_files(const struct session *s);
/* Each file s wrote whole (one that failed was said then). */
void session_say_written(const struct session *s);

/*
 * session.c: the loads' place (tag: ab's side, or 0), the start
 * (calibration, the header; ab's side B starts with A as its twin),
 * every cell, the end. Each 0 or a status; session_run_all's is that of
 * a run a signal (128 + it) or --breaktrace (5) ended, its files whole.
 */
int session_place_loads(struct session *s, char tag);
int session_start(struct session *s, const struct session *twin);
int session_run_all(struct session *s);

/* Why a run ends before its last cell, if it does. */
enum session_end {
	SESSION_ON,			/* it does not: the next cell */
	SESSION_SIGNAL,			/* a signal asked: 128 + it */
	SESSION_BREAKTRACE,		/* --breaktrace's frame: 5 */
	SESSION_ON_LATE,		/* --on-late's stop: 5 */
	SESSION_SIDE,			/* ab: a side's command failed: 6 */
};

/*
 * One cell step, a run's and each of ab's sides': cell i of s's plan
 * measured (again, with --remeasure-if), its late frames acted on
 * (--on-late), kept and handed to every output; the progress line
 * counts it as cell at of plan shown's. SESSION_ON, or why the run
 * ends now (the cell kept when it was measured).
 */
enum session_end session_cell_step(struct session *s, int i,
				   const struct plan *shown, int at);
/*
 * The one place an early end is named: the words the files and the
 * console give it ("signal 2", "breaktrace", "on-late"; into words) and
 * the exit status it returns.
 */
int session_end_why(enum session_end why, char *words, size_t n);
/*
 * End s early for why: its cells stopped, the trace saved (--breaktrace),
 * said, its files whole: the status (session_end_why).
 */
int session_end(struct session *s, enum session_end why);
/* The tables, the marks, the gates, the files whole: the exit status. */
int session_finish(struct session *s);

#endif
