/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.h - --trace: who ran instead. The kernel's scheduler, interrupt
 * and timer events are recorded in a trace instance of our own while
 * each cell runs; afterwards the worst frames (sim_result's worst) are
 * explained from them: the timer's part, the tasks that ran on the CPU
 * where the frame waited, hard and soft interrupts, migrations.
 */
#ifndef INTERBENCH_TRACE_H
#define INTERBENCH_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct worst_frames;

/* A task (or an interrupt, by name) and the time it took in a window. */
struct why_who {
	char name[24];
	int pid;			/* -1 for an interrupt */
	uint64_t ns;
};

#define WHY_RAN		8
#define WHY_IRQS	4

/* One frame explained. */
struct why_frame {
	uint64_t latency_ns;		/* release -> running */
	uint64_t timer_ns;		/* release -> timing thread awake */
	uint64_t wait_ns;		/* the rest */
	int cpu, tid;
	int nran, nirq, nsoft;
	struct why_who ran[WHY_RAN];	/* largest first */
	struct why_who irq[WHY_IRQS], soft[WHY_IRQS];
	uint64_t irq_ns, softirq_ns;
	int migrations;
	bool lost;			/* the trace lost events in its window */
};

struct tracer {
	char root[64];			/* where tracefs is mounted */
	char inst[160];			/* our instance's directory */
	bool mounted;			/* we mounted tracefs: unmount it */
	bool made;			/* we made the instance: remove it */
	int on_fd, marker_fd;		/* tracing_on, trace_marker: -1 */
	char missing[256];		/* events this kernel lacks */
};

/*
 * Mount tracefs if needed, make our instance (interbench-PID), clock
 * mono, events on, a buffer for cells of duration_ns: 0, or -errno with
 * why in err. Whatever happens later, it is undone at exit.
 */
int trace_open(struct tracer *t, uint64_t duration_ns, char *err, size_t n);
/* Before a cell's benchmark starts: an empty buffer, recording. */
int trace_cell_start(struct tracer *t);
/* After it ended: recording stops. */
void trace_cell_stop(struct tracer *t);
/* Explain w's frames, worst first, into a new array: their count. */
int trace_explain(struct tracer *t, const struct worst_frames *w,
		  struct why_frame **out);
/* Copy the instance's trace into a new file at path: 0 or -errno. */
int trace_save(struct tracer *t, const char *path);
/* Remove the instance and unmount what we mounted (idempotent). */
void trace_close(struct tracer *t);

#endif
