/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/trace.h - --trace: who ran instead. The kernel's scheduler, interrupt
 * and timer events are recorded in a trace instance of our own while
 * each cell runs; afterwards the worst frames (sim_result's worst) are
 * explained from them: the timer's part, the tasks that ran on the CPU
 * where the frame waited, hard and soft interrupts, migrations.
 */
#ifndef INTERBENCH_TRACE_H
#define INTERBENCH_TRACE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>
#include "core/raw.h"
#include "core/schema.h"

struct worst_frames;

/* A task (or an interrupt, by name) and the time it took in a window. */
struct why_who {
	char name[24];
	int pid;			/* -1 for an interrupt */
	uint64_t ns;
};

#define WHY_RAN		8
#define WHY_IRQS	4
#define WHY_LIMIT	176		/* struct why_env's limit */

/*
 * A late part of a frame during which its CPU sat idle was held up by
 * no task. If the run's cgroup had used up its CPU quota (cpu.max,
 * cfs_quota_us), its task was throttled: runnable, but not run until the
 * bandwidth timer refilled the quota. Else, in a virtual machine, it is
 * the host: it ran something else on the vCPU's CPU (steal), or took
 * that long to run the halted vCPU again when its timer or wakeup came.
 * On bare metal: a deep idle state's exit, or a host we cannot see.
 */
enum why_idle {
	WHY_IDLE_NONE,			/* not late, or not mostly idle */
	WHY_IDLE_HOST,			/* a VM: the host's */
	WHY_IDLE_EXIT_OR_HOST,		/* idle-state exit or host steal */
	WHY_IDLE_THROTTLED,		/* the cgroup's quota used up */
};

/* One part of a frame's latency: a window of time on one CPU. */
struct why_part {
	uint64_t ns;
	int cpu;			/* -1: not known */
	int nran, nirq, nsoft;
	struct why_who ran[WHY_RAN];	/* tasks, largest first */
	struct why_who irq[WHY_IRQS];	/* hard interrupts and hrtimers */
	struct why_who soft[WHY_IRQS];	/* softirqs by name */
	uint64_t irq_ns, softirq_ns;
	uint64_t others_ns;		/* every other task, idle left out:
					   ran[] may hold only the largest */
	uint64_t own_ns;		/* the waiting thread itself ran: the
					   previous frame's work, overrun */
	uint64_t idle_ns;		/* the CPU idle, no interrupt: not a
					   task's doing (see why_idle) */
	uint64_t fired_ns;		/* timer part: from the release to its
					   hrtimer firing; 0: not seen */
	enum why_idle idle_cause;	/* what the idle time was, if late */
	bool throttle_seen;		/* throttled: a bandwidth timer fired
					   in the part; false: inferred from
					   the cgroup's counters alone */
	int events;			/* our trace's own events on its CPU
					   in it: what looking cost it */
};

/*
 * The picture of a frame (trace_pic.c): what each CPU ran, slice by
 * slice, from a little before its release to a little after it ran.
 * The kinds are core/schema.h's SLICE_KINDS.
 */
#define WHY_SLICES	64		/* kept a frame: the longest */
#define WHY_LANES	8		/* CPUs drawn: the frame's first */

struct why_slice {
	char name[24];			/* comm, an interrupt's name, "idle" */
	int32_t pid;			/* -1: an interrupt; 0: idle; for
					   SK_MERGED: how many slices */
	int16_t cpu;
	uint8_t kind;			/* enum slice_kind */
	uint64_t from, to;		/* CLOCK_MONOTONIC ns */
};

/*
 * One of our threads stamped that it ran on cpu at ns: where --trace did
 * not record the switch to it (trace_switch_filter), the explanation and
 * --trace-out start it there (trace_why.c).
 */
struct why_stamp {
	uint64_t ns;
	int cpu, pid;
	char comm[16];
};

#define WHY_STAMPS	4		/* a frame's: see frame_stamps() */

/*
 * One frame explained: the timer part (release -> the timing thread
 * awake, on the timing thread's CPU) and the wait part (-> the simulated
 * thread running, on its CPU). In a simulator without a timing thread
 * (Cyclic) the timer part is all of it.
 */
struct why_frame {
	uint64_t release_ns;		/* CLOCK_MONOTONIC */
	uint64_t latency_ns;		/* release -> running */
	struct why_part timer, wait;
	int tid;
	int migrations;			/* of the simulated thread, in it */
	bool lost;			/* the trace does not cover it all */
	bool broke;			/* --breaktrace stopped at this one */
	uint64_t host_ns;		/* idle time of its late parts that
					   was the host's (a VM only) */
	uint64_t throttled_ns;		/* ... that was the cgroup's
					   throttling (not in host_ns) */
	char throttled_by[WHY_LIMIT];	/* why_env's limit, if throttled */
	/* The picture: from pic_from to pic_to, every lane's slices */
	uint64_t deadline_ns;		/* after the release; 0: none */
	uint64_t pic_from, pic_to;	/* CLOCK_MONOTONIC ns */
	int nslices;
	struct why_slice slice[WHY_SLICES];	/* by CPU, then time */
	int nstamps;			/* with a filtered trace only */
	struct why_stamp stamp[WHY_STAMPS];
};

/*
 * What the explanation knows besides the trace: the machine, where the
 * trace stopped, and whether the run's cgroup ran out of CPU quota.
 */
struct why_env {
	int vm;				/* a virtual machine: 1, 0, -1 */
	uint64_t stopped_ns;		/* --breaktrace stopped here; 0 */
	bool throttled;			/* the run's cgroup was throttled in
					   this cell (cpu.stat's nr_throttled
					   rose) */
	char limit[WHY_LIMIT];		/* what throttled it, e.g. "cgroup
					   /ci-runner: cpu.max 40000/100000";
					   "": unknown */
	bool filtered;			/* trace_switch_filter was set */
};

struct tracer {
	char root[64];			/* where tracefs is mounted */
	char inst[160];			/* our instance's directory */
	bool mounted;			/* we mounted tracefs: unmount it */
	bool made;			/* we made the instance: remove it */
	int on_fd, marker_fd;		/* tracing_on, trace_marker: -1 */
	pid_t owner;			/* only this process undoes it */
	bool timer;			/* --trace-timer: its events may be
					   asked for (trace_cell_start) */
	char missing[256];		/* events this kernel lacks */
	char cpus[128];			/* the CPUs it records on: the run's */
	bool switch_filtered;		/* trace_switch_filter is set */
	uint64_t lost_events;		/* overrun in the last cell */
	uint64_t stopped_ns;		/* --breaktrace: when it stopped */
	int vm;				/* a virtual machine: 1, 0, -1 unknown */
	/*
	 * The cell's runner sets these after each cell, before
	 * trace_explain (trace_cell_start clears them): the run's cgroup
	 * was throttled in the cell, and by what (why_env's throttled and
	 * limit).
	 */
	bool cg_throttled;
	char cg_limit[WHY_LIMIT];
	char state[PATH_MAX + 8];	/* who owns the instance: trace_reap */
};

/* The sched_switch events not recorded, as a tracefs filter (trace.c). */
extern const char trace_switch_filter[];

/* Our instance's name under tracefs's instances/. */
#define TRACE_INSTANCE	"interbench"

/*
 * Mount tracefs if needed, make our instance (TRACE_INSTANCE), clock
 * mono, a buffer for cells of duration_ns, recording on the CPUs the
 * process may use (its affinity, when called), the events this kernel
 * lacks found (timer: --trace-timer's too): 0, or -errno with why in err.
 * Whatever happens later, it is undone at exit.
 */
int trace_open(struct tracer *t, uint64_t duration_ns, bool timer,
	       const char *state, char *err, size_t n);
/*
 * The file state (beside the run lock) names the run that owns our
 * instance while it lives. A run killed with SIGKILL leaves both; the
 * next run, holding the lock (so no interbench is measuring), stops and
 * removes that instance, unmounts tracefs if the dead run mounted it,
 * and says so in msg: 1. 0: nothing was left; -errno: it could not be
 * removed (msg says why). Without the file an instance is not ours.
 */
int trace_reap(const char *state, char *msg, size_t n);
/*
 * Before a cell's benchmark starts: an empty buffer, our events on (the
 * timer class's too with timer, if the instance was opened with it),
 * recording.
 */
int trace_cell_start(struct tracer *t, bool timer);
/*
 * After it ended: recording stops, our events go off; t->lost_events is
 * what it lost.
 */
void trace_cell_stop(struct tracer *t);
/*
 * Explain w's frames, worst first, into a new array: their count, or
 * -errno. A frame whose window the trace does not cover whole (lost
 * events, before a CPU's first event, after a --breaktrace stop) is
 * marked lost rather than explained wrong.
 */
int trace_explain(struct tracer *t, const struct worst_frames *w,
		  struct why_frame **out);
/*
 * Explain from the trace text in f (trace_why.c; for the unit test),
 * knowing env (NULL: nothing) for what idle time was.
 */
int trace_explain_file(FILE *f, const struct worst_frames *w,
		       const struct why_env *env, struct why_frame **out);
/*
 * The picture's slices (trace_pic.c), gathered while the trace is read:
 * trace_pic_begin sets f's picture window from its release and latency;
 * trace_pic_add gives it a stretch of CPU cpu's time (SK_OTHER for any
 * task: trace_pic_end tells its kind by its pid and name, timing being
 * the timing thread's pid in the trace), and trace_pic_end marks the
 * host's and the throttled idle time as the explanation found, and keeps
 * the WHY_SLICES longest, the shorter merged into "others".
 */
struct pic_raw {
	struct why_slice *s;
	size_t n, cap;
	int lanes[WHY_LANES], nlanes;
	int timing;			/* the timing thread's pid, or 0 */
};
void trace_pic_begin(struct pic_raw *r, struct why_frame *f);
void trace_pic_add(struct pic_raw *r, const struct why_frame *f, int cpu,
		   uint64_t from, uint64_t to, int kind, const char *name,
		   int pid);
void trace_pic_end(struct pic_raw *r, struct why_frame *f);

/* The words of an idle cause: "host (steal or vCPU wakeup)", "throttled" */
const char *trace_why_idle_text(enum why_idle c);
/* Copy the instance's trace into a new file at path: 0 or -errno. */
int trace_save(struct tracer *t, const char *path);
/* Remove the instance and unmount what we mounted (idempotent). */
void trace_close(struct tracer *t);

#endif
