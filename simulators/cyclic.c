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
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "interbench.h"
#include "report.h"

enum cyclic_method { CM_CLOCK_NS, CM_POSIX_NS, CM_ITIMER, CM_POLL };
enum cyclic_policy { CP_AUTO, CP_FIFO, CP_RR, CP_OTHER };

static const char *const method_names[] = {
	"clock_ns", "posix_ns", "itimer", "poll"
};
static const char *const policy_names[] = { "auto", "fifo", "rr", "other" };

struct cyclic_opts {
	enum cyclic_policy policy;
	int prio;
	enum cyclic_method method;
	uint64_t interval_ns;
	uint64_t dist_ns;		/* 0: no distribution */
};

static int pick(const char *const *names, int n, const char *val)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(names[i], val))
			return i;
	return -1;
}

static int parse_policy(void *o, const char *val, char *err, size_t n)
{
	int p = pick(policy_names, 4, val);

	if (p < 0) {
		snprintf(err, n, "'%s': expected fifo, rr, other or auto", val);
		return -EINVAL;
	}
	((struct cyclic_opts *)o)->policy = (enum cyclic_policy)p;
	return 0;
}

static int parse_method(void *o, const char *val, char *err, size_t n)
{
	int m = pick(method_names, 4, val);

	if (m < 0) {
		snprintf(err, n, "'%s': expected clock_ns, posix_ns, itimer or "
			 "poll", val);
		return -EINVAL;
	}
	((struct cyclic_opts *)o)->method = (enum cyclic_method)m;
	return 0;
}

static int parse_u64(const char *val, uint64_t min, uint64_t max,
		     uint64_t *out, char *err, size_t n)
{
	long long v;
	int e = opt_whole(val, (long long)min, (long long)max, &v, err, n);

	if (!e)
		*out = (uint64_t)v;
	return e;
}

static int parse_prio(void *o, const char *val, char *err, size_t n)
{
	uint64_t v;
	int e = parse_u64(val, 1, 99, &v, err, n);

	if (!e)
		((struct cyclic_opts *)o)->prio = (int)v;
	return e;
}

static int parse_interval(void *o, const char *val, char *err, size_t n)
{
	uint64_t v;
	int e = parse_u64(val, 10, 10000000, &v, err, n);

	if (!e)
		((struct cyclic_opts *)o)->interval_ns = v * NSEC_PER_USEC;
	return e;
}

/* Bin width: a number of ns, or with a unit: 500ns, 1us, 2ms. */
static int parse_dist(void *o, const char *val, char *err, size_t n)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	};
	char num[32];
	size_t i, len = strspn(val, "0123456789");
	uint64_t v;

	if (!len || len >= sizeof(num)) {
		snprintf(err, n, "'%s' is not a width such as 1000 or 1us",
			 val);
		return -EINVAL;
	}
	memcpy(num, val, len);
	num[len] = '\0';
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(val + len, units[i].unit))
			continue;
		if (parse_u64(num, 1, 1000000000, &v, err, n))
			return -EINVAL;
		if (v * units[i].ns > 1000000000ULL) {
			snprintf(err, n, "%s is wider than a second", val);
			return -EINVAL;
		}
		((struct cyclic_opts *)o)->dist_ns = v * units[i].ns;
		return 0;
	}
	snprintf(err, n, "'%s': the unit must be ns, us or ms", val);
	return -EINVAL;
}

static const struct sim_opt cyclic_opts_list[] = {
	{ "cyclic-policy", "POLICY", "fifo, rr, other (default: fifo with "
	  "real-time rights, else other)", parse_policy },
	{ "cyclic-prio", "N", "real-time priority 1-99 (default 95)",
	  parse_prio },
	{ "cyclic-method", "M", "clock_ns (default), posix_ns, itimer, poll",
	  parse_method },
	{ "cyclic-interval", "US", "wake interval in us (default 1000)",
	  parse_interval },
	{ "dist", "WIDTH", "also a latency distribution in bins of WIDTH "
	  "(ns, or 1us, 2ms)", parse_dist },
	{ NULL, NULL, NULL, NULL }
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
	uint64_t end;
	int err;
	const char *what;
};

/* Sleep until 'due' by the chosen method. 0 or -errno. */
static int cyclic_sleep(struct cyclic_run *cr, uint64_t due, timer_t tid,
			const sigset_t *set)
{
	struct timespec ts;
	uint64_t now;
	int e;

	switch (cr->o->method) {
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
		(void)tid;
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

static void *cyclic_thread(void *arg)
{
	struct cyclic_run *cr = arg;
	struct bench_result *r = cr->c->res;
	const struct cyclic_opts *o = cr->o;
	uint64_t due, period = o->interval_ns;
	timer_t tid = 0;
	sigset_t set;
	int e;

	e = set_policy(cr->policy, o->prio, cr->c->nice);
	if (e) {
		cr->err = e;
		cr->what = "cannot set the scheduling policy";
		return NULL;
	}
	if (cr->policy == CP_OTHER)
		snprintf(r->note, sizeof(r->note), "SCHED_OTHER nice %d",
			 cr->c->nice);
	else
		snprintf(r->note, sizeof(r->note), "%s %d",
			 cr->policy == CP_RR ? "SCHED_RR" : "SCHED_FIFO",
			 o->prio);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	due = now_ns() + period;
	if (o->method == CM_ITIMER) {
		struct sigevent sev;
		struct itimerspec its;

		/* The signal goes to this thread only, where it is waited for. */
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = SIGRTMIN;
		sev._sigev_un._tid = gettid();
		if (timer_create(CLOCK_MONOTONIC, &sev, &tid)) {
			cr->err = -errno;
			cr->what = "timer_create";
			return NULL;
		}
		its.it_value = ns_to_ts(due);
		its.it_interval = ns_to_ts(period);
		if (timer_settime(tid, TIMER_ABSTIME, &its, NULL)) {
			cr->err = -errno;
			cr->what = "timer_settime";
			timer_delete(tid);
			return NULL;
		}
	}
	while (due < cr->end) {
		uint64_t now, lat;

		e = cyclic_sleep(cr, due, tid, &set);
		now = now_ns();
		if (e) {
			cr->err = e;
			cr->what = "sleeping";
			break;
		}
		lat = now > due ? now - due : 0;
		stats_add(&r->latency, lat);
		if (r->dist_width_ns) {
			uint64_t bin = lat / r->dist_width_ns;

			r->dist[bin < DIST_BINS - 1 ? bin : DIST_BINS - 1]++;
		}
		r->frames++;
		if (lat < period)
			r->frames_met++;
		if (cr->c->work)
			work_add(cr->c->work, WORK_FRAMES, 1);
		due += period;
		/* Woken a whole period late or more: those wakeups were lost. */
		if (o->method != CM_ITIMER) {
			while (due + period <= now) {
				r->frames++;
				r->frames_dropped++;
				due += period;
			}
		} else {
			int over = timer_getoverrun(tid);

			for (; over > 0; over--) {
				r->frames++;
				r->frames_dropped++;
				due += period;
			}
		}
	}
	if (o->method == CM_ITIMER)
		timer_delete(tid);
	return NULL;
}

static int cyclic_run(struct sim_ctx *c)
{
	const struct cyclic_opts *o = c->opts;
	struct bench_result *r = c->res;
	struct cyclic_run *cr;
	pthread_t t;
	sigset_t set;
	int e;

	if (!o)
		return -EINVAL;
	/*
	 * On the heap: if the thread does not finish in time we return and
	 * the process ends, but the thread may still be using it meanwhile.
	 */
	cr = calloc(1, sizeof(*cr));
	if (!cr)
		return -ENOMEM;
	cr->o = o;
	cr->c = c;
	cr->policy = o->policy;
	if (cr->policy == CP_AUTO)
		cr->policy = c->cfg->rt_ok ? CP_FIFO : CP_OTHER;
	r->has_deadlines = true;
	r->dist_width_ns = o->dist_ns;
	/* Block the timer signal everywhere: the thread takes it itself. */
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	cr->end = c->duration_ns ? now_ns() + c->duration_ns : UINT64_MAX;
	e = -pthread_create(&t, NULL, cyclic_thread, cr);
	if (e) {
		free(cr);
		return e;
	}
	/* Bounded: the end, an interval and two seconds of grace. */
	e = thread_join_until(t, c->duration_ns ? cr->end + o->interval_ns +
				 2 * NSEC_PER_SEC : 0);
	if (e) {
		sim_fail(r, e, "the cyclic thread did not finish");
		return e;
	}
	e = cr->err;
	if (e)
		sim_fail(r, e, cr->what);
	free(cr);
	return e;
}

static void cyclic_detail(const struct cell *c, const void *opts, out_fn out,
			  void *ctx)
{
	const struct cyclic_opts *o = opts;
	const struct cell_extra *x = c->extra;
	const struct lat_summary *l = &c->lat;
	uint64_t last = 0, i;
	int k, shown = 0;

	if (!x || !o)
		return;
	out(ctx, "          cyclic: %s, %s, every %.6g us: %llu samples, "
	    "%llu wakeups lost (a period late or more)\n", x->note,
	    method_names[o->method], (double)o->interval_ns / 1e3,
	    (unsigned long long)l->count,
	    (unsigned long long)c->frames_dropped);
	out(ctx, "          mean %.3f us, mode %.3f, min %.3f, max %.3f, "
	    "SD %.3f\n", l->mean / 1e3, (double)x->mode / 1e3,
	    (double)l->min / 1e3, (double)l->max / 1e3, l->sd / 1e3);
	out(ctx, "          percentiles (us):");
	for (k = 0; k < EXTRA_PCTS; k++)
		out(ctx, " %g: %.3f", extra_pcts[k], (double)x->pct[k] / 1e3);
	out(ctx, "\n");
	if (!x->dist)
		return;
	for (i = 0; i < DIST_BINS; i++)
		if (x->dist[i])
			last = i;
	out(ctx, "          distribution: latency (us) from, count\n");
	for (i = 0; i <= last && shown < 100; i++, shown++)
		out(ctx, "          %12.3f %llu%s\n",
		    (double)(i * x->dist_width_ns) / 1e3,
		    (unsigned long long)x->dist[i],
		    i == DIST_BINS - 1 ? " (and beyond)" : "");
	if (i <= last) {
		uint64_t more = 0;

		for (; i < DIST_BINS; i++)
			more += x->dist[i];
		out(ctx, "          ... %llu more samples in later bins (all "
		    "in the JSON)\n", (unsigned long long)more);
	}
}

static uint64_t cyclic_grace(const struct run_cfg *cfg, const void *opts)
{
	(void)cfg;
	return ((const struct cyclic_opts *)opts)->interval_ns;
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
	.detail = cyclic_detail,
	.grace_ns = cyclic_grace,
};
