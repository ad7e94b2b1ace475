// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/rtapp/rtapp_collect.c - an RtApp run's threads added up
 * (rtapp_collect), once they have ended: each thread's line, the stalled
 * threads and their deadlines, the wakeups by kind, into the result's
 * own part (struct rtapp_own) that rtapp.c's figures read; and the note
 * the row carries (rtapp_note). Called by the run (rtapp_run.c).
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/base.h"
#include "core/raw.h"
#include "core/sim.h"
#include "stats.h"
#include "simulators/rtapp/rtapp.h"
#include "simulators/rtapp/rtapp_sim.h"

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

/* A thread's line: its figures from its histograms (mine: every wakeup). */
static void thread_out(const struct rt_thr *th, const struct lat_stats *mine,
		       struct rtapp_thr_out *o)
{
	int k;

	snprintf(o->name, sizeof(o->name), "%s", th->task->name);
	o->inst = th->inst;
	o->policy = th->policy;
	o->prio = th->prio;
	o->periodic = th->task->periodic;
	o->woken = th->task->woken;
	o->loops = th->loops;
	o->frames = th->frames;
	o->met = th->met;
	o->overruns = th->overruns;
	o->lat = sum_of(th->lat);
	o->wake = sum_of(mine);
	o->timer = sum_of(th->kind[RK_TIMER]);
	for (k = 0; k < RK_COUNT; k++)
		o->by[k] = th->kind[k]->count;
	o->slack = sum_of(th->slack);
	o->slack_min = th->frames ? th->slack_min : 0;
	o->demand = th->task->demand;
	o->ran_ns = th->got_ns;
	o->waited_ns = th->desired_ns - th->got_ns;
}

/* The mean period of a thread's frames: its timer events' over a pass. */
static uint64_t frame_ns(const struct rtapp_task *t)
{
	uint64_t sum = 0, n = 0, times;
	int p, k;

	for (p = 0; p < t->nphase; p++) {
		times = t->phase[p].loop > 0 ? (uint64_t)t->phase[p].loop : 1;
		for (k = 0; k < t->phase[p].nev; k++)
			if (t->phase[p].ev[k].type == RTE_TIMER &&
			    t->phase[p].ev[k].ns) {
				sum += t->phase[p].ev[k].ns * times;
				n += times;
			}
	}
	return n ? sum / n : 0;
}

/*
 * A stalled thread: at the end it had been waiting on another thread (a
 * condition, a mutex, a barrier) for half the cell or more, while
 * another thread ended passes. It missed every deadline it had
 * meanwhile: each wake lost on a condition it waits on (it was not
 * there to take it), and, with a timer, each of its periods. 0: not
 * stalled; else the deadlines missed, plus one.
 */
static uint64_t stall_of(const struct rt_run *rr, const struct rt_thr *th,
			 uint64_t stop)
{
	uint64_t since = th->wait_since, missed = 0, per;
	int i, c;

	if (!since || since >= stop || stop - since < (stop - rr->t0) / 2)
		return 0;
	for (i = 0; i < rr->n; i++)
		if (&rr->thr[i] != th && rr->thr[i].last_pass > since)
			break;
	if (i == rr->n)
		return 0;
	for (c = 0; c < rr->wl->ncond; c++)
		if (th->waits_on[c])
			missed += atomic_load(&rr->cond[c].lost) - th->lost0[c];
	per = th->task->periodic ? frame_ns(th->task) : 0;
	if (per)
		missed += (stop - since) / per;
	return missed + 1;
}

int rtapp_collect(struct rt_run *rr, uint64_t stop)
{
	struct sim_result *r = rr->c->res;
	struct rtapp_own *own = (struct rtapp_own *)r->own;
	const struct rtapp_wl *wl = rr->wl;
	struct lat_stats *all = malloc(sizeof(*all));
	struct lat_stats *mine = malloc(sizeof(*mine));
	uint64_t stall;
	int i, k;

	if (!all || !mine) {
		free(all);
		free(mine);
		return -ENOMEM;
	}
	snprintf(own->file, sizeof(own->file), "%s", wl->file);
	own->bytes = wl->bytes;
	own->fnv = wl->fnv;
	own->nthreads = wl->nthreads;
	own->nperiodic = wl->nperiodic;
	own->demand = wl->demand;
	own->demand_partial = wl->demand_partial;
	own->ncpus = rtapp_ncpus(wl, &rr->all);
	for (i = 0; i < rr->n; i++) {
		struct rt_thr *th = &rr->thr[i];

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
		if (!wl->nperiodic)
			stats_merge(&r->latency, mine);
		thread_out(th, mine, &own->thr[i]);
		stall = stall_of(rr, th, stop);
		if (stall) {
			own->thr[i].stalled = true;
			own->thr[i].stalled_from = (double)(th->wait_since -
						rr->t0) / NSEC_PER_SEC;
			own->thr[i].stall_missed = stall - 1;
			own->nstalled++;
			own->stall_missed += stall - 1;
			/* its deadlines: frames, none met (with periodic) */
			if (wl->nperiodic)
				r->frames += stall - 1;
		}
		own->loops += th->loops;
		own->overruns += th->overruns;
	}
	for (k = 0; k < RK_COUNT; k++) {
		stats_init(all);
		for (i = 0; i < rr->n; i++)
			stats_merge(all, rr->thr[i].kind[k]);
		own->kind[k] = sum_of(all);
	}
	for (i = 0; i < wl->ncond; i++)
		own->wakes_lost += atomic_load(&rr->cond[i].lost);
	own->secs = stop > rr->t0 ? (double)(stop - rr->t0) / NSEC_PER_SEC : 0;
	own->loops_per_s = own->secs > 0 ? (double)own->loops / own->secs :
			   NAN;
	free(all);
	free(mine);
	return 0;
}

void rtapp_note(const struct rtapp_wl *wl, char *buf, size_t n)
{
	cpu_set_t mine;
	int ncpus = 0;

	if (!sched_getaffinity(0, sizeof(mine), &mine))
		ncpus = rtapp_ncpus(wl, &mine);
	if (ncpus && wl->demand > ncpus)
		snprintf(buf, n, "rt-app %s: %d thread%s, asking %s%.1f CPUs "
			 "of %d: overrun", wl->file, wl->nthreads,
			 wl->nthreads == 1 ? "" : "s", wl->demand_partial ?
			 "at least " : "", wl->demand, ncpus);
	else
		snprintf(buf, n, "rt-app %s: %d thread%s, %d periodic",
			 wl->file, wl->nthreads, wl->nthreads == 1 ? "" : "s",
			 wl->nperiodic);
}
