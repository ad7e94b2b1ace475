// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/trace_tef.c - a cell's trace text as Trace Event Format events
 * (trace_tef.h). One pass in time order follows each CPU: the task that
 * runs (from a sched_switch to it, or the first event seen in its
 * context) and a stack of what interrupts it (hard IRQs, softirqs,
 * hrtimers). A slice is written when it ends, cut to the windows: so a
 * CPU's slices nest as the kernel nested them, and a window shows what
 * ran through it even if it began before.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/trace_tef.h"
#include "run/trace.h"
#include "run/trace_line.h"
#include "lib/text.h"

#define DEPTH		8	/* a task, then what interrupts it */
#define PENDING		64	/* wakeups waiting for their task to run */

struct slice {
	char name[64];
	const char *cat;
	uint64_t start;
	int pid;			/* a task's; -1 for an interrupt */
	bool ours;			/* a task a stamp may replace */
};

struct cpu {
	struct slice st[DEPTH];
	int depth, over;		/* over: pushed past DEPTH */
};

struct waking {
	int pid, cpu;
	uint64_t ts;
};

struct tef {
	const struct tef_cell *c;
	struct sbuf *out;
	struct cpu *cpu;
	unsigned char used[TEF_MAX_CPUS];
	struct waking pend[PENDING];
	int npend;
	long n;
	bool cut;
};

void trace_tef_us(struct sbuf *out, const char *key, uint64_t ns)
{
	sb_printf(out, ",\"%s\":%llu.%03llu", key,
		  (unsigned long long)(ns / 1000),
		  (unsigned long long)(ns % 1000));
}

static int by_from(const void *x, const void *y)
{
	const struct tef_span *a = x, *b = y;

	return a->from < b->from ? -1 : a->from > b->from;
}

int trace_tef_windows(const struct why_frame *fr, int n,
		      struct tef_span *out)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		uint64_t r = fr[i].release_ns;

		out[i].from = r > TEF_BEFORE_NS ? r - TEF_BEFORE_NS : 0;
		out[i].to = r + fr[i].latency_ns + TEF_AFTER_NS;
	}
	qsort(out, (size_t)n, sizeof(*out), by_from);
	for (i = 0; i < n; i++) {
		if (k && out[i].from <= out[k - 1].to) {
			if (out[i].to > out[k - 1].to)
				out[k - 1].to = out[i].to;
			continue;
		}
		out[k++] = out[i];
	}
	return k;
}

int trace_tef_stamps(const struct why_frame *fr, int n,
		     struct why_stamp *out)
{
	int i, j, k = 0;

	/* An insertion sort: stable, so a frame's own order holds at ties */
	for (i = 0; i < n; i++)
		for (j = 0; j < fr[i].nstamps; j++) {
			int at = k++;

			while (at && out[at - 1].ns > fr[i].stamp[j].ns) {
				out[at] = out[at - 1];
				at--;
			}
			out[at] = fr[i].stamp[j];
		}
	return k;
}

static bool inside(const struct tef *x, uint64_t ts)
{
	int i;

	for (i = 0; i < x->c->nwin; i++)
		if (ts >= x->c->win[i].from && ts < x->c->win[i].to)
			return true;
	return false;
}

/* Room for k more events? Else the cell is cut. */
static bool room(struct tef *x, long k)
{
	if (x->n + k > (long)x->c->max_events) {
		x->cut = true;
		return false;
	}
	x->n += k;
	return true;
}

static int track(struct tef *x, int cpu)
{
	x->used[cpu] = 1;
	return x->c->pid * TEF_TIDS + TEF_CPU_TID + cpu;
}

static void head(struct tef *x, const char *ph, const char *cat,
		 const char *name, uint64_t ts, int cpu)
{
	sb_printf(x->out, ",\n{\"ph\":\"%s\",\"cat\":\"%s\",\"name\":", ph,
		  cat);
	sb_json(x->out, name);
	trace_tef_us(x->out, "ts", ts);
	sb_printf(x->out, ",\"pid\":%d,\"tid\":%d", x->c->pid, track(x, cpu));
}

/* Slice s on cpu, ended at end: its part in each window. */
static void slice_out(struct tef *x, int cpu, const struct slice *s,
		      uint64_t end)
{
	int i;

	for (i = 0; i < x->c->nwin; i++) {
		const struct tef_span *w = &x->c->win[i];
		uint64_t lo = s->start > w->from ? s->start : w->from;
		uint64_t hi = end < w->to ? end : w->to;

		if (hi <= lo || !room(x, 1))
			continue;
		head(x, "X", s->cat, s->name, lo, cpu);
		trace_tef_us(x->out, "dur", hi - lo);
		if (s->pid >= 0)
			sb_printf(x->out, ",\"args\":{\"pid\":%d}}", s->pid);
		else
			sb_printf(x->out, "}");
	}
}

static void push(struct cpu *c, const char *cat, const char *name, int pid,
		 bool ours, uint64_t ts)
{
	struct slice *s;

	if (c->depth >= DEPTH) {
		c->over++;
		return;
	}
	s = &c->st[c->depth++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->cat = cat;
	s->pid = pid;
	s->ours = ours;
	s->start = ts;
}

/* The innermost slice ends, if it is of cat (an exit without its entry,
 * from before the trace, ends nothing). */
static void pop(struct tef *x, int cpu, const char *cat, uint64_t ts)
{
	struct cpu *c = &x->cpu[cpu];

	if (c->over) {
		c->over--;
		return;
	}
	if (!c->depth || strcmp(c->st[c->depth - 1].cat, cat))
		return;
	c->depth--;
	slice_out(x, cpu, &c->st[c->depth], ts);
}

static void close_all(struct tef *x, int cpu, uint64_t ts)
{
	struct cpu *c = &x->cpu[cpu];

	c->over = 0;
	while (c->depth > 0) {
		c->depth--;
		slice_out(x, cpu, &c->st[c->depth], ts);
	}
}

/* Task pid now runs on cpu at ts: the wakeup that led here, as a flow
 * from the waker's slice to the woken's. */
static void flow(struct tef *x, int cpu, int pid, uint64_t ts)
{
	int i;

	for (i = 0; i < x->npend; i++)
		if (x->pend[i].pid == pid)
			break;
	if (i == x->npend)
		return;
	if (inside(x, ts + 1) && room(x, 2)) {
		uint64_t id = (*x->c->flow_id)++;

		head(x, "s", "wakeup", "wakeup", x->pend[i].ts,
		     x->pend[i].cpu);
		sb_printf(x->out, ",\"id\":%llu}", (unsigned long long)id);
		/* Just inside the woken's slice, which begins at ts */
		head(x, "f", "wakeup", "wakeup", ts + 1, cpu);
		sb_printf(x->out, ",\"bp\":\"e\",\"id\":%llu}",
			  (unsigned long long)id);
	}
	x->pend[i] = x->pend[--x->npend];
}

static void waking(struct tef *x, const struct trace_line *l)
{
	char v[32];
	int pid;

	trace_line_field(l->args, "pid=", NULL, v, sizeof(v));
	pid = atoi(v);
	if (pid <= 0 || !inside(x, l->ts))
		return;
	if (x->npend == PENDING) {	/* the oldest gives way */
		memmove(x->pend, x->pend + 1, sizeof(x->pend[0]) *
			(PENDING - 1));
		x->npend--;
	}
	x->pend[x->npend++] = (struct waking){ pid, l->cpu, l->ts };
}

static void instant(struct tef *x, const struct trace_line *l, const char *name)
{
	if (!inside(x, l->ts) || !room(x, 1))
		return;
	head(x, "i", "mark", name, l->ts, l->cpu);
	sb_printf(x->out, ",\"s\":\"t\",\"args\":{\"text\":");
	sb_json(x->out, l->args);
	sb_printf(x->out, "}}");
}

/*
 * A task's slice is named as it ended: renamed while it ran (an exec
 * without its event, a thread naming itself), the switch away says so.
 */
static void switched(struct tef *x, const struct trace_line *l)
{
	struct cpu *c = &x->cpu[l->cpu];
	char comm[24], v[32], name[64];
	int pid;

	trace_line_field(l->args, "prev_pid=", NULL, v, sizeof(v));
	if (c->depth && c->st[0].pid > 0 && c->st[0].pid == atoi(v)) {
		trace_line_field(l->args, "prev_comm=", " prev_pid=", comm,
				 sizeof(comm));
		snprintf(c->st[0].name, sizeof(c->st[0].name), "%s:%d", comm,
			 c->st[0].pid);
	}
	close_all(x, l->cpu, l->ts);
	trace_line_field(l->args, "next_comm=", " next_pid=", comm,
			 sizeof(comm));
	trace_line_field(l->args, "next_pid=", NULL, v, sizeof(v));
	pid = atoi(v);
	if (pid <= 0)
		return;			/* idle: no slice */
	snprintf(name, sizeof(name), "%s:%d", comm, pid);
	push(&x->cpu[l->cpu], "task", name, pid, trace_comm_ours(comm), l->ts);
	flow(x, l->cpu, pid, l->ts);
}

/*
 * Our thread ran from its stamp s, where its CPU's track shows idle or
 * another of ours: the switch to it was not recorded (trace_why.c's
 * apply_stamp does the same for the explanation).
 */
static void stamped(struct tef *x, const struct why_stamp *s)
{
	struct cpu *c;
	char name[64];

	if (s->cpu < 0 || s->cpu >= TEF_MAX_CPUS || s->pid <= 0)
		return;
	c = &x->cpu[s->cpu];
	if (c->over || c->depth > 1 ||
	    (c->depth && (c->st[0].pid == s->pid || !c->st[0].ours)))
		return;
	close_all(x, s->cpu, s->ns);
	snprintf(name, sizeof(name), "%s:%d", s->comm, s->pid);
	push(c, "task", name, s->pid, true, s->ns);
	flow(x, s->cpu, s->pid, s->ns);
}

/*
 * An exec renames the task that runs: its slice ends there and one under
 * the new name begins (trace_why.c's exec_rename does the same).
 */
static void execed(struct tef *x, const struct trace_line *l)
{
	struct cpu *c = &x->cpu[l->cpu];
	char comm[24], name[64];
	int pid, old;

	if (trace_exec_comm(l->args, comm, sizeof(comm), &pid, &old) ||
	    c->depth != 1 || c->over || (c->st[0].pid != old &&
					 c->st[0].pid != pid))
		return;
	close_all(x, l->cpu, l->ts);
	snprintf(name, sizeof(name), "%s:%d", comm, pid);
	push(c, "task", name, pid, trace_comm_ours(comm), l->ts);
}

/* What the event l says of its CPU. */
static void apply(struct tef *x, struct trace_line *l)
{
	struct cpu *c = &x->cpu[l->cpu];
	char v[48], name[64];

	if (!strcmp(l->event, "sched_switch")) {
		switched(x, l);
		return;
	}
	/* A task seen running: its slice from here, if none was open. */
	if (!c->depth && l->pid > 0) {
		snprintf(name, sizeof(name), "%s:%d", l->comm, l->pid);
		push(c, "task", name, l->pid, trace_comm_ours(l->comm), l->ts);
	}
	if (!strcmp(l->event, "irq_handler_entry")) {
		trace_line_field(l->args, "name=", NULL, v, sizeof(v));
		snprintf(name, sizeof(name), "irq %s", v);
		push(c, "irq", name, -1, false, l->ts);
	} else if (!strcmp(l->event, "irq_handler_exit")) {
		pop(x, l->cpu, "irq", l->ts);
	} else if (!strcmp(l->event, "softirq_entry")) {
		trace_line_field(l->args, "action=", "]", v, sizeof(v));
		snprintf(name, sizeof(name), "softirq %s", v);
		push(c, "softirq", name, -1, false, l->ts);
	} else if (!strcmp(l->event, "softirq_exit")) {
		pop(x, l->cpu, "softirq", l->ts);
	} else if (!strcmp(l->event, "hrtimer_expire_entry")) {
		trace_line_field(l->args, "function=", NULL, v, sizeof(v));
		snprintf(name, sizeof(name), "hrtimer %s", v);
		push(c, "hrtimer", name, -1, false, l->ts);
	} else if (!strcmp(l->event, "hrtimer_expire_exit")) {
		pop(x, l->cpu, "hrtimer", l->ts);
	} else if (!strcmp(l->event, "sched_waking") ||
		   !strcmp(l->event, "sched_wakeup")) {
		waking(x, l);
	} else if (!strcmp(l->event, "sched_process_exec")) {
		execed(x, l);
	} else if (!strcmp(l->event, "sched_migrate_task")) {
		instant(x, l, "migrate");
	} else if (!strcmp(l->event, "tracing_mark_write") &&
		   strstr(l->args, "interbench: breaktrace")) {
		instant(x, l, "breaktrace");
	}
}

/* Each CPU drawn gets its name, and a place after the frames' tracks. */
static void names(struct tef *x)
{
	int i;

	for (i = 0; i < TEF_MAX_CPUS; i++) {
		int tid = x->c->pid * TEF_TIDS + TEF_CPU_TID + i;

		if (!x->used[i])
			continue;
		sb_printf(x->out, ",\n{\"ph\":\"M\",\"name\":\"thread_name\","
			  "\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"CPU "
			  "%d\"}}", x->c->pid, tid, i);
		sb_printf(x->out, ",\n{\"ph\":\"M\",\"name\":"
			  "\"thread_sort_index\",\"pid\":%d,\"tid\":%d,"
			  "\"args\":{\"sort_index\":%d}}", x->c->pid, tid,
			  TEF_CPU_TID + i);
		x->n += 2;
	}
}

long trace_tef_sched(FILE *f, const struct tef_cell *c, struct sbuf *out,
		     bool *cut)
{
	struct tef x = { .c = c, .out = out };
	uint64_t last = 0;
	char *s = NULL;
	size_t n = 0;
	int i, k = 0;

	*cut = false;
	x.cpu = calloc(TEF_MAX_CPUS, sizeof(*x.cpu));
	if (!x.cpu)
		return -ENOMEM;
	while (getline(&s, &n, f) > 0) {
		struct trace_line l;

		if (s[0] == '#' || trace_line_parse(s, &l) || l.pid < 0 ||
		    l.cpu < 0 || l.cpu >= TEF_MAX_CPUS)
			continue;
		for (; k < c->nstamp && c->stamp[k].ns <= l.ts; k++)
			stamped(&x, &c->stamp[k]);
		if (l.ts > last)
			last = l.ts;
		apply(&x, &l);
	}
	free(s);
	for (; k < c->nstamp; k++)
		stamped(&x, &c->stamp[k]);
	/* What still ran when the trace stopped, to its last event */
	for (i = 0; i < TEF_MAX_CPUS; i++)
		if (x.cpu[i].depth)
			close_all(&x, i, last);
	free(x.cpu);
	names(&x);
	*cut = x.cut;
	return out->err ? out->err : x.n;
}
