/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/rtapp/rtapp_sim.h - what the RtApp simulator's parts share:
 * the events (rtapp_event.c), the threads added up (rtapp_collect.c),
 * the run and its threads (rtapp_run.c), and the figures (rtapp.c), in
 * the folder's order (rtapp.h). Private to them.
 */
#ifndef INTERBENCH_RTAPP_SIM_H
#define INTERBENCH_RTAPP_SIM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/raw.h"
#include "core/sim.h"
#include "stats.h"
#include "simulators/rtapp/rtapp.h"

/* Wakeups by what woke the thread: RtApp's own figures, by kind. */
enum { RK_TIMER, RK_SLEEP, RK_WAKE, RK_BARRIER, RK_COUNT };

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
	bool periodic, woken;
	uint64_t loops;			/* phase passes */
	uint64_t frames, met, overruns;	/* periodic: timer events */
	struct rtapp_sum lat;		/* periodic: from the release */
	struct rtapp_sum wake;		/* every wakeup, from what woke it */
	struct rtapp_sum timer;		/* of them, its timers' */
	uint64_t by[RK_COUNT];		/* of them, by what woke it */
	struct rtapp_sum slack;		/* periodic: expiry - arrival >= 0 */
	int64_t slack_min;		/* ns, < 0: the worst overrun */
	double demand;			/* CPUs it asks; < 0 unknown */
	double ran_ns, waited_ns;	/* on a CPU, and runnable waiting */
	bool stalled;			/* waiting on another at the end */
	double stalled_from;		/* s into the cell it began waiting */
	uint64_t stall_missed;		/* deadlines it missed meanwhile */
};

/* What RtApp keeps in its sim_result's own[]. */
struct rtapp_own {
	char file[64];
	uint64_t bytes;
	uint32_t fnv;
	int32_t nthreads, nperiodic;
	double demand;			/* CPUs its threads ask, those known */
	int32_t ncpus;			/* CPUs they may run on */
	bool demand_partial;		/* some threads' demand unknown */
	double secs;			/* how long the threads ran */
	uint64_t loops;
	double loops_per_s;		/* NaN: no time measured */
	uint64_t overruns;		/* timer events after their expiry */
	uint64_t wakes_lost;		/* resumes and signals nobody took */
	int32_t nstalled;		/* threads stalled (thr[].stalled) */
	uint64_t stall_missed;		/* deadlines they missed meanwhile */
	struct rtapp_sum kind[RK_COUNT];
	struct rtapp_thr_out thr[RTAPP_MAX_THREADS];
};
_Static_assert(sizeof(struct rtapp_own) <= SIM_OWN_BYTES,
	       "RtApp's figures must fit in sim_result.own");

/* rt-app's barrier: the last of its users wakes the others. */
struct rt_barrier {
	pthread_mutex_t m;
	pthread_cond_t cv;
	int users, count;
	uint64_t gen;			/* passes so far */
	uint64_t stamp;			/* when the last user came */
};

struct rt_thr;

/*
 * A condition (suspend, wait, ...): its waiters in the order they came,
 * each woken by name (its own condition variable) with the time of the
 * wake, so that each measures its latency from the wake that woke it.
 */
struct rt_cond {
	pthread_mutex_t m;		/* the queue's, held briefly */
	struct rt_thr **q;		/* waiting, oldest first */
	int n;
	_Atomic uint64_t lost;		/* wakes with nobody waiting */
};

struct rt_run;

struct rt_thr {
	struct rt_run *rr;
	const struct rtapp_task *task;
	int inst;
	pthread_t t;
	int err;
	char what[160];
	uint64_t t_first;		/* its start: the run's, plus delay */
	uint64_t next[RTAPP_MAX_TIMERS];	/* each timer's last expiry */
	bool armed[RTAPP_MAX_TIMERS];
	struct lat_stats *lat;		/* periodic: release -> running */
	struct lat_stats *frame;	/* periodic: timer event to the next */
	struct lat_stats *slack;	/* periodic: expiry - arrival, >= 0 */
	int64_t slack_min;
	struct lat_stats *kind[RK_COUNT];
	struct win_worst win;
	uint64_t loops, frames, met, overruns, stutters, last_arrival;
	uint64_t ran0, waited0;
	bool have_sched;
	double desired_ns, got_ns;
	int policy, prio;
	/* a condition's wake: set under the condition's mutex */
	pthread_cond_t wake_cv;
	uint64_t wake_at;		/* 0: not woken */
	int held[RTAPP_MAX_HELD];	/* mutexes it holds, to give back */
	int nheld;
	const cpu_set_t *cpus;		/* its affinity now; NULL: default */
	int tg;				/* its taskgroup now, -1: none */
	unsigned char *buf;		/* mem, iorun: its own buffer */
	_Atomic int tid;		/* its thread id, once started */
	/*
	 * A stall: when it began waiting on another thread (a condition,
	 * a mutex, a barrier), 0 once it is through; the end of its last
	 * pass; each condition's lost wakes when the wait began (those it
	 * waits on: waits_on).
	 */
	uint64_t wait_since, last_pass;
	bool *waits_on;
	uint64_t *lost0;
};

struct rt_run {
	const struct rtapp_wl *wl;
	struct sim_ctx *c;
	uint64_t lpm;			/* loops per ms */
	uint64_t t0, end;		/* end: UINT64_MAX as a load */
	_Atomic int abort;
	pthread_barrier_t go;		/* the start: the threads alone */
	pthread_cond_t started;		/* t0 taken (under lock) */
	struct rt_barrier *bar;
	struct rt_cond *cond;
	pthread_mutex_t *mutex;
	struct rt_thr *thr;
	int n;
	cpu_set_t all;			/* the threads' default affinity */
	int io_fd;			/* io_device, or -1 */
	char tg_root[RTAPP_PATH];	/* cgroup v1's cpu controller */
	char (*tg_dir)[2 * RTAPP_PATH];	/* each taskgroup's folder */
	bool *tg_made;			/* made by us: removed at the end */
	_Atomic int tg_removed;		/* tg_remove has run */
	pthread_t watch;		/* tg_watch, with taskgroups */
	bool watching;
	void *stacks;			/* the threads', made before */
	size_t stacks_len;
	pthread_mutex_t lock;		/* --trace's frames */
};

/* The events (rtapp_event.c). */
/* One event: false when the thread is to stop (the end, or an abort). */
bool rtapp_event(struct rt_thr *th, const struct rtapp_event *e);
/* Give back mutex m of the file's, which the thread holds. */
void rtapp_unlock(struct rt_thr *th, int m);
/* The run is ending: its end has come, or it was aborted. */
bool rtapp_stopping(const struct rt_run *rr);
/* Sleep to an absolute CLOCK_MONOTONIC time, whatever signals come. */
void rtapp_sleep_to(uint64_t t);
/* A condition variable on CLOCK_MONOTONIC; a mutex (pi: inheriting). */
int rtapp_init_cv(pthread_cond_t *cv);
int rtapp_init_mutex(pthread_mutex_t *m, bool pi);

/* The run (rtapp_run.c): the simulator's run hook. */
int rtapp_run(struct sim_ctx *c);
/* The threads added up into the result (rtapp_collect.c): 0 or -ENOMEM. */
int rtapp_collect(struct rt_run *rr, uint64_t stop);
/* The result's note: the file, its threads, their ask (rtapp_collect.c). */
void rtapp_note(const struct rtapp_wl *wl, char *buf, size_t n);

#endif
