// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/timing.c - the engines that run simulated tasks and measure them.
 *
 * Periodic tasks (Audio, Video, X, Custom): a SCHED_FIFO timing thread
 * sleeps to absolute deadlines on CLOCK_MONOTONIC, stamps the time and
 * wakes the simulated thread, which burns the frame's CPU and waits again.
 *
 * Frame rules (also in doc/methods.txt):
 *  - frame k is released at D_k = start + k * period and must finish by
 *    D_k + deadline (deadline is one period, except X: two).
 *  - a frame released while the thread is still busy waits, and runs as
 *    soon as the thread is free (catch-up), unless its deadline has
 *    already passed and a newer frame is waiting: then it is dropped,
 *    its CPU is lost (lowers % desired CPU) and it counts as missed.
 *  - latency of a frame = time it starts running - its release; after
 *    drops it is measured from the release of the first dropped frame,
 *    so the lost periods are added to the latency.
 *  - timer latency = timing thread awake - release, for every frame;
 *    wakeup latency = simulated thread running - timing thread's stamp,
 *    for frames released while the thread was idle (a real wakeup).
 *
 * Greedy tasks (Gaming): burn frames of work back to back; a frame's
 * latency is the time within it the thread did not run (the burn's gaps,
 * seen on CLOCK_MONOTONIC: burn_ns()), and % desired CPU is the rest
 * over wall time.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/policy.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"
#include "simulators/engine.h"

int set_thread_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return -pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

int set_thread_nice(int nice)
{
	struct sched_param sp = { .sched_priority = 0 };
	int err = pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);

	if (err)
		return -err;
	/* On Linux a nice value belongs to the thread (its tid). */
	if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice))
		return -errno;
	return 0;
}

/* The most CPU a frame of p needs: X ramps to a whole period. */
static uint64_t periodic_peak(const struct periodic_spec *p)
{
	uint64_t k, most = 0;

	for (k = 0; k < (p->steps ? p->steps : 1); k++)
		if (p->demand_ns(p, k) > most)
			most = p->demand_ns(p, k);
	return most;
}

int sim_sched(const struct sim_ctx *c, const struct periodic_spec *p)
{
	struct sched_want w = { .policy = c->policy, .nice = c->nice,
				.prio = PRIO_SIM, .slice_ns = c->slice_ns };

	if (c->policy == POL_DEADLINE) {
		/* The plan leaves out what is not periodic. */
		if (!p)
			return -EINVAL;
		w.period_ns = p->period_ns;
		w.runtime_ns = policy_dl_runtime(periodic_peak(p),
						 p->period_ns);
	}
	if (c->policy == POL_OTHER && !c->slice_ns)
		return set_thread_nice(c->nice);
	return policy_set(&w);
}

void sim_sched_seen(const struct sim_ctx *c)
{
	struct sched_want got;

	if (c->work || policy_get(&got))
		return;
	c->res->sched_seen = true;
	c->res->sched_policy = got.policy;
	c->res->sched_slice_ns = got.policy == POL_DEADLINE ? 0 : got.slice_ns;
	c->res->sched_runtime_ns = got.runtime_ns;
	c->res->sched_period_ns = got.period_ns;
}

#define STAMPS	64	/* ring of recent timing-thread stamps */

struct periodic {
	const struct periodic_spec *p;
	struct sim_ctx *c;
	uint64_t start;		/* D_0 */
	uint64_t end;		/* no release at or after this; 0: never */
	_Atomic uint64_t released;
	_Atomic uint64_t stamp[STAMPS];
	_Atomic int stamp_cpu[STAMPS];	/* --trace only: where it woke */
	_Atomic int timing_done;
	sem_t wake;
	int timing_err;
	int sim_err;
};

static void *timing_thread(void *arg)
{
	struct periodic *st = arg;
	struct sim_result *r = st->c->res;
	uint64_t k;

	/*
	 * Benchmarks only: without RT rights it stays SCHED_OTHER (already
	 * warned about); run as a load it stays a niced load thread.
	 */
	if (st->c->timing_rt)
		st->timing_err = set_thread_fifo(PRIO_TIMING);
	sim_thread_name(COMM_TIMER);
	r->worst.timing_tid = (int32_t)gettid();
	worst_frame_thread(&r->worst);
	for (k = 0;; k++) {
		uint64_t d = st->start + k * st->p->period_ns, t;
		struct timespec ts = ns_to_ts(d);

		if (st->end && d >= st->end)
			break;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
		t = now_ns();
		atomic_store_explicit(&st->stamp[k % STAMPS], t,
				      memory_order_relaxed);
		if (r->worst.keep)
			atomic_store_explicit(&st->stamp_cpu[k % STAMPS],
					      sched_getcpu(),
					      memory_order_relaxed);
		atomic_store_explicit(&st->released, k + 1,
				      memory_order_release);
		sem_post(&st->wake);
		/* After the post: the histogram update costs no wakeup. */
		stats_add(&r->timer, t - d);
	}
	atomic_store(&st->timing_done, 1);
	sem_post(&st->wake);
	task_acc_add_self(&r->task);
	return NULL;
}

void sim_thread_name(const char *prefix)
{
	char comm[17] = "", name[16];

	if (prctl(PR_GET_NAME, comm) ||
	    strncmp(comm, COMM_BENCH, strlen(COMM_BENCH)))
		return;
	/* NAME is 6 characters at most after COMM_BENCH in a 15's comm */
	snprintf(name, sizeof(name), "%.9s%.6s", prefix,
		 comm + strlen(COMM_BENCH));
	prctl(PR_SET_NAME, name);
}

/*
 * --trace: a thread that may keep frames says its tid in the trace. The
 * trace names tasks by their pid in the first PID namespace, gettid()
 * in ours (in a container they differ): the marker's line has both.
 */
void worst_frame_thread(struct worst_frames *w)
{
	char m[48];
	int n;

	if (!w->keep || w->marker_fd < 0)
		return;
	n = snprintf(m, sizeof(m), "interbench: tid %d\n", (int)gettid());
	if (write(w->marker_fd, m, (size_t)n) < 0)
		return;	/* then tids are taken as the trace's pids */
}

/*
 * --breaktrace: mark the trace and stop it at once, so that what led to
 * this frame is still in the buffer; the parent saves it and ends.
 */
static void break_trace(struct worst_frames *w, const struct worst_frame *f)
{
	char m[96];
	int n;

	w->broke = 1;
	w->brk = *f;
	n = snprintf(m, sizeof(m), "interbench: breaktrace: latency %llu us "
		     "tid %d cpu %d\n",
		     (unsigned long long)((f->start - f->release) /
					  NSEC_PER_USEC),
		     (int)w->brk.tid, w->brk.cpu);
	if (w->marker_fd >= 0 && write(w->marker_fd, m, (size_t)n) < 0)
		w->broke = 2;	/* stopped, unmarked */
	if (w->on_fd >= 0 && write(w->on_fd, "0", 1) < 0)
		w->broke = 3;
}

/* The calling thread's tid and CPU, for a frame about to be kept. */
static void frame_thread(struct worst_frame *f)
{
	if (!f->tid) {
		f->tid = (int32_t)gettid();
		f->cpu = sched_getcpu();
	}
}

/*
 * --on-late: a frame later than the cell's bound is kept, in order. The
 * period is the task's, in the sim_result that holds w (every engine's
 * w is its result's worst, and sets the period before its first frame).
 */
static void late_frame_add(struct worst_frames *w, struct worst_frame *f)
{
	const struct sim_result *r = (const void *)((const char *)w -
				      offsetof(struct sim_result, worst));
	uint64_t bound = w->late_ns;

	if (w->late_period && r->period_ns && r->period_ns < bound)
		bound = r->period_ns;
	if (f->start - f->release <= bound)
		return;
	if (w->nlate == LATE_KEEP) {
		w->late_over++;
		return;
	}
	frame_thread(f);
	w->late[w->nlate++] = *f;
}

/*
 * Keep frame f if among the latest w->keep so far, with the calling
 * thread's tid and CPU: for --trace, which asks what ran instead on that
 * CPU. A few compares a frame when it is off.
 */
void worst_frame_add(struct worst_frames *w, struct worst_frame f)
{
	uint64_t lat = f.start - f.release, least = UINT64_MAX;
	uint32_t i, at = 0;

	if (!w->keep || f.start < f.release)
		return;
	f.tid = 0;
	if (w->break_ns && lat > w->break_ns && !w->broke) {
		frame_thread(&f);
		break_trace(w, &f);
	}
	if (w->late_on)
		late_frame_add(w, &f);
	if (w->n < w->keep) {
		at = w->n++;
	} else {
		for (i = 0; i < w->n; i++)
			if (w->f[i].start - w->f[i].release < least) {
				least = w->f[i].start - w->f[i].release;
				at = i;
			}
		if (lat <= least)
			return;
	}
	frame_thread(&f);
	w->f[at] = f;
}

uint64_t periodic_const_demand(const struct periodic_spec *p, uint64_t k)
{
	(void)k;
	return p->cpu_ns;
}

/*
 * A frame completed at done: the time since the last completion is what
 * a display shows (frame pacing); over two periods it is a stutter.
 */
void frame_done(struct sim_result *r, uint64_t *last, uint64_t done,
		uint64_t period)
{
	if (*last) {
		stats_add(&r->frame_time, done - *last);
		r->stutters += done - *last > 2 * period;
	}
	*last = done;
}

static void *periodic_thread(void *arg)
{
	struct periodic *st = arg;
	const struct periodic_spec *p = st->p;
	struct sim_ctx *c = st->c;
	struct sim_result *r = c->res;
	uint64_t lpm = c->cfg->loops_per_ms;
	uint64_t k = 0, idle_since = now_ns(), last_done = 0, last_run = 0;

	sim_thread_name(COMM_SIM);
	worst_frame_thread(&r->worst);
	st->sim_err = sim_sched(c, p);
	if (st->sim_err)
		return NULL;
	sim_sched_seen(c);
	for (;;) {
		uint64_t rel = atomic_load_explicit(&st->released,
						    memory_order_acquire);
		uint64_t run_at, d, from, cpu, done, owed = 0, k0 = k;

		if (k >= rel) {
			struct timespec ts;

			if (atomic_load(&st->timing_done) &&
			    k >= atomic_load(&st->released))
				break;
			/* Bounded wait: re-check the flags each second. */
			ts = ns_to_ts(now_ns() + NSEC_PER_SEC);
			sem_clockwait(&st->wake, CLOCK_MONOTONIC, &ts);
			continue;
		}
		run_at = now_ns();
		/* Drop frames that are already too late to be of use. */
		while (k + 1 < rel &&
		       st->start + k * p->period_ns + p->deadline_ns <= run_at) {
			if (!owed)
				owed = st->start + k * p->period_ns;
			r->frames++;
			r->frames_dropped++;
			r->cpu_desired_ns += (double)p->demand_ns(p, k);
			k++;
		}
		d = st->start + k * p->period_ns;
		from = owed ? owed : d;
		stats_add(&r->latency, run_at - from);
		win_add(&r->windows, from, run_at - from);
		if (!owed) {
			uint64_t t = atomic_load_explicit(&st->stamp[k % STAMPS],
							  memory_order_relaxed);
			/* Released while we were idle: a real wakeup. */
			if (t >= idle_since && run_at >= t)
				stats_add(&r->wakeup, run_at - t);
		}
		/*
		 * A late frame is explained from the release its latency is
		 * counted from: the first one dropped (its timer stamp while
		 * the ring still holds it, else none: all of it is the wait).
		 */
		if (r->worst.keep) {
			/* still on the previous frame after the release? */
			uint64_t t = from, busy = idle_since <= from ? 0 :
					      last_run > from ? last_run : from;
			int tc = -1;

			if (k - k0 < STAMPS) {
				t = atomic_load_explicit(&st->stamp[k0 % STAMPS],
							 memory_order_relaxed);
				tc = atomic_load_explicit(&st->stamp_cpu[k0 % STAMPS],
							  memory_order_relaxed);
			}
			worst_frame_add(&r->worst, (struct worst_frame){
				.release = from, .timer = t, .timer_cpu = tc,
				.start = run_at, .busy_from = busy,
				.busy_to = busy ? idle_since : 0 });
		}
		cpu = p->demand_ns(p, k);
		(void)burn_ns(lpm, cpu);
		done = now_ns();
		r->frames++;
		r->cpu_desired_ns += (double)cpu;
		r->cpu_got_ns += (double)cpu;
		if (done <= d + p->deadline_ns)
			r->frames_met++;
		frame_done(r, &last_done, done, p->period_ns);
		if (c->work)
			work_add(c->work, WORK_FRAMES, 1);
		idle_since = done;
		last_run = run_at;
		k++;
	}
	task_acc_add_self(&r->task);
	return NULL;
}

/*
 * Under a load on its CPU a frame often waits for the next tick, so where
 * the releases fall between ticks sets its latency. A cell starts a fixed
 * time after whatever set it up, and some set-up ends on a tick (a traced
 * cell's buffer is emptied after an RCU grace period): without a random
 * phase, traced and untraced cells, or A and B, would sample different
 * phases and differ for that alone.
 */
uint64_t sim_first_release(uint64_t period_ns)
{
	uint64_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = now_ns() * 0x9e3779b97f4a7c15ULL;	/* any spread will do */
	return now_ns() + period_ns + r % period_ns;
}

/*
 * pthread_timedjoin_np takes CLOCK_REALTIME: wait for all the time left
 * (up to a minute), not a second at a time, which woke the benchmark's
 * CPU once a second in a cell. A clock step back can stretch one wait;
 * the parent's watch, on CLOCK_MONOTONIC, ends a stuck benchmark anyway.
 * (pthread_clockjoin_np would do, but ThreadSanitizer does not see it.)
 */
int thread_join_until(pthread_t t, uint64_t mono_deadline)
{
	if (!mono_deadline)
		return -pthread_join(t, NULL);
	for (;;) {
		struct timespec rt;
		uint64_t now = now_ns(), step = 60 * NSEC_PER_SEC;
		int err;

		if (now >= mono_deadline)
			return -ETIMEDOUT;
		if (mono_deadline - now < step)
			step = mono_deadline - now;
		clock_gettime(CLOCK_REALTIME, &rt);
		rt = ns_to_ts(ts_to_ns(&rt) + step);
		err = pthread_timedjoin_np(t, NULL, &rt);
		if (err != ETIMEDOUT)
			return -err;
	}
}

/* Every simulator's allowance: its last frames, and a margin. */
#define SIM_GRACE_NS	(2 * NSEC_PER_SEC)

uint64_t sim_grace_ns(const struct sim_desc *s, const struct run_cfg *cfg,
		      const void *opts)
{
	return SIM_GRACE_NS + (s->grace_ns ? s->grace_ns(cfg, opts) : 0);
}

void sim_fail(struct sim_result *r, int err, const char *what)
{
	if (r->status)
		return;
	r->status = err;
	snprintf(r->why, sizeof(r->why), "%s: %s", what, strerror(-err));
}

int periodic_run(struct sim_ctx *c, const struct periodic_spec *p)
{
	struct periodic *st;
	pthread_t tt, sim;
	uint64_t limit = 0;
	int err;

	if (!p->period_ns || p->deadline_ns < p->period_ns)
		return -EINVAL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->p = p;
	st->c = c;
	c->res->has_deadlines = true;
	c->res->period_ns = p->period_ns;
	c->res->worst.deadline_ns = p->deadline_ns;	/* --trace's picture */
	sem_init(&st->wake, 0, 0);
	st->start = sim_first_release(p->period_ns);
	if (sim_duration(c)) {
		st->end = st->start + sim_duration(c);
		win_init(&c->res->windows, st->start, sim_duration(c));
		limit = st->end + c->grace_ns;
	}
	err = -pthread_create(&sim, NULL, periodic_thread, st);
	if (err) {
		free(st);
		return err;
	}
	err = -pthread_create(&tt, NULL, timing_thread, st);
	if (err) {
		/* The simulated thread would wait forever: not worth saving. */
		sim_fail(c->res, err, "timing thread");
		return err;
	}
	err = thread_join_until(sim, limit);
	if (err) {
		sim_fail(c->res, err, "simulated task did not finish");
		return err;	/* threads die with the process */
	}
	err = thread_join_until(tt, now_ns() + c->grace_ns);
	if (err) {
		sim_fail(c->res, err, "timing thread did not finish");
		return err;
	}
	if (st->sim_err)
		sim_fail(c->res, st->sim_err, "scheduling the simulated task");
	else if (st->timing_err)
		sim_fail(c->res, st->timing_err, "timing thread SCHED_FIFO");
	err = c->res->status;
	sem_destroy(&st->wake);
	free(st);
	return err;
}

struct greedy {
	struct sim_ctx *c;
	uint64_t frame_ns;
	uint64_t end;
	int err;
};

static void *greedy_thread(void *arg)
{
	struct greedy *g = arg;
	struct sim_result *r = g->c->res;
	uint64_t lpm = g->c->cfg->loops_per_ms, last_done = 0;

	g->err = sim_sched(g->c, NULL);
	if (g->err)
		return NULL;
	sim_sched_seen(g->c);
	while (!g->end || now_ns() < g->end) {
		uint64_t t0 = now_ns(), t1, lat;
#ifndef IB_BENCH_CPU_CLOCK
		/*
		 * Time this frame spent not running, whatever the cause: the
		 * burn's gaps, seen on CLOCK_MONOTONIC alone. No CPU clock:
		 * reading it would end a spent slice at the read.
		 */
		lat = burn_ns(lpm, g->frame_ns);
		t1 = now_ns();
#else
		/* bench/gaming-clock.sh's other way: wall minus CPU clock */
		uint64_t c0 = thread_cpu_ns(), c1;

		burn_ns(lpm, g->frame_ns);
		c1 = thread_cpu_ns();
		t1 = now_ns();
		lat = t1 - t0 > c1 - c0 ? (t1 - t0) - (c1 - c0) : 0;
#endif
		if (lat > t1 - t0)
			lat = t1 - t0;
		stats_add(&r->latency, lat);
		win_add(&r->windows, t0, lat);
		r->frames++;
		r->cpu_desired_ns += (double)(t1 - t0);
		r->cpu_got_ns += (double)(t1 - t0 - lat);
		frame_done(r, &last_done, t1, g->frame_ns);
		if (g->c->work)
			work_add(g->c->work, WORK_FRAMES, 1);
	}
	task_acc_add_self(&r->task);
	return NULL;
}

int greedy_run(struct sim_ctx *c, uint64_t frame_ns)
{
	struct greedy g = { .c = c, .frame_ns = frame_ns };
	pthread_t t;
	uint64_t limit = 0;
	int err;

	c->res->has_deadlines = false;
	if (sim_duration(c)) {
		g.end = now_ns() + sim_duration(c);
		win_init(&c->res->windows, g.end - sim_duration(c),
			 sim_duration(c));
		limit = g.end + c->grace_ns;
	}
	err = -pthread_create(&t, NULL, greedy_thread, &g);
	if (err)
		return err;
	err = thread_join_until(t, limit);
	if (err) {
		sim_fail(c->res, err, "simulated task did not finish");
		return err;
	}
	if (g.err)
		sim_fail(c->res, g.err, "scheduling the simulated task");
	return c->res->status;
}
