// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cyclic: timer latency, as cyclictest and stress-ng's cyclic test measure
 * it. One thread wakes every interval on CLOCK_MONOTONIC; its latency is
 * the time it runs minus the time it was due. Sleep methods:
 *   clock_ns  clock_nanosleep to an absolute time (the default)
 *   posix_ns  nanosleep for the time left (relative: drifts by design)
 *   itimer    a periodic POSIX timer and its signal, taken by sigwaitinfo
 *   poll      spin on the clock: no sleep at all, one CPU fully used
 * Every sample counts (stress-ng keeps only its first 10,000). There is no
 * separate timing thread: the measuring thread is the one that wakes.
 * --cyclic-threads N|all: a measuring thread pinned to each of N CPUs (as
 * cyclictest -S), each with its own histogram; the row is the whole cell,
 * a line per CPU under it, the worst CPU named.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/figures.h"
#include "lib/json.h"
#include "lib/base.h"
#include "lib/opt.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"
#include "simulators/engine.h"

/* The order of the names: the enums index them. */
enum cyclic_method { CM_CLOCK_NS, CM_POSIX_NS, CM_ITIMER, CM_POLL };
enum cyclic_policy { CP_FIFO, CP_RR, CP_OTHER, CP_AUTO };

static const char *const method_names[] = {
	"clock_ns", "posix_ns", "itimer", "poll", NULL
};
static const char *const policy_names[] = {
	"fifo", "rr", "other", "auto", NULL
};

/* Bins of the linear distribution (--dist); the last holds all beyond. */
#define DIST_BINS	1001

struct cyclic_opts {
	int threads;			/* 0: one, unpinned; -1: every CPU */
	int policy;			/* enum cyclic_policy */
	int prio;
	int method;			/* enum cyclic_method */
	uint64_t interval_ns;
	uint64_t dist_ns;		/* 0: no distribution */
};

/* Per CPU with --cyclic-threads: the figures cyclictest -S prints. */
#define CYCLIC_CPUS	128

struct cyclic_cpu {
	int cpu;
	uint64_t samples, lost;
	uint64_t p50, p99, max;		/* ns */
	double mean;			/* ns */
};

/*
 * What Cyclic keeps in its sim_result's own[]: the distribution and the
 * per-CPU figures (each thread's whole histogram is 58 KiB: it stays in
 * the process, and only what the row shows comes back).
 */
struct cyclic_own {
	uint64_t width_ns;		/* 0: not kept */
	uint64_t bins[DIST_BINS];
	int ncpus;			/* 0: one unpinned thread */
	struct cyclic_cpu cpus[CYCLIC_CPUS];
};
_Static_assert(sizeof(struct cyclic_own) <= SIM_OWN_BYTES,
	       "Cyclic's distribution must fit in sim_result.own");

/* Bin width: a number of ns, or with a unit: 500ns, 1us, 2ms. */
static int parse_dist(void *o, const char *val, char *err, size_t n)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	};
	size_t i, len = strspn(val, "0123456789");
	unsigned long long v;

	/* Nine digits at most: a second in ns, and no overflow. */
	if (!len || len > 9) {
		snprintf(err, n, "'%s' is not a width such as 1000 or 1us",
			 val);
		return -EINVAL;
	}
	v = strtoull(val, NULL, 10);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(val + len, units[i].unit))
			continue;
		if (!v) {
			snprintf(err, n, "0 is out of range (1 to 1000000000)");
			return -EINVAL;
		}
		if (v * units[i].ns > NSEC_PER_SEC) {
			snprintf(err, n, "%s is wider than a second", val);
			return -EINVAL;
		}
		((struct cyclic_opts *)o)->dist_ns = v * units[i].ns;
		return 0;
	}
	snprintf(err, n, "'%s': the unit must be ns, us or ms", val);
	return -EINVAL;
}

#define CO(field)	offsetof(struct cyclic_opts, field)

/* --cyclic-threads N|all */
static int parse_threads(void *o, const char *val, char *err, size_t n)
{
	char *end;
	long v;

	if (!strcmp(val, "all")) {
		((struct cyclic_opts *)o)->threads = -1;
		return 0;
	}
	errno = 0;
	v = strtol(val, &end, 10);
	if (errno || end == val || *end || v < 1 || v > CYCLIC_CPUS) {
		snprintf(err, n, "'%s' is not all or a number of CPUs from 1 "
			 "to %d", val, CYCLIC_CPUS);
		return -EINVAL;
	}
	((struct cyclic_opts *)o)->threads = (int)v;
	return 0;
}

static const struct opt cyclic_opts_list[] = {
	{ .name = "cyclic-threads", .type = OT_CALL, .arg = "N|all",
	  .help = "a thread pinned to each of N CPUs, or all\n"
		  "(default: one thread, unpinned)", .parse = parse_threads },
	{ .name = "cyclic-policy", .type = OT_ENUM, .arg = "POLICY",
	  .help = "fifo, rr, other (default: fifo with real-time\n"
		  "rights, else other)", .off = CO(policy), .names = policy_names },
	{ .name = "cyclic-prio", .type = OT_INT, .arg = "N",
	  .help = "real-time priority 1-99 (default 95)", .off = CO(prio),
	  .min = 1, .max = 99 },
	{ .name = "cyclic-method", .type = OT_ENUM, .arg = "M",
	  .help = "clock_ns (default), posix_ns, itimer, poll",
	  .off = CO(method), .names = method_names },
	{ .name = "cyclic-interval", .type = OT_U64, .arg = "US",
	  .help = "wake interval in us (default 1000)",
	  .off = CO(interval_ns), .min = 10, .max = 10000000,
	  .scale = NSEC_PER_USEC },
	{ .name = "dist", .type = OT_CALL, .arg = "WIDTH",
	  .help = "also a latency distribution in bins of WIDTH\n"
		  "(ns, or 1us, 2ms)", .parse = parse_dist },
	{ .name = NULL },
};

static void cyclic_init(void *o, const struct run_cfg *cfg)
{
	struct cyclic_opts *c = o;

	(void)cfg;
	c->policy = CP_AUTO;
	/* Below interbench's own waiting parent (99), as cyclictest -p 95. */
	c->prio = 95;
	c->method = CM_CLOCK_NS;
	c->interval_ns = NSEC_PER_MSEC;
}

static int cyclic_check(const void *o, char *err, size_t n)
{
	const struct cyclic_opts *c = o;

	if (c->dist_ns && c->dist_ns > c->interval_ns * 10) {
		snprintf(err, n, "--dist is wider than ten intervals");
		return -EINVAL;
	}
	return 0;
}

static int set_policy(enum cyclic_policy p, int prio, int nice)
{
	struct sched_param sp = { .sched_priority = prio };

	if (p == CP_OTHER)
		return set_thread_nice(nice);
	return -pthread_setschedparam(pthread_self(),
				      p == CP_RR ? SCHED_RR : SCHED_FIFO, &sp);
}

struct cyclic_run {
	const struct cyclic_opts *o;
	struct sim_ctx *c;
	enum cyclic_policy policy;
	struct cyclic_own *own;
	uint64_t end;
	/* The threads share the result's trace and task counters. */
	pthread_mutex_t lock;
};

/* One measuring thread: its own figures, merged when all are done. */
struct cyclic_thr {
	struct cyclic_run *cr;
	int cpu;			/* pinned to it; -1: not pinned */
	bool started;
	pthread_t t;
	int err;
	const char *what;
	uint64_t frames, frames_met, frames_dropped;
	struct win_worst win;
	uint64_t bins[DIST_BINS];
	struct lat_stats lat;
};

/* Sleep until 'due' by the chosen method. 0 or -errno. */
static int cyclic_sleep(const struct cyclic_opts *o, uint64_t due,
			const sigset_t *set)
{
	struct timespec ts;
	uint64_t now;
	int e;

	switch (o->method) {
	case CM_CLOCK_NS:
		ts = ns_to_ts(due);
		do {
			e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					    &ts, NULL);
		} while (e == EINTR);
		return -e;
	case CM_POSIX_NS:
		now = now_ns();
		if (now >= due)
			return 0;
		ts = ns_to_ts(due - now);
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		return 0;
	case CM_ITIMER:
		/* The timer is periodic; each signal is one expiry. */
		for (;;) {
			siginfo_t si;
			struct timespec limit = { .tv_sec = 1 };

			if (sigtimedwait(set, &si, &limit) >= 0)
				return 0;
			if (errno != EINTR && errno != EAGAIN)
				return -errno;
			if (now_ns() > due + NSEC_PER_SEC)
				return -ETIMEDOUT;
		}
	case CM_POLL:
		while (now_ns() < due)
			;
		return 0;
	}
	return -EINVAL;
}

/* Pin the calling thread to cpu and set its class: 0 or -errno. */
static int cyclic_setup(struct cyclic_thr *th)
{
	const struct cyclic_run *cr = th->cr;

	if (th->cpu >= 0) {
		cpu_set_t set;
		int e;

		CPU_ZERO(&set);
		CPU_SET(th->cpu, &set);
		e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (e) {
			th->what = "cannot pin the thread to its CPU";
			return -e;
		}
	}
	th->what = "cannot set the scheduling policy";
	return set_policy(cr->policy, cr->o->prio, cr->c->nice);
}

static int cyclic_timer(struct cyclic_thr *th, uint64_t due, timer_t *tid)
{
	uint64_t period = th->cr->o->interval_ns;
	struct sigevent sev;
	struct itimerspec its;

	/* The signal goes to this thread only, where it is waited for. */
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGRTMIN;
	sev._sigev_un._tid = gettid();
	if (timer_create(CLOCK_MONOTONIC, &sev, tid)) {
		th->what = "timer_create";
		return -errno;
	}
	its.it_value = ns_to_ts(due);
	its.it_interval = ns_to_ts(period);
	if (timer_settime(*tid, TIMER_ABSTIME, &its, NULL)) {
		th->what = "timer_settime";
		timer_delete(*tid);
		return -errno;
	}
	return 0;
}

static void *cyclic_thread(void *arg)
{
	struct cyclic_thr *th = arg;
	struct cyclic_run *cr = th->cr;
	struct sim_result *r = cr->c->res;
	const struct cyclic_opts *o = cr->o;
	uint64_t due, period = o->interval_ns;
	timer_t tid = 0;
	sigset_t set;
	int e;

	pthread_mutex_lock(&cr->lock);
	worst_frame_thread(&r->worst);
	pthread_mutex_unlock(&cr->lock);
	th->err = cyclic_setup(th);
	if (th->err)
		return NULL;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	due = now_ns() + period;
	if (o->method == CM_ITIMER) {
		th->err = cyclic_timer(th, due, &tid);
		if (th->err)
			return NULL;
	}
	while (due < cr->end) {
		uint64_t now, lat;

		e = cyclic_sleep(o, due, &set);
		now = now_ns();
		if (e) {
			th->err = e;
			th->what = "sleeping";
			break;
		}
		lat = now > due ? now - due : 0;
		stats_add(&th->lat, lat);
		/* Only with --trace: then the threads take turns. */
		if (r->worst.keep) {
			pthread_mutex_lock(&cr->lock);
			worst_frame_add(&r->worst, (struct worst_frame){
				.release = due, .timer = now,
				.timer_cpu = sched_getcpu(), .start = now });
			pthread_mutex_unlock(&cr->lock);
		}
		win_add(&th->win, due, lat);
		if (cr->own->width_ns) {
			uint64_t bin = lat / cr->own->width_ns;

			th->bins[bin < DIST_BINS - 1 ? bin : DIST_BINS - 1]++;
		}
		th->frames++;
		if (lat < period)
			th->frames_met++;
		if (cr->c->work)
			work_add(cr->c->work, WORK_FRAMES, 1);
		due += period;
		/*
		 * Woken a whole period late or more: the deadlines already
		 * past were lost, and the next sleep is to one still ahead,
		 * as cyclictest does (its "while (now > next)").
		 */
		if (o->method != CM_ITIMER) {
			while (due < now) {
				th->frames++;
				th->frames_dropped++;
				due += period;
			}
		} else {
			int over = timer_getoverrun(tid);

			for (; over > 0; over--) {
				th->frames++;
				th->frames_dropped++;
				due += period;
			}
		}
	}
	if (o->method == CM_ITIMER)
		timer_delete(tid);
	pthread_mutex_lock(&cr->lock);
	task_acc_add_self(&r->task);
	pthread_mutex_unlock(&cr->lock);
	return NULL;
}

/*
 * The CPUs to measure on: none for the one unpinned thread; else the
 * first n (all: every one) of the CPUs this process may run on (-u: 0).
 */
static int cyclic_cpus(const struct cyclic_opts *o, int *cpus, int *n)
{
	cpu_set_t set;
	int i, k = 0;

	*n = 0;
	if (!o->threads)
		return 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (i = 0; i < CPU_SETSIZE && k < CYCLIC_CPUS; i++)
		if (CPU_ISSET(i, &set) && (o->threads < 0 || k < o->threads))
			cpus[k++] = i;
	if (o->threads > 0 && k < o->threads)
		return -ERANGE;
	*n = k;
	return 0;
}

/* Add a thread's figures to the cell's, and its CPU's line. */
static void cyclic_merge(struct cyclic_run *cr, struct cyclic_thr *th,
			 int k)
{
	struct sim_result *r = cr->c->res;
	int i;

	stats_merge(&r->latency, &th->lat);
	r->frames += th->frames;
	r->frames_met += th->frames_met;
	r->frames_dropped += th->frames_dropped;
	for (i = 0; i < WIN_SLOTS; i++)
		if (th->win.worst[i] != WIN_EMPTY &&
		    (r->windows.worst[i] == WIN_EMPTY ||
		     th->win.worst[i] > r->windows.worst[i]))
			r->windows.worst[i] = th->win.worst[i];
	for (i = 0; i < DIST_BINS; i++)
		cr->own->bins[i] += th->bins[i];
	if (th->cpu < 0)
		return;
	cr->own->cpus[k] = (struct cyclic_cpu){
		.cpu = th->cpu, .samples = th->lat.count,
		.lost = th->frames_dropped,
		.p50 = stats_percentile(&th->lat, 50),
		.p99 = stats_percentile(&th->lat, 99),
		.max = th->lat.count ? th->lat.max : 0,
		.mean = stats_mean(&th->lat),
	};
	cr->own->ncpus = k + 1;
}

static int cyclic_run(struct sim_ctx *c)
{
	const struct cyclic_opts *o = c->opts;
	struct sim_result *r = c->res;
	struct cyclic_run *cr;
	struct cyclic_thr *th;
	int cpus[CYCLIC_CPUS], ncpu, n, k, e;
	sigset_t set;

	if (!o)
		return -EINVAL;
	e = cyclic_cpus(o, cpus, &ncpu);
	if (e) {
		sim_fail(r, e, e == -ERANGE ? "--cyclic-threads: fewer CPUs "
			 "than that to run on" : "sched_getaffinity");
		return e;
	}
	n = ncpu ? ncpu : 1;
	/*
	 * On the heap: if a thread does not finish in time we return and
	 * the process ends, but the thread may still be using it meanwhile.
	 */
	cr = calloc(1, sizeof(*cr));
	th = calloc((size_t)n, sizeof(*th));
	if (!cr || !th) {
		free(cr);
		free(th);
		return -ENOMEM;
	}
	cr->o = o;
	cr->c = c;
	pthread_mutex_init(&cr->lock, NULL);
	cr->policy = (enum cyclic_policy)o->policy;
	if (cr->policy == CP_AUTO)
		cr->policy = c->cfg->rt_ok ? CP_FIFO : CP_OTHER;
	if (cr->policy == CP_OTHER)
		snprintf(r->note, sizeof(r->note), "SCHED_OTHER nice %d",
			 c->nice);
	else
		snprintf(r->note, sizeof(r->note), "%s %d",
			 cr->policy == CP_RR ? "SCHED_RR" : "SCHED_FIFO",
			 o->prio);
	r->has_deadlines = true;
	r->period_ns = o->interval_ns;
	cr->own = (struct cyclic_own *)r->own;
	cr->own->width_ns = o->dist_ns;
	/* Block the timer signal everywhere: each thread takes its own. */
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	cr->end = sim_duration(c) ? now_ns() + sim_duration(c) : UINT64_MAX;
	if (sim_duration(c))
		win_init(&r->windows, cr->end - sim_duration(c),
			 sim_duration(c));
	for (k = 0, e = 0; k < n && !e; k++) {
		th[k].cr = cr;
		th[k].cpu = ncpu ? cpus[k] : -1;
		th[k].win = r->windows;
		stats_init(&th[k].lat);
		e = -pthread_create(&th[k].t, NULL, cyclic_thread, &th[k]);
		th[k].started = !e;
	}
	/* Bounded: the end and its grace (an interval more than most). */
	for (k = 0; k < n; k++) {
		int j;

		if (!th[k].started)
			continue;
		j = thread_join_until(th[k].t, sim_duration(c) ?
				      cr->end + c->grace_ns : 0);
		if (j) {
			sim_fail(r, j, "a cyclic thread did not finish");
			return j;
		}
	}
	if (e) {
		sim_fail(r, e, "cannot start a cyclic thread");
	} else {
		for (k = 0; k < n; k++) {
			cyclic_merge(cr, &th[k], k);
			if (th[k].err && !e) {
				e = th[k].err;
				sim_fail(r, e, th[k].what);
			}
		}
	}
	pthread_mutex_destroy(&cr->lock);
	free(th);
	free(cr);
	return e;
}

/* The distribution, past the cell: a copy of own[], if one was kept. */
static void *cyclic_keep(const struct sim_result *res)
{
	const struct cyclic_own *own = (const struct cyclic_own *)res->own;
	struct cyclic_own *k;

	if (!own->width_ns && !own->ncpus)
		return NULL;
	k = malloc(sizeof(*k));
	if (k)
		memcpy(k, own, sizeof(*k));
	return k;
}

static void json_dist(struct jw *w, const struct figure *f,
		      const struct result *r)
{
	const struct cyclic_own *k = r->kept;
	size_t i;

	if (!k || !k->width_ns)
		return;
	jw_obj_begin(w, f->key);
	jw_num(w, "width_us", (double)k->width_ns / NSEC_PER_USEC);
	jw_arr_begin(w, "counts");
	for (i = 0; i < DIST_BINS; i++)
		jw_uint(w, NULL, k->bins[i]);
	jw_arr_end(w);
	jw_obj_end(w);
}

/* The CPU with the highest p99 (then max): the finding of a -S run. */
static int worst_cpu(const struct cyclic_own *k)
{
	int i, w = 0;

	for (i = 1; i < k->ncpus; i++)
		if (k->cpus[i].p99 > k->cpus[w].p99 ||
		    (k->cpus[i].p99 == k->cpus[w].p99 &&
		     k->cpus[i].max > k->cpus[w].max))
			w = i;
	return w;
}

static void json_per_cpu(struct jw *w, const struct figure *f,
			 const struct result *r)
{
	const struct cyclic_own *k = r->kept;
	int i;

	if (!k || !k->ncpus)
		return;
	jw_arr_begin(w, f->key);
	for (i = 0; i < k->ncpus; i++) {
		const struct cyclic_cpu *c = &k->cpus[i];

		jw_obj_begin(w, NULL);
		jw_int(w, "cpu", c->cpu);
		jw_uint(w, "samples", c->samples);
		jw_num(w, "mean_us", c->mean / NSEC_PER_USEC);
		jw_num(w, "p50_us", (double)c->p50 / NSEC_PER_USEC);
		jw_num(w, "p99_us", (double)c->p99 / NSEC_PER_USEC);
		jw_num(w, "max_us", (double)c->max / NSEC_PER_USEC);
		jw_uint(w, "lost", c->lost);
		jw_bool(w, "worst", i == worst_cpu(k));
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static const struct figure cyclic_figures[] = {
	IB_FIG_NOTE,
	IB_FIG_MORE_PCTS,
	IB_FIG_MODE,
	{ NULL, "distribution", NULL, "latency in bins of --dist",
	  FU_COUNT, FB_NONE, FIG_OMIT, NULL, 0, 0, json_dist },
	{ NULL, "per_cpu", NULL, "each CPU's thread (--cyclic-threads)",
	  FU_COUNT, FB_NONE, FIG_OMIT, NULL, 0, 0, json_per_cpu },
};

#define CYCLIC_PCTS	1	/* cyclic_figures[] index of the first */
#define CYCLIC_MODE	(CYCLIC_PCTS + IB_FIG_MORE_PCTS_N)

static void print_dist(const struct cyclic_own *k, out_fn out, void *ctx)
{
	uint64_t last = 0, i;
	int shown = 0;

	for (i = 0; i < DIST_BINS; i++)
		if (k->bins[i])
			last = i;
	out(ctx, "          distribution: latency (us) from, count\n");
	for (i = 0; i <= last && shown < 100; i++, shown++)
		out(ctx, "          %12.3f %llu%s\n",
		    (double)(i * k->width_ns) / NSEC_PER_USEC,
		    (unsigned long long)k->bins[i],
		    i == DIST_BINS - 1 ? " (and beyond)" : "");
	if (i <= last) {
		uint64_t more = 0;

		for (; i < DIST_BINS; i++)
			more += k->bins[i];
		out(ctx, "          ... %llu more samples in later bins (all "
		    "in the JSON)\n", (unsigned long long)more);
	}
}

static void print_cpus(const struct cyclic_own *k, out_fn out, void *ctx)
{
	const double us = NSEC_PER_USEC;
	int i, w = worst_cpu(k);

	for (i = 0; i < k->ncpus; i++)
		out(ctx, "          cpu %3d: %llu samples, p50 %.3f, p99 %.3f, "
		    "max %.3f us, %llu lost%s\n", k->cpus[i].cpu,
		    (unsigned long long)k->cpus[i].samples,
		    (double)k->cpus[i].p50 / us, (double)k->cpus[i].p99 / us,
		    (double)k->cpus[i].max / us,
		    (unsigned long long)k->cpus[i].lost,
		    i == w && k->ncpus > 1 ? "  <- worst CPU (p99)" : "");
}

static void cyclic_detail(const struct result *r, const void *opts,
			  out_fn out, void *ctx)
{
	const struct cyclic_opts *o = opts;
	const double us = NSEC_PER_USEC;
	int k;

	if (!o)
		return;
	out(ctx, "          cyclic: %s, %s, every %.6g us: %llu samples, "
	    "%llu wakeups lost (a period late or more)\n", r->note,
	    method_names[o->method], (double)o->interval_ns / us,
	    (unsigned long long)r->v[F_LAT_COUNT],
	    (unsigned long long)r->v[F_FRAMES_DROPPED]);
	out(ctx, "          mean %.3f us, mode %.3f, min %.3f, max %.3f, "
	    "SD %.3f\n", r->v[F_LAT_MEAN] / us,
	    r->sim_v[CYCLIC_MODE] / us, r->v[F_LAT_MIN] / us,
	    r->v[F_LAT_MAX] / us, r->v[F_LAT_SD] / us);
	out(ctx, "          percentiles (us):");
	for (k = 0; k < IB_FIG_MORE_PCTS_N; k++)
		out(ctx, " %s: %.3f", cyclic_figures[CYCLIC_PCTS + k].key,
		    r->sim_v[CYCLIC_PCTS + k] / us);
	out(ctx, "\n");
	if (r->kept && ((const struct cyclic_own *)r->kept)->ncpus)
		print_cpus(r->kept, out, ctx);
	if (r->kept && ((const struct cyclic_own *)r->kept)->width_ns)
		print_dist(r->kept, out, ctx);
}

static uint64_t cyclic_grace(const struct run_cfg *cfg, const void *opts)
{
	(void)cfg;
	return ((const struct cyclic_opts *)opts)->interval_ns;
}

/*
 * Where its defaults differ from cyclictest's, which people set it beside
 * (doc/agreement.txt): cyclictest holds /dev/cpu_dma_latency at 0 unless
 * --laptop, and on a machine with deep idle states that halves its
 * latencies against ours. Said as the run starts.
 */
static void cyclic_notes(const struct sim_notes_in *in, out_fn out,
			 void *ctx)
{
	if (in->task && in->start && !in->dma_given)
		out(ctx, "NOTE: cyclictest holds /dev/cpu_dma_latency at 0 "
		    "(unless --laptop), interbench does not: --dma-latency 0 "
		    "measures Cyclic as it does\n");
}

const struct sim_desc sim_cyclic = {
	.name = "Cyclic",
	.summary = "timer latency like cyclictest: wakes every 1 ms by default",
	.flags = SIM_DEADLINES | SIM_NAMED,
	.run = cyclic_run,
	.opts = cyclic_opts_list,
	.opts_size = sizeof(struct cyclic_opts),
	.opts_init = cyclic_init,
	.opts_check = cyclic_check,
	.figures = cyclic_figures,
	.nfigures = sizeof(cyclic_figures) / sizeof(cyclic_figures[0]),
	.keep = cyclic_keep,
	.detail = cyclic_detail,
	.grace_ns = cyclic_grace,
	.notes = cyclic_notes,
};
