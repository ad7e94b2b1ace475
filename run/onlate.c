// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/onlate.c - --on-late: what is done about each late frame a traced
 * cell kept. The trace records the whole cell (its buffer is sized for
 * it), so after the cell every kept frame's window is still there: it is
 * cut out in one pass over the trace's text, each window into its own
 * file with the trace's header, before the next cell empties the buffer.
 * Nothing is done during the cell: the measured threads only append a
 * frame to a list (core/raw.h's worst_frames).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lib/safefile.h"
#include "run/trace_line.h"
#include "run/onlate.h"

/* One frame's saved window: the trace's lines in [from, to]. */
struct cut {
	uint64_t from, to;
	struct safe_file sf;
	char path[128];
	char mark[192];
	int err;			/* -errno: not saved */
};

/* The frames acted on in one cell, and what each gets. */
struct act {
	const struct worst_frame *f;
	int frame;			/* from 1, in the cell's order */
	unsigned actions;
	uint64_t bound_ns;		/* the least bound it is over */
	struct cut *cut;		/* save's, or NULL */
};

/* Each cut's window from the trace's text: the header, then its lines. */
static void cut_trace(const struct tracer *t, struct cut *c, int n)
{
	char path[sizeof(t->inst) + 8], *line = NULL;
	uint64_t ts = 0, end = 0;
	bool head = true;
	size_t cap = 0;
	FILE *in;
	int i;

	snprintf(path, sizeof(path), "%s/trace", t->inst);
	in = fopen(path, "re");
	for (i = 0; i < n; i++) {
		if (!in)
			c[i].err = -errno;
		else if (!c[i].err)
			c[i].err = safe_file_begin(&c[i].sf, c[i].path);
		/* every task's comm and pid: root's to read, as breaktrace's */
		if (!c[i].err && fchmod(c[i].sf.fd, 0600)) {
			/* safe_file_begin made it 0644 at most */
		}
		if (c[i].to > end)
			end = c[i].to;
	}
	while (in && getline(&line, &cap, in) > 0) {
		bool mark = head && line[0] != '#';

		if (line[0] != '#') {
			uint64_t at = trace_line_ns(line);

			head = false;
			/* a LOST line goes with the line before */
			ts = at ? at : ts;
		}
		if (ts > end)
			break;	/* in time order: every window is done */
		for (i = 0; i < n; i++) {
			if (c[i].err)
				continue;
			if (mark)
				fputs(c[i].mark, c[i].sf.f);
			if (head || (ts >= c[i].from && ts <= c[i].to))
				fputs(line, c[i].sf.f);
		}
	}
	free(line);
	if (in)
		fclose(in);
	for (i = 0; i < n; i++)
		if (!c[i].err)
			c[i].err = safe_file_commit(&c[i].sf);
}

static struct onlate_entry *entry(struct onlate_log *l)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		struct onlate_entry *e = realloc(l->e, sizeof(*e) *
						 (size_t)cap);

		if (!e)
			return NULL;
		l->e = e;
		l->cap = cap;
	}
	memset(&l->e[l->n], 0, sizeof(l->e[0]));
	return &l->e[l->n++];
}

/* The frame's figures, for shell='s command (unset after it). */
static const char *const env_names[] = {
	"IB_TASK", "IB_LOAD", "IB_REPEAT", "IB_FRAME", "IB_LATENCY_US",
	"IB_BOUND_US", "IB_RELEASE_NS", "IB_CPU", "IB_TID", "IB_TIMER_CPU",
	"IB_FILE", NULL
};

static void env_set(const struct result *res, const struct act *a)
{
	const struct worst_frame *f = a->f;
	char v[11][48];
	int i;

	snprintf(v[0], sizeof(v[0]), "%s", res->sim->name);
	snprintf(v[1], sizeof(v[1]), "%s", res->load->name);
	snprintf(v[2], sizeof(v[2]), "%d", res->repeat);
	snprintf(v[3], sizeof(v[3]), "%d", a->frame);
	snprintf(v[4], sizeof(v[4]), "%.1f",
		 (double)(f->start - f->release) / NSEC_PER_USEC);
	snprintf(v[5], sizeof(v[5]), "%.1f",
		 (double)a->bound_ns / NSEC_PER_USEC);
	snprintf(v[6], sizeof(v[6]), "%llu", (unsigned long long)f->release);
	snprintf(v[7], sizeof(v[7]), "%d", (int)f->cpu);
	snprintf(v[8], sizeof(v[8]), "%d", (int)f->tid);
	snprintf(v[9], sizeof(v[9]), "%d", (int)f->timer_cpu);
	for (i = 0; i < 10; i++)
		setenv(env_names[i], v[i], 1);
	setenv(env_names[10], a->cut && !a->cut->err ? a->cut->path : "", 1);
}

static void env_unset(void)
{
	int i;

	for (i = 0; env_names[i]; i++)
		unsetenv(env_names[i]);
}

/*
 * One action's entry (status NULL: it went well), and words, what the
 * frame's line says of it, added to line.
 */
static void record(struct onlate_log *l, const struct result *res,
		   const struct act *a, int attempt, unsigned action,
		   const char *status, const char *words, char *line,
		   size_t n)
{
	struct onlate_entry *e = entry(l);
	size_t len = strlen(line);

	if (e) {
		e->bench = res->sim->name;
		e->load = res->load->name;
		e->repeat = res->repeat;
		e->attempt = attempt;
		e->frame = a->frame;
		e->latency_ns = a->f->start - a->f->release;
		e->bound_ns = a->bound_ns;
		e->release_ns = a->f->release;
		e->cpu = (int)a->f->cpu;
		e->tid = (int)a->f->tid;
		e->action = action;
		e->ok = !status;
		snprintf(e->status, sizeof(e->status), "%s",
			 status ? status : "ok");
		if (action == LATE_SAVE && a->cut)
			snprintf(e->file, sizeof(e->file), "%s", a->cut->path);
	}
	if (len < n)
		snprintf(line + len, n - len, "%s%s", len ? "; " : "", words);
}

/* Every rule that holds for the frame: its shell commands and signals. */
static void run_rules(struct onlate_log *l, const struct plan *p,
		      const struct result *res, const struct act *a,
		      int attempt, uint64_t period, char *line, size_t n)
{
	uint64_t lat = a->f->start - a->f->release;
	char why[112], words[160];
	int i;

	for (i = 0; i < p->nlate; i++) {
		const struct late_rule *r = &p->late[i];

		if (!plan_late_holds(r, res->sim, lat, period))
			continue;
		if (r->actions & LATE_SHELL) {
			int e;

			env_set(res, a);
			e = shell_run(r->cmd, ONLATE_SHELL_NS, false, &l->env,
				      why, sizeof(why));
			env_unset();
			snprintf(words, sizeof(words), "shell %s", e ? why :
				 "ran");
			record(l, res, a, attempt, LATE_SHELL, e ? why : NULL,
			       words, line, n);
		}
		if (r->actions & LATE_SIGNAL) {
			int e = kill(r->pid, r->sig) ? errno : 0;

			snprintf(why, sizeof(why), "cannot send signal %d to "
				 "%d: %s", r->sig, r->pid, strerror(e));
			snprintf(words, sizeof(words), "signal %d sent to %d",
				 r->sig, r->pid);
			record(l, res, a, attempt, LATE_SIGNAL, e ? why : NULL,
			       e ? why : words, line, n);
		}
	}
}

/* One frame's actions, in their order, and its line. */
static void act_frame(struct onlate_log *l, const struct plan *p,
		      const struct result *res, const struct act *a,
		      int attempt, uint64_t period, out_fn out, void *ctx)
{
	char line[768] = "", words[192], why[160];

	if (a->cut) {
		snprintf(why, sizeof(why), "cannot save %s: %s", a->cut->path,
			 strerror(-a->cut->err));
		snprintf(words, sizeof(words), "saved %s", a->cut->path);
		record(l, res, a, attempt, LATE_SAVE, a->cut->err ? why : NULL,
		       a->cut->err ? why : words, line, sizeof(line));
	}
	run_rules(l, p, res, a, attempt, period, line, sizeof(line));
	if (a->actions & LATE_STOP) {
		record(l, res, a, attempt, LATE_STOP, NULL, "the run stops",
		       line, sizeof(line));
		l->stop = true;
	}
	if (!line[0])
		record(l, res, a, attempt, LATE_CONTINUE, NULL, "recorded",
		       line, sizeof(line));
	out(ctx, "--on-late: %s under %s r%d: a frame %.3g ms late (> %.3g "
	    "ms): %s\n", res->sim->name, res->load->name, res->repeat,
	    (double)(a->f->start - a->f->release) / NSEC_PER_MSEC,
	    (double)a->bound_ns / NSEC_PER_MSEC, line);
}

/*
 * Which kept frames are acted on, into a (up to the run's max; a stop
 * ends the list): their count. The cell's others past the max are
 * counted as skipped.
 */
static int choose(struct onlate_log *l, const struct plan *p,
		  const struct result *res, const struct worst_frames *w,
		  uint64_t period, struct act *a)
{
	int max = p->late_max ? p->late_max : LATE_MAX_DEFAULT;
	uint32_t i;
	int n = 0, k;

	for (i = 0; i < w->nlate; i++) {
		const struct worst_frame *f = &w->late[i];
		struct act x = { .f = f, .frame = (int)i + 1,
				 .bound_ns = UINT64_MAX };

		for (k = 0; k < p->nlate; k++) {
			const struct late_rule *r = &p->late[k];
			uint64_t b = r->bound_ns ? r->bound_ns : period;

			if (!plan_late_holds(r, res->sim, f->start - f->release,
					     period))
				continue;
			x.actions |= r->actions;
			if (b < x.bound_ns)
				x.bound_ns = b;
		}
		if (!x.actions)
			continue;
		if (l->frames + n >= max) {
			l->skipped++;
			continue;
		}
		a[n++] = x;
		if (x.actions & LATE_STOP)
			break;
	}
	l->skipped += (int)w->late_over;
	return n;
}

void onlate_cell(struct onlate_log *l, const struct plan *p,
		 const struct tracer *t, const struct sim_result *sr,
		 const struct result *res, int attempt, out_fn out, void *ctx)
{
	const struct worst_frames *w = &sr->worst;
	struct act *a = NULL;
	struct cut *c = NULL;
	int n, i, ncut = 0, skipped = l->skipped;

	if (!w->late_on || (!w->nlate && !w->late_over))
		return;
	a = calloc(LATE_KEEP, sizeof(*a));
	c = calloc(LATE_KEEP, sizeof(*c));
	if (!a || !c) {
		out(ctx, "--on-late: %s under %s r%d: out of memory: its late "
		    "frames not acted on\n", res->sim->name, res->load->name,
		    res->repeat);
		goto out;
	}
	n = choose(l, p, res, w, sr->period_ns, a);
	for (i = 0; i < n; i++) {
		struct cut *k;

		if (!(a[i].actions & LATE_SAVE))
			continue;
		k = a[i].cut = &c[ncut++];
		k->from = a[i].f->release > ONLATE_BEFORE_NS ?
			  a[i].f->release - ONLATE_BEFORE_NS : 0;
		k->to = a[i].f->start + ONLATE_AFTER_NS;
		snprintf(k->path, sizeof(k->path),
			 attempt > 1 ? "interbench-late-%s-%s-r%d-f%d-a%d.txt" :
			 "interbench-late-%s-%s-r%d-f%d.txt", res->sim->name,
			 res->load->name, res->repeat, a[i].frame, attempt);
		snprintf(k->mark, sizeof(k->mark), "# interbench: late frame "
			 "%s under %s r%d f%d: release %.6f latency %llu us "
			 "tid %d cpu %d\n", res->sim->name, res->load->name,
			 res->repeat, a[i].frame,
			 (double)a[i].f->release / NSEC_PER_SEC,
			 (unsigned long long)((a[i].f->start -
					       a[i].f->release) /
					      NSEC_PER_USEC),
			 (int)a[i].f->tid, (int)a[i].f->cpu);
	}
	if (ncut)
		cut_trace(t, c, ncut);
	for (i = 0; i < n; i++)
		act_frame(l, p, res, &a[i], attempt, sr->period_ns, out, ctx);
	l->frames += n;
	if (l->skipped > skipped)
		out(ctx, "--on-late: %s under %s r%d: %d late frame%s not "
		    "acted on (at most %d a run, --on-late-max; %d a cell)\n",
		    res->sim->name, res->load->name, res->repeat,
		    l->skipped - skipped, l->skipped - skipped > 1 ? "s" : "",
		    p->late_max ? p->late_max : LATE_MAX_DEFAULT, LATE_KEEP);
out:
	free(a);
	free(c);
}

void onlate_free(struct onlate_log *l)
{
	free(l->e);
	l->e = NULL;
	l->n = l->cap = 0;
}
