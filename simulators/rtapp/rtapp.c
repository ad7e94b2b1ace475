// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RtApp: an rt-app workload (simulators/rtapp/rtapp.h, read when the command
 * line names it: -W rtapp:FILE, -w rtapp:FILE), run as rt-app runs it
 * (rtapp_run.c), its threads added up (rtapp_collect.c); here, its
 * figures, its detail and the descriptor, last in the folder's order.
 *
 * A thread with a timer is periodic: each timer event ends a frame (met
 * if it came before the expiry: its slack, expiry - arrival, as rt-app
 * logs it; a miss if after), and the frame after it is released at the
 * expiry: its latency is the time it ran after that (the wakeup, or how
 * late it came), as interbench measures every periodic task; frame
 * times are from one timer event to the next. The other threads are
 * counted in loops (phase passes) a second. Every wakeup is measured
 * from what woke the thread (a timer's expiry, a sleep's end, another
 * thread's wake, a barrier's last user) to the thread running: the
 * wakeup figures, by kind in RtApp's own, and by thread in a table under
 * the row that names each one. In a workload with no periodic thread,
 * the wakeups are its latency too (there is no release).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/figures.h"
#include "lib/base.h"
#include "lib/json.h"
#include "lib/policy.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/sim.h"
#include "simulators/engine.h"
#include "simulators/rtapp/rtapp.h"
#include "simulators/rtapp/rtapp_sim.h"

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

/* The file a result ran: its name, size, checksum and what it asks. */
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
	jw_num(w, "cpus_asked", k->demand);
	jw_bool(w, "cpus_asked_partial", k->demand_partial);
	jw_int(w, "cpus", k->ncpus);
	jw_bool(w, "overrun", k->demand > k->ncpus);
	jw_obj_end(w);
}

static void json_sum(struct jw *w, const char *key, const struct rtapp_sum *s)
{
	const double us = NSEC_PER_USEC;

	jw_obj_begin(w, key);
	jw_uint(w, "count", s->count);
	if (s->count) {
		jw_num(w, "mean_us", s->mean / us);
		jw_num(w, "p50_us", (double)s->p50 / us);
		jw_num(w, "p99_us", (double)s->p99 / us);
		jw_num(w, "max_us", (double)s->max / us);
	}
	jw_obj_end(w);
}

static void json_threads(struct jw *w, const struct figure *f,
			 const struct result *r)
{
	static const char *const by[RK_COUNT] = {
		"timer", "sleep", "thread", "barrier"
	};
	const struct rtapp_own *k = r->kept;
	int i, j;

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
		jw_bool(w, "woken_by_thread", t->woken);
		jw_uint(w, "loops", t->loops);
		if (t->demand >= 0)
			jw_num(w, "cpus_asked", t->demand);
		else
			jw_null(w, "cpus_asked");
		/* its share of % desired CPU: ran / (ran + waited) */
		jw_num(w, "cpu_ran_ms", t->ran_ns / NSEC_PER_MSEC);
		jw_num(w, "runq_wait_ms", t->waited_ns / NSEC_PER_MSEC);
		jw_bool(w, "stalled", t->stalled);
		if (t->stalled) {
			jw_num(w, "stalled_from_s", t->stalled_from);
			jw_uint(w, "stall_deadlines_missed", t->stall_missed);
		}
		json_sum(w, "wakeup", &t->wake);
		jw_obj_begin(w, "wakeups_by");
		for (j = 0; j < RK_COUNT; j++)
			jw_uint(w, by[j], t->by[j]);
		jw_obj_end(w);
		if (t->periodic) {
			jw_uint(w, "frames", t->frames);
			jw_uint(w, "frames_met", t->met);
			jw_uint(w, "misses", t->overruns);
			json_sum(w, "timer_wakeup", &t->timer);
			json_sum(w, "latency", &t->lat);
			json_sum(w, "slack", &t->slack);
			jw_num(w, "slack_min_us", (double)t->slack_min /
			       NSEC_PER_USEC);
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* "stalled": true or false, and "stalled_threads": their names. */
static void json_stalled(struct jw *w, const struct figure *f,
			 const struct result *r)
{
	const struct rtapp_own *k = r->kept;
	char name[48];
	int i;

	if (!k)
		return;
	jw_bool(w, f->key, k->nstalled > 0);
	jw_arr_begin(w, "stalled_threads");
	for (i = 0; i < k->nthreads && i < RTAPP_MAX_THREADS; i++)
		if (k->thr[i].stalled) {
			snprintf(name, sizeof(name), "%s[%d]", k->thr[i].name,
				 k->thr[i].inst);
			jw_str(w, NULL, name);
		}
	jw_arr_end(w);
}

static const struct figure rtapp_figures[] = {
	IB_FIG_NOTE,
	IB_FIG_MORE_PCTS,
	IB_FIG_MODE,
	SUM_FIG("timer_wakeup_us", "timer wakeup", RK_TIMER),
	SUM_FIG("sleep_overshoot_us", "sleep overshoot", RK_SLEEP),
	SUM_FIG("wake_latency_us", "another thread's wake to running",
		RK_WAKE),
	SUM_FIG("barrier_latency_us", "barrier to running", RK_BARRIER),
	{ NULL, "loops", NULL, "phase passes", FU_COUNT, FB_NONE, 0,
	  fig_u64, OWN(loops), 0, NULL },
	{ NULL, "loops_per_s", NULL, "phase passes a second", FU_HZ,
	  FB_HIGHER, FIG_OMIT, fig_double, OWN(loops_per_s), 0, NULL },
	{ NULL, "overruns", NULL, "timer events after their expiry",
	  FU_COUNT, FB_LOWER, 0, fig_u64, OWN(overruns), 0, NULL },
	{ NULL, "wakes_lost", NULL, "resumes and signals with nobody waiting",
	  FU_COUNT, FB_NONE, 0, fig_u64, OWN(wakes_lost), 0, NULL },
	{ NULL, "stall_deadlines_missed", NULL, "deadlines the stalled "
	  "threads missed", FU_COUNT, FB_LOWER, 0, fig_u64,
	  OWN(stall_missed), 0, NULL },
	{ NULL, "stalled", NULL, "threads that stalled", FU_COUNT, FB_NONE,
	  FIG_OMIT, NULL, 0, 0, json_stalled },
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

/* What woke a thread: "timer", "thread+sleep", ..., "-" for nothing. */
static void woken_by(const struct rtapp_thr_out *t, char *buf, size_t n)
{
	static const char *const by[RK_COUNT] = {
		"timer", "sleep", "thread", "barrier"
	};
	int k, used = 0;

	buf[0] = '\0';
	for (k = 0; k < RK_COUNT && (size_t)used < n; k++)
		if (t->by[k])
			used += snprintf(buf + used, n - (size_t)used, "%s%s",
					 used ? "+" : "", by[k]);
	if (!used)
		snprintf(buf, n, "-");
}

/* The table of threads: one line each, named. */
static void thread_table(const struct rtapp_own *k, out_fn out, void *ctx)
{
	const double us = NSEC_PER_USEC;
	char name[48], cls[32], by[40];
	int i;

	out(ctx, "          %-22s %-16s %-14s %7s %8s %8s %8s %8s %7s %6s "
	    "%9s %9s\n", "thread", "class", "woken by", "loops", "wakeups",
	    "p50 us", "p99 us", "max us", "frames", "misses", "slack p50",
	    "slack min");
	for (i = 0; i < k->nthreads && i < RTAPP_MAX_THREADS; i++) {
		const struct rtapp_thr_out *t = &k->thr[i];

		snprintf(name, sizeof(name), "%s[%d]", t->name, t->inst);
		snprintf(cls, sizeof(cls), "%s %d", t->policy >= 0 &&
			 t->policy < POL_COUNT ? policy_kernel_name(t->policy) :
			 "?", t->prio);
		woken_by(t, by, sizeof(by));
		out(ctx, "          %-22s %-16s %-14s %7llu %8llu", name, cls, by,
		    (unsigned long long)t->loops,
		    (unsigned long long)t->wake.count);
		if (t->wake.count)
			out(ctx, " %8.1f %8.1f %8.1f", (double)t->wake.p50 / us,
			    (double)t->wake.p99 / us, (double)t->wake.max / us);
		else
			out(ctx, " %8s %8s %8s", "-", "-", "-");
		if (t->periodic)
			out(ctx, " %7llu %6llu", (unsigned long long)t->frames,
			    (unsigned long long)t->overruns);
		else
			out(ctx, " %7s %6s", "-", "-");
		if (t->slack.count)
			out(ctx, " %9.1f", (double)t->slack.p50 / us);
		else
			out(ctx, " %9s", "-");
		if (t->periodic && t->frames)
			out(ctx, " %9.1f\n", (double)t->slack_min / us);
		else
			out(ctx, " %9s\n", "-");
	}
}

static void rtapp_detail(const struct result *r, const void *opts,
			 out_fn out, void *ctx)
{
	static const char *const kinds[RK_COUNT] = {
		"timer wakeups", "sleep overshoot", "wake -> running",
		"barrier -> running"
	};
	const struct rtapp_own *k = r->kept;
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
	if (k->demand > k->ncpus)
		out(ctx, "          OVERRUN: its threads ask %s%.1f CPUs of the "
		    "%d they may run on: more than the machine gives (allowed:"
		    " a load, as rt-app allows it)\n", k->demand_partial ?
		    "at least " : "", k->demand, k->ncpus);
	thread_table(k, out, ctx);
	for (i = 0; i < RK_COUNT; i++)
		print_sum(out, ctx, kinds[i], &k->kind[i]);
	for (i = 0; i < k->nthreads && i < RTAPP_MAX_THREADS; i++)
		if (k->thr[i].stalled)
			out(ctx, "          STALLED: %s[%d] waited on another "
			    "thread from %.3f s to the end; %llu deadline%s "
			    "missed meanwhile\n", k->thr[i].name, k->thr[i].inst,
			    k->thr[i].stalled_from,
			    (unsigned long long)k->thr[i].stall_missed,
			    k->thr[i].stall_missed == 1 ? "" : "s");
	if (k->wakes_lost)
		out(ctx, "          %llu resume%s or signal%s found nobody "
		    "waiting (lost, as in rt-app)\n",
		    (unsigned long long)k->wakes_lost,
		    k->wakes_lost == 1 ? "" : "s", k->wakes_lost == 1 ? "" :
		    "s");
}

/* The row's mark: "stalled: mp3.decoder[0], OMXCall[0]", or "". */
static void rtapp_mark(const struct result *r, char *buf, size_t n)
{
	const struct rtapp_own *k = r->kept;
	size_t used = 0;
	int i, w;

	buf[0] = '\0';
	for (i = 0; k && i < k->nthreads && i < RTAPP_MAX_THREADS; i++) {
		if (!k->thr[i].stalled || used >= n)
			continue;
		w = snprintf(buf + used, n - used, "%s%s[%d]", used ? ", " :
			     "stalled: ", k->thr[i].name, k->thr[i].inst);
		used += w > 0 ? (size_t)w : 0;
	}
}

/* The threads see the end within a burn slice or a wait's second. */
static uint64_t rtapp_grace(const struct run_cfg *cfg, const void *opts)
{
	(void)cfg;
	(void)opts;
	return NSEC_PER_SEC;
}

/* An rt-app file's keys that rt-app ignores: ignored, and said. */
static void rtapp_notes(const struct sim_notes_in *in, out_fn out, void *ctx)
{
	const struct rtapp_opts *ro = in->opts;
	const struct rtapp_wl *wl[2] = { ro->task, ro->load };
	int i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; wl[k] && i < wl[k]->nnote; i++)
			out(ctx, "NOTE: rt-app %s: %s\n", wl[k]->file,
			    wl[k]->note[i]);
}

static const char *rtapp_input(const void *opts, bool load, const char **opt)
{
	const struct rtapp_opts *ro = opts;
	const struct rtapp_wl *wl = load ? ro->load : ro->task;

	*opt = load ? "-w rtapp:" : "-W rtapp:";
	return wl ? wl->path : NULL;
}

const struct sim_desc sim_rtapp = {
	.name = "RtApp",
	.summary = "an rt-app JSON workload: -W rtapp:FILE, -w rtapp:FILE",
	.flags = SIM_DEADLINES | SIM_NAMED,
	.run = rtapp_run,
	.opts_size = sizeof(struct rtapp_opts),
	.opts_free = rtapp_opts_free,
	.figures = rtapp_figures,
	.nfigures = sizeof(rtapp_figures) / sizeof(rtapp_figures[0]),
	.keep = rtapp_keep,
	.detail = rtapp_detail,
	.mark = rtapp_mark,
	.grace_ns = rtapp_grace,
	.notes = rtapp_notes,
	.input = rtapp_input,
	.arg_what = "an rt-app file",
	.arg_name = "FILE.json",
	.arg_key = { "rtapp", "rtapp-load" },
	.take = rtapp_opts_read,
	.check_cpus = rtapp_opts_check_cpus,
	/*
	 * -w rtapp:FILE (struct rtapp_opts' load): the load gets RtApp's
	 * option block through .sim; LOAD_UNDER_SELF: an RtApp task still
	 * runs under an RtApp load (two files). The file says each thread's
	 * class: -N, --load-policy go unused.
	 */
	.as_load = {
		.name = "RtApp",
		.summary = "an rt-app JSON workload in the background: "
			   "-w rtapp:FILE",
		.flags = LOAD_NAMED | LOAD_UNDER_SELF,
		.sim = &sim_rtapp,
	},
};
