// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/rtapp/rtapp_event.c - rt-app's events, as rt-app 1.0 runs them
 * (src/rt-app.c, run_event), for the threads of rtapp_run.c:
 *
 *   run      the calibrated loop, a count of loops made from the time
 *            asked (interbench's calibration, not rt-app's)
 *   runtime  the loop until that much wall-clock time has passed
 *   sleep    clock_nanosleep for the time, from now
 *   timer    clock_nanosleep to the timer's next expiry: the previous
 *            one plus the period, the first from the thread's start;
 *            late (the expiry already past): no sleep, and a relative
 *            timer starts again from now, an absolute one does not
 *   barrier  wait until every use of its name has come
 *   lock, unlock  the named mutex (priority inheritance: pi_enabled)
 *   wait     wait on the named condition, its mutex held (as
 *            pthread_cond_wait: released while waiting, taken back)
 *   signal, broad  wake the first, or every, thread waiting on it; a
 *            wake with nobody waiting is lost, as in rt-app
 *   sync     signal and wait at once
 *   suspend  lock the name's mutex, wait on its condition, unlock
 *   resume   lock the name's mutex, wake all waiting on it, unlock
 *   mem      write the bytes over the thread's buffer (mem_buffer_size)
 *   iorun    write the bytes from it to io_device
 *   yield    sched_yield()
 *
 * Each thread times itself, as rt-app does: it sleeps on its own
 * CLOCK_MONOTONIC timer (TIMER_ABSTIME) and reads the clock when it runs
 * again; no timing thread. A thread woken by another (a condition's
 * wake, a barrier's last user) measures from the time the waker stamped
 * when it woke it, to when it runs again holding its mutex: a waker
 * stamps each waiter it wakes, so that each counts from its own wake.
 *
 * Every wait is bounded (a second, or the run's end), so that every
 * thread sees the end.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "core/load.h"
#include "core/raw.h"
#include "core/sim.h"
#include "simulators/engine.h"
#include "simulators/rtapp/rtapp.h"
#include "simulators/rtapp/rtapp_sim.h"

/* ---- waiting -------------------------------------------------------- */

bool rtapp_stopping(const struct rt_run *rr)
{
	return atomic_load(&rr->abort) || now_ns() >= rr->end;
}

/* Sleep to an absolute CLOCK_MONOTONIC time, whatever signals come. */
void rtapp_sleep_to(uint64_t t)
{
	struct timespec ts = ns_to_ts(t);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* A second from now, never past the end (CLOCK_MONOTONIC). */
static uint64_t bound(const struct rt_run *rr)
{
	uint64_t until = now_ns() + NSEC_PER_SEC;

	return until > rr->end ? rr->end : until;
}

/*
 * A wait on another thread begins: when, and the lost wakes of the
 * conditions it waits on (a stall counts those lost meanwhile).
 */
static void wait_begin(struct rt_thr *th)
{
	int c;

	th->wait_since = now_ns();
	for (c = 0; c < th->rr->wl->ncond; c++)
		if (th->waits_on[c])
			th->lost0[c] = atomic_load(&th->rr->cond[c].lost);
}

/* ... and is through; one the end cut short stays begun (a stall). */
static void wait_end(struct rt_thr *th)
{
	th->wait_since = 0;
}

static void cond_wait_bounded(struct rt_run *rr, pthread_cond_t *cv,
			      pthread_mutex_t *m)
{
	struct timespec ts = ns_to_ts(bound(rr));

	pthread_cond_timedwait(cv, m, &ts);
}

/*
 * Take a mutex of the file's, a second at a time until the end: true
 * when taken. (timedlock's clock is CLOCK_REALTIME: it bounds the wait,
 * a jump of the clock makes it a little shorter or longer.)
 */
static bool lock_bounded(struct rt_run *rr, pthread_mutex_t *m)
{
	struct timespec ts;
	uint64_t left;
	int e;

	do {
		left = bound(rr) - now_ns();
		clock_gettime(CLOCK_REALTIME, &ts);
		ts = ns_to_ts((uint64_t)ts.tv_sec * NSEC_PER_SEC +
			      (uint64_t)ts.tv_nsec + left);
		e = pthread_mutex_timedlock(m, &ts);
	} while (e == ETIMEDOUT && !rtapp_stopping(rr));
	return !e;
}

/* A condition variable on CLOCK_MONOTONIC. */
int rtapp_init_cv(pthread_cond_t *cv)
{
	pthread_condattr_t a;
	int e;

	e = pthread_condattr_init(&a);
	if (!e)
		e = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (!e)
		e = pthread_cond_init(cv, &a);
	pthread_condattr_destroy(&a);
	return -e;
}

/* A mutex, priority-inheriting with pi_enabled (as rt-app's). */
int rtapp_init_mutex(pthread_mutex_t *m, bool pi)
{
	pthread_mutexattr_t ma;
	int e;

	e = pthread_mutexattr_init(&ma);
	if (!e && pi)
		e = pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	if (!e)
		e = pthread_mutex_init(m, &ma);
	pthread_mutexattr_destroy(&ma);
	return -e;
}

/* ---- the events ----------------------------------------------------- */

/*
 * A wakeup: due is when the thread was to run (an expiry, a sleep's end,
 * a wake, the barrier's last user), woke when it did. A workload without
 * a periodic thread has no release to measure latency from: its wakeups
 * are its latency (and its latency over time).
 */
static void sample(struct rt_thr *th, int kind, uint64_t due, uint64_t woke)
{
	uint64_t lat = woke > due ? woke - due : 0;

	stats_add(th->kind[kind], lat);
	if (!th->rr->wl->nperiodic)
		win_add(&th->win, due, lat);
}

/* run: a count of calibrated loops, in slices so that the end is seen. */
static bool ev_run(struct rt_thr *th, uint64_t ns)
{
	struct rt_run *rr = th->rr;
	uint64_t left = (uint64_t)((unsigned __int128)rr->lpm * ns /
				   NSEC_PER_MSEC);
	uint64_t slice = rr->lpm / 4 + 1;	/* about 250 us */

	while (left) {
		uint64_t k = left < slice ? left : slice;

		burn_loops(k);
		left -= k;
		if (rtapp_stopping(rr))
			return false;
	}
	return true;
}

/* runtime: busy until ns of wall-clock time have passed (32 us steps). */
static bool ev_runtime(struct rt_thr *th, uint64_t ns)
{
	struct rt_run *rr = th->rr;
	uint64_t start = now_ns(), step = rr->lpm * 32 / 1000 + 1, now;

	while ((now = now_ns()) - start < ns) {
		if (now >= rr->end || atomic_load(&rr->abort))
			return false;
		burn_loops(step);
	}
	return true;
}

static bool ev_sleep(struct rt_thr *th, uint64_t ns)
{
	struct rt_run *rr = th->rr;
	uint64_t due = now_ns() + ns;

	if (due > rr->end) {
		rtapp_sleep_to(rr->end);
		return false;
	}
	rtapp_sleep_to(due);
	sample(th, RK_SLEEP, due, now_ns());
	return !atomic_load(&rr->abort);
}

/* A frame of a periodic thread ended at arrival: pacing and deadline. */
static void frame_end(struct rt_thr *th, uint64_t arrival, uint64_t expiry,
		      uint64_t period)
{
	int64_t slack = (int64_t)(expiry - arrival);

	th->frames++;
	if (slack >= 0) {
		th->met++;
		stats_add(th->slack, (uint64_t)slack);
	} else {
		th->overruns++;
	}
	if (slack < th->slack_min)
		th->slack_min = slack;
	if (th->last_arrival) {
		stats_add(th->frame, arrival - th->last_arrival);
		th->stutters += arrival - th->last_arrival > 2 * period;
	}
	th->last_arrival = arrival;
	if (th->rr->c->work)
		work_add(th->rr->c->work, WORK_FRAMES, 1);
}

/* The next frame was released at expiry and runs from start. */
static void frame_start(struct rt_thr *th, uint64_t expiry, uint64_t start)
{
	struct rt_run *rr = th->rr;
	struct sim_result *r = rr->c->res;

	stats_add(th->lat, start - expiry);
	win_add(&th->win, expiry, start - expiry);
	if (r->worst.keep) {
		pthread_mutex_lock(&rr->lock);
		worst_frame_add(&r->worst, (struct worst_frame){
			.release = expiry, .timer = start,
			.timer_cpu = sched_getcpu(), .start = start });
		pthread_mutex_unlock(&rr->lock);
	}
}

static bool ev_timer(struct rt_thr *th, const struct rtapp_event *e)
{
	struct rt_run *rr = th->rr;
	int k = e->res;
	uint64_t now = now_ns(), expiry;

	if (!th->armed[k]) {
		/* as rt-app: the first expiry is a period after the start */
		th->armed[k] = true;
		th->next[k] = th->t_first;
	}
	th->next[k] += e->ns;
	expiry = th->next[k];
	if (e->ns)	/* a period of 0 paces nothing: no frame */
		frame_end(th, now, expiry, e->ns);
	if (now < expiry) {
		uint64_t woke;

		if (expiry > rr->end) {
			rtapp_sleep_to(rr->end);
			return false;
		}
		rtapp_sleep_to(expiry);
		woke = now_ns();
		sample(th, RK_TIMER, expiry, woke);
		frame_start(th, expiry, woke);
	} else {
		/* late: the frame starts now; relative starts over from now */
		if (e->ns)
			frame_start(th, expiry, now);
		if (!th->task->timer_abs[k])
			th->next[k] = now;
	}
	return !rtapp_stopping(rr);
}

static bool ev_barrier(struct rt_thr *th, const struct rtapp_event *e)
{
	struct rt_run *rr = th->rr;
	struct rt_barrier *b = &rr->bar[e->res];
	bool ok = true;

	wait_begin(th);
	pthread_mutex_lock(&b->m);
	if (++b->count >= b->users) {
		b->count = 0;
		b->gen++;
		b->stamp = now_ns();
		pthread_cond_broadcast(&b->cv);
	} else {
		uint64_t gen = b->gen;

		while (b->gen == gen && (ok = !rtapp_stopping(rr)))
			cond_wait_bounded(rr, &b->cv, &b->m);
		if (b->gen != gen) {
			sample(th, RK_BARRIER, b->stamp, now_ns());
			ok = true;
		}
	}
	pthread_mutex_unlock(&b->m);
	if (ok)
		wait_end(th);
	return ok && !rtapp_stopping(rr);
}

/* The mutexes a thread holds, so that it gives them back if it stops. */
static void held_add(struct rt_thr *th, int m)
{
	th->held[th->nheld++] = m;	/* rtapp_check.c: at most MAX_HELD */
}

static void held_drop(struct rt_thr *th, int m)
{
	int i;

	for (i = 0; i < th->nheld; i++)
		if (th->held[i] == m) {
			th->held[i] = th->held[--th->nheld];
			return;
		}
}

static bool ev_lock(struct rt_thr *th, int m)
{
	if (pthread_mutex_trylock(&th->rr->mutex[m])) {
		wait_begin(th);
		if (!lock_bounded(th->rr, &th->rr->mutex[m]))
			return false;
		wait_end(th);
	}
	held_add(th, m);
	return true;
}

void rtapp_unlock(struct rt_thr *th, int m)
{
	held_drop(th, m);
	pthread_mutex_unlock(&th->rr->mutex[m]);
}

/* Wake the first waiter of c (all: every one), stamped now. */
static void wake(struct rt_cond *c, bool all)
{
	uint64_t now;
	int i, k;

	pthread_mutex_lock(&c->m);
	now = now_ns();
	if (!c->n)
		atomic_fetch_add(&c->lost, 1);
	k = all ? c->n : c->n > 0;
	for (i = 0; i < k; i++) {
		c->q[i]->wake_at = now;
		pthread_cond_signal(&c->q[i]->wake_cv);
	}
	memmove(c->q, c->q + k, (size_t)(c->n - k) * sizeof(*c->q));
	c->n -= k;
	pthread_mutex_unlock(&c->m);
}

/*
 * wait (and sync: signal first): the thread holds mutex m; it joins the
 * condition's queue, gives m back, waits for its wake, takes m again,
 * and counts from the wake to now.
 */
static bool ev_wait(struct rt_thr *th, int cond, int m, bool sync)
{
	struct rt_run *rr = th->rr;
	struct rt_cond *c = &rr->cond[cond];
	uint64_t woke_at;
	int i;

	if (sync)
		wake(c, false);
	wait_begin(th);
	pthread_mutex_lock(&c->m);
	th->wake_at = 0;
	c->q[c->n++] = th;
	rtapp_unlock(th, m);
	while (!th->wake_at && !rtapp_stopping(rr))
		cond_wait_bounded(rr, &th->wake_cv, &c->m);
	woke_at = th->wake_at;
	for (i = 0; !woke_at && i < c->n; i++)
		if (c->q[i] == th) {	/* the end came first: leave */
			memmove(c->q + i, c->q + i + 1,
				(size_t)(c->n - i - 1) * sizeof(*c->q));
			c->n--;
		}
	pthread_mutex_unlock(&c->m);
	if (!woke_at)
		return false;
	wait_end(th);
	if (!ev_lock(th, m))
		return false;
	sample(th, RK_WAKE, woke_at, now_ns());
	return !rtapp_stopping(rr);
}

static bool ev_suspend(struct rt_thr *th, const struct rtapp_event *e)
{
	if (!ev_lock(th, e->dep) || !ev_wait(th, e->res, e->dep, false))
		return false;
	rtapp_unlock(th, e->dep);
	return true;
}

static bool ev_resume(struct rt_thr *th, const struct rtapp_event *e)
{
	if (!ev_lock(th, e->dep))
		return false;
	wake(&th->rr->cond[e->res], true);
	rtapp_unlock(th, e->dep);
	return !rtapp_stopping(th->rr);
}

/* mem: the bytes written over the buffer, a buffer's worth at a time. */
static void ev_mem(struct rt_thr *th, uint64_t bytes)
{
	uint64_t size = th->rr->wl->membuf, k;

	for (; bytes; bytes -= k) {
		k = bytes < size ? bytes : size;
		memset(th->buf, 0, k);
	}
}

/* iorun: the bytes written to io_device from the buffer (as rt-app). */
static void ev_iorun(struct rt_thr *th, uint64_t bytes)
{
	uint64_t size = th->rr->wl->membuf;
	ssize_t w;

	while (bytes) {
		w = write(th->rr->io_fd, th->buf, bytes < size ? bytes : size);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* as rt-app: the event ends there */
		bytes -= (uint64_t)w;
	}
}

/* One event: false when the thread is to stop (the end, or an abort). */
bool rtapp_event(struct rt_thr *th, const struct rtapp_event *e)
{
	struct rt_run *rr = th->rr;

	switch (e->type) {
	case RTE_RUN:
		return ev_run(th, e->ns);
	case RTE_RUNTIME:
		return ev_runtime(th, e->ns);
	case RTE_SLEEP:
		return ev_sleep(th, e->ns);
	case RTE_TIMER:
		return ev_timer(th, e);
	case RTE_BARRIER:
		return ev_barrier(th, e);
	case RTE_SUSPEND:
		return ev_suspend(th, e);
	case RTE_RESUME:
		return ev_resume(th, e);
	case RTE_LOCK:
		return ev_lock(th, e->res);
	case RTE_UNLOCK:
		rtapp_unlock(th, e->res);
		break;
	case RTE_WAIT:
	case RTE_SYNC:
		return ev_wait(th, e->res, e->dep, e->type == RTE_SYNC);
	case RTE_SIGNAL:
	case RTE_BROAD:
		wake(&rr->cond[e->res], e->type == RTE_BROAD);
		break;
	case RTE_MEM:
		ev_mem(th, e->bytes);
		break;
	case RTE_IORUN:
		ev_iorun(th, e->bytes);
		break;
	case RTE_YIELD:
		sched_yield();
		break;
	}
	return !rtapp_stopping(rr);
}

