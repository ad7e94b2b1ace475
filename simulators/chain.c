// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/chain.c - the chain engine (chain.h): a frame is a graph of
 * stages, one thread a copy of a stage, each woken by the last of the
 * threads it waits for, the first ones by the timing thread.
 *
 * One frame is in the graph at a time, as a sound server's cycle is: the
 * next is started by whoever finds it released and the graph free, the
 * timing thread at its release or the thread that finished the last one
 * (catching up). A small lock-free hand-over (busy, released, next) makes
 * sure that exactly one of them starts each frame and none is forgotten:
 * each first publishes what it did (a release, a free graph), then looks
 * at what the other published.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "lib/policy.h"
#include "core/load.h"
#include "core/raw.h"
#include "core/sim.h"
#include "simulators/chain.h"
#include "simulators/engine.h"

_Static_assert(sizeof(struct chain_own) <= SIM_OWN_BYTES,
	       "a chain's histograms must fit in sim_result's own[]");

#define CHAIN_NODES	(CHAIN_STAGES * CHAIN_COPIES)
/* Time allowed for every thread to set itself up before the first frame. */
#define CHAIN_START_NS	(10 * NSEC_PER_SEC)

struct chain;

struct node {
	struct chain *ch;
	int stage, copy;
	uint64_t work_ns;
	pthread_t tid;
	bool created;
	sem_t sem;
	_Atomic uint64_t go;		/* frames posted to it */
	uint64_t ran;			/* frames it ran */
	_Atomic uint64_t post_ns;	/* when the last post was made */
	_Atomic int pending;		/* threads it still waits for */
	struct lat_stats *hop;		/* its own: post -> running */
	_Atomic int err;		/* setting its class failed */
};

struct chain {
	const struct chain_spec *s;
	struct sim_ctx *c;
	struct chain_own *own;
	uint64_t ideal_ns;		/* the longest path of work */
	uint64_t frame_work_ns;		/* all of a frame's work */
	uint64_t start, end;		/* first release; none at or after end */
	int nn, nsinks;
	struct node n[CHAIN_NODES];
	uint32_t succ[CHAIN_STAGES];	/* bit j: stage j waits for it */
	int first[CHAIN_STAGES];	/* its first node */
	int npred[CHAIN_STAGES];	/* threads it waits for */
	sem_t ready;
	/* The hand-over: who starts the next frame. */
	_Atomic int busy;		/* a frame is in the graph */
	_Atomic uint64_t released;	/* frames released so far */
	_Atomic uint64_t next;		/* the next frame to start */
	_Atomic int timing_done, abort;
	_Atomic int sinks_left;
	/* The frame in the graph (written by whoever started it). */
	uint64_t cur, from;
	uint64_t last_done;
	/* --trace: worst_frame_add() has one writer at a time. */
	pthread_mutex_t worst_lock;
	int timing_err;
};

static uint64_t release_of(const struct chain *ch, uint64_t k)
{
	return ch->start + k * ch->s->period_ns;
}

int chain_check(const struct chain_spec *s, char *err, size_t n)
{
	int i, copies = 0;

	if (!s->period_ns || s->deadline_ns < s->period_ns) {
		snprintf(err, n, "a chain needs a period and a deadline no "
			 "shorter than it");
		return -EINVAL;
	}
	if (s->nstages < 1 || s->nstages > CHAIN_STAGES) {
		snprintf(err, n, "a chain has 1 to %d stages", CHAIN_STAGES);
		return -EINVAL;
	}
	for (i = 0; i < s->nstages; i++) {
		const struct chain_stage *st = &s->stage[i];

		/* Waiting only for earlier stages keeps it a graph. */
		if (st->after >> i) {
			snprintf(err, n, "stage %s waits for a later stage",
				 st->name);
			return -EINVAL;
		}
		if (st->copies < 1 || st->copies > CHAIN_COPIES) {
			snprintf(err, n, "stage %s has 1 to %d threads",
				 st->name, CHAIN_COPIES);
			return -EINVAL;
		}
		copies += st->copies;
	}
	if (s->stage[0].after) {
		snprintf(err, n, "the first stage is woken by the clock");
		return -EINVAL;
	}
	(void)copies;
	return 0;
}

uint64_t chain_ideal_ns(const struct chain_spec *s)
{
	uint64_t done[CHAIN_STAGES], most = 0;
	int i, j;

	for (i = 0; i < s->nstages; i++) {
		uint64_t ready = 0;

		for (j = 0; j < i; j++)
			if ((s->stage[i].after >> j & 1) && done[j] > ready)
				ready = done[j];
		done[i] = ready + s->stage[i].work_ns;
		if (done[i] > most)
			most = done[i];
	}
	return most;
}

void chain_shape(const struct chain_spec *s, char *buf, size_t n)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < s->nstages && used < n; i++) {
		const struct chain_stage *st = &s->stage[i];
		/* Stages woken by the same ones run side by side: "+". */
		bool side = i && st->after == s->stage[i - 1].after;

		used += (size_t)snprintf(buf + used, n - used, "%s%s",
					 !i ? "" : side ? "+" : " > ", st->name);
		if (st->copies > 1 && used < n)
			used += (size_t)snprintf(buf + used, n - used, " x%d",
						 st->copies);
	}
}

/* ---- the frame's life ---------------------------------------------- */

static void post(struct node *nd, uint64_t t)
{
	atomic_store_explicit(&nd->post_ns, t, memory_order_relaxed);
	atomic_fetch_add(&nd->go, 1);
	sem_post(&nd->sem);
}

static void wake_all(struct chain *ch)
{
	int i;

	for (i = 0; i < ch->nn; i++)
		sem_post(&ch->n[i].sem);
}

/*
 * With busy held: start the oldest frame still of use, dropping those
 * already past their deadline while a newer one waits (as timing.c).
 * false if none is released yet.
 */
static bool start_frame(struct chain *ch)
{
	const struct chain_spec *s = ch->s;
	struct sim_result *r = ch->c->res;
	uint64_t rel = atomic_load(&ch->released), k = atomic_load(&ch->next);
	uint64_t now, owed = 0;
	int i;

	if (k >= rel)
		return false;
	now = now_ns();
	while (k + 1 < rel && release_of(ch, k) + s->deadline_ns <= now) {
		if (!owed)
			owed = release_of(ch, k);
		r->frames++;
		r->frames_dropped++;
		r->cpu_desired_ns += (double)ch->frame_work_ns;
		ch->own->misses++;
		k++;
	}
	ch->cur = k;
	ch->from = owed ? owed : release_of(ch, k);
	atomic_store(&ch->next, k + 1);
	for (i = 0; i < ch->nn; i++)
		atomic_store(&ch->n[i].pending, ch->npred[ch->n[i].stage]);
	atomic_store(&ch->sinks_left, ch->nsinks);
	for (i = 0; i < ch->nn; i++)
		if (!s->stage[ch->n[i].stage].after)
			post(&ch->n[i], now);
	return true;
}

/*
 * Start the next frame if one is released and the graph is free. Both
 * the timing thread (after publishing a release) and the end of a frame
 * (after freeing the graph) call it, so one of them sees the other.
 */
static void try_start(struct chain *ch)
{
	for (;;) {
		int free_ = 0;

		if (atomic_load(&ch->released) <= atomic_load(&ch->next))
			return;
		if (!atomic_compare_exchange_strong(&ch->busy, &free_, 1))
			return;
		if (start_frame(ch))
			return;
		atomic_store(&ch->busy, 0);
	}
}

/* The last thread of a frame finished at done. */
static void frame_end(struct chain *ch, uint64_t done)
{
	const struct chain_spec *s = ch->s;
	struct sim_result *r = ch->c->res;
	uint64_t rel = release_of(ch, ch->cur), took = done - ch->from;
	/* Burn's calibration may run a hair short: no negative lateness. */
	uint64_t late = took > ch->ideal_ns ? took - ch->ideal_ns : 0;

	r->frames++;
	r->cpu_desired_ns += (double)ch->frame_work_ns;
	r->cpu_got_ns += (double)ch->frame_work_ns;
	stats_add(&ch->own->total, done - rel);
	stats_add(&r->latency, late);
	win_add(&r->windows, ch->from, late);
	if (done <= rel + s->deadline_ns)
		r->frames_met++;
	else
		ch->own->misses++;
	frame_done(r, &ch->last_done, done, s->period_ns);
	if (ch->c->work)
		work_add(ch->c->work, WORK_FRAMES, 1);
	atomic_store(&ch->busy, 0);
	try_start(ch);
	/* The last frame: the threads may go now rather than at a timeout. */
	if (atomic_load(&ch->timing_done) && !atomic_load(&ch->busy))
		wake_all(ch);
}

/* Thread nd finished its work of the frame at t: wake who waits for it. */
static void node_done(struct chain *ch, struct node *nd, uint64_t t)
{
	uint32_t succ = ch->succ[nd->stage];
	int j, i;

	for (j = 0; j < ch->s->nstages; j++) {
		if (!(succ >> j & 1))
			continue;
		for (i = 0; i < ch->s->stage[j].copies; i++) {
			struct node *w = &ch->n[ch->first[j] + i];

			if (atomic_fetch_sub(&w->pending, 1) == 1)
				post(w, t);
		}
	}
	if (!succ && atomic_fetch_sub(&ch->sinks_left, 1) == 1)
		frame_end(ch, t);
}

/* Nothing more will come: the clock is done and no frame is left. */
static bool chain_over(struct chain *ch)
{
	if (atomic_load(&ch->abort))
		return true;
	return atomic_load(&ch->timing_done) && !atomic_load(&ch->busy) &&
	       atomic_load(&ch->released) <= atomic_load(&ch->next);
}

static int node_sched(struct node *nd)
{
	const struct chain *ch = nd->ch;

	if (ch->s->rt)
		return set_thread_fifo(ch->s->rt_prio);
	return sim_sched(ch->c, NULL);
}

static void *node_thread(void *arg)
{
	struct node *nd = arg;
	struct chain *ch = nd->ch;
	struct sim_result *r = ch->c->res;
	uint64_t lpm = ch->c->cfg->loops_per_ms;

	worst_frame_thread(&r->worst);
	nd->err = node_sched(nd);
	sem_post(&ch->ready);
	if (nd->err)
		return NULL;
	for (;;) {
		uint64_t t, p;

		while (atomic_load(&nd->go) == nd->ran) {
			struct timespec ts;

			if (chain_over(ch))
				goto out;
			/* Bounded: the flags are looked at again each second. */
			ts = ns_to_ts(now_ns() + NSEC_PER_SEC);
			sem_clockwait(&nd->sem, CLOCK_MONOTONIC, &ts);
		}
		t = now_ns();
		p = atomic_load_explicit(&nd->post_ns, memory_order_relaxed);
		nd->ran++;
		if (t >= p) {
			stats_add(nd->hop, t - p);
			if (r->worst.keep) {
				pthread_mutex_lock(&ch->worst_lock);
				worst_frame_add(&r->worst, (struct worst_frame){
					.release = p, .timer = p,
					.timer_cpu = -1, .start = t });
				pthread_mutex_unlock(&ch->worst_lock);
			}
		}
		burn_ns(lpm, nd->work_ns);
		node_done(ch, nd, now_ns());
	}
out:
	task_acc_add_self(&r->task);
	return NULL;
}

static void *chain_timing(void *arg)
{
	struct chain *ch = arg;
	struct sim_result *r = ch->c->res;
	uint64_t k;

	if (ch->c->timing_rt)
		ch->timing_err = set_thread_fifo(PRIO_TIMING);
	r->worst.timing_tid = (int32_t)gettid();
	worst_frame_thread(&r->worst);
	for (k = 0; !atomic_load(&ch->abort); k++) {
		uint64_t d = release_of(ch, k), t;
		struct timespec ts = ns_to_ts(d);

		if (ch->end && d >= ch->end)
			break;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
		t = now_ns();
		atomic_store(&ch->released, k + 1);
		try_start(ch);
		stats_add(&r->timer, t - d);
	}
	atomic_store(&ch->timing_done, 1);
	if (!atomic_load(&ch->busy))
		wake_all(ch);
	task_acc_add_self(&r->task);
	return NULL;
}

/* ---- set-up and the run -------------------------------------------- */

static int chain_setup(struct chain *ch)
{
	const struct chain_spec *s = ch->s;
	int i, j;

	ch->ideal_ns = chain_ideal_ns(s);
	for (i = 0; i < s->nstages; i++) {
		ch->first[i] = ch->nn;
		for (j = 0; j < i; j++)
			if (s->stage[i].after >> j & 1) {
				ch->succ[j] |= 1u << i;
				ch->npred[i] += s->stage[j].copies;
			}
		for (j = 0; j < s->stage[i].copies; j++) {
			struct node *nd = &ch->n[ch->nn++];

			nd->ch = ch;
			nd->stage = i;
			nd->copy = j;
			nd->work_ns = s->stage[i].work_ns;
			ch->frame_work_ns += nd->work_ns;
			sem_init(&nd->sem, 0, 0);
			nd->hop = malloc(sizeof(*nd->hop));
			if (!nd->hop)
				return -ENOMEM;
			stats_init(nd->hop);
		}
	}
	for (i = 0; i < s->nstages; i++)
		ch->nsinks += ch->succ[i] ? 0 : s->stage[i].copies;
	return 0;
}

/* Every thread's hops into the result; the first failure of a thread. */
static int chain_collect(struct chain *ch)
{
	struct sim_result *r = ch->c->res;
	int i, err = 0;

	for (i = 0; i < ch->nn; i++) {
		struct node *nd = &ch->n[i];

		if (!nd->created)
			continue;
		if (nd->err && !err)
			err = nd->err;
		stats_merge(&ch->own->hop[nd->stage], nd->hop);
		stats_merge(&r->wakeup, nd->hop);
	}
	return err;
}

static void chain_free(struct chain *ch)
{
	int i;

	for (i = 0; i < ch->nn; i++) {
		sem_destroy(&ch->n[i].sem);
		free(ch->n[i].hop);
	}
	sem_destroy(&ch->ready);
	pthread_mutex_destroy(&ch->worst_lock);
	free(ch);
}

/* Wait for every created thread to say it is set up: 0 or -ETIMEDOUT. */
static int wait_ready(struct chain *ch, int created)
{
	struct timespec ts = ns_to_ts(now_ns() + CHAIN_START_NS);
	int i;

	for (i = 0; i < created; i++)
		while (sem_clockwait(&ch->ready, CLOCK_MONOTONIC, &ts))
			if (errno != EINTR)
				return -ETIMEDOUT;
	return 0;
}

/* The note: "SCHED_FIFO 88: client > filter > device". */
static void chain_note(const struct sim_ctx *c, const struct chain_spec *s)
{
	char shape[56], pol[16];
	int pol_id = s->rt ? POL_FIFO : c->policy, prio = 0;
	size_t i;

	chain_shape(s, shape, sizeof(shape));
	snprintf(pol, sizeof(pol), "%s", policy_names[pol_id]);
	for (i = 0; pol[i]; i++)
		if (pol[i] >= 'a' && pol[i] <= 'z')
			pol[i] = (char)(pol[i] - 'a' + 'A');
	if (s->rt)
		prio = s->rt_prio;
	else if (pol_id == POL_FIFO || pol_id == POL_RR)
		prio = PRIO_SIM;
	if (pol_id == POL_OTHER)
		snprintf(c->res->note, sizeof(c->res->note),
			 "SCHED_OTHER nice %d: %s", c->nice, shape);
	else if (prio)
		snprintf(c->res->note, sizeof(c->res->note), "SCHED_%s %d: %s",
			 pol, prio, shape);
	else
		snprintf(c->res->note, sizeof(c->res->note), "SCHED_%s: %s",
			 pol, shape);
}

int chain_run(struct sim_ctx *c, const struct chain_spec *s)
{
	struct chain *ch;
	pthread_t tt;
	uint64_t limit = 0;
	char why[128];
	int i, err, created = 0;

	if (chain_check(s, why, sizeof(why))) {
		sim_fail(c->res, -EINVAL, why);
		return -EINVAL;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return -ENOMEM;
	ch->s = s;
	ch->c = c;
	ch->own = (struct chain_own *)c->res->own;
	ch->own->nstages = s->nstages;
	ch->own->miss = (int32_t)s->miss;
	stats_init(&ch->own->total);
	for (i = 0; i < CHAIN_STAGES; i++)
		stats_init(&ch->own->hop[i]);
	sem_init(&ch->ready, 0, 0);
	pthread_mutex_init(&ch->worst_lock, NULL);
	c->res->has_deadlines = true;
	c->res->period_ns = s->period_ns;
	c->res->worst.deadline_ns = s->deadline_ns;	/* --trace's picture */
	chain_note(c, s);
	err = chain_setup(ch);
	for (i = 0; !err && i < ch->nn; i++) {
		err = -pthread_create(&ch->n[i].tid, NULL, node_thread,
				      &ch->n[i]);
		ch->n[i].created = !err;
		created += !err;
	}
	if (!err)
		err = wait_ready(ch, created);
	for (i = 0; !err && i < ch->nn; i++)
		err = ch->n[i].err;
	if (!err) {
		/* everyone is waiting by then */
		ch->start = sim_first_release(s->period_ns);
		if (sim_duration(c)) {
			ch->end = ch->start + sim_duration(c);
			win_init(&c->res->windows, ch->start, sim_duration(c));
			limit = ch->end + c->grace_ns;
		}
		err = -pthread_create(&tt, NULL, chain_timing, ch);
	}
	if (err) {
		atomic_store(&ch->abort, 1);
		wake_all(ch);
		limit = now_ns() + c->grace_ns;
	}
	for (i = 0; i < ch->nn; i++)
		if (ch->n[i].created && thread_join_until(ch->n[i].tid, limit)) {
			sim_fail(c->res, -ETIMEDOUT,
				 "a stage of the chain did not finish");
			return -ETIMEDOUT;	/* threads die with the process */
		}
	if (!err && thread_join_until(tt, now_ns() + c->grace_ns)) {
		sim_fail(c->res, -ETIMEDOUT, "timing thread did not finish");
		return -ETIMEDOUT;
	}
	i = chain_collect(ch);
	if (err)
		sim_fail(c->res, err, "setting up the chain");
	else if (i)
		sim_fail(c->res, i, "scheduling a stage of the chain");
	else if (ch->timing_err)
		sim_fail(c->res, ch->timing_err, "timing thread SCHED_FIFO");
	chain_free(ch);
	return c->res->status;
}

int chain_sim_run(struct sim_ctx *c, chain_spec_fn spec)
{
	const struct sim_desc *d = c->desc;
	struct chain_spec s;
	void *def = NULL;
	int err;

	if (!c->opts) {
		def = calloc(1, d->opts_size);
		if (!def)
			return -ENOMEM;
		d->opts_init(def, c->cfg);
	}
	spec(c->opts ? c->opts : def, &s);
	err = chain_run(c, &s);
	free(def);
	return err;
}

/* ---- figures and details ------------------------------------------- */

#define CHAIN_OFF(field)	(SR(own) + offsetof(struct chain_own, field))

static const struct chain_own *own_of(const struct sim_result *r)
{
	return (const struct chain_own *)r->own;
}

/* The misses under the name of this chain's kind; NaN for other kinds. */
static double chain_misses(const struct figure *f, const struct sim_result *r)
{
	const struct chain_own *o = own_of(r);

	return o->miss == (int32_t)f->arg ? (double)o->misses : NAN;
}

/* A stage's wakeups: unknown for a stage the chain does not have. */
static double chain_hop(const struct figure *f, const struct sim_result *r)
{
	size_t stage = (f->off - CHAIN_OFF(hop)) / sizeof(struct lat_stats);

	if (stage >= (size_t)own_of(r)->nstages)
		return NAN;
	return fig_stat(f, r);
}

#define TOTAL(k, a, l)							\
	{ "chain_us", k, NULL, l " release to done", FU_NS, FB_LOWER,	\
	  FIG_OMIT, fig_stat, CHAIN_OFF(total), a, NULL }
#define MISSES(k, kind, l)						\
	{ NULL, k, NULL, l, FU_COUNT, FB_LOWER, FIG_OMIT, chain_misses,	\
	  0, kind, NULL }
#define HOP(s, k, a)							\
	{ "stage_wakeup_us", "s" #s "_" k, NULL, k " wakeup of stage " #s, \
	  FU_NS, FB_LOWER, FIG_OMIT, chain_hop,				\
	  CHAIN_OFF(hop) + (s) * sizeof(struct lat_stats), a, NULL }
#define HOPS(s)	HOP(s, "p50", 50), HOP(s, "p99", 99), HOP(s, "max", FS_MAX)

/* The order of chain_figures[], for chain_detail(). */
enum { CF_NOTE, CF_COUNT, CF_P50, CF_P90, CF_P99, CF_MAX, CF_XRUN,
       CF_REPEAT, CF_LATE, CF_HOPS };

const struct figure chain_figures[CHAIN_NFIGURES] = {
	IB_FIG_NOTE,
	TOTAL("count", FS_COUNT, "frames timed"),
	TOTAL("p50", 50, "p50"),
	TOTAL("p90", 90, "p90"),
	TOTAL("p99", 99, "p99"),
	TOTAL("max", FS_MAX, "max"),
	MISSES("xruns", CHAIN_XRUN, "cycles not done by the next quantum"),
	MISSES("repeated_frames", CHAIN_REPEAT,
	       "vblanks that showed the last frame again"),
	MISSES("late_frames", CHAIN_LATE, "frames over their budget"),
	HOPS(0), HOPS(1), HOPS(2), HOPS(3), HOPS(4), HOPS(5), HOPS(6),
	HOPS(7),
};

_Static_assert(CHAIN_NFIGURES == CF_HOPS + 3 * CHAIN_STAGES,
	       "three figures a stage, after the chain's own");

void chain_sim_detail(const struct result *r, const void *opts,
		      chain_spec_fn spec, out_fn out, void *ctx)
{
	struct chain_spec s;

	if (!opts)
		return;
	spec(opts, &s);
	chain_detail(r, &s, out, ctx);
}

static const char *const miss_names[] = {
	[CHAIN_XRUN] = "xrun", [CHAIN_REPEAT] = "repeated frame",
	[CHAIN_LATE] = "late frame",
};

void chain_detail(const struct result *r, const struct chain_spec *s,
		  out_fn out, void *ctx)
{
	const double *x = r->sim_v, us = NSEC_PER_USEC;
	double misses;
	int i;

	if (!x)
		return;
	misses = x[CF_XRUN + s->miss];
	if (!isnan(x[CF_P50]))
		out(ctx, "          frame, release to done (us): p50 %.1f, "
		    "p90 %.1f, p99 %.1f, max %.1f; %.0f %s%s of %.0f\n",
		    x[CF_P50] / us, x[CF_P90] / us, x[CF_P99] / us,
		    x[CF_MAX] / us, isnan(misses) ? 0 : misses,
		    miss_names[s->miss], misses == 1 ? "" : "s",
		    r->v[F_FRAMES]);
	out(ctx, "          wakeup by stage (us, p50/p99/max):");
	for (i = 0; i < s->nstages; i++) {
		const double *h = &x[CF_HOPS + 3 * i];

		if (isnan(h[0]))
			out(ctx, "%s %s none", i ? "," : "", s->stage[i].name);
		else
			out(ctx, "%s %s %.1f/%.1f/%.1f", i ? "," : "",
			    s->stage[i].name, h[0] / us, h[1] / us, h[2] / us);
	}
	out(ctx, "\n");
}
