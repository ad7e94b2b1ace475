/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/engine.h - the engines simulators run on (timing.c): the
 * periodic engine with its real-time timing thread, the greedy engine,
 * and the helpers every simulator shares (its class, failures, --trace's
 * frames, the time it may take to finish).
 */
#ifndef INTERBENCH_ENGINE_H
#define INTERBENCH_ENGINE_H

#include <pthread.h>
#include <stdint.h>
#include "core/sim.h"
#include "core/cfg.h"
#include "core/raw.h"

/* Scheduling for the calling thread: SCHED_FIFO at prio, or nice level. */
int set_thread_fifo(int prio);
int set_thread_nice(int nice);

/* How a periodic task behaves (see timing.c for the frame rules). */
struct periodic_spec {
	uint64_t period_ns;
	uint64_t deadline_ns;		/* after release; usually period_ns */
	/* CPU work of frame k in ns */
	uint64_t (*demand_ns)(const struct periodic_spec *p, uint64_t k);
	uint64_t cpu_ns;		/* constant demand, for demand_ns */
	unsigned steps;			/* X: ramp steps */
};

/* Engines in timing.c used by the simulators. */
int periodic_run(struct sim_ctx *c, const struct periodic_spec *p);
uint64_t periodic_const_demand(const struct periodic_spec *p, uint64_t k);
int greedy_run(struct sim_ctx *c, uint64_t frame_ns);

/* Helpers in timing.c the simulators share. */
/*
 * A frame completed at done (*last: the one before, 0 at first): its
 * frame time, and a stutter when over two periods.
 */
void frame_done(struct sim_result *r, uint64_t *last, uint64_t done,
		uint64_t period);
/*
 * --trace: keep frame f (release, timer, timer_cpu, start, busy; the
 * calling thread's tid and CPU are added) if among the cell's latest.
 */
void worst_frame_add(struct worst_frames *w, struct worst_frame f);
/* --trace: say the calling thread's tid in the trace (timing.c). */
void worst_frame_thread(struct worst_frames *w);
/*
 * A periodic benchmark's timing thread names itself COMM_TIMER NAME, its
 * simulated thread COMM_SIM NAME, from the process's COMM_BENCH NAME (a
 * load's keep theirs): --trace does not record switches to them from
 * the idle task or the timing thread, on every frame's path, and puts
 * them back from their stamps (run/trace.c, run/trace_why.c).
 */
void sim_thread_name(const char *prefix);
/*
 * The calling thread as the run asks: c->policy (policy.h), with c->nice
 * and c->slice_ns for the fair classes; SCHED_DEADLINE needs p, whose
 * period and most CPU a frame needs set its reservation. 0 or -errno.
 */
int sim_sched(const struct sim_ctx *c, const struct periodic_spec *p);
/*
 * Put what the kernel reports for the calling thread's class in the
 * result (the proof it ran so), when benchmarked. Only from a simulator's
 * one simulated thread: the periodic and greedy engines' (Server's many
 * would race for the one record).
 */
void sim_sched_seen(const struct sim_ctx *c);
/* Record the first failure of a run: status and "what: strerror". */
void sim_fail(struct sim_result *r, int err, const char *what);
/* Join t by a CLOCK_MONOTONIC deadline (0: none): 0 or -errno. */
int thread_join_until(pthread_t t, uint64_t mono_deadline);
/*
 * A periodic task's first release: one period on (its threads are set up
 * by then) and a random part of another, so the releases' phase against
 * the kernel's tick is drawn afresh in every cell.
 */
uint64_t sim_first_release(uint64_t period_ns);
/*
 * The one allowance for a simulator to finish after its duration: its
 * threads are joined by then, and the parent kills it as stuck a little
 * later (run.c). A base for every simulator, plus its grace_ns().
 */
uint64_t sim_grace_ns(const struct sim_desc *s, const struct run_cfg *cfg,
		      const void *opts);

#endif
