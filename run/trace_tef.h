/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/trace_tef.h - a cell's trace text as Trace Event Format events (the
 * JSON that Perfetto's UI and chrome://tracing open): a track per CPU
 * with the tasks that ran as slices, hard interrupts, softirqs and
 * hrtimers as slices inside them, wakeups as flow events, migrations and
 * --breaktrace's marker as instants; only inside the windows given (the
 * explained frames'), and at most a number of events. Pure text in, text
 * out: outputs/tef.c, the --trace-out file, calls it after each cell.
 */
#ifndef INTERBENCH_TRACE_TEF_H
#define INTERBENCH_TRACE_TEF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/base.h"
#include "lib/text.h"

struct why_frame;
struct why_stamp;

/* The scheduling drawn around a frame: from before its release to after
 * it ran (CLOCK_MONOTONIC ns). */
#define TEF_BEFORE_NS	(2 * NSEC_PER_MSEC)
#define TEF_AFTER_NS	(1 * NSEC_PER_MSEC)
/* A cell's tracks' tids: pid * TEF_TIDS + 1..99 its threads' frames,
 * + TEF_CPU_TID + N CPU N (unique in the file, as viewers want). */
#define TEF_TIDS	10000
#define TEF_CPU_TID	100
#define TEF_MAX_CPUS	1024

/* A stretch of time drawn: [from, to), ns. */
struct tef_span {
	uint64_t from, to;
};

struct tef_cell {
	int pid;			/* the cell's process in the file */
	const struct tef_span *win;	/* sorted, disjoint */
	int nwin;
	unsigned long max_events;	/* at most this many written */
	uint64_t *flow_id;		/* the file's next flow id */
	/* our threads' stamps, in time order (trace_tef_stamps) */
	const struct why_stamp *stamp;
	int nstamp;
};

/*
 * The frames' stamps (why_frame's), in time order, into out (room for
 * n * WHY_STAMPS): their count. Where the trace did not record a switch
 * to one of our threads, its CPU's track runs it from its stamp.
 */
int trace_tef_stamps(const struct why_frame *fr, int n,
		     struct why_stamp *out);

/*
 * The frames' windows (TEF_BEFORE_NS before each release, TEF_AFTER_NS
 * after each run), merged where they overlap, in time order, into out
 * (room for n): their count.
 */
int trace_tef_windows(const struct why_frame *fr, int n,
		      struct tef_span *out);
/*
 * The trace text in f drawn as c says, each event appended to out as
 * ",\n{...}": how many were written; *cut: some were left out (the cap).
 */
long trace_tef_sched(FILE *f, const struct tef_cell *c, struct sbuf *out,
		     bool *cut);
/* ,"key":N.NNN: ns as microseconds, exact. */
void trace_tef_us(struct sbuf *out, const char *key, uint64_t ns);

#endif
