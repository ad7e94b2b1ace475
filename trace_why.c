// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace_why.c - the worst frames explained from the trace (trace.h).
 *
 * One pass over the instance's trace, in time order: for each CPU we
 * follow what it was doing (a task, by sched_switch; a hard or soft
 * interrupt, by their entry and exit) and give each stretch of time to
 * every frame whose window [release, start] it overlaps on that CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interbench.h"
#include "trace.h"

#define MAX_CPUS	256
#define ACC_TASKS	32	/* tasks tracked in one frame's window */

struct cpu_state {
	uint64_t since;			/* last event, ns; 0: none yet */
	char comm[24];
	int pid;			/* -2: unknown yet */
	int irq_depth;
	char irq[24];
	bool soft;
	char softname[24];
};

struct frame_acc {
	const struct worst_frame *f;
	struct why_frame *out;
	struct why_who tasks[ACC_TASKS];
	int ntasks;
	uint64_t unknown_ns;		/* before the first event of its CPU */
};

struct line {
	int cpu;
	uint64_t ts;
	const char *event, *args;
};

/* "  comm-pid  [001] d..2. 123.456789: event: args" */
static int parse_line(char *s, struct line *l)
{
	char *b = strstr(s, "] "), *colon, *ts, *ev;
	unsigned long long sec, usec;

	if (!b || b - s < 4)
		return -EINVAL;
	ts = b;
	while (ts > s && ts[-1] != '[')
		ts--;
	l->cpu = atoi(ts);
	colon = strstr(b, ": ");
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	ts = strrchr(b, ' ');
	if (!ts || sscanf(ts + 1, "%llu.%llu", &sec, &usec) != 2)
		return -EINVAL;
	l->ts = sec * NSEC_PER_SEC + usec * NSEC_PER_USEC;
	ev = colon + 2;
	colon = strstr(ev, ": ");
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	l->event = ev;
	l->args = colon + 2;
	return 0;
}

/* The value of "key=" in args up to the next " " (or to stop). */
static void field(const char *args, const char *key, const char *stop,
		  char *buf, size_t n)
{
	const char *p = strstr(args, key), *e;

	buf[0] = '\0';
	if (!p)
		return;
	p += strlen(key);
	e = stop ? strstr(p, stop) : NULL;
	if (!e)
		e = p + strcspn(p, " \n");
	snprintf(buf, n, "%.*s", (int)(e - p), p);
}

static void add_who(struct why_who *w, int *n, int max, const char *name,
		    int pid, uint64_t ns)
{
	int i;

	for (i = 0; i < *n; i++)
		if (w[i].pid == pid && !strcmp(w[i].name, name)) {
			w[i].ns += ns;
			return;
		}
	if (*n >= max) {
		/* Full: the smallest gives way to a larger. */
		int least = 0;

		for (i = 1; i < *n; i++)
			if (w[i].ns < w[least].ns)
				least = i;
		if (w[least].ns >= ns)
			return;
		i = least;
	} else {
		i = (*n)++;
	}
	snprintf(w[i].name, sizeof(w[i].name), "%s", name);
	w[i].pid = pid;
	w[i].ns = ns;
}

/* Give the stretch [from, to) of CPU c's state to the frames on c. */
static void account(struct frame_acc *a, int na, int c,
		    const struct cpu_state *st, uint64_t from, uint64_t to)
{
	int i;

	for (i = 0; i < na; i++) {
		const struct worst_frame *f = a[i].f;
		struct why_frame *o = a[i].out;
		uint64_t lo = from > f->release ? from : f->release;
		uint64_t hi = to < f->start ? to : f->start, ns;

		if (f->cpu != c || hi <= lo)
			continue;
		ns = hi - lo;
		if (!from)
			a[i].unknown_ns += ns;
		else if (st->irq_depth > 0) {
			o->irq_ns += ns;
			add_who(o->irq, &o->nirq, WHY_IRQS, st->irq, -1, ns);
		} else if (st->soft) {
			o->softirq_ns += ns;
			add_who(o->soft, &o->nsoft, WHY_IRQS, st->softname, -1,
				ns);
		} else if (st->pid != f->tid) {
			add_who(a[i].tasks, &a[i].ntasks, ACC_TASKS,
				st->pid ? st->comm : "idle", st->pid, ns);
		}
	}
}

/* What the event changes of its CPU's state, and migrations of ours. */
static void apply(struct frame_acc *a, int na, struct cpu_state *st,
		  const struct line *l)
{
	char v[64];
	int i;

	if (!strcmp(l->event, "sched_switch")) {
		field(l->args, "next_comm=", " next_pid=", st->comm,
		      sizeof(st->comm));
		field(l->args, "next_pid=", NULL, v, sizeof(v));
		st->pid = atoi(v);
	} else if (!strcmp(l->event, "irq_handler_entry")) {
		st->irq_depth++;
		field(l->args, "name=", NULL, st->irq, sizeof(st->irq));
	} else if (!strcmp(l->event, "irq_handler_exit")) {
		if (st->irq_depth > 0)
			st->irq_depth--;
	} else if (!strcmp(l->event, "softirq_entry")) {
		st->soft = true;
		field(l->args, "action=", "]", st->softname,
		      sizeof(st->softname));
	} else if (!strcmp(l->event, "softirq_exit")) {
		st->soft = false;
	} else if (!strcmp(l->event, "sched_migrate_task")) {
		field(l->args, "pid=", NULL, v, sizeof(v));
		for (i = 0; i < na; i++)
			if (atoi(v) == a[i].f->tid &&
			    l->ts >= a[i].f->release && l->ts <= a[i].f->start)
				a[i].out->migrations++;
	}
}

static int by_ns(const void *x, const void *y)
{
	const struct why_who *a = x, *b = y;

	return a->ns < b->ns ? 1 : a->ns > b->ns ? -1 : 0;
}

static int by_latency(const void *x, const void *y)
{
	const struct why_frame *a = x, *b = y;

	return a->latency_ns < b->latency_ns ? 1 :
	       a->latency_ns > b->latency_ns ? -1 : 0;
}

/* A "CPU:N [LOST M EVENTS]" line: frames on N still open lost some. */
static void lost_line(struct frame_acc *a, int na, const char *s,
		      uint64_t now)
{
	int c, i;

	if (sscanf(s, "CPU:%d [LOST", &c) != 1)
		return;
	for (i = 0; i < na; i++)
		if (a[i].f->cpu == c && a[i].f->start >= now)
			a[i].out->lost = true;
}

static void finish_frame(struct frame_acc *a)
{
	struct why_frame *o = a->out;
	int i;

	/* Its CPU said nothing before the window: we cannot tell. */
	if (a->unknown_ns)
		o->lost = true;
	qsort(a->tasks, (size_t)a->ntasks, sizeof(a->tasks[0]), by_ns);
	o->nran = a->ntasks < WHY_RAN ? a->ntasks : WHY_RAN;
	for (i = 0; i < o->nran; i++)
		o->ran[i] = a->tasks[i];
	qsort(o->irq, (size_t)o->nirq, sizeof(o->irq[0]), by_ns);
	qsort(o->soft, (size_t)o->nsoft, sizeof(o->soft[0]), by_ns);
}

static void sweep(FILE *f, struct frame_acc *a, int na,
		  struct cpu_state *cpu)
{
	char *s = NULL;
	size_t n = 0;
	uint64_t last = 0;
	int i;

	while (getline(&s, &n, f) > 0) {
		struct line l;

		if (s[0] == '#')
			continue;
		if (strstr(s, "[LOST")) {
			lost_line(a, na, s + strspn(s, " "), last);
			continue;
		}
		if (parse_line(s, &l) || l.cpu < 0 || l.cpu >= MAX_CPUS)
			continue;
		last = l.ts;
		account(a, na, l.cpu, &cpu[l.cpu], cpu[l.cpu].since, l.ts);
		apply(a, na, &cpu[l.cpu], &l);
		cpu[l.cpu].since = l.ts;
	}
	free(s);
	/* To the end of each window: the state it was left in. */
	for (i = 0; i < na; i++) {
		int c = a[i].f->cpu;

		if (c >= 0 && c < MAX_CPUS && cpu[c].since < a[i].f->start)
			account(&a[i], 1, c, &cpu[c], cpu[c].since,
				a[i].f->start);
	}
}

int trace_explain(struct tracer *t, const struct worst_frames *w,
		  struct why_frame **out)
{
	struct frame_acc a[WORST_MAX];
	struct cpu_state *cpu;
	struct why_frame *o;
	char path[256];
	uint32_t i, na = w->n < WORST_MAX ? w->n : WORST_MAX;
	FILE *f;

	*out = NULL;
	if (!na)
		return 0;
	o = calloc(na, sizeof(*o));
	cpu = calloc(MAX_CPUS, sizeof(*cpu));
	if (!o || !cpu) {
		free(o);
		free(cpu);
		return -ENOMEM;
	}
	memset(a, 0, sizeof(a));
	for (i = 0; i < na; i++) {
		const struct worst_frame *fr = &w->f[i];

		a[i].f = fr;
		a[i].out = &o[i];
		o[i].latency_ns = fr->start - fr->release;
		o[i].timer_ns = fr->timer > fr->release ?
				fr->timer - fr->release : 0;
		if (o[i].timer_ns > o[i].latency_ns)
			o[i].timer_ns = o[i].latency_ns;
		o[i].wait_ns = o[i].latency_ns - o[i].timer_ns;
		o[i].cpu = fr->cpu;
		o[i].tid = fr->tid;
	}
	for (i = 0; i < MAX_CPUS; i++)
		cpu[i].pid = -2;
	snprintf(path, sizeof(path), "%s/trace", t->inst);
	f = fopen(path, "re");
	if (f) {
		sweep(f, a, (int)na, cpu);
		fclose(f);
	}
	for (i = 0; i < na; i++) {
		if (!f)
			o[i].lost = true;
		finish_frame(&a[i]);
	}
	free(cpu);
	qsort(o, na, sizeof(*o), by_latency);
	*out = o;
	return (int)na;
}
