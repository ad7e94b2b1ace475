// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/trace_pic.c - the picture of an explained frame (trace.h): what
 * each CPU ran, slice by slice, from a little before the frame's release
 * (its latency, at least 2 ms and at most 20 ms) to a little after it ran.
 * trace_why.c hands over every stretch of a CPU's time as it reads the
 * trace; here they are kept for the frame's window, their kinds told
 * (the benchmarked thread, the timing thread, a load, a kernel thread by
 * its name, another task), the idle time the explanation found to be the
 * host's or the quota's marked so, and the WHY_SLICES longest kept: a
 * shorter slice goes into an "others" slice beside it, so a lane keeps
 * its time whole and a frame its bounded size in the JSON.
 */
#include <stdlib.h>
#include <string.h>
#include "run/trace.h"
#include "lib/base.h"

#define PIC_BEFORE_MIN	(2 * NSEC_PER_MSEC)
#define PIC_BEFORE_MAX	(20 * NSEC_PER_MSEC)
#define PIC_AFTER_MIN	(100 * NSEC_PER_USEC)
#define PIC_AFTER_MAX	(2 * NSEC_PER_MSEC)
#define PIC_RAW_MAX	1024	/* gathered before a reduction */
#define PIC_RAW_KEEP	256	/* ... which keeps this many */

static uint64_t clamp_ns(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void lane_add(struct pic_raw *r, int cpu)
{
	int i;

	if (cpu < 0)
		return;
	for (i = 0; i < r->nlanes; i++)
		if (r->lanes[i] == cpu)
			return;
	if (r->nlanes < WHY_LANES)
		r->lanes[r->nlanes++] = cpu;
}

void trace_pic_begin(struct pic_raw *r, struct why_frame *f)
{
	uint64_t before = clamp_ns(f->latency_ns, PIC_BEFORE_MIN,
				   PIC_BEFORE_MAX);
	uint64_t after = clamp_ns(f->latency_ns / 8, PIC_AFTER_MIN,
				  PIC_AFTER_MAX);

	memset(r, 0, sizeof(*r));
	f->pic_from = f->release_ns > before ? f->release_ns - before : 0;
	f->pic_to = f->release_ns + f->latency_ns + after;
	/* The frame's own CPUs always have a lane. */
	lane_add(r, f->timer.cpu);
	lane_add(r, f->wait.cpu);
}

static bool has_lane(struct pic_raw *r, int cpu)
{
	int i;

	lane_add(r, cpu);
	for (i = 0; i < r->nlanes; i++)
		if (r->lanes[i] == cpu)
			return true;
	return false;
}

static bool same(const struct why_slice *a, const struct why_slice *b)
{
	return a->cpu == b->cpu && a->kind == b->kind && a->pid == b->pid &&
	       !strcmp(a->name, b->name);
}

static uint64_t len(const struct why_slice *s)
{
	return s->to - s->from;
}

static int by_cpu_time(const void *x, const void *y)
{
	const struct why_slice *a = x, *b = y;

	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return a->from < b->from ? -1 : a->from > b->from ? 1 : 0;
}

static void drop(struct pic_raw *r, size_t i)
{
	memmove(&r->s[i], &r->s[i + 1], (r->n - i - 1) * sizeof(r->s[0]));
	r->n--;
}

/* Is j the slice right beside i on its lane (no gap between)? */
static bool beside(const struct pic_raw *r, size_t i, size_t j)
{
	const struct why_slice *a = &r->s[i < j ? i : j];
	const struct why_slice *b = &r->s[i < j ? j : i];

	return j < r->n && a->cpu == b->cpu && a->to == b->from;
}

static void merged(struct why_slice *s, int count)
{
	s->kind = SK_MERGED;
	s->pid = count;
	snprintf(s->name, sizeof(s->name), "others");
}

/*
 * Merge the shortest slice into the "others" beside it (or make it one),
 * until at most keep are left; slices sorted by CPU and time.
 */
static void reduce(struct pic_raw *r, size_t keep)
{
	qsort(r->s, r->n, sizeof(r->s[0]), by_cpu_time);
	while (r->n > keep) {
		size_t i, k = r->n;
		bool left, right;

		for (i = 0; i < r->n; i++)
			if (r->s[i].kind != SK_MERGED &&
			    (k == r->n || len(&r->s[i]) < len(&r->s[k])))
				k = i;
		if (k == r->n) {
			/* Only "others" left, with gaps between: the least goes. */
			for (i = k = 0; i < r->n; i++)
				if (len(&r->s[i]) < len(&r->s[k]))
					k = i;
			drop(r, k);
			continue;
		}
		left = k > 0 && beside(r, k, k - 1) &&
		       r->s[k - 1].kind == SK_MERGED;
		right = beside(r, k, k + 1) && r->s[k + 1].kind == SK_MERGED;
		if (!left && !right) {
			merged(&r->s[k], 1);
			continue;
		}
		if (left) {
			r->s[k - 1].to = r->s[k].to;
			r->s[k - 1].pid += 1;
			drop(r, k);
			k--;
		} else {
			r->s[k + 1].from = r->s[k].from;
			r->s[k + 1].pid += 1;
			drop(r, k);
			continue;
		}
		if (right) {
			r->s[k].to = r->s[k + 1].to;
			r->s[k].pid += r->s[k + 1].pid;
			drop(r, k + 1);
		}
	}
}

static struct why_slice *room(struct pic_raw *r)
{
	if (r->n == PIC_RAW_MAX)
		reduce(r, PIC_RAW_KEEP);
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct why_slice *s = realloc(r->s, cap * sizeof(*s));

		if (!s)
			return NULL;
		r->s = s;
		r->cap = cap;
	}
	return &r->s[r->n];
}

void trace_pic_add(struct pic_raw *r, const struct why_frame *f, int cpu,
		   uint64_t from, uint64_t to, int kind, const char *name,
		   int pid)
{
	struct why_slice *s, t = { .pid = pid, .cpu = (int16_t)cpu,
				   .kind = (uint8_t)kind };
	size_t i, back;

	if (from < f->pic_from)
		from = f->pic_from;
	if (to > f->pic_to)
		to = f->pic_to;
	if (to <= from || !has_lane(r, cpu))
		return;
	snprintf(t.name, sizeof(t.name), "%s", name);
	/* The same task again right after (an interrupt between is not). */
	for (i = r->n, back = 0; i-- > 0 && back < 2 * WHY_LANES; back++)
		if (r->s[i].cpu == cpu) {
			if (same(&r->s[i], &t) && r->s[i].to == from) {
				r->s[i].to = to;
				return;
			}
			break;
		}
	s = room(r);
	if (!s)
		return;
	t.from = from;
	t.to = to;
	*s = t;
	r->n++;
}

/* A task's kind, from its pid and its name. */
static int task_kind(const struct pic_raw *r, const struct why_frame *f,
		     const struct why_slice *s)
{
	static const char *const kthreads[] = {
		"kworker/", "ksoftirqd/", "migration/", "rcu", "kthreadd",
		"kswapd", "kcompactd", "khugepaged", "kdamond", "irq/",
		"watchdog", "cpuhp/", "jbd2/", "kauditd", "kblockd",
		"oom_reaper", "writeback", "idle_inject/", "khungtaskd",
		"ksmd", "kthrotld", "xfsaild", "scsi_eh", "card",
	};
	size_t i;

	if (r->timing && s->pid == r->timing)
		return SK_TIMING;
	if (!strncmp(s->name, COMM_TIMER, strlen(COMM_TIMER)))
		return SK_TIMING;
	if (s->pid == f->tid || !strncmp(s->name, COMM_BENCH,
					 strlen(COMM_BENCH)) ||
	    !strncmp(s->name, COMM_SIM, strlen(COMM_SIM)))
		return SK_BENCH;
	if (!strncmp(s->name, "ib:load:", 8))
		return SK_LOAD;
	for (i = 0; i < sizeof(kthreads) / sizeof(kthreads[0]); i++)
		if (!strncmp(s->name, kthreads[i], strlen(kthreads[i])))
			return SK_KTHREAD;
	return SK_OTHER;
}

/* The idle time in [p, q) on cpu is kind's: split where it crosses. */
static void idle_is(struct pic_raw *r, int cpu, uint64_t p, uint64_t q,
		    int kind)
{
	size_t i, n = r->n;

	for (i = 0; i < n; i++) {
		struct why_slice s = r->s[i], *x;

		if (s.kind != SK_IDLE || s.cpu != cpu || s.to <= p ||
		    s.from >= q)
			continue;
		if (s.from < p && (x = room(r))) {
			*x = s;
			x->to = p;
			r->n++;
		}
		if (s.to > q && (x = room(r))) {
			*x = s;
			x->from = q;
			r->n++;
		}
		/* room() may have moved the array, or reduced it */
		if (r->n < n)
			return;
		r->s[i].from = s.from < p ? p : s.from;
		r->s[i].to = s.to > q ? q : s.to;
		r->s[i].kind = (uint8_t)kind;
	}
}

static int idle_kind(enum why_idle c)
{
	return c == WHY_IDLE_HOST ? SK_HOST :
	       c == WHY_IDLE_THROTTLED ? SK_THROTTLED : SK_IDLE;
}

void trace_pic_end(struct pic_raw *r, struct why_frame *f)
{
	uint64_t woken = f->release_ns + f->timer.ns;
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->s[i].kind == SK_OTHER)
			r->s[i].kind = (uint8_t)task_kind(r, f, &r->s[i]);
	if (f->timer.idle_cause != WHY_IDLE_NONE &&
	    f->timer.idle_cause != WHY_IDLE_EXIT_OR_HOST)
		idle_is(r, f->timer.cpu, f->release_ns, woken,
			idle_kind(f->timer.idle_cause));
	if (f->wait.idle_cause != WHY_IDLE_NONE &&
	    f->wait.idle_cause != WHY_IDLE_EXIT_OR_HOST)
		idle_is(r, f->wait.cpu, woken, f->release_ns + f->latency_ns,
			idle_kind(f->wait.idle_cause));
	reduce(r, WHY_SLICES);
	f->nslices = (int)r->n;
	if (r->n)
		memcpy(f->slice, r->s, r->n * sizeof(r->s[0]));
	free(r->s);
	memset(r, 0, sizeof(*r));
}
