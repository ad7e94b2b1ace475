// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RtApp: an rt-app workload (simulators/rtapp.h, read by rtapp_parse.c
 * when the command line names it: -W rtapp:FILE, -w rtapp:FILE) run as
 * rt-app 1.0 runs it: a thread for every task and instance, each at the
 * class and priority the file gives, going through its phases' events
 * in order, for its loops.
 *
 *   run      the calibrated loop, a count of loops made from the time
 *            asked (interbench's calibration, not rt-app's)
 *   runtime  the loop until that much wall-clock time has passed
 *   sleep    clock_nanosleep for the time, from now
 *   timer    clock_nanosleep to the timer's next expiry: the previous
 *            one plus the period, the first from the common start; late
 *            (the expiry already past): no sleep, and a relative timer
 *            starts again from now, an absolute one does not
 *   barrier  wait until every use of its name has come (as rt-app
 *            counts users: each use in each thread)
 *   suspend  wait for a resume of the name; resume wakes every thread
 *            suspended on it then, and is lost if none is (as rt-app 1.0)
 *
 * Each thread times itself, as rt-app does: it sleeps on its own
 * CLOCK_MONOTONIC timer (TIMER_ABSTIME) and reads the clock when it runs
 * again. There is no timing thread: so the wakeup latency measured is
 * what rt-app logs as wu_lat (woken - expiry), and bench/rtapp-vs-rtapp.sh
 * compares like with like.
 *
 * A thread with a timer is periodic: each timer event ends a frame
 * (met if it came before the expiry), and the frame after it is
 * released at the expiry: its latency is the time it ran after that
 * (the wakeup, or how late it came), as interbench measures every
 * periodic task; frame times are from one timer event to the next. The
 * other threads are counted in loops (phase passes) a second. Every
 * wakeup (timer, sleep's end, resume, barrier's last user -> running) is
 * in the wakeup figures, and by kind in RtApp's own; in a workload with
 * no periodic thread, they are its latency too (there is no release).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include "core/figures.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "lib/interfere.h"
#include "lib/json.h"
#include "lib/policy.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"
#include "simulators/engine.h"
#include "simulators/rtapp.h"

/* Wakeups by what woke the thread: RtApp's own figures, by kind. */
enum { RK_TIMER, RK_SLEEP, RK_RESUME, RK_BARRIER, RK_COUNT };

/* A distribution in a few numbers (its histogram stays in the process). */
struct rtapp_sum {
	uint64_t count;
	double mean;			/* ns */
	uint64_t p50, p90, p99, max;	/* ns */
};

/* One thread, for its line under the row and the JSON. */
struct rtapp_thr_out {
	char name[RTAPP_NAME];
	int32_t inst;
	int32_t policy, prio;		/* as the kernel said; -1: unknown */
	bool periodic;
	uint64_t loops;			/* phase passes */
	uint64_t frames, met, overruns;	/* periodic: timer events */
	struct rtapp_sum lat;		/* periodic: latency; else wakeups */
};

/* What RtApp keeps in its sim_result's own[]. */
struct rtapp_own {
	char file[64];
	uint64_t bytes;
	uint32_t fnv;
	int32_t nthreads, nperiodic;
	double secs;			/* how long the threads ran */
	uint64_t loops;
	double loops_per_s;		/* NaN: no time measured */
	uint64_t overruns;		/* timer events after their expiry */
	uint64_t resumes_lost;		/* resumes nobody was suspended for */
	struct rtapp_sum kind[RK_COUNT];
	struct rtapp_thr_out thr[RTAPP_MAX_THREADS];
};
_Static_assert(sizeof(struct rtapp_own) <= SIM_OWN_BYTES,
	       "RtApp's figures must fit in sim_result.own");

struct rt_barrier {
	pthread_mutex_t m;
	pthread_cond_t cv;
	int users, count;
	uint64_t gen;			/* passes so far */
	uint64_t stamp;			/* when the last user came */
};

struct rt_wait {
	pthread_mutex_t m;
	pthread_cond_t cv;
	int waiters;
	uint64_t gen;			/* resumes so far */
	uint64_t stamp;			/* of the last resume */
	uint64_t lost;
};

struct rt_run;

struct rt_thr {
	struct rt_run *rr;
	const struct rtapp_task *task;
	int inst;
	pthread_t t;
	bool started;
	int err;
	char what[160];
	uint64_t next[RTAPP_MAX_TIMERS];	/* each timer's last expiry */
	bool armed[RTAPP_MAX_TIMERS];
	struct lat_stats *lat;		/* periodic: release -> running */
	struct lat_stats *frame;	/* periodic: timer event to the next */
	struct lat_stats *kind[RK_COUNT];
	struct win_worst win;
	uint64_t loops, frames, met, overruns, stutters, last_arrival;
	uint64_t ran0, waited0;
	bool have_sched;
	double desired_ns, got_ns;
	int policy, prio;
};

struct rt_run {
	const struct rtapp_wl *wl;
	struct sim_ctx *c;
	uint64_t lpm;			/* loops per ms */
	uint64_t t0, end;		/* end: UINT64_MAX as a load */
	_Atomic int abort;
	pthread_barrier_t ready, go;
	struct rt_barrier *bar;
	struct rt_wait *wait;
	struct rt_thr *thr;
	int n;
	pthread_mutex_t lock;		/* --trace's frames */
};

/* ---- waiting -------------------------------------------------------- */

static bool stopping(const struct rt_run *rr)
{
	return atomic_load(&rr->abort) || now_ns() >= rr->end;
}

/* Sleep to an absolute CLOCK_MONOTONIC time, whatever signals come. */
static void sleep_to(uint64_t t)
{
	struct timespec ts = ns_to_ts(t);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* Wait on cv a second at most, never past the end (CLOCK_MONOTONIC). */
static void cond_wait_bounded(struct rt_run *rr, pthread_cond_t *cv,
			      pthread_mutex_t *m)
{
	uint64_t until = now_ns() + NSEC_PER_SEC;
	struct timespec ts;

	if (until > rr->end)
		until = rr->end;
	ts = ns_to_ts(until);
	pthread_cond_timedwait(cv, m, &ts);
}

/* A mutex (priority-inheriting with pi_enabled) and its condition. */
static int init_sync(pthread_mutex_t *m, pthread_cond_t *cv, bool pi)
{
	pthread_condattr_t a;
	pthread_mutexattr_t ma;
	int e;

	e = pthread_condattr_init(&a);
	if (!e)
		e = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (!e)
		e = pthread_cond_init(cv, &a);
	pthread_condattr_destroy(&a);
	if (e)
		return -e;
	e = pthread_mutexattr_init(&ma);
	if (!e && pi)
		e = pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	if (!e)
		e = pthread_mutex_init(m, &ma);
	pthread_mutexattr_destroy(&ma);
	if (e)
		pthread_cond_destroy(cv);
	return -e;
}

/* ---- the events ----------------------------------------------------- */

/*
 * A wakeup: due is when the thread was to run (an expiry, a sleep's end,
 * a resume, the barrier's last user), woke when it did. A workload
 * without a periodic thread has no release to measure latency from: its
 * wakeups are its latency (and its latency over time).
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
		if (stopping(rr))
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
	uint64_t due = now_ns() + ns, woke;

	if (due > rr->end) {
		sleep_to(rr->end);
		return false;
	}
	sleep_to(due);
	woke = now_ns();
	sample(th, RK_SLEEP, due, woke);
	return !atomic_load(&rr->abort);
}

/* A frame of a periodic thread ended at arrival: pacing and deadline. */
static void frame_end(struct rt_thr *th, uint64_t arrival, uint64_t expiry,
		      uint64_t period)
{
	th->frames++;
	if (arrival <= expiry)
		th->met++;
	else
		th->overruns++;
	if (th->last_arrival) {
		stats_add(th->frame, arrival - th->last_arrival);
		th->stutters += arrival - th->last_arrival > 2 * period;
	}
	th->last_arrival = arrival;
	if (th->rr->c->work)
		work_add(th->rr->c->work, WORK_FRAMES, 1);
}

/* The next frame was released at expiry and runs from start. */
static void frame_start(struct rt_thr *th, uint64_t expiry, uint64_t start,
			uint64_t woke_at)
{
	struct rt_run *rr = th->rr;
	struct sim_result *r = rr->c->res;
	uint64_t lat = start - expiry;

	stats_add(th->lat, lat);
	win_add(&th->win, expiry, lat);
	if (r->worst.keep) {
		pthread_mutex_lock(&rr->lock);
		worst_frame_add(&r->worst, expiry, woke_at, sched_getcpu(),
				start);
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
		th->next[k] = rr->t0;
	}
	th->next[k] += e->ns;
	expiry = th->next[k];
	frame_end(th, now, expiry, e->ns);
	if (now < expiry) {
		uint64_t woke;

		if (expiry > rr->end) {
			sleep_to(rr->end);
			return false;
		}
		sleep_to(expiry);
		woke = now_ns();
		sample(th, RK_TIMER, expiry, woke);
		frame_start(th, expiry, woke, woke);
	} else {
		/* late: the frame starts now; relative starts over from now */
		frame_start(th, expiry, now, now);
		if (!th->task->timer_abs[k])
			th->next[k] = now;
	}
	return !stopping(rr);
}

static bool ev_barrier(struct rt_thr *th, const struct rtapp_event *e)
{
	struct rt_run *rr = th->rr;
	struct rt_barrier *b = &rr->bar[e->res];
	bool ok = true;

	pthread_mutex_lock(&b->m);
	if (++b->count >= b->users) {
		b->count = 0;
		b->gen++;
		b->stamp = now_ns();
		pthread_cond_broadcast(&b->cv);
	} else {
		uint64_t gen = b->gen;

		while (b->gen == gen && (ok = !stopping(rr)))
			cond_wait_bounded(rr, &b->cv, &b->m);
		if (b->gen != gen) {
			uint64_t t = now_ns();

			sample(th, RK_BARRIER, b->stamp, t);
			ok = true;
		}
	}
	pthread_mutex_unlock(&b->m);
	return ok && !stopping(rr);
}

static bool ev_suspend(struct rt_thr *th, const struct rtapp_event *e)
{
	struct rt_run *rr = th->rr;
	struct rt_wait *w = &rr->wait[e->res];
	uint64_t gen;
	bool ok = true;

	pthread_mutex_lock(&w->m);
	gen = w->gen;
	w->waiters++;
	while (w->gen == gen && (ok = !stopping(rr)))
		cond_wait_bounded(rr, &w->cv, &w->m);
	w->waiters--;
	if (w->gen != gen) {
		uint64_t t = now_ns();

		sample(th, RK_RESUME, w->stamp, t);
		ok = true;
	}
	pthread_mutex_unlock(&w->m);
	return ok && !stopping(rr);
}

static void ev_resume(struct rt_thr *th, const struct rtapp_event *e)
{
	struct rt_wait *w = &th->rr->wait[e->res];

	pthread_mutex_lock(&w->m);
	if (!w->waiters)
		w->lost++;
	w->stamp = now_ns();
	w->gen++;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->m);
}

/* One event: false when the thread is to stop (the end, or an abort). */
static bool event(struct rt_thr *th, const struct rtapp_event *e)
{
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
		ev_resume(th, e);
		return !stopping(th->rr);
	}
	return false;
}

/* The thread's phases, for its loops (-1: until the end). */
static void run_phases(struct rt_thr *th)
{
	const struct rtapp_task *t = th->task;
	long i, l;
	int p, k;

	for (i = 0; t->loop < 0 || i < t->loop; i++)
		for (p = 0; p < t->nphase; p++) {
			const struct rtapp_phase *ph = &t->phase[p];

			for (l = 0; ph->loop < 0 || l < ph->loop; l++) {
				for (k = 0; k < ph->nev; k++)
					if (!event(th, &ph->ev[k]))
						return;
				th->loops++;
				/* as a load: a pass is its work, or its frames */
				if (th->rr->c->work && !t->periodic)
					work_add(th->rr->c->work, WORK_FRAMES,
						 1);
			}
		}
}

/* ---- the threads ---------------------------------------------------- */

/*
 * The timer slack of a thread rt-app starts from a shell: the kernel's
 * default, 50 us. Ours would inherit 0 from interbench's real-time
 * parent (fork copies it, and the kernel gives it back on leaving the
 * real-time class only if it was not 0), which made a SCHED_OTHER
 * thread's timer wakeups 50 us earlier than rt-app's: p50 22 against 74
 * us (doc/agreement.txt). Real-time threads have no slack either way.
 */
#define RTAPP_TIMER_SLACK_NS	50000

static int thr_sched(struct rt_thr *th)
{
	const struct rtapp_task *t = th->task;
	struct sched_want w = { .policy = t->policy }, got;
	int e;

	if (t->policy == POL_OTHER)
		w.nice = t->prio;
	else
		w.prio = t->prio;
	if (prctl(PR_SET_TIMERSLACK, RTAPP_TIMER_SLACK_NS, 0, 0, 0)) {
		snprintf(th->what, sizeof(th->what), "task %s: cannot set its "
			 "timer slack", t->name);
		return -errno;
	}
	e = policy_set(&w);
	if (e) {
		snprintf(th->what, sizeof(th->what), "task %s: cannot run %s "
			 "%d%s", t->name, policy_kernel_name(t->policy),
			 t->prio, policy_rt(t->policy) && e == -EPERM ?
			 " (needs real-time rights)" : "");
		return e;
	}
	th->policy = th->prio = -1;
	if (!policy_get(&got)) {
		th->policy = got.policy;
		th->prio = got.policy == POL_OTHER || got.policy == POL_BATCH ?
			   got.nice : got.prio;
	}
	return 0;
}

static void *rt_thread(void *arg)
{
	struct rt_thr *th = arg;
	struct rt_run *rr = th->rr;
	struct sim_result *r = rr->c->res;
	char comm[16];
	uint64_t ran, waited;

	/* its name in ps and traces: the task's, cut to what fits */
	memcpy(comm, th->task->name, sizeof(comm) - 1);
	comm[sizeof(comm) - 1] = '\0';
	pthread_setname_np(pthread_self(), comm);
	pthread_mutex_lock(&rr->lock);
	worst_frame_thread(&r->worst);
	pthread_mutex_unlock(&rr->lock);
	th->err = thr_sched(th);
	if (!th->err)
		th->have_sched = !thread_schedstat(&th->ran0, &th->waited0);
	pthread_barrier_wait(&rr->ready);
	/* the run's start (rr->t0) is set between the two */
	pthread_barrier_wait(&rr->go);
	if (th->err || atomic_load(&rr->abort))
		return NULL;
	th->win = r->windows;
	run_phases(th);
	if (th->have_sched && !thread_schedstat(&ran, &waited)) {
		th->got_ns = (double)(ran - th->ran0);
		th->desired_ns = th->got_ns + (double)(waited - th->waited0);
	}
	task_acc_add_self(&r->task);
	return NULL;
}

static void thr_free(struct rt_thr *th)
{
	int k;

	free(th->lat);
	free(th->frame);
	for (k = 0; k < RK_COUNT; k++)
		free(th->kind[k]);
}

static int thr_alloc(struct rt_thr *th)
{
	int k;

	th->lat = malloc(sizeof(*th->lat));
	th->frame = malloc(sizeof(*th->frame));
	if (!th->lat || !th->frame)
		return -ENOMEM;
	stats_init(th->lat);
	stats_init(th->frame);
	for (k = 0; k < RK_COUNT; k++) {
		th->kind[k] = malloc(sizeof(*th->kind[k]));
		if (!th->kind[k])
			return -ENOMEM;
		stats_init(th->kind[k]);
	}
	return 0;
}

/* ---- the figures ---------------------------------------------------- */

static struct rtapp_sum sum_of(const struct lat_stats *s)
{
	struct rtapp_sum x = { .count = s->count };

	if (!s->count)
		return x;
	x.mean = stats_mean(s);
	x.p50 = stats_percentile(s, 50);
	x.p90 = stats_percentile(s, 90);
	x.p99 = stats_percentile(s, 99);
	x.max = s->max;
	return x;
}

static void merge_win(struct win_worst *dst, const struct win_worst *src)
{
	int i;

	for (i = 0; i < WIN_SLOTS; i++)
		if (src->worst[i] != WIN_EMPTY &&
		    (dst->worst[i] == WIN_EMPTY || src->worst[i] > dst->worst[i]))
			dst->worst[i] = src->worst[i];
}

/* Every thread's figures into the result and own[]: 0 or -ENOMEM. */
static int collect(struct rt_run *rr, uint64_t stop)
{
	struct sim_result *r = rr->c->res;
	struct rtapp_own *own = (struct rtapp_own *)r->own;
	struct lat_stats *all = malloc(sizeof(*all));
	struct lat_stats *mine = malloc(sizeof(*mine));
	int i, k;

	if (!all || !mine) {
		free(all);
		free(mine);
		return -ENOMEM;
	}
	for (i = 0; i < rr->n; i++) {
		struct rt_thr *th = &rr->thr[i];
		struct rtapp_thr_out *o = &own->thr[i];

		stats_merge(&r->latency, th->lat);
		stats_merge(&r->frame_time, th->frame);
		r->stutters += th->stutters;
		r->frames += th->frames;
		r->frames_met += th->met;
		r->cpu_desired_ns += th->desired_ns;
		r->cpu_got_ns += th->got_ns;
		merge_win(&r->windows, &th->win);
		stats_init(mine);
		for (k = 0; k < RK_COUNT; k++) {
			stats_merge(&r->wakeup, th->kind[k]);
			stats_merge(mine, th->kind[k]);
		}
		if (!rr->wl->nperiodic)
			stats_merge(&r->latency, mine);
		snprintf(o->name, sizeof(o->name), "%s", th->task->name);
		o->inst = th->inst;
		o->policy = th->policy;
		o->prio = th->prio;
		o->periodic = th->task->periodic;
		o->loops = th->loops;
		o->frames = th->frames;
		o->met = th->met;
		o->overruns = th->overruns;
		o->lat = sum_of(o->periodic ? th->lat : mine);
		own->loops += th->loops;
		own->overruns += th->overruns;
	}
	for (k = 0; k < RK_COUNT; k++) {
		stats_init(all);
		for (i = 0; i < rr->n; i++)
			stats_merge(all, rr->thr[i].kind[k]);
		own->kind[k] = sum_of(all);
	}
	for (i = 0; i < rr->wl->nwait; i++)
		own->resumes_lost += rr->wait[i].lost;
	own->secs = stop > rr->t0 ? (double)(stop - rr->t0) / NSEC_PER_SEC : 0;
	own->loops_per_s = own->secs > 0 ? (double)own->loops / own->secs :
			   NAN;
	free(all);
	free(mine);
	return 0;
}

/* The note: the file and its threads' classes, as asked. */
static void make_note(const struct rtapp_wl *wl, char *buf, size_t n)
{
	int i, used;

	used = snprintf(buf, n, "rt-app %s: %d thread%s", wl->file,
			wl->nthreads, wl->nthreads == 1 ? "" : "s");
	for (i = 0; i < wl->ntask && used > 0 && (size_t)used < n; i++)
		used += snprintf(buf + used, n - (size_t)used, "%s%s %d",
				 i ? ", " : " (", policy_kernel_name(
				 wl->task[i].policy), wl->task[i].prio);
	if (used > 0 && (size_t)used < n - 1)
		snprintf(buf + used, n - (size_t)used, ")");
}

/* ---- the run -------------------------------------------------------- */

static void run_free(struct rt_run *rr)
{
	int i;

	for (i = 0; rr->thr && i < rr->n; i++)
		thr_free(&rr->thr[i]);
	for (i = 0; rr->bar && i < rr->wl->nbarrier; i++) {
		pthread_mutex_destroy(&rr->bar[i].m);
		pthread_cond_destroy(&rr->bar[i].cv);
	}
	for (i = 0; rr->wait && i < rr->wl->nwait; i++) {
		pthread_mutex_destroy(&rr->wait[i].m);
		pthread_cond_destroy(&rr->wait[i].cv);
	}
	free(rr->thr);
	free(rr->bar);
	free(rr->wait);
	pthread_mutex_destroy(&rr->lock);
	free(rr);
}

/* Everything the threads use, made before any of them starts. */
static int run_alloc(struct rt_run *rr)
{
	const struct rtapp_wl *wl = rr->wl;
	int i, k, j = 0, e;

	rr->thr = calloc((size_t)wl->nthreads, sizeof(*rr->thr));
	rr->bar = calloc((size_t)wl->nbarrier + 1, sizeof(*rr->bar));
	rr->wait = calloc((size_t)wl->nwait + 1, sizeof(*rr->wait));
	if (!rr->thr || !rr->bar || !rr->wait)
		return -ENOMEM;
	for (i = 0; i < wl->nbarrier; i++) {
		e = init_sync(&rr->bar[i].m, &rr->bar[i].cv, wl->pi);
		if (e)
			return e;
		rr->bar[i].users = wl->barrier[i].users;
	}
	for (i = 0; i < wl->nwait; i++) {
		e = init_sync(&rr->wait[i].m, &rr->wait[i].cv, wl->pi);
		if (e)
			return e;
	}
	for (i = 0; i < wl->ntask; i++)
		for (k = 0; k < wl->task[i].instance; k++, j++) {
			rr->thr[j].rr = rr;
			rr->thr[j].task = &wl->task[i];
			rr->thr[j].inst = k;
			rr->n = j + 1;
			e = thr_alloc(&rr->thr[j]);
			if (e)
				return e;
		}
	return 0;
}

/* Start every thread, let them set up, then the common start. */
static int start_all(struct rt_run *rr)
{
	struct sim_ctx *c = rr->c;
	uint64_t dur = sim_duration(c);
	int i, e = 0, started = 0;

	/* the threads that start, and this one */
	for (i = 0; i < rr->n; i++) {
		e = -pthread_create(&rr->thr[i].t, NULL, rt_thread,
				    &rr->thr[i]);
		if (e)
			break;
		rr->thr[i].started = true;
		started++;
	}
	if (e) {
		/* those started wait at the barriers for the others: end */
		sim_fail(c->res, e, "cannot start an rt-app thread");
		atomic_store(&rr->abort, 1);
		return e;
	}
	pthread_barrier_wait(&rr->ready);
	for (i = 0; i < rr->n && !e; i++)
		if (rr->thr[i].err) {
			e = rr->thr[i].err;
			sim_fail(c->res, e, rr->thr[i].what);
			atomic_store(&rr->abort, 1);
		}
	rr->t0 = now_ns();
	rr->end = dur ? rr->t0 + dur : UINT64_MAX;
	if (dur)
		win_init(&c->res->windows, rr->t0, dur);
	pthread_barrier_wait(&rr->go);
	return e;
}

static int rtapp_run(struct sim_ctx *c)
{
	const struct rtapp_wl *wl = c->work ? c->cfg->rtapp_load :
					      c->cfg->rtapp_task;
	struct sim_result *r = c->res;
	struct rtapp_own *own = (struct rtapp_own *)r->own;
	struct rt_run *rr;
	uint64_t stop;
	int e, i;

	if (!wl) {
		sim_fail(r, -EINVAL, "RtApp runs a file: -W rtapp:FILE.json");
		return -EINVAL;
	}
	rr = calloc(1, sizeof(*rr));
	if (!rr)
		return -ENOMEM;
	rr->wl = wl;
	rr->c = c;
	rr->lpm = c->cfg->loops_per_ms;
	rr->end = UINT64_MAX;
	pthread_mutex_init(&rr->lock, NULL);
	make_note(wl, r->note, sizeof(r->note));
	r->has_deadlines = wl->nperiodic > 0;
	snprintf(own->file, sizeof(own->file), "%s", wl->file);
	own->bytes = wl->bytes;
	own->fnv = wl->fnv;
	own->nthreads = wl->nthreads;
	own->nperiodic = wl->nperiodic;
	own->loops_per_s = NAN;
	e = run_alloc(rr);
	if (e) {
		sim_fail(r, e, "setting up the rt-app threads");
		run_free(rr);
		return e;
	}
	/* the threads and this one meet twice: set up, then go */
	pthread_barrier_init(&rr->ready, NULL, (unsigned)rr->n + 1);
	pthread_barrier_init(&rr->go, NULL, (unsigned)rr->n + 1);
	e = start_all(rr);
	if (e && !rr->thr[rr->n - 1].started)
		/* the barriers cannot be met: leave the threads to _exit */
		return e;
	for (i = 0; i < rr->n; i++) {
		int j = thread_join_until(rr->thr[i].t, rr->end == UINT64_MAX ?
					  0 : rr->end + c->grace_ns);

		if (j) {
			sim_fail(r, j, "an rt-app thread did not finish");
			return j;	/* the threads die with the process */
		}
	}
	stop = now_ns();
	if (stop > rr->end)
		stop = rr->end;
	if (!e) {
		e = collect(rr, stop);
		if (e)
			sim_fail(r, e, "adding up the rt-app threads");
	}
	pthread_barrier_destroy(&rr->ready);
	pthread_barrier_destroy(&rr->go);
	run_free(rr);
	/* As a load, a workload whose threads all ended rests until killed. */
	while (c->work && !e)
		sleep_to(now_ns() + 3600 * NSEC_PER_SEC);
	return e;
}

/* ---- figures and details ------------------------------------------- */

#define OWN(field)	(SR(own) + offsetof(struct rtapp_own, field))

/* A rtapp_sum's field: arg 0 count, 1 mean, 2 p50, 3 p90, 4 p99, 5 max. */
static double sum_get(const struct figure *f, const struct sim_result *r)
{
	const struct rtapp_sum *s = (const void *)((const char *)r + f->off);

	if (f->arg == 0)
		return (double)s->count;
	if (!s->count)
		return NAN;
	switch ((int)f->arg) {
	case 1: return s->mean;
	case 2: return (double)s->p50;
	case 3: return (double)s->p90;
	case 4: return (double)s->p99;
	}
	return (double)s->max;
}

#define SUM_FIG(g, l, k)						\
	{ g, "count", NULL, l " samples", FU_COUNT, FB_NONE, FIG_OMIT,	\
	  sum_get, OWN(kind[k]), 0, NULL },				\
	{ g, "mean", NULL, "mean " l, FU_NS, FB_LOWER, FIG_OMIT,	\
	  sum_get, OWN(kind[k]), 1, NULL },				\
	{ g, "p50", NULL, "p50 " l, FU_NS, FB_LOWER, FIG_OMIT,		\
	  sum_get, OWN(kind[k]), 2, NULL },				\
	{ g, "p90", NULL, "p90 " l, FU_NS, FB_LOWER, FIG_OMIT,		\
	  sum_get, OWN(kind[k]), 3, NULL },				\
	{ g, "p99", NULL, "p99 " l, FU_NS, FB_LOWER, FIG_OMIT,		\
	  sum_get, OWN(kind[k]), 4, NULL },				\
	{ g, "max", NULL, "max " l, FU_NS, FB_LOWER, FIG_OMIT,		\
	  sum_get, OWN(kind[k]), 5, NULL }
#define SUM_FIGS	6

/* The file a result ran: its name, size and checksum. */
static void json_workload(struct jw *w, const struct figure *f,
			  const struct result *r)
{
	const struct rtapp_own *k = r->kept;
	char fnv[16];

	if (!k)
		return;
	snprintf(fnv, sizeof(fnv), "%08x", k->fnv);
	jw_obj_begin(w, f->key);
	jw_str(w, "file", k->file);
	jw_uint(w, "bytes", k->bytes);
	jw_str(w, "fnv1a", fnv);
	jw_int(w, "threads", k->nthreads);
	jw_int(w, "periodic_threads", k->nperiodic);
	jw_obj_end(w);
}

static void json_threads(struct jw *w, const struct figure *f,
			 const struct result *r)
{
	const struct rtapp_own *k = r->kept;
	const double us = NSEC_PER_USEC;
	int i;

	if (!k)
		return;
	jw_arr_begin(w, f->key);
	for (i = 0; i < k->nthreads && i < RTAPP_MAX_THREADS; i++) {
		const struct rtapp_thr_out *t = &k->thr[i];

		jw_obj_begin(w, NULL);
		jw_str(w, "task", t->name);
		jw_int(w, "instance", t->inst);
		if (t->policy >= 0 && t->policy < POL_COUNT)
			jw_str(w, "policy", policy_kernel_name(t->policy));
		else
			jw_null(w, "policy");
		jw_int(w, "priority", t->prio);
		jw_bool(w, "periodic", t->periodic);
		jw_uint(w, "loops", t->loops);
		if (t->periodic) {
			jw_uint(w, "frames", t->frames);
			jw_uint(w, "frames_met", t->met);
			jw_uint(w, "overruns", t->overruns);
		}
		jw_str(w, "latency_is", t->periodic ? "from release" :
			   "wakeups");
		jw_uint(w, "samples", t->lat.count);
		if (t->lat.count) {
			jw_num(w, "mean_us", t->lat.mean / us);
			jw_num(w, "p50_us", (double)t->lat.p50 / us);
			jw_num(w, "p99_us", (double)t->lat.p99 / us);
			jw_num(w, "max_us", (double)t->lat.max / us);
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static const struct figure rtapp_figures[] = {
	IB_FIG_NOTE,
	IB_FIG_MORE_PCTS,
	IB_FIG_MODE,
	SUM_FIG("timer_wakeup_us", "timer wakeup", RK_TIMER),
	SUM_FIG("sleep_overshoot_us", "sleep overshoot", RK_SLEEP),
	SUM_FIG("resume_latency_us", "resume to running", RK_RESUME),
	SUM_FIG("barrier_latency_us", "barrier to running", RK_BARRIER),
	{ NULL, "loops", NULL, "phase passes", FU_COUNT, FB_NONE, 0,
	  fig_u64, OWN(loops), 0, NULL },
	{ NULL, "loops_per_s", NULL, "phase passes a second", FU_HZ,
	  FB_HIGHER, FIG_OMIT, fig_double, OWN(loops_per_s), 0, NULL },
	{ NULL, "overruns", NULL, "timer events after their expiry",
	  FU_COUNT, FB_LOWER, 0, fig_u64, OWN(overruns), 0, NULL },
	{ NULL, "resumes_lost", NULL, "resumes with nobody suspended",
	  FU_COUNT, FB_NONE, 0, fig_u64, OWN(resumes_lost), 0, NULL },
	{ NULL, "workload", NULL, "the rt-app file", FU_COUNT, FB_NONE,
	  FIG_OMIT, NULL, 0, 0, json_workload },
	{ NULL, "threads", NULL, "each thread", FU_COUNT, FB_NONE, FIG_OMIT,
	  NULL, 0, 0, json_threads },
};

static void *rtapp_keep(const struct sim_result *res)
{
	struct rtapp_own *k = malloc(sizeof(*k));

	if (k)
		memcpy(k, res->own, sizeof(*k));
	return k;
}

static void print_sum(out_fn out, void *ctx, const char *what,
		      const struct rtapp_sum *s)
{
	const double us = NSEC_PER_USEC;

	if (!s->count)
		return;
	out(ctx, "          %s (us): p50 %.1f, p90 %.1f, p99 %.1f, max "
	    "%.1f, mean %.1f; %llu\n", what, (double)s->p50 / us,
	    (double)s->p90 / us, (double)s->p99 / us, (double)s->max / us,
	    s->mean / us, (unsigned long long)s->count);
}

static void rtapp_detail(const struct result *r, const void *opts,
			 out_fn out, void *ctx)
{
	static const char *const kinds[RK_COUNT] = {
		"timer wakeups", "sleep overshoot", "resume -> running",
		"barrier -> running"
	};
	const struct rtapp_own *k = r->kept;
	const double us = NSEC_PER_USEC;
	int i;

	(void)opts;
	if (!k)
		return;
	out(ctx, "          rt-app %s (%llu bytes, fnv1a %08x): %d thread%s, "
	    "%d periodic; %llu loops", k->file, (unsigned long long)k->bytes,
	    k->fnv, k->nthreads, k->nthreads == 1 ? "" : "s", k->nperiodic,
	    (unsigned long long)k->loops);
	if (!isnan(k->loops_per_s))
		out(ctx, ", %.1f a second", k->loops_per_s);
	out(ctx, "\n");
	for (i = 0; i < k->nthreads && i < RTAPP_MAX_THREADS; i++) {
		const struct rtapp_thr_out *t = &k->thr[i];

		out(ctx, "          %s[%d] %s %d: ", t->name, t->inst,
		    t->policy >= 0 && t->policy < POL_COUNT ?
		    policy_kernel_name(t->policy) : "?", t->prio);
		if (t->periodic)
			out(ctx, "%llu frames, %llu met, %llu late; latency",
			    (unsigned long long)t->frames,
			    (unsigned long long)t->met,
			    (unsigned long long)t->overruns);
		else
			out(ctx, "%llu loops; wakeups",
			    (unsigned long long)t->loops);
		if (t->lat.count)
			out(ctx, " p50 %.1f, p99 %.1f, max %.1f us\n",
			    (double)t->lat.p50 / us, (double)t->lat.p99 / us,
			    (double)t->lat.max / us);
		else
			out(ctx, " none\n");
	}
	for (i = 0; i < RK_COUNT; i++)
		print_sum(out, ctx, kinds[i], &k->kind[i]);
	if (k->resumes_lost)
		out(ctx, "          %llu resume%s found nobody suspended (lost, "
		    "as in rt-app)\n", (unsigned long long)k->resumes_lost,
		    k->resumes_lost == 1 ? "" : "s");
}

/* The threads see the end within a burn slice or a wait's second. */
static uint64_t rtapp_grace(const struct run_cfg *cfg, const void *opts)
{
	(void)cfg;
	(void)opts;
	return NSEC_PER_SEC;
}

const struct sim_desc sim_rtapp = {
	.name = "RtApp",
	.summary = "an rt-app JSON workload: -W rtapp:FILE, -w rtapp:FILE",
	.flags = SIM_DEADLINES | SIM_NAMED,
	.run = rtapp_run,
	.figures = rtapp_figures,
	.nfigures = sizeof(rtapp_figures) / sizeof(rtapp_figures[0]),
	.keep = rtapp_keep,
	.detail = rtapp_detail,
	.grace_ns = rtapp_grace,
};
