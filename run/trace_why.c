// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/trace_why.c - the worst frames explained from the trace (trace.h).
 *
 * Each frame is two windows of time on one CPU each: the timer part
 * (release -> the timing thread awake, on the timing thread's CPU) and
 * the wait part (-> the simulated thread running, on its CPU). One pass
 * over the instance's trace, in time order, follows what every CPU was
 * doing (a task, by sched_switch; a hard interrupt or an hrtimer, by
 * their entry and exit; a softirq) and gives each stretch of a CPU's
 * time to the windows on that CPU it overlaps. Pure text in, figures out:
 * tests/unit-trace.c feeds it a made-up trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/trace.h"
#include "run/trace_line.h"
#include "lib/base.h"
#include "core/raw.h"

#define MAX_CPUS	256
#define ACC_TASKS	32	/* tasks tracked in one window */
#define IRQ_NEST	4	/* interrupt names remembered while nested */

struct cpu_state {
	uint64_t since;			/* last event, ns; 0: none yet */
	uint64_t named;			/* comm is known from here on */
	char comm[24];
	int pid;
	bool ours;			/* a stamp may replace pid */
	int irq_depth;
	char irq[IRQ_NEST][24];
	bool soft;
	char softname[24];
	uint64_t hrt_wakeup;		/* in an hrtimer_wakeup since; 0: not */
};

/* One part of one frame, on its way. */
struct window {
	int cpu;
	uint64_t from, to;
	int self;			/* the thread that waits: not "instead" */
	int self_ns;			/* its tid in our PID namespace */
	char comm[16];			/* its name, from its marker */
	struct why_part *out;
	struct why_frame *frame;
	struct why_who tasks[ACC_TASKS];
	int ntasks;
	bool bw_timer;			/* a CPU bandwidth timer fired in it */
};

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

/* Give the stretch [from, to) of CPU c's state to the windows on c. */
static void account(struct window *a, int na, int c,
		    const struct cpu_state *st, uint64_t from, uint64_t to)
{
	int i;

	for (i = 0; i < na; i++) {
		struct window *w = &a[i];
		struct why_part *o = w->out;
		uint64_t lo = from > w->from ? from : w->from;
		uint64_t hi = to < w->to ? to : w->to, ns;

		if (w->cpu != c || hi <= lo)
			continue;
		ns = hi - lo;
		if (!from) {
			/* Before the CPU's first event: we cannot tell. */
			w->frame->lost = true;
		} else if (st->irq_depth > 0) {
			int d = st->irq_depth > IRQ_NEST ? IRQ_NEST :
				st->irq_depth;

			o->irq_ns += ns;
			add_who(o->irq, &o->nirq, WHY_IRQS, st->irq[d - 1], -1,
				ns);
		} else if (st->soft) {
			o->softirq_ns += ns;
			add_who(o->soft, &o->nsoft, WHY_IRQS, st->softname, -1,
				ns);
		} else if (st->pid == w->self) {
			o->own_ns += ns;
		} else if (!st->pid) {
			/* Not a culprit: no task ran (see why_idle). */
			o->idle_ns += ns;
		} else {
			o->others_ns += ns;
			add_who(w->tasks, &w->ntasks, ACC_TASKS, st->comm,
				st->pid, ns);
		}
	}
}

static void irq_enter(struct cpu_state *st, const char *name)
{
	if (st->irq_depth < IRQ_NEST)
		snprintf(st->irq[st->irq_depth], sizeof(st->irq[0]), "%.*s",
			 (int)sizeof(st->irq[0]) - 1, name);
	st->irq_depth++;
}

/*
 * A task is to blame under the name it had while it ran, not the one it
 * was switched in under: a process forked as "sh" that execs a spinner
 * runs on as the spinner with no switch between. An exec renames the
 * task running on its CPU from that event on (the time before it stays
 * the old name's, account() has it).
 */
static void exec_rename(struct cpu_state *st, const struct trace_line *l)
{
	char comm[24];
	int pid, old;

	if (trace_exec_comm(l->args, comm, sizeof(comm), &pid, &old) ||
	    !st->pid || (st->pid != old && st->pid != pid))
		return;
	st->pid = pid;
	snprintf(st->comm, sizeof(st->comm), "%s", comm);
	st->ours = trace_comm_ours(st->comm);
	st->named = l->ts;
}

/*
 * The task on CPU c, named old since st->named, is called name from
 * then on: its time in the windows and slices on c since then too.
 */
static void rename_since(struct window *a, int na, struct pic_raw *pr,
			 int nf, int c, const struct cpu_state *st,
			 const char *name)
{
	int i, j, k;
	size_t n;

	for (i = 0; i < na; i++) {
		struct window *w = &a[i];

		if (w->cpu != c || w->to <= st->named)
			continue;
		for (j = 0; j < w->ntasks; j++)
			if (w->tasks[j].pid == st->pid &&
			    !strcmp(w->tasks[j].name, st->comm))
				break;
		if (j == w->ntasks)
			continue;
		for (k = 0; k < w->ntasks; k++)
			if (w->tasks[k].pid == st->pid &&
			    !strcmp(w->tasks[k].name, name))
				break;
		if (k < w->ntasks) {	/* one task, one entry */
			w->tasks[k].ns += w->tasks[j].ns;
			w->tasks[j] = w->tasks[--w->ntasks];
		} else {
			snprintf(w->tasks[j].name, sizeof(w->tasks[j].name),
				 "%s", name);
		}
	}
	for (i = 0; i < nf; i++)
		for (n = 0; n < pr[i].n; n++) {
			struct why_slice *sl = &pr[i].s[n];

			if (sl->cpu == c && sl->pid == st->pid &&
			    sl->to > st->named && !strcmp(sl->name, st->comm))
				snprintf(sl->name, sizeof(sl->name), "%s", name);
		}
}

/*
 * A switch away from the task its CPU ran names it as it stopped: if
 * that is not its name in the CPU's state, it was renamed while it ran
 * and the trace did not say when (an exec it has no event of, a thread
 * naming itself), and its time since it was last named goes to the name
 * it ended with. Before account() gives the last stretch away.
 */
static void switch_out_name(struct window *a, int na, struct pic_raw *pr,
			    int nf, struct cpu_state *st,
			    const struct trace_line *l)
{
	char v[32], comm[24];

	if (strcmp(l->event, "sched_switch") || !st->pid)
		return;
	trace_line_field(l->args, "prev_pid=", NULL, v, sizeof(v));
	if (atoi(v) != st->pid)
		return;
	trace_line_field(l->args, "prev_comm=", " prev_pid=", comm,
			 sizeof(comm));
	if (!strcmp(comm, st->comm))
		return;
	rename_since(a, na, pr, nf, l->cpu, st, comm);
	snprintf(st->comm, sizeof(st->comm), "%s", comm);
}

/* What the event changes of its CPU's state, and migrations of ours. */
static void apply(struct why_frame *fr, const struct worst_frame *wf,
		  int nf, struct cpu_state *st, const struct trace_line *l)
{
	char v[64];
	int i;

	if (!strcmp(l->event, "sched_switch")) {
		trace_line_field(l->args, "next_comm=", " next_pid=", st->comm,
				 sizeof(st->comm));
		trace_line_field(l->args, "next_pid=", NULL, v, sizeof(v));
		st->pid = atoi(v);
		st->ours = trace_comm_ours(st->comm);
		st->named = l->ts;
	} else if (!strcmp(l->event, "irq_handler_entry")) {
		trace_line_field(l->args, "name=", NULL, v, sizeof(v));
		irq_enter(st, v);
	} else if (!strcmp(l->event, "hrtimer_expire_entry")) {
		/*
		 * The timer interrupt has no irq event: its hrtimers do,
		 * by their function (hrtimer_wakeup, tick_nohz_handler).
		 */
		trace_line_field(l->args, "function=", NULL, v, sizeof(v));
		irq_enter(st, v);
	} else if (!strcmp(l->event, "irq_handler_exit") ||
		   !strcmp(l->event, "hrtimer_expire_exit")) {
		if (st->irq_depth > 0)
			st->irq_depth--;
	} else if (!strcmp(l->event, "softirq_entry")) {
		st->soft = true;
		trace_line_field(l->args, "action=", "]", st->softname,
				 sizeof(st->softname));
	} else if (!strcmp(l->event, "softirq_exit")) {
		st->soft = false;
	} else if (!strcmp(l->event, "sched_process_exec")) {
		exec_rename(st, l);
	} else if (!strcmp(l->event, "sched_migrate_task")) {
		trace_line_field(l->args, "pid=", NULL, v, sizeof(v));
		for (i = 0; i < nf; i++)
			if (atoi(v) == fr[i].tid && l->ts >= wf[i].release &&
			    l->ts <= wf[i].start)
				fr[i].migrations++;
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

/*
 * "ib:sim:Audio-4123 [000] ... tracing_mark_write: interbench: tid 9":
 * thread 9 of our namespace is 4123 in the trace's.
 */
static void tid_line(struct window *a, int na, struct why_frame *fr, int nf,
		     const struct worst_frame *wf, char *s)
{
	char *b = strstr(s, " ["), *m = strstr(s, "interbench: tid ");
	int i, tid, pid;

	if (!b || !m || sscanf(m, "interbench: tid %d", &tid) != 1)
		return;
	while (b > s && b[-1] == ' ')
		b--;
	*b = '\0';
	b = strrchr(s, '-');
	if (!b || (pid = atoi(b + 1)) <= 0)
		return;
	s += strspn(s, " ");
	for (i = 0; i < na; i++)
		if (a[i].self_ns == tid) {
			a[i].self = pid;
			snprintf(a[i].comm, sizeof(a[i].comm), "%.*s",
				 (int)(b - s), s);
		}
	for (i = 0; i < nf; i++)
		if (wf[i].tid == tid)
			fr[i].tid = pid;
}

/*
 * The timing thread's sleep ends in an hrtimer_wakeup that wakes it: an
 * hrtimer_wakeup serves every sleeper, so only one during which the
 * timing thread itself is woken (sched_waking of its pid on that CPU)
 * says when its timer fired.
 */
static void timer_fired(struct window *a, int na, struct cpu_state *st,
			const struct trace_line *l)
{
	char v[32];
	int i;

	if (!strcmp(l->event, "hrtimer_expire_entry")) {
		st->hrt_wakeup = strstr(l->args, "function=hrtimer_wakeup") ?
				 l->ts : 0;
		return;
	}
	if (!strcmp(l->event, "hrtimer_expire_exit")) {
		st->hrt_wakeup = 0;
		return;
	}
	if (strcmp(l->event, "sched_waking") || !st->hrt_wakeup)
		return;
	trace_line_field(l->args, "pid=", NULL, v, sizeof(v));
	for (i = 0; i < na; i++) {
		struct window *w = &a[i];
		uint64_t at = st->hrt_wakeup;

		if (w->out == &w->frame->timer && w->cpu == l->cpu &&
		    w->self == atoi(v) && !w->out->fired_ns &&
		    at >= w->from && at <= w->to)
			w->out->fired_ns = at - w->from ? at - w->from : 1;
	}
}

/*
 * A cgroup's CPU bandwidth timers, on whatever CPU they fire, refill its
 * quota and unthrottle its tasks (the period timer; the slack timer hands
 * back runtime early): fired within a window, the window's task may have
 * waited for one. Whether l was an hrtimer's expiry at all.
 */
static bool bandwidth_timer(struct window *a, int na,
			    const struct trace_line *l)
{
	char v[64];
	int i;

	if (strcmp(l->event, "hrtimer_expire_entry"))
		return false;
	trace_line_field(l->args, "function=", NULL, v, sizeof(v));
	if (strcmp(v, "sched_cfs_period_timer") &&
	    strcmp(v, "sched_cfs_slack_timer"))
		return true;
	for (i = 0; i < na; i++)
		if (l->ts >= a[i].from && l->ts <= a[i].to)
			a[i].bw_timer = true;
	return true;
}

/* A "CPU:N [LOST M EVENTS]" line: windows on N still open lost some. */
static void lost_line(struct window *a, int na, const char *s, uint64_t now)
{
	int c, i;

	if (sscanf(s, "CPU:%d [LOST", &c) != 1)
		return;
	for (i = 0; i < na; i++)
		if (a[i].cpu == c && a[i].to >= now)
			a[i].frame->lost = true;
}

const char *trace_why_idle_text(enum why_idle c)
{
	switch (c) {
	case WHY_IDLE_HOST:
		return "host (steal or vCPU wakeup)";
	case WHY_IDLE_EXIT_OR_HOST:
		return "host steal or idle-state exit";
	case WHY_IDLE_THROTTLED:
		return "throttled";
	case WHY_IDLE_NONE:
		break;
	}
	return "";
}

/*
 * A late part whose CPU was idle for most of it: nothing ran. If the
 * run's cgroup was throttled in the cell, and a bandwidth timer fired in
 * the part (or the trace has no hrtimer expiry to tell by: inferred), its
 * task waited for its quota. Else the time was the host's in a VM, else
 * an idle state's exit or the host. A bandwidth timer alone is not
 * enough: another cgroup's fires as well.
 */
static void idle_cause(struct window *w, const struct why_env *env,
		       bool hrtimers)
{
	struct why_part *o = w->out;
	struct why_frame *fr = w->frame;

	if (o->ns < WHY_LATE_NS || 2 * o->idle_ns < o->ns)
		return;
	if (env->throttled && (w->bw_timer || !hrtimers)) {
		o->idle_cause = WHY_IDLE_THROTTLED;
		o->throttle_seen = w->bw_timer;
		fr->throttled_ns += o->idle_ns;
		snprintf(fr->throttled_by, sizeof(fr->throttled_by), "%s",
			 env->limit);
		return;
	}
	o->idle_cause = env->vm == 1 ? WHY_IDLE_HOST : WHY_IDLE_EXIT_OR_HOST;
	if (env->vm == 1)
		fr->host_ns += o->idle_ns;
}

static void finish_window(struct window *w)
{
	struct why_part *o = w->out;
	int i;

	qsort(w->tasks, (size_t)w->ntasks, sizeof(w->tasks[0]), by_ns);
	o->nran = w->ntasks < WHY_RAN ? w->ntasks : WHY_RAN;
	for (i = 0; i < o->nran; i++)
		o->ran[i] = w->tasks[i];
	qsort(o->irq, (size_t)o->nirq, sizeof(o->irq[0]), by_ns);
	qsort(o->soft, (size_t)o->nsoft, sizeof(o->soft[0]), by_ns);
}

/* The stretch [from, to) of CPU c's state, to each frame's picture. */
static void pic_stretch(struct pic_raw *pr, struct why_frame *fr, int nf,
			int c, const struct cpu_state *st, uint64_t from,
			uint64_t to)
{
	int i, d = st->irq_depth > IRQ_NEST ? IRQ_NEST : st->irq_depth;
	int kind = SK_OTHER, pid = -1;	/* a task: pic_end tells its kind */
	const char *name = st->comm;

	if (!from)
		return;			/* before the CPU's first event */
	if (d > 0) {
		kind = SK_IRQ;
		name = st->irq[d - 1];
	} else if (st->soft) {
		kind = SK_SOFTIRQ;
		name = st->softname;
	} else if (!st->pid) {
		kind = SK_IDLE;
		name = "idle";
		pid = 0;
	} else {
		pid = st->pid;
	}
	for (i = 0; i < nf; i++)
		trace_pic_add(&pr[i], &fr[i], c, from, to, kind, name, pid);
}

/*
 * Each event the trace wrote on a part's CPU within it was written in
 * the part's time: --trace's own cost to the frame (about 0.5 us an
 * event on the 2-CPU VM, doc/trace.txt).
 */
static void count_event(struct window *a, int na, const struct trace_line *l)
{
	int i;

	for (i = 0; i < na; i++)
		if (a[i].cpu == l->cpu && l->ts > a[i].from &&
		    l->ts <= a[i].to)
			a[i].out->events++;
}

/* A stamp to apply in the sweep, in time order, and whose it is. */
struct stamp_ref {
	uint64_t ns;
	int order;
	struct why_stamp *s;
	const struct window *w;
};

static int by_stamp(const void *x, const void *y)
{
	const struct stamp_ref *a = x, *b = y;

	if (a->ns != b->ns)
		return a->ns < b->ns ? -1 : 1;
	return a->order - b->order;
}

/*
 * With trace_switch_filter, a switch to one of our threads from the idle
 * task or from the timing thread is not in the trace: the CPU seems to
 * stay idle (or with our thread before) while ours runs. Only such a
 * state can be stale, never a task of another's (a switch away from it
 * is always recorded), so a stamp of ours replaces only that. A stamp
 * on a CPU with no event yet says who runs from then: the time before
 * it is still not known (account() marks its windows lost).
 */
static void apply_stamp(struct window *a, int na, struct cpu_state *cpu,
			struct pic_raw *pr, struct why_frame *fr, int nf,
			const struct stamp_ref *r)
{
	struct why_stamp *s = r->s;
	struct cpu_state *st;

	s->pid = r->w->self;
	snprintf(s->comm, sizeof(s->comm), "%s", r->w->comm);
	if (s->cpu < 0 || s->cpu >= MAX_CPUS)
		return;
	st = &cpu[s->cpu];
	if ((st->pid && !st->ours) || st->since > s->ns)
		return;
	account(a, na, s->cpu, st, st->since, s->ns);
	pic_stretch(pr, fr, nf, s->cpu, st, st->since, s->ns);
	st->pid = s->pid;
	st->ours = true;
	snprintf(st->comm, sizeof(st->comm), "%s", s->comm);
	st->since = s->ns;
	st->named = s->ns;
}

/* Read the trace in f into the windows: were there hrtimer expiries? */
static bool sweep(FILE *f, struct window *a, int na, struct why_frame *fr,
		  const struct worst_frame *wf, int nf, struct cpu_state *cpu,
		  struct pic_raw *pr, const struct stamp_ref *sr, int ns)
{
	char *s = NULL;
	size_t n = 0;
	uint64_t last = 0;
	bool hrtimers = false;
	int i, k = 0;

	while (getline(&s, &n, f) > 0) {
		struct trace_line l;

		if (s[0] == '#')
			continue;
		if (strstr(s, "[LOST")) {
			lost_line(a, na, s + strspn(s, " "), last);
			continue;
		}
		if (strstr(s, "interbench: tid ")) {
			tid_line(a, na, fr, nf, wf, s);
			continue;
		}
		if (trace_line_parse(s, &l) || l.cpu < 0 || l.cpu >= MAX_CPUS)
			continue;
		for (; k < ns && sr[k].ns <= l.ts; k++)
			apply_stamp(a, na, cpu, pr, fr, nf, &sr[k]);
		last = l.ts;
		count_event(a, na, &l);
		switch_out_name(a, na, pr, nf, &cpu[l.cpu], &l);
		account(a, na, l.cpu, &cpu[l.cpu], cpu[l.cpu].since, l.ts);
		pic_stretch(pr, fr, nf, l.cpu, &cpu[l.cpu], cpu[l.cpu].since,
			    l.ts);
		timer_fired(a, na, &cpu[l.cpu], &l);
		if (bandwidth_timer(a, na, &l))
			hrtimers = true;
		apply(fr, wf, nf, &cpu[l.cpu], &l);
		cpu[l.cpu].since = l.ts;
	}
	free(s);
	for (; k < ns; k++)
		apply_stamp(a, na, cpu, pr, fr, nf, &sr[k]);
	/* To the end of each window: the state its CPU was left in. */
	for (i = 0; i < na; i++) {
		int c = a[i].cpu;

		if (c >= 0 && c < MAX_CPUS && cpu[c].since < a[i].to)
			account(&a[i], 1, c, &cpu[c], cpu[c].since, a[i].to);
	}
	for (i = 0; i < MAX_CPUS; i++)
		pic_stretch(pr, fr, nf, i, &cpu[i], cpu[i].since, UINT64_MAX);
	return hrtimers;
}

/* Frame k's two windows into a[2k], a[2k+1]. */
static void frame_windows(struct window *a, struct why_frame *o,
			  const struct worst_frame *f, int timing_tid)
{
	uint64_t timer = f->timer;

	if (timer < f->release)
		timer = f->release;
	if (timer > f->start)
		timer = f->start;
	o->release_ns = f->release;
	o->latency_ns = f->start - f->release;
	o->tid = f->tid;
	o->timer.ns = timer - f->release;
	o->timer.cpu = f->timer_cpu;
	o->wait.ns = f->start - timer;
	o->wait.cpu = f->cpu;
	/*
	 * Without a timing thread (Cyclic: its timer stamp is its start)
	 * the thread itself waited from its release: all of it is wait.
	 */
	if (f->timer == f->start) {
		timer = f->release;
		o->timer.ns = 0;
		o->wait.ns = o->latency_ns;
	}
	/* Named by their prefix alone until their markers are read */
	a[0] = (struct window){ .cpu = f->timer_cpu, .from = f->release,
				.to = timer, .out = &o->timer, .frame = o,
				.self = timing_tid, .self_ns = timing_tid,
				.comm = COMM_TIMER };
	a[1] = (struct window){ .cpu = f->cpu, .from = timer, .to = f->start,
				.out = &o->wait, .frame = o, .self = f->tid,
				.self_ns = f->tid, .comm = COMM_SIM };
}

/*
 * Frame k's stamps (windows a[0], a[1]), to sr: a thread still on its
 * previous frame after the release ran from busy_from, and, if that
 * frame had not ended when the timing thread woke, again from then
 * (ordered after it); the timing thread ran when it stamped that it
 * woke; the thread ran when it stamped its start. The previous frame is
 * taken to have run on the CPU this one started on.
 */
static int frame_stamps(struct why_frame *o, const struct window *a,
			const struct worst_frame *f, struct stamp_ref *sr)
{
	uint64_t again = f->busy_from > a[1].from ? f->busy_from : a[1].from;
	const struct { uint64_t ns; int cpu, win; bool on; } at[WHY_STAMPS] = {
		{ f->busy_from, f->cpu, 1, f->busy_from != 0 },
		{ a[0].to, f->timer_cpu, 0, f->timer != f->start &&
					    a[0].to > a[0].from },
		{ again, f->cpu, 1, f->busy_from && f->busy_to > a[1].from },
		{ f->start, f->cpu, 1, true },
	};
	int j, n = 0;

	for (j = 0; j < WHY_STAMPS; j++) {
		if (!at[j].on || at[j].cpu < 0)
			continue;
		o->stamp[n] = (struct why_stamp){ .ns = at[j].ns,
						  .cpu = at[j].cpu };
		sr[n] = (struct stamp_ref){ at[j].ns, j, &o->stamp[n],
					    &a[at[j].win] };
		n++;
	}
	o->nstamps = n;
	return n;
}

int trace_explain_file(FILE *f, const struct worst_frames *w,
		       const struct why_env *env, struct why_frame **out)
{
	static const struct why_env none = { .vm = -1 };
	struct window a[2 * WORST_MAX];
	struct pic_raw pr[WORST_MAX];
	struct stamp_ref sr[WHY_STAMPS * WORST_MAX];
	struct cpu_state *cpu;
	struct why_frame *o;
	uint32_t i, nf = w->n < WORST_MAX ? w->n : WORST_MAX;
	bool hrtimers = false;
	int ns = 0;

	*out = NULL;
	if (!nf)
		return 0;
	if (!env)
		env = &none;
	o = calloc(nf, sizeof(*o));
	cpu = calloc(MAX_CPUS, sizeof(*cpu));
	if (!o || !cpu) {
		free(o);
		free(cpu);
		return -ENOMEM;
	}
	for (i = 0; i < nf; i++) {
		frame_windows(&a[2 * i], &o[i], &w->f[i], w->timing_tid);
		o[i].deadline_ns = w->deadline_ns;
		trace_pic_begin(&pr[i], &o[i]);
		/* The trace stopped (--breaktrace) before it ended. */
		if (env->stopped_ns && w->f[i].start > env->stopped_ns)
			o[i].lost = true;
		if (env->filtered)
			ns += frame_stamps(&o[i], &a[2 * i], &w->f[i],
					   &sr[ns]);
	}
	if (ns > 1)
		qsort(sr, (size_t)ns, sizeof(sr[0]), by_stamp);
	if (f)
		hrtimers = sweep(f, a, (int)(2 * nf), o, w->f, (int)nf, cpu,
				 pr, sr, ns);
	for (i = 0; i < 2 * nf; i++) {
		if (!f)
			a[i].frame->lost = true;
		else
			idle_cause(&a[i], env, hrtimers);
		finish_window(&a[i]);
	}
	for (i = 0; i < nf; i++) {
		pr[i].timing = a[2 * i].self;
		trace_pic_end(&pr[i], &o[i]);
	}
	free(cpu);
	qsort(o, nf, sizeof(*o), by_latency);
	*out = o;
	return (int)nf;
}

int trace_explain(struct tracer *t, const struct worst_frames *w,
		  struct why_frame **out)
{
	struct why_env env = { .vm = t->vm, .stopped_ns = t->stopped_ns,
			       .throttled = t->cg_throttled,
			       .filtered = t->switch_filtered };
	char path[256];
	FILE *f;
	int n;

	snprintf(env.limit, sizeof(env.limit), "%s", t->cg_limit);
	snprintf(path, sizeof(path), "%s/trace", t->inst);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = trace_explain_file(f, w, &env, out);
	fclose(f);
	return n;
}
