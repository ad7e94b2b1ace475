// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/cell.c - one cell's life: prepare the load, start it and let it settle,
 * start the benchmark, watch both until the benchmark ends (or is stuck),
 * then clean up whatever happened. See cell.h.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/policy.h"
#include "run/cell.h"
#include "lib/system.h"
#include "run/trace.h"
#include "lib/base.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"
#include "loads/loads.h"
#include "simulators/engine.h"

/*
 * Beyond the simulator's allowance (sim_grace_ns()) and a tenth of its
 * duration: time for its process to start and end. Later, it is stuck.
 */
#define STUCK_NS		(5 * NSEC_PER_SEC)
/* A load's files may take this long to make. */
#define PREPARE_NS		(600 * NSEC_PER_SEC)

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;
}

/* The signals that stop a run (SIGPIPE: stdout's reader left, | head). */
static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

void cell_signals(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaction(stop_sigs[i], &sa, NULL);
	/* Only to interrupt our sleeps when a child ends (no SA_RESTART). */
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
}

int cell_stopped(void)
{
	return got_signal;
}

int cell_runner_init(struct cell_runner *rn, const struct plan *p)
{
	memset(rn, 0, sizeof(*rn));
	rn->plan = p;
	rn->sh = mmap(NULL, sizeof(*rn->sh), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rn->sh == MAP_FAILED) {
		rn->sh = NULL;
		return -errno;
	}
	return 0;
}

/* ---- processes ----------------------------------------------------- */

/*
 * In a fresh child: own process group, dies with the parent, and a name
 * (ib:bench:Audio, ib:load:Burn) so ps and the tests can tell them apart.
 */
static void child_setup(pid_t parent, const char *role, const char *name,
			bool session)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD };
	char comm[16];
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	/* a session is a process group of its own too: pgid = pid */
	if (!session || setsid() < 0)
		setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	snprintf(comm, sizeof(comm), "ib:%s:%s", role, name);
	prctl(PR_SET_NAME, comm);
}

/* Sleep ns, or less: SIGCHLD and the stop signals cut it short. */
static void doze(uint64_t ns)
{
	struct timespec ts = ns_to_ts(ns);

	nanosleep(&ts, NULL);
}

/*
 * Wait for pid until the monotonic deadline: 1 exited (*status set),
 * 0 timed out, 2 another child changed state, -1 a signal asked us to
 * stop. No polling: a cell's supervisor woke every 50 ms on the bench's
 * CPU (-u), in step with Audio's 50 ms releases and every third of
 * Video's, and each frame found its CPU just woken: their idle latencies
 * were lower than with nobody there. The signals stay blocked but in
 * ppoll, so one that comes before the sleep still ends it.
 */
static int wait_pid(pid_t pid, int *status, uint64_t deadline)
{
	sigset_t block, open;
	bool woken = false;
	int ret;
	size_t i;

	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	for (i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaddset(&block, stop_sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &open);
	for (;;) {
		pid_t w = sys_reap(pid, status, WNOHANG);
		uint64_t now;
		struct timespec ts;

		if (w == pid || (w < 0 && errno != EINTR)) {
			if (w != pid)
				*status = 0;
			ret = 1;
			break;
		}
		if (got_signal) {
			ret = -1;
			break;
		}
		now = now_ns();
		if (now >= deadline) {
			ret = 0;
			break;
		}
		if (woken) {
			ret = 2;
			break;
		}
		ts = ns_to_ts(deadline - now);
		woken = ppoll(NULL, 0, &ts, &open) < 0 && errno == EINTR;
	}
	sigprocmask(SIG_SETMASK, &open, NULL);
	return ret;
}

static void forget_kid(struct cell_runner *rn, pid_t pid)
{
	int i;

	for (i = 0; i < 2; i++)
		if (rn->kids[i] == pid)
			rn->kids[i] = 0;
}

/* End a process group for good: TERM, then KILL, reaping its leader. */
static void end_group(struct cell_runner *rn, pid_t pid)
{
	int st;

	if (pid <= 0)
		return;
	kill(-pid, SIGTERM);
	if (sys_reap(pid, &st, WNOHANG) != pid) {
		uint64_t until = now_ns() + NSEC_PER_SEC / 2;

		while (sys_reap(pid, &st, WNOHANG) == 0 && now_ns() < until)
			doze(2 * NSEC_PER_MSEC);
		kill(-pid, SIGKILL);
		until = now_ns() + 2 * NSEC_PER_SEC;
		while (sys_reap(pid, &st, WNOHANG) == 0 && now_ns() < until)
			doze(2 * NSEC_PER_MSEC);
	}
	/* The leader's threads are gone; kill anything it left behind. */
	kill(-pid, SIGKILL);
	forget_kid(rn, pid);
}

static void describe_exit(char *buf, size_t n, const char *who, int st)
{
	if (WIFSIGNALED(st))
		snprintf(buf, n, "%s died: signal %d (%s)", who, WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(buf, n, "%s exited early: status %d", who,
			 WEXITSTATUS(st));
}

static void load_ctx_init(struct cell_runner *rn, struct load_ctx *lc,
			  const struct load_desc *l)
{
	memset(lc, 0, sizeof(*lc));
	lc->desc = l;
	lc->cfg = &rn->plan->cfg;
	lc->work = &rn->sh->work;
	lc->cg = rn->cg;
	if (l->sim)
		lc->sim_opts = plan_sim_opts(rn->plan, l->sim);
}

/*
 * Run a load's prepare() (making its files) in a child, so that a signal
 * can stop it at once: 0, -ETIMEDOUT, -EINTR, or the load's -errno.
 */
static int prepare_load(struct cell_runner *rn, const struct load_desc *l)
{
	struct load_work *work = &rn->sh->work;
	struct load_ctx lc;
	pid_t me = getpid(), pid;
	uint64_t until;
	int st, w;

	if (!l->prepare)
		return 0;
	memset(work, 0, sizeof(*work));
	load_ctx_init(rn, &lc, l);
	/* A read file that was there before is not ours to remove. */
	if ((l->flags & LOAD_FILES) && access(rn->plan->cfg.read_file, F_OK))
		rn->read_file_dirty = true;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		int err;

		child_setup(me, "prep", l->name, false);
		err = l->prepare(&lc);
		if (err && !atomic_load(&work->failed))
			load_fail(work, -err, "%s", strerror(-err));
		_exit(err ? 1 : 0);
	}
	rn->kids[0] = pid;
	until = now_ns() + PREPARE_NS;
	do
		w = wait_pid(pid, &st, until);
	while (w == 2);
	if (w <= 0) {
		end_group(rn, pid);
		return w ? -EINTR : -ETIMEDOUT;
	}
	forget_kid(rn, pid);
	if (WIFEXITED(st) && !WEXITSTATUS(st)) {
		rn->read_file_dirty = false;
		return 0;
	}
	if (!atomic_load(&work->failed))
		describe_exit(work->why, sizeof(work->why),
			      "preparing the load", st);
	return atomic_load(&work->failed) ? : -EIO;
}

static pid_t start_load(struct cell_runner *rn, const struct load_desc *l)
{
	const struct run_cfg *cfg = &rn->plan->cfg;
	struct load_work *work = &rn->sh->work;
	pid_t me = getpid(), pid;
	struct load_ctx lc;
	int err;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	child_setup(me, "load", l->name,
		    rn->place && rn->place->group == LG_SESSION);
	/* --load-group: its session is made above; its cgroup here */
	if (rn->place && rn->place->group == LG_CGROUP) {
		err = placement_join(rn->place);
		if (err) {
			load_fail(work, -err, "cannot join the loads' cgroup "
				  "%s: %s", rn->place->dir, strerror(-err));
			_exit(1);
		}
	}
	/* Under memory pressure the kernel should pick a load. */
	sys_write_file("/proc/self/oom_score_adj", "500");
	/* Threads inherit it: every thread of the load runs niced. */
	if (setpriority(PRIO_PROCESS, 0, cfg->load_nice)) {
		load_fail(work, errno, "cannot nice the load to %d: %s",
			  cfg->load_nice, strerror(errno));
		_exit(1);
	}
	/* And its class: threads and forked processes inherit that too. */
	if (cfg->load_policy != POL_OTHER) {
		struct sched_want w = { .policy = cfg->load_policy,
					.nice = cfg->load_nice };

		err = policy_set(&w);
		if (err) {
			load_fail(work, -err, "cannot make the load %s: %s",
				  policy_kernel_name(cfg->load_policy),
				  strerror(-err));
			_exit(1);
		}
	}
	load_ctx_init(rn, &lc, l);
	err = load_run(&lc);
	if (err && !atomic_load(&work->failed))
		load_fail(work, -err, "%s", strerror(-err));
	_exit(1);
}

static pid_t start_bench(struct cell_runner *rn, const struct sim_desc *s)
{
	const struct plan *p = rn->plan;
	struct sim_result *res = &rn->sh->res;
	pid_t me = getpid(), pid;
	struct sim_ctx sc = {
		.desc = s,
		.cfg = &p->cfg,
		.opts = plan_sim_opts(p, s),
		.grace_ns = sim_grace_ns(s, &p->cfg, plan_sim_opts(p, s)),
		.nice = p->cfg.bench_nice,
		.policy = p->cfg.bench_policy,
		.slice_ns = p->cfg.bench_slice_ns,
		.timing_rt = p->cfg.rt_ok,
		.res = res,
	};
	int err;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	child_setup(me, "bench", s->name, false);
	sys_write_file("/proc/self/oom_score_adj", "-1000");
	/* before any thread: each inherits it from the one that made it */
	if (p->cfg.timer_slack_ns &&
	    prctl(PR_SET_TIMERSLACK, (unsigned long)p->cfg.timer_slack_ns,
		  0, 0, 0)) {
		res->status = -errno;
		snprintf(res->why, sizeof(res->why), "--timer-slack: %s",
			 strerror(errno));
		_exit(1);
	}
	/* Best effort: page faults would show up as latency. */
	sys_lock_memory();
	err = s->run(&sc);
	task_acc_add_self(&res->task);
	if (err && !res->status) {
		res->status = err;
		snprintf(res->why, sizeof(res->why), "%s", strerror(-err));
	}
	_exit(err ? 1 : 0);
}

/* ---- a cell --------------------------------------------------------- */

static void snapshot(const struct load_work *w, uint64_t *v)
{
	int k;

	for (k = 0; k < WORK_KINDS; k++)
		v[k] = atomic_load(&w->count[k]);
}

/* The load said why it gave up: the result says so. */
static void load_failed(struct cell_runner *rn, struct result *r)
{
	r->status = RES_LOAD_DIED;
	snprintf(r->why, sizeof(r->why), "load failed: %s",
		 rn->sh->work.why);
}

/* The load's process ended (status st) while the cell ran. */
static void load_died(struct cell_runner *rn, struct result *r, int st)
{
	forget_kid(rn, rn->kids[0]);
	if (atomic_load(&rn->sh->work.failed))
		load_failed(rn, r);
	else {
		r->status = RES_LOAD_DIED;
		describe_exit(r->why, sizeof(r->why), "load", st);
	}
}

static void cell_status(struct result *r, enum result_status st,
			const char *what, const char *why)
{
	r->status = st;
	snprintf(r->why, sizeof(r->why), "%s: %s", what, why);
}

/* Let the load get going before measuring: 0, 1 it died, or -EINTR. */
static int settle(struct cell_runner *rn, struct result *r)
{
	uint64_t t = now_ns() + cell_settle_ns(rn->plan->cfg.duration_ns);
	int st, w;

	do
		w = wait_pid(rn->kids[0], &st, t);
	while (w == 2);
	if (w < 0)
		return -EINTR;
	if (w > 0)
		load_died(rn, r, st);
	return w;
}

/*
 * Watch the benchmark (and its load) until it ends or is stuck: 0 and
 * its exit status in *st, 1 it was stuck and killed, or -EINTR.
 */
static int supervise(struct cell_runner *rn, struct result *r, uint64_t t0,
		     int *st)
{
	const struct plan *p = rn->plan;
	const struct sim_desc *s = r->sim;
	uint64_t limit = t0 + p->cfg.duration_ns + p->cfg.duration_ns / 10 +
			 sim_grace_ns(s, &p->cfg, plan_sim_opts(p, s)) +
			 STUCK_NS;
	pid_t bpid = rn->kids[1];
	int lst, w;

	for (;;) {
		/* wakes when a child ends: the bench, or the load (2) */
		w = wait_pid(bpid, st, limit);
		if (w < 0)
			return -EINTR;
		if (w == 1) {
			forget_kid(rn, bpid);
			return 0;
		}
		if (rn->kids[0] && sys_reap(rn->kids[0], &lst, WNOHANG) ==
				   rn->kids[0])
			load_died(rn, r, lst);
		if (!w) {
			end_group(rn, bpid);
			r->status = RES_TIMEOUT;
			snprintf(r->why, sizeof(r->why), "timed out: the "
				 "benchmark did not finish in %.3g s",
				 (double)(limit - t0) / NSEC_PER_SEC);
			return 1;
		}
	}
}

/* The benchmark ended with status st: what the cell measured. */
static void collect(struct cell_runner *rn, struct result *r, int st,
		    const uint64_t *w0, const struct machine_counters *m0)
{
	struct cell_shared *sh = rn->sh;
	uint64_t w1[WORK_KINDS], t1 = now_ns(), t0 = m0->t_ns;
	struct machine_counters m1;
	bool did_work = false;
	int lst, k;

	machine_read(&m1, rn->cg);
	cpu_use_read(&m1.use, rn->kids[0]);
	interference_make(&sh->res.intf, m0, &m1, &sh->res.task, rn->cg);
	/* --trace: a late frame's idle CPU may be the quota's, not the host's */
	if (rn->trace && sh->res.intf.cg_throttled_periods > 0) {
		rn->trace->cg_throttled = true;
		snprintf(rn->trace->cg_limit, sizeof(rn->trace->cg_limit),
			 "cgroup %s", sh->res.intf.throttled_by);
	}
	snapshot(&sh->work, w1);
	for (k = 0; k < WORK_KINDS; k++) {
		r->work_rate[k] = (double)(w1[k] - w0[k]) * NSEC_PER_SEC /
				  (double)(t1 - t0);
		did_work |= w1[k] != w0[k];
	}
	if (rn->kids[0] && sys_reap(rn->kids[0], &lst, WNOHANG) == rn->kids[0])
		load_died(rn, r, lst);
	if (r->status == RES_LOAD_DIED && atomic_load(&sh->work.failed)) {
		load_failed(rn, r);
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) || sh->res.status) {
		r->status = RES_FAILED;
		if (sh->res.status)
			cell_status(r, RES_FAILED, "failed", sh->res.why);
		else
			describe_exit(r->why, sizeof(r->why), "benchmark", st);
	} else if (r->status == RES_OK && !did_work &&
		   !(r->load->flags & LOAD_IDLE)) {
		/* A load that did nothing must not pass for a light one. */
		r->status = RES_LOAD_DIED;
		snprintf(r->why, sizeof(r->why), "load did no work while the "
			 "benchmark ran");
	} else if (r->status == RES_OK && result_from_sim(r, &sh->res)) {
		cell_status(r, RES_FAILED, "failed", "out of memory");
	}
}

/* Is this repeat traced (--trace, and --trace-alternate's half)? */
static bool traced(const struct cell_runner *rn, const struct result *r)
{
	return rn->trace && plan_traced(rn->plan, r->repeat);
}

/* --trace: the benchmark keeps its worst frames; the trace records. */
static void trace_begin(struct cell_runner *rn, const struct result *r)
{
	struct worst_frames *w = &rn->sh->res.worst;
	const struct plan *p = rn->plan;
	bool late_period;

	if (!traced(rn, r))
		return;
	w->keep = (uint32_t)p->trace_frames;
	w->break_ns = p->breaktrace_ns;
	w->on_fd = rn->trace->on_fd;
	w->marker_fd = rn->trace->marker_fd;
	/* --on-late: its late frames kept too (run/onlate.c acts) */
	w->late_on = plan_late_bound(p, r->sim, &w->late_ns, &late_period);
	w->late_period = late_period;
	trace_cell_start(rn->trace, p->trace_timer);
}

/*
 * --breaktrace: the frame that stopped the trace is explained too, in
 * the place of the least late if it was pushed out by later ones.
 */
static void add_break(struct worst_frames *w)
{
	uint32_t i, least = 0;

	for (i = 0; i < w->n; i++) {
		if (w->f[i].release == w->brk.release)
			return;
		if (w->f[i].start - w->f[i].release <
		    w->f[least].start - w->f[least].release)
			least = i;
	}
	if (w->n < WORST_MAX)
		least = w->n++;
	w->f[least] = w->brk;
}

/* --trace: the worst frames explained into r; did it break? */
static void trace_end(struct cell_runner *rn, struct result *r)
{
	struct worst_frames *w = &rn->sh->res.worst;
	int n;

	if (!traced(rn, r))
		return;
	rn->broke = w->broke != 0;
	r->traced = true;
	r->trace_lost = rn->trace->lost_events;
	if (r->status != RES_OK)
		return;
	if (w->broke) {
		rn->trace->stopped_ns = w->brk.start;
		add_break(w);
	}
	n = trace_explain(rn->trace, w, &r->explained);
	if (n < 0) {
		r->why_err = n;
		return;
	}
	r->nexplained = n;
	while (w->broke && n-- > 0)
		if (r->explained[n].release_ns == w->brk.release)
			r->explained[n].broke = true;
}

/* Start the load and the benchmark, watch, collect: 0 or -EINTR. */
static int measure(struct cell_runner *rn, struct result *r)
{
	struct machine_counters m0;
	uint64_t w0[WORK_KINDS];
	int err, st = 0;

	memset(&rn->sh->work, 0, sizeof(rn->sh->work));
	rn->kids[0] = start_load(rn, r->load);
	if (rn->kids[0] < 0) {
		rn->kids[0] = 0;
		cell_status(r, RES_SKIPPED, "skipped: fork", strerror(errno));
		return 0;
	}
	err = settle(rn, r);
	if (err)
		return err < 0 ? err : 0;
	snapshot(&rn->sh->work, w0);
	trace_begin(rn, r);
	machine_read(&m0, rn->cg);
	cpu_use_read(&m0.use, rn->kids[0]);
	rn->kids[1] = start_bench(rn, r->sim);
	if (rn->kids[1] < 0) {
		rn->kids[1] = 0;
		cell_status(r, RES_FAILED, "failed: fork", strerror(errno));
		return 0;
	}
	err = supervise(rn, r, m0.t_ns, &st);
	if (traced(rn, r))
		trace_cell_stop(rn->trace);
	if (err)
		return err < 0 ? err : 0;
	collect(rn, r, st, w0, &m0);
	trace_end(rn, r);
	return 0;
}

int cell_run(struct cell_runner *rn, struct result *r)
{
	struct cell_shared *sh = rn->sh;
	int err;

	memset(&sh->res, 0, sizeof(sh->res));
	stats_init(&sh->res.latency);
	stats_init(&sh->res.timer);
	stats_init(&sh->res.wakeup);
	stats_init(&sh->res.per_sec);
	stats_init(&sh->res.frame_time);
	err = prepare_load(rn, r->load);
	if (err == -EINTR)
		return err;
	if (err) {
		cell_status(r, RES_SKIPPED, "skipped", sh->work.why[0] ?
			    sh->work.why : strerror(-err));
	} else {
		err = measure(rn, r);
		if (err)
			return err;
	}
	if (rn->kids[0])
		end_group(rn, rn->kids[0]);
	if (r->status == RES_OK && atomic_load(&sh->work.failed))
		load_failed(rn, r);
	if (r->load->cleanup) {
		struct load_ctx lc;

		load_ctx_init(rn, &lc, r->load);
		r->load->cleanup(&lc);
	}
	return 0;
}

void cell_abort(struct cell_runner *rn)
{
	const struct plan *p = rn->plan;
	int i;

	for (i = 0; i < 2; i++)
		if (rn->kids[i] > 0)
			kill(-rn->kids[i], SIGKILL);
	for (i = 0; i < 2; i++)
		end_group(rn, rn->kids[i]);
	for (i = 0; i < p->nloads; i++)
		if (p->loads[i]->cleanup) {
			struct load_ctx lc;

			load_ctx_init(rn, &lc, p->loads[i]);
			p->loads[i]->cleanup(&lc);
		}
	cell_finish(rn);
}

void cell_finish(struct cell_runner *rn)
{
	const struct plan *p = rn->plan;
	int i;

	for (i = 0; i < p->nloads; i++)
		if (p->loads[i]->finish)
			p->loads[i]->finish(&p->cfg);
	/* A read file we were still making is no use to anyone. */
	if (rn->read_file_dirty)
		unlink(p->cfg.read_file);
	rn->read_file_dirty = false;
}
