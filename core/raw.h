/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/raw.h - what one benchmark process measures, raw: struct sim_result
 * in the shared mapping, with the frames kept for --trace and the worst
 * latency by window. The table of figures (figures.h) reads it.
 */
#ifndef INTERBENCH_RAW_H
#define INTERBENCH_RAW_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/base.h"
#include "lib/interfere.h"
#include "stats.h"

/*
 * A frame is one unit of a simulated task's work that has a release
 * time: an audio period, a video frame, one step of X's ramp, a Gaming
 * frame, a Server request, a Cyclic wakeup.
 */

/*
 * A frame among the latest of a cell, kept for --trace to explain: its
 * release, when the timing thread woke for it (and on which CPU), when
 * it started running, and the simulated thread's tid and CPU then
 * (CLOCK_MONOTONIC ns); busy_from to busy_to: the thread ran its
 * previous frame after this one's release (from the later of the release
 * and that frame's start, to its end), 0 to 0 if it had ended before
 * (trace_why.c's stamps).
 */
struct worst_frame {
	uint64_t release, timer, start, busy_from, busy_to;
	int32_t tid, cpu, timer_cpu;
};

#define WORST_MAX	16	/* --trace-frames at most */
#define LATE_KEEP	64	/* --on-late: late frames kept a cell */

struct worst_frames {
	uint32_t keep;			/* how many to keep; 0: none */
	uint32_t n;
	int32_t timing_tid;
	struct worst_frame f[WORST_MAX];	/* unordered */
	/* --breaktrace: the first frame later than break_ns stops it */
	uint64_t break_ns;
	int on_fd, marker_fd;		/* the trace's tracing_on, marker */
	uint32_t broke;			/* brk is that frame */
	struct worst_frame brk;
	uint64_t deadline_ns;		/* a frame's, after its release; 0 */
	/*
	 * --on-late: every frame later than late_ns (or, with late_period,
	 * than the task's period, sim_result's period_ns), the first
	 * LATE_KEEP in the order they came; late_over counts the rest.
	 */
	uint64_t late_ns;		/* UINT64_MAX: no fixed bound */
	uint32_t late_on, late_period;
	uint32_t nlate, late_over;
	struct worst_frame late[LATE_KEEP];
};

/*
 * Room in every sim_result for a simulator's own raw figures: the chain
 * engine's nine histograms (simulators/chain.h) at 58 KiB each.
 */
#define SIM_OWN_BYTES	(768 * 1024)

/*
 * Latency over time: the worst latency in each of WIN_SLOTS windows of a
 * cell, by release time. Fixed and small so the sampling path only
 * compares and stores (no lock, no allocation); a cell of any length is
 * cut into at most WIN_SLOTS windows (win_init() sizes them).
 */
#define WIN_SLOTS	200
#define WIN_EMPTY	UINT64_MAX	/* a window without a sample */

struct win_worst {
	uint64_t start_ns;		/* CLOCK_MONOTONIC: window 0 starts */
	uint64_t width_ns;		/* 0: not kept (run as a load) */
	uint64_t worst[WIN_SLOTS];	/* ns, or WIN_EMPTY */
};

/*
 * Windows for a cell of duration ns from start: whole milliseconds wide,
 * so that the JSON's window_ms is exact. duration 0 keeps nothing.
 */
static inline void win_init(struct win_worst *w, uint64_t start,
			    uint64_t duration)
{
	uint64_t ms = (duration + WIN_SLOTS * NSEC_PER_MSEC - 1) /
		      (WIN_SLOTS * NSEC_PER_MSEC);
	int i;

	w->start_ns = start;
	w->width_ns = duration ? (ms ? ms : 1) * NSEC_PER_MSEC : 0;
	for (i = 0; i < WIN_SLOTS; i++)
		w->worst[i] = WIN_EMPTY;
}

/* A sample of latency lat of a frame released at at. One thread only. */
static inline void win_add(struct win_worst *w, uint64_t at, uint64_t lat)
{
	uint64_t i;

	if (!w->width_ns || at < w->start_ns)
		return;
	i = (at - w->start_ns) / w->width_ns;
	if (i < WIN_SLOTS && (w->worst[i] == WIN_EMPTY || lat > w->worst[i]))
		w->worst[i] = lat;
}

/* What one benchmark process measured, raw (lives in shared memory). */
struct sim_result {
	int status;			/* 0 ok, or -errno */
	char why[128];			/* what went wrong, if status */
	char note[96];			/* how it ran, e.g. "SCHED_FIFO 95" */
	uint64_t frames;		/* frames due */
	uint64_t frames_met;		/* finished by their deadline */
	uint64_t frames_dropped;	/* never run: too late to be of use */
	double cpu_desired_ns;		/* CPU work asked for */
	double cpu_got_ns;		/* CPU work done */
	bool has_deadlines;
	/*
	 * How often it is released (the shortest, if that varies), or 0:
	 * compare's "unchanged" is told in a share of it.
	 */
	uint64_t period_ns;
	/* The simulated thread's class, as the kernel reported it. */
	bool sched_seen;
	int sched_policy;		/* enum sched_pol */
	uint64_t sched_slice_ns;	/* fair classes: its slice */
	uint64_t sched_runtime_ns, sched_period_ns;	/* deadline */
	struct lat_stats latency;	/* release -> simulated thread running */
	struct lat_stats timer;		/* release -> timing thread awake */
	struct lat_stats wakeup;	/* timing thread post -> thread running */
	struct lat_stats per_sec;	/* frames done in each whole second */
	struct task_acc task;		/* its threads' counters, at their end */
	struct interference intf;	/* made by the parent (run.c) */
	struct worst_frames worst;	/* for --trace */
	/* From one frame's completion to the next: what a display shows. */
	struct lat_stats frame_time;
	uint64_t stutters;		/* frame times over two periods */
	struct win_worst windows;	/* worst latency by window */
	/* The simulator's own raw data, read by its descriptor's keep(). */
	_Alignas(16) unsigned char own[SIM_OWN_BYTES];
};

#endif
