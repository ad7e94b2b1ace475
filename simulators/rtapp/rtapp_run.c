// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/rtapp/rtapp_run.c - an rt-app workload run as rt-app 1.0 runs it
 * (src/rt-app.c): a thread for every task and instance, each at the
 * class and priority the file gives, starting together (each after its
 * "delay"), going through its phases' events (rtapp_event.c) in order,
 * for its loops; at the start of each phase pass its CPUs (the phase's,
 * else the thread's, else all interbench may use) and its taskgroup.
 * Everything the threads use is made before they start; a thread that
 * stops gives back the mutexes it holds. The figures are added up in
 * rtapp.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "lib/interfere.h"
#include "lib/policy.h"
#include "core/cfg.h"
#include "core/load.h"
#include "core/raw.h"
#include "core/sim.h"
#include "simulators/engine.h"
#include "simulators/rtapp/rtapp.h"
#include "simulators/rtapp/rtapp_sim.h"

/* ---- where a thread runs: its CPUs, its taskgroup --------------------- */

/* Move the calling thread into taskgroup tg (cgroup v1: its tasks file). */
static int tg_enter(struct rt_thr *th, int tg)
{
	char path[RTAPP_PATH + 160], tid[24];
	int fd, len, e = 0;

	if (tg < 0 || tg == th->tg)
		return 0;
	snprintf(path, sizeof(path), "%s/tasks", th->rr->tg_dir[tg]);
	len = snprintf(tid, sizeof(tid), "%d", gettid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, tid, (size_t)len) != len)
		e = -errno;
	if (fd >= 0)
		close(fd);
	if (e)
		snprintf(th->what, sizeof(th->what), "task %s: cannot enter "
			 "taskgroup %s", th->task->name, th->rr->wl->tg[tg]);
	else
		th->tg = tg;
	return e;
}

/* At a phase's start, as rt-app: the phase's CPUs, else the thread's. */
static int place(struct rt_thr *th, const struct rtapp_phase *ph)
{
	const struct rtapp_task *t = th->task;
	const cpu_set_t *want = ph->has_cpus ? &ph->cpus :
				t->has_cpus ? &t->cpus : &th->rr->all;
	int e;

	if (want != th->cpus && (!th->cpus || !CPU_EQUAL(want, th->cpus))) {
		e = pthread_setaffinity_np(pthread_self(), sizeof(*want), want);
		if (e) {
			snprintf(th->what, sizeof(th->what), "task %s: cannot "
				 "run on the CPUs it names", t->name);
			return -e;
		}
	}
	th->cpus = want;
	return tg_enter(th, ph->tg);
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
				th->err = place(th, ph);
				if (th->err)
					return;
				for (k = 0; k < ph->nev; k++)
					if (!rtapp_event(th, &ph->ev[k]))
						return;
				th->loops++;
				th->last_pass = now_ns();
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
	return tg_enter(th, t->tg);
}

/*
 * The run's start, as rt-app 1.0 takes it: the file's first thread reads
 * the clock once it is set up, before it waits for the others at the
 * start (its timers, and every delay, count from there).
 */
static void take_start(struct rt_run *rr)
{
	struct sim_ctx *c = rr->c;
	uint64_t dur = sim_duration(c);

	pthread_mutex_lock(&rr->lock);
	rr->t0 = now_ns();
	rr->end = dur ? rr->t0 + dur : UINT64_MAX;
	if (dur)
		win_init(&c->res->windows, rr->t0, dur);
	pthread_cond_broadcast(&rr->started);
	pthread_mutex_unlock(&rr->lock);
}

static void *rt_thread(void *arg)
{
	struct rt_thr *th = arg;
	struct rt_run *rr = th->rr;
	struct sim_result *r = rr->c->res;
	char comm[16];
	uint64_t ran, waited;

	atomic_store(&th->tid, gettid());
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
	else
		atomic_store(&rr->abort, 1);	/* seen by all after the start */
	if (th == rr->thr)
		take_start(rr);
	/*
	 * The start, as rt-app's: the threads alone meet there, each set
	 * up; the last to come goes on at once, the kernel wakes the
	 * others. A setup that failed ends them all here.
	 */
	pthread_barrier_wait(&rr->go);
	if (atomic_load(&rr->abort))
		return NULL;
	th->win = r->windows;
	th->t_first = rr->t0 + th->task->delay_ns;
	if (th->task->delay_ns)
		rtapp_sleep_to(th->t_first < rr->end ? th->t_first : rr->end);
	if (!rtapp_stopping(rr))
		run_phases(th);
	while (th->nheld)
		rtapp_unlock(th, th->held[0]);
	if (th->have_sched && !thread_schedstat(&ran, &waited)) {
		th->got_ns = (double)(ran - th->ran0);
		th->desired_ns = th->got_ns + (double)(waited - th->waited0);
	}
	task_acc_add_self(&r->task);
	return NULL;
}

/* The conditions a thread waits on (suspend, wait, sync): its wakes. */
static int thr_waits_on(struct rt_run *rr, struct rt_thr *th)
{
	const struct rtapp_task *t = th->task;
	size_t n = (size_t)rr->wl->ncond + 1;
	int p, k;

	th->waits_on = calloc(n, sizeof(*th->waits_on));
	th->lost0 = calloc(n, sizeof(*th->lost0));
	if (!th->waits_on || !th->lost0)
		return -ENOMEM;
	for (p = 0; p < t->nphase; p++)
		for (k = 0; k < t->phase[p].nev; k++) {
			const struct rtapp_event *e = &t->phase[p].ev[k];

			if (e->type == RTE_SUSPEND || e->type == RTE_WAIT ||
			    e->type == RTE_SYNC)
				th->waits_on[e->res] = true;
		}
	return 0;
}

static int thr_alloc(struct rt_run *rr, struct rt_thr *th)
{
	int k;

	if (thr_waits_on(rr, th))
		return -ENOMEM;

	th->lat = malloc(sizeof(*th->lat));
	th->frame = malloc(sizeof(*th->frame));
	th->slack = malloc(sizeof(*th->slack));
	if (!th->lat || !th->frame || !th->slack)
		return -ENOMEM;
	stats_init(th->lat);
	stats_init(th->frame);
	stats_init(th->slack);
	th->slack_min = INT64_MAX;
	th->tg = -1;
	for (k = 0; k < RK_COUNT; k++) {
		th->kind[k] = malloc(sizeof(*th->kind[k]));
		if (!th->kind[k])
			return -ENOMEM;
		stats_init(th->kind[k]);
	}
	if (th->task->membuf) {
		/* touched now: no page is faulted in while it measures */
		th->buf = malloc(rr->wl->membuf);
		if (!th->buf)
			return -ENOMEM;
		memset(th->buf, 0, rr->wl->membuf);
	}
	return rtapp_init_cv(&th->wake_cv);
}

static void thr_free(struct rt_thr *th)
{
	int k;

	free(th->lat);
	free(th->frame);
	free(th->slack);
	for (k = 0; k < RK_COUNT; k++)
		free(th->kind[k]);
	free(th->buf);
	free(th->waits_on);
	free(th->lost0);
	pthread_cond_destroy(&th->wake_cv);
}

/* ---- the run -------------------------------------------------------- */

/*
 * The taskgroups' folders, under cgroup v1's cpu controller as rt-app
 * makes them (rtapp_check.c found it): each part of a path made if it is
 * not there, and what we made removed at the end (rt-app leaves them).
 */
static int tg_make(struct rt_run *rr)
{
	const struct rtapp_wl *wl = rr->wl;
	struct mntent *m;
	char *d;
	size_t k, len;
	FILE *f;
	int i;

	if (!wl->ntg)
		return 0;
	f = setmntent("/proc/mounts", "re");
	while (f && (m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup") && hasmntopt(m, "cpu")) {
			snprintf(rr->tg_root, sizeof(rr->tg_root), "%s",
				 m->mnt_dir);
			break;
		}
	if (f)
		endmntent(f);
	rr->tg_dir = calloc((size_t)wl->ntg, sizeof(*rr->tg_dir));
	rr->tg_made = calloc((size_t)wl->ntg * RTAPP_PATH, sizeof(bool));
	if (!rr->tg_root[0] || !rr->tg_dir || !rr->tg_made)
		return rr->tg_root[0] ? -ENOMEM : -ENOENT;
	for (i = 0; i < wl->ntg; i++) {
		d = rr->tg_dir[i];
		len = strlen(wl->tg[i]);
		/* each part of the path: the folder up to its end */
		for (k = 1; k <= len; k++) {
			if (k < len && wl->tg[i][k] != '/')
				continue;
			snprintf(d, sizeof(*rr->tg_dir), "%s%.*s", rr->tg_root,
				 (int)k, wl->tg[i]);
			if (!mkdir(d, 0755))
				rr->tg_made[i * RTAPP_PATH + k] = true;
			else if (errno != EEXIST)
				return -errno;
		}
	}
	return 0;
}

/* The folders tg_make made, deepest first, once the threads are gone. */
static void tg_remove(struct rt_run *rr)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	char path[sizeof(*rr->tg_dir)];
	int i, k, tries;

	if (atomic_exchange(&rr->tg_removed, 1))
		return;
	for (i = rr->wl->ntg - 1; rr->tg_made && i >= 0; i--)
		for (k = RTAPP_PATH - 1; k > 0; k--) {
			if (!rr->tg_made[i * RTAPP_PATH + k])
				continue;
			snprintf(path, sizeof(path), "%s%.*s", rr->tg_root, k,
				 rr->wl->tg[i]);
			/* the last threads may still be leaving it */
			for (tries = 0; rmdir(path) && errno == EBUSY &&
			     tries < 50; tries++)
				nanosleep(&ts, NULL);
		}
}

/*
 * A run stopped by a signal (a load is always ended by SIGTERM) would
 * leave its taskgroups behind. With taskgroups, the threads block the
 * stop signals, and one more thread waits for them: it moves the
 * threads back to the root group, removes the groups it made, and lets
 * the signal end the process as it would have.
 */
static void *tg_watch(void *arg)
{
	struct rt_run *rr = arg;
	char path[RTAPP_PATH + 16], tid[24];
	sigset_t set;
	int sig = 0, i, fd, len;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigwait(&set, &sig))
		return NULL;
	/* from here it finishes: the process ends with it */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	snprintf(path, sizeof(path), "%s/tasks", rr->tg_root);
	for (i = 0; i < rr->n; i++) {
		int t = atomic_load(&rr->thr[i].tid);

		fd = t ? open(path, O_WRONLY | O_CLOEXEC) : -1;
		if (fd < 0)
			continue;
		len = snprintf(tid, sizeof(tid), "%d", t);
		/* a thread that has ended has nothing to move */
		if (write(fd, tid, (size_t)len) < 0)
			t = 0;
		close(fd);
	}
	tg_remove(rr);
	signal(sig, SIG_DFL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return NULL;
}

/* With taskgroups: the stop signals to tg_watch alone. 0 or -errno. */
static int tg_watch_start(struct rt_run *rr)
{
	sigset_t set;
	int e;

	if (!rr->wl->ntg)
		return 0;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* the threads started after this inherit the mask */
	e = pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (!e)
		e = pthread_create(&rr->watch, NULL, tg_watch, rr);
	rr->watching = !e;
	return -e;
}

static void tg_watch_stop(struct rt_run *rr)
{
	if (!rr->watching)
		return;
	pthread_cancel(rr->watch);	/* sigwait is a cancellation point */
	pthread_join(rr->watch, NULL);
	rr->watching = false;
}

static void run_free(struct rt_run *rr)
{
	const struct rtapp_wl *wl = rr->wl;
	int i;

	for (i = 0; rr->thr && i < rr->n; i++)
		thr_free(&rr->thr[i]);
	for (i = 0; rr->bar && i < wl->nbarrier; i++) {
		pthread_mutex_destroy(&rr->bar[i].m);
		pthread_cond_destroy(&rr->bar[i].cv);
	}
	for (i = 0; rr->cond && i < wl->ncond; i++) {
		pthread_mutex_destroy(&rr->cond[i].m);
		free(rr->cond[i].q);
	}
	for (i = 0; rr->mutex && i < wl->nmutex; i++)
		pthread_mutex_destroy(&rr->mutex[i]);
	tg_watch_stop(rr);
	tg_remove(rr);
	if (rr->io_fd >= 0)
		close(rr->io_fd);
	free(rr->thr);
	free(rr->bar);
	free(rr->cond);
	free(rr->mutex);
	free(rr->tg_dir);
	free(rr->tg_made);
	if (rr->stacks)		/* every thread joined */
		munmap(rr->stacks, rr->stacks_len);
	pthread_mutex_destroy(&rr->lock);
	pthread_cond_destroy(&rr->started);
	free(rr);
}

/* Everything the threads use, made before any of them starts. */
static int run_alloc(struct rt_run *rr)
{
	const struct rtapp_wl *wl = rr->wl;
	int i, k, j = 0, e;

	rr->thr = calloc((size_t)wl->nthreads, sizeof(*rr->thr));
	rr->bar = calloc((size_t)wl->nbarrier + 1, sizeof(*rr->bar));
	rr->cond = calloc((size_t)wl->ncond + 1, sizeof(*rr->cond));
	rr->mutex = calloc((size_t)wl->nmutex + 1, sizeof(*rr->mutex));
	if (!rr->thr || !rr->bar || !rr->cond || !rr->mutex)
		return -ENOMEM;
	if (sched_getaffinity(0, sizeof(rr->all), &rr->all))
		return -errno;
	for (i = 0; i < wl->nbarrier; i++) {
		e = rtapp_init_mutex(&rr->bar[i].m, wl->pi);
		if (!e)
			e = rtapp_init_cv(&rr->bar[i].cv);
		if (e)
			return e;
		rr->bar[i].users = wl->barrier[i].users;
	}
	for (i = 0; i < wl->ncond; i++) {
		rr->cond[i].q = calloc((size_t)wl->nthreads,
				       sizeof(*rr->cond[i].q));
		e = rr->cond[i].q ? rtapp_init_mutex(&rr->cond[i].m, false) :
		    -ENOMEM;
		if (e)
			return e;
	}
	for (i = 0; i < wl->nmutex; i++) {
		e = rtapp_init_mutex(&rr->mutex[i], wl->pi);
		if (e)
			return e;
	}
	if (wl->io) {
		/* as rt-app: made if it is not there; never through a link */
		rr->io_fd = open(wl->io_device, O_WRONLY | O_CREAT |
				 O_NOFOLLOW | O_CLOEXEC, 0644);
		if (rr->io_fd < 0)
			return -errno;
	}
	e = tg_make(rr);
	if (e)
		return e;
	for (i = 0; i < wl->ntask; i++)
		for (k = 0; k < wl->task[i].instance; k++, j++) {
			rr->thr[j].rr = rr;
			rr->thr[j].task = &wl->task[i];
			rr->thr[j].inst = k;
			rr->n = j + 1;
			e = thr_alloc(rr, &rr->thr[j]);
			if (e)
				return e;
		}
	return 0;
}

/*
 * A thread's stack. The benchmark runs with its memory locked, and a
 * default 8 MiB stack locked is 2-3 ms to make: the file's threads came
 * to the start over 6.5 ms, where rt-app's (not locked) come within a
 * few hundred us; that spread alone let mp3-short's first signal beat
 * its waiter (doc/rtapp.txt). The events need a few KiB. Even 256 KiB,
 * locked as each thread was made, took mp3-short's five 0.82 ms to make
 * (rt-app: 0.13), and its last, OMXCall, came last: so every stack is
 * made, and locked, before the first thread starts, a guard page below.
 */
#define RTAPP_STACK		(256 * 1024)

static int make_stacks(struct rt_run *rr)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), slot = RTAPP_STACK + page;
	int i;

	rr->stacks_len = slot * (size_t)rr->n;
	rr->stacks = mmap(NULL, rr->stacks_len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (rr->stacks == MAP_FAILED) {
		rr->stacks = NULL;
		return -errno;
	}
	for (i = 0; i < rr->n; i++)
		if (mprotect((char *)rr->stacks + slot * (size_t)i, page,
			     PROT_NONE))
			return -errno;
	return 0;
}

/*
 * Start every thread, in the file's order, as rt-app 1.0 does
 * (src/rt-app.c): each sets itself up and waits at the start for the
 * others; this thread takes no part, and waits only for the start's
 * time, which the first thread takes, to know when to expect the end.
 */
static int start_all(struct rt_run *rr)
{
	struct sim_ctx *c = rr->c;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	pthread_attr_t attr;
	bool have_attr = false;
	int i, e;

	e = make_stacks(rr);
	if (!e) {
		e = -pthread_attr_init(&attr);
		have_attr = !e;
	}
	for (i = 0; !e && i < rr->n; i++) {
		char *lo = (char *)rr->stacks + (RTAPP_STACK + page) *
			   (size_t)i + page;

		e = -pthread_attr_setstack(&attr, lo, RTAPP_STACK);
		if (!e)
			e = -pthread_create(&rr->thr[i].t, &attr, rt_thread,
					    &rr->thr[i]);
	}
	if (have_attr)
		pthread_attr_destroy(&attr);
	if (e) {
		/* those started wait at the start for the others: end */
		sim_fail(c->res, e, "cannot start an rt-app thread");
		atomic_store(&rr->abort, 1);
		return e;
	}
	pthread_mutex_lock(&rr->lock);
	while (!rr->t0)
		pthread_cond_wait(&rr->started, &rr->lock);
	pthread_mutex_unlock(&rr->lock);
	return 0;
}

/* The threads' own failures after the start (a CPU gone, a cgroup). */
static int thread_errors(struct rt_run *rr)
{
	int i;

	for (i = 0; i < rr->n; i++)
		if (rr->thr[i].err) {
			sim_fail(rr->c->res, rr->thr[i].err, rr->thr[i].what);
			return rr->thr[i].err;
		}
	return 0;
}

int rtapp_run(struct sim_ctx *c)
{
	const struct rtapp_opts *o = c->opts;
	const struct rtapp_wl *wl = !o ? NULL : c->work ? o->load : o->task;
	struct sim_result *r = c->res;
	struct rt_run *rr;
	uint64_t stop;
	int e, i;

	if (!wl) {
		sim_fail(r, -EINVAL, c->work ? "the RtApp load runs a file: "
			 "-w rtapp:FILE.json" : "RtApp runs a file: "
			 "-W rtapp:FILE.json");
		return -EINVAL;
	}
	rr = calloc(1, sizeof(*rr));
	if (!rr)
		return -ENOMEM;
	rr->wl = wl;
	rr->c = c;
	rr->lpm = c->cfg->loops_per_ms;
	rr->end = UINT64_MAX;
	rr->io_fd = -1;
	pthread_mutex_init(&rr->lock, NULL);
	pthread_cond_init(&rr->started, NULL);
	rtapp_note(wl, r->note, sizeof(r->note));
	r->has_deadlines = wl->nperiodic > 0;
	e = run_alloc(rr);
	if (e) {
		sim_fail(r, e, wl->io && rr->io_fd < 0 ? "opening io_device" :
			 "setting up the rt-app threads");
		run_free(rr);
		return e;
	}
	/* the threads meet at the start, this one not among them */
	pthread_barrier_init(&rr->go, NULL, (unsigned)rr->n);
	e = tg_watch_start(rr);
	if (e) {
		sim_fail(r, e, "watching for the stop signals");
		run_free(rr);
		return e;
	}
	e = start_all(rr);
	if (e)
		/* the start cannot be met: leave the threads to _exit */
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
	if (!e)
		e = thread_errors(rr);
	if (!e) {
		e = rtapp_collect(rr, stop);
		if (e)
			sim_fail(r, e, "adding up the rt-app threads");
	}
	pthread_barrier_destroy(&rr->go);
	run_free(rr);
	/* As a load, a workload whose threads all ended rests until killed. */
	while (c->work && !e)
		rtapp_sleep_to(now_ns() + 3600 * NSEC_PER_SEC);
	return e;
}
