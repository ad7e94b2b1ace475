/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outputs/output.h - what a person reads: the classic tables (with -v,
 * more columns), the logfile that copies them, progress and the plan.
 *
 * outputs/ is what a run writes as it goes, every figure from the table
 * of figures: the tables and logfile (output.h), the JSON and CSV
 * (results.h), the JUnit file (junit.h), the KCIDB report (kcidb.h), KTAP
 * (ktap.h), and the contract each result file keeps as a sink of the run
 * (sink.h).
 */
#ifndef INTERBENCH_OUTPUT_H
#define INTERBENCH_OUTPUT_H

#include <stdio.h>
#include "plan/plan.h"
#include "core/figures.h"
#include "lib/cpuwork.h"
#include "core/sim.h"
#include "core/load.h"

struct out_console {
	const struct plan *plan;
	FILE *log;			/* the logfile, or NULL (-c) */
};

/* Print to stdout and, unless -c, to the logfile. */
void out_printf(struct out_console *con, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* out_printf() for the simulators' detail hooks (ctx is the console). */
void out_cb(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The run's header: the kernel, the command, the calibration, how tasks
 * and loads are scheduled. b: ab's side B's plan (con's is A's), whose
 * scheduling is said beside A's where it differs; else NULL.
 */
void out_log_header(struct out_console *con, const struct calibration *cal,
		    const struct plan *b);
void out_table_head(struct out_console *con, const struct sim_desc *s);
/* The last result's row as it comes (one repeat), and its detail. */
void out_result(struct out_console *con, const struct result *res, int n);
/* Every row: medians over the repeats. */
void out_tables(struct out_console *con, const struct result *res, int n);
/*
 * The run's summary (marks.c): how many cells the host's steal, other
 * tasks, the cgroup's quota or missing real-time rights confound, each
 * with its bound.
 */
void out_steal(struct out_console *con, const struct result *res, int n);
/*
 * --trace: a result's worst frames explained, a line each under its row
 * (on the console with -v, in the log always; --breaktrace's frame on
 * the console always); what the trace lost or could not say, on the
 * console always.
 */
void out_why(struct out_console *con, const struct result *r);
/*
 * --remeasure-if: a result measured more than once, a line under its
 * row: each attempt's figure, steal and mean latency, and the one kept.
 */
void out_remeasured(struct out_console *con, const struct result *r);
/* That line's text, for JUnit too. */
struct gate;
void out_remeasured_line(char *buf, size_t n, const struct gate *g,
			 const struct result *r);
/* One explained frame as a line (trace.h's struct why_frame). */
struct why_frame;
void out_why_line(char *buf, size_t n, const struct why_frame *f);
/* Every --fail-if gate on the rows, each broken one said: how many broke. */
int out_check_gates(struct out_console *con, const struct result *res, int n);
/*
 * A broken gate as one line, the same on the console and in JUnit:
 * "--fail-if 'p99>20ms': Audio under None has 30.08 ms", with "(a p99
 * latency of 20 samples is their maximum: it needs 100)" when so; @K
 * gates say in how many of the repeats (nbroke) it broke.
 */
struct row;
/* A row's marks, each "  [...]" as the table prints it ("" none). */
void out_row_marks(char *buf, size_t n, const struct plan *p,
		   const struct row *w);
void out_gate_text(char *buf, size_t n, const struct plan *p,
		   const struct gate *gt, const struct row *w, int nbroke);

/* outputs/progress.c: the run's length. */

/*
 * With 3 or more repeats: each cell's run-to-run variation and how many
 * repeats compare needs to find a 10 % change in it.
 */
void out_variation(struct out_console *con, const struct result *res, int n);
/* -n auto at its most: the cells not settled, and what would settle them. */
void out_unsettled(struct out_console *con, const struct result *res, int n);

/* On a terminal: "[3/50] Audio under Burn, about 600 s left". */
void out_progress(const struct plan *p, int done, const struct sim_desc *s,
		  const struct load_desc *l);
/* --dry-run: the cells it would run. */
void out_plan(const struct plan *p);

#endif
