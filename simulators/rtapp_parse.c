// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/rtapp_parse.c - an rt-app JSON file into plain data
 * (rtapp.h), checked whole before anything runs.
 *
 * rt-app's own reading (rt-app 1.0, src/rt-app_parse_config.c) is
 * followed where the subset goes: events are the keys of a thread or
 * phase object in the file's order, matched by their start (run0,
 * sleep1, timer_a), "runtime" before "run"; a thread without "phases" is
 * one phase; phase loop 1 and thread loop -1 (for ever) by default;
 * priority 0 (nice) for SCHED_OTHER, 10 for the real-time classes;
 * timers' refs starting "unique" are each thread's own; a barrier's
 * users are its uses over every thread. Where rt-app would go on with
 * something it does not understand (a key it ignores, a duplicate key
 * json-c keeps the last of), we stop: one line naming the file and the
 * key. What is deliberately different from rt-app 1.0 is said where it
 * is done (README: rt-app workloads).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/base.h"
#include "lib/json.h"
#include "lib/policy.h"
#include "simulators/rtapp.h"

/* What parsing needs at hand: the file's name, the message buffer. */
struct rp {
	const char *name;
	char *err;
	size_t n;
	struct rtapp_wl *wl;
	/* timer refs of the task being read, and who else used them */
	char timer_name[RTAPP_MAX_TIMERS][RTAPP_NAME];
	int timer_mode[RTAPP_MAX_TIMERS];	/* -1 unset, 0 rel, 1 abs */
};

/* Timer refs of every task, to refuse a timer two threads share. */
struct shared_ref {
	char name[RTAPP_NAME];
	int task;
};

__attribute__((format(printf, 3, 4)))
static int refuse(struct rp *p, const char *key, const char *fmt, ...)
{
	char why[320], *c;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->n, "%s: %s: %s", p->name, key, why);
	/* a key of the file's is shown as text, never as a control */
	for (c = p->err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -EINVAL;
}

/* A key outside the subset: the same words for every one. */
static int outside(struct rp *p, const char *key)
{
	return refuse(p, key, "outside the rt-app subset interbench runs "
		      "(see README: rt-app workloads)");
}

static void key_join(char *buf, size_t n, const char *parent,
		     const char *key)
{
	/* a name too long for buf is cut: it is only for the message */
	if (snprintf(buf, n, "%s%s%s", parent, *parent ? "." : "", key) < 0)
		buf[0] = '\0';
}

/* A whole number in [lo, hi]: 0 and *v, or refused. */
static int whole(struct rp *p, const char *key, const struct jval *v,
		 long long lo, long long hi, long long *out)
{
	if (v->type != J_NUM || v->num != floor(v->num) || v->num < (double)lo ||
	    v->num > (double)hi)
		return refuse(p, key, "must be a whole number from %lld to "
			      "%lld", lo, hi);
	*out = (long long)v->num;
	return 0;
}

/* Printable ASCII: names reach the terminal and the thread's comm. */
static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

/* A name: a string of 1 to RTAPP_NAME - 1 bytes (empty if may_empty). */
static int name_of(struct rp *p, const char *key, const struct jval *v,
		   bool may_empty, char *out)
{
	if (v->type != J_STR)
		return refuse(p, key, "must be a string");
	if (!printable(v->str))
		return refuse(p, key, "must be printable ASCII");
	if ((!may_empty && !v->str[0]) || strlen(v->str) >= RTAPP_NAME)
		return refuse(p, key, "must be a name of %s%d characters",
			      may_empty ? "0 to " : "1 to ", RTAPP_NAME - 1);
	snprintf(out, RTAPP_NAME, "%s", v->str);
	return 0;
}

/* "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR": the enum sched_pol, or < 0. */
static int policy_of(struct rp *p, const char *key, const struct jval *v,
		     int *pol)
{
	static const struct { const char *name; int pol; } pols[] = {
		{ "SCHED_OTHER", POL_OTHER }, { "SCHED_FIFO", POL_FIFO },
		{ "SCHED_RR", POL_RR },
	};
	size_t i;

	if (v->type == J_STR && !strcmp(v->str, "SCHED_DEADLINE"))
		return refuse(p, key, "SCHED_DEADLINE is outside the rt-app "
			      "subset interbench runs (SCHED_OTHER, "
			      "SCHED_FIFO, SCHED_RR)");
	for (i = 0; v->type == J_STR && i < sizeof(pols) / sizeof(pols[0]);
	     i++)
		if (!strcmp(v->str, pols[i].name)) {
			*pol = pols[i].pol;
			return 0;
		}
	return refuse(p, key, "must be SCHED_OTHER, SCHED_FIFO or SCHED_RR");
}

/* Two keys alike in one object: json-c keeps the last, we refuse. */
static int no_duplicates(struct rp *p, const char *where,
			 const struct jval *o)
{
	size_t i, j;
	char key[256];

	for (i = 0; i < o->n; i++)
		for (j = i + 1; j < o->n; j++)
			if (!strcmp(o->keys[i], o->keys[j])) {
				key_join(key, sizeof(key), where, o->keys[j]);
				return refuse(p, key, "given twice in one object "
					      "(rt-app would keep only the "
					      "last): number them, e.g. "
					      "run0, run1, as workgen does");
			}
	return 0;
}

/* ---- events --------------------------------------------------------- */

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* rt-app 1.0's events outside the subset (and later rt-app's). */
static const char *const other_events[] = {
	"lock", "unlock", "wait", "signal", "broad", "sync", "mem", "iorun",
	"yield", "fork", "sem_", "slice", NULL
};

static bool is_event(const char *k)
{
	static const char *const ours[] = {
		"run", "sleep", "timer", "barrier", "suspend", "resume", NULL
	};
	int i;

	for (i = 0; ours[i]; i++)
		if (starts(k, ours[i]))
			return true;
	return false;
}

/* Key k (at key) is not ours: an event of rt-app's, or anything else. */
static int outside_key(struct rp *p, const char *key, const char *k)
{
	int i;

	for (i = 0; other_events[i]; i++)
		if (starts(k, other_events[i]))
			return refuse(p, key, "rt-app's %s event is outside "
				      "the subset interbench runs (see README: "
				      "rt-app workloads)", other_events[i]);
	return outside(p, key);
}

static int find_or_add_wait(struct rtapp_wl *wl, const char *name)
{
	int i;
	void *m;

	for (i = 0; i < wl->nwait; i++)
		if (!strcmp(wl->wait[i], name))
			return i;
	m = realloc(wl->wait, (size_t)(wl->nwait + 1) * sizeof(*wl->wait));
	if (!m)
		return -ENOMEM;
	wl->wait = m;
	snprintf(wl->wait[wl->nwait], RTAPP_NAME, "%s", name);
	return wl->nwait++;
}

static int find_or_add_barrier(struct rtapp_wl *wl, const char *name)
{
	int i;
	void *m;

	for (i = 0; i < wl->nbarrier; i++)
		if (!strcmp(wl->barrier[i].name, name))
			return i;
	m = realloc(wl->barrier, (size_t)(wl->nbarrier + 1) *
		    sizeof(*wl->barrier));
	if (!m)
		return -ENOMEM;
	wl->barrier = m;
	memset(&wl->barrier[wl->nbarrier], 0, sizeof(*wl->barrier));
	snprintf(wl->barrier[wl->nbarrier].name, RTAPP_NAME, "%s", name);
	return wl->nbarrier++;
}

/* timer: { "ref": NAME, "period": US, "mode": "relative"|"absolute" } */
static int parse_timer(struct rp *p, struct rtapp_task *t, const char *key,
		       const struct jval *v, struct rtapp_event *e)
{
	char ref[RTAPP_NAME] = "unknown", k[256];
	long long period = -1;
	int mode = -1, i, e2;
	size_t j;

	if (v->type != J_OBJ)
		return refuse(p, key, "a timer must be an object: { \"ref\": "
			      "NAME, \"period\": US }");
	e2 = no_duplicates(p, key, v);
	if (e2)
		return e2;
	for (j = 0; j < v->n; j++) {
		const struct jval *x = &v->items[j];

		key_join(k, sizeof(k), key, v->keys[j]);
		if (!strcmp(v->keys[j], "ref")) {
			e2 = name_of(p, k, x, false, ref);
		} else if (!strcmp(v->keys[j], "period")) {
			e2 = whole(p, k, x, 1, RTAPP_MAX_US, &period);
		} else if (!strcmp(v->keys[j], "mode")) {
			if (x->type != J_STR || (strcmp(x->str, "relative") &&
						 strcmp(x->str, "absolute")))
				return refuse(p, k, "must be \"relative\" or "
					      "\"absolute\"");
			mode = !strcmp(x->str, "absolute");
			e2 = 0;
		} else {
			return outside(p, k);
		}
		if (e2)
			return e2;
	}
	if (period < 0)
		return refuse(p, key, "a timer needs its \"period\" (us, 1 or "
			      "more)");
	if (mode < 0)
		mode = 0;	/* rt-app's default: relative */
	for (i = 0; i < t->ntimer; i++)
		if (!strcmp(p->timer_name[i], ref))
			break;
	if (i == t->ntimer) {
		if (t->ntimer == RTAPP_MAX_TIMERS)
			return refuse(p, key, "more than %d timers in one task",
				      RTAPP_MAX_TIMERS);
		snprintf(p->timer_name[i], RTAPP_NAME, "%s", ref);
		p->timer_mode[i] = mode;
		t->ntimer++;
	} else if (p->timer_mode[i] != mode) {
		/* rt-app 1.0 makes the timer absolute if any use says so */
		return refuse(p, key, "timer '%s' is used both relative and "
			      "absolute", ref);
	}
	t->timer_abs[i] = mode;
	e->type = RTE_TIMER;
	e->ns = (uint64_t)period * NSEC_PER_USEC;
	e->res = i;
	t->periodic = true;
	return 0;
}

static int parse_event(struct rp *p, struct rtapp_task *t, const char *key,
		       const char *k, const struct jval *v,
		       struct rtapp_event *e)
{
	char name[RTAPP_NAME];
	long long us = 0;
	int i, r;

	if (starts(k, "run") || starts(k, "sleep")) {
		r = whole(p, key, v, 0, RTAPP_MAX_US, &us);
		if (r)
			return r;
		e->ns = (uint64_t)us * NSEC_PER_USEC;
		e->type = starts(k, "sleep") ? RTE_SLEEP :
			  starts(k, "runtime") ? RTE_RUNTIME : RTE_RUN;
		return 0;
	}
	if (starts(k, "timer"))
		return parse_timer(p, t, key, v, e);
	if (starts(k, "barrier")) {
		r = name_of(p, key, v, false, name);
		if (r)
			return r;
		i = find_or_add_barrier(p->wl, name);
		if (i < 0)
			return i;
		/* every use is a user, each instance's too (as rt-app) */
		p->wl->barrier[i].users += t->instance;
		e->type = RTE_BARRIER;
		e->res = i;
		return 0;
	}
	/* suspend "" is the thread's own name, as workgen fills it in */
	r = name_of(p, key, v, starts(k, "suspend"), name);
	if (r)
		return r;
	if (!name[0])
		snprintf(name, sizeof(name), "%s", t->name);
	i = find_or_add_wait(p->wl, name);
	if (i < 0)
		return i;
	e->type = starts(k, "suspend") ? RTE_SUSPEND : RTE_RESUME;
	e->res = i;
	return 0;
}

/*
 * The events of object o (a phase, or a thread without phases) into ph;
 * keys that are not events must be in allowed[], else refused.
 */
static int parse_events(struct rp *p, struct rtapp_task *t, const char *where,
			const struct jval *o, struct rtapp_phase *ph,
			const char *const *allowed)
{
	char key[256];
	size_t j;
	int i, r;

	ph->ev = calloc(o->n ? o->n : 1, sizeof(*ph->ev));
	if (!ph->ev)
		return -ENOMEM;
	for (j = 0; j < o->n; j++) {
		const char *k = o->keys[j];
		bool ok = false;

		key_join(key, sizeof(key), where, k);
		if (is_event(k)) {
			r = parse_event(p, t, key, k, &o->items[j],
					&ph->ev[ph->nev]);
			if (r)
				return r;
			ph->nev++;
			continue;
		}
		for (i = 0; allowed[i]; i++)
			ok |= !strcmp(k, allowed[i]);
		if (ok)
			continue;
		return outside_key(p, key, k);
	}
	if (!ph->nev)
		return refuse(p, where, "no events: a thread must run, sleep "
			      "or wait for something");
	return 0;
}

/* loop: -1 (for ever) or 1 and more. */
static int parse_loop(struct rp *p, const char *where, const struct jval *o,
		      long *loop)
{
	const struct jval *v = json_get(o, "loop");
	char key[256];
	long long l = 0;
	int r;

	if (!v)
		return 0;
	key_join(key, sizeof(key), where, "loop");
	r = whole(p, key, v, -1, 1000000000, &l);
	if (r)
		return r;
	if (!l)
		return refuse(p, key, "must be -1 (for ever) or 1 or more");
	*loop = (long)l;
	return 0;
}

static int parse_phases(struct rp *p, struct rtapp_task *t, const char *where,
			const struct jval *ph)
{
	static const char *const allowed[] = { "loop", NULL };
	char key[256];
	size_t j;
	int r;

	if (ph->type != J_OBJ || !ph->n)
		return refuse(p, where, "must be an object of one or more "
			      "phases");
	r = no_duplicates(p, where, ph);
	if (r)
		return r;
	t->phase = calloc(ph->n, sizeof(*t->phase));
	if (!t->phase)
		return -ENOMEM;
	for (j = 0; j < ph->n; j++) {
		struct rtapp_phase *x = &t->phase[t->nphase++];

		key_join(key, sizeof(key), where, ph->keys[j]);
		if (ph->items[j].type != J_OBJ)
			return refuse(p, key, "a phase must be an object");
		r = no_duplicates(p, key, &ph->items[j]);
		if (r)
			return r;
		x->loop = 1;
		r = parse_loop(p, key, &ph->items[j], &x->loop);
		if (!r)
			r = parse_events(p, t, key, &ph->items[j], x, allowed);
		if (r)
			return r;
	}
	return 0;
}

static int parse_task(struct rp *p, const char *name, const struct jval *o,
		      int def_policy, struct rtapp_task *t)
{
	static const char *const allowed[] = {
		"instance", "policy", "priority", "loop", NULL
	};
	const struct jval *v;
	char where[256], key[256];
	long long x = 0;
	int r;

	key_join(where, sizeof(where), "tasks", name);
	if (o->type != J_OBJ)
		return refuse(p, where, "a task must be an object");
	if (!name[0] || strlen(name) >= RTAPP_NAME || !printable(name))
		return refuse(p, "tasks", "a task's name must be 1 to %d "
			      "printable ASCII characters", RTAPP_NAME - 1);
	r = no_duplicates(p, where, o);
	if (r)
		return r;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->instance = 1;
	t->policy = def_policy;
	memset(p->timer_mode, 0xff, sizeof(p->timer_mode));
	v = json_get(o, "instance");
	if (v) {
		key_join(key, sizeof(key), where, "instance");
		r = whole(p, key, v, 1, RTAPP_MAX_THREADS, &x);
		if (r)
			return r;
		t->instance = (int)x;
	}
	v = json_get(o, "policy");
	if (v) {
		key_join(key, sizeof(key), where, "policy");
		r = policy_of(p, key, v, &t->policy);
		if (r)
			return r;
	}
	t->prio = t->policy == POL_OTHER ? 0 : 10;	/* rt-app's defaults */
	v = json_get(o, "priority");
	if (v) {
		int top = PRIO_SIM;

		key_join(key, sizeof(key), where, "priority");
		if (t->policy == POL_OTHER) {
			r = whole(p, key, v, -20, 19, &x);
		} else {
			r = whole(p, key, v, 1, 99, &x);
			/* never above interbench's own timing and parent */
			if (!r && x > top)
				return refuse(p, key, "%lld is above %d, the "
					      "highest interbench gives a task "
					      "(its own threads run at %d and "
					      "%d)", x, top, top + 1, top + 2);
		}
		if (r)
			return r;
		t->prio = (int)x;
	}
	/*
	 * Without "phases" the thread is one phase, and its "loop" is how
	 * often it runs (rt-app after 1.0; 1.0 itself went on for ever).
	 */
	t->loop = -1;
	v = json_get(o, "phases");
	if (v) {
		size_t j;
		int i;

		for (j = 0; j < o->n; j++) {
			const char *k = o->keys[j];

			key_join(key, sizeof(key), where, k);
			if (is_event(k))
				return refuse(p, key, "an event beside \"phases\""
					      " (rt-app would ignore it): put "
					      "it in a phase");
			for (i = 0; allowed[i] && strcmp(k, allowed[i]); i++)
				;
			if (!allowed[i] && strcmp(k, "phases"))
				return outside_key(p, key, k);
		}
		key_join(key, sizeof(key), where, "phases");
		r = parse_loop(p, where, o, &t->loop);
		if (!r)
			r = parse_phases(p, t, key, v);
		return r;
	}
	t->phase = calloc(1, sizeof(*t->phase));
	if (!t->phase)
		return -ENOMEM;
	t->nphase = 1;
	t->phase[0].loop = 1;
	r = parse_loop(p, where, o, &t->loop);
	if (!r)
		r = parse_events(p, t, where, o, &t->phase[0], allowed);
	return r;
}

/* ---- global --------------------------------------------------------- */

/*
 * Of "global", what interbench honours (default_policy) and what does
 * not change what the threads do, so is read and left: duration (-t
 * governs), calibration (interbench's own), rt-app's log files and
 * plots, ftrace (rt-app's own trace markers; interbench has --trace),
 * lock_pages (the benchmark's memory is locked anyway), cumulative_slack
 * (rt-app's log only), io_device and mem_buffer_size (for events outside
 * the subset). pi_enabled is honoured: priority inheritance on the
 * mutexes of barriers and suspend/resume, as rt-app's.
 */
static int parse_global(struct rp *p, const struct jval *g, int *def_policy)
{
	char key[256];
	long long x = 0;
	size_t j;
	int r;

	if (g->type != J_OBJ)
		return refuse(p, "global", "must be an object");
	r = no_duplicates(p, "global", g);
	if (r)
		return r;
	for (j = 0; j < g->n; j++) {
		const char *k = g->keys[j];
		const struct jval *v = &g->items[j];

		key_join(key, sizeof(key), "global", k);
		if (!strcmp(k, "default_policy")) {
			r = policy_of(p, key, v, def_policy);
		} else if (!strcmp(k, "duration")) {
			r = whole(p, key, v, -1, 1000000000, &x);
		} else if (!strcmp(k, "calibration")) {
			r = 0;
			if (v->type == J_NUM)
				r = whole(p, key, v, 1, 1000000000, &x);
			else if (v->type != J_STR || !starts(v->str, "CPU"))
				r = refuse(p, key, "must be ns per loop or "
					   "\"CPUn\"");
		} else if (!strcmp(k, "logdir") || !strcmp(k, "log_basename") ||
			   !strcmp(k, "io_device")) {
			r = v->type == J_STR ? 0 :
			    refuse(p, key, "must be a string");
		} else if (!strcmp(k, "log_size")) {
			r = v->type == J_STR ? 0 :
			    whole(p, key, v, 0, 1 << 20, &x);
		} else if (!strcmp(k, "mem_buffer_size")) {
			r = whole(p, key, v, 0, 1LL << 40, &x);
		} else if (!strcmp(k, "gnuplot") || !strcmp(k, "lock_pages") ||
			   !strcmp(k, "cumulative_slack") ||
			   !strcmp(k, "ftrace") || !strcmp(k, "pi_enabled")) {
			r = v->type == J_BOOL ? 0 :
			    refuse(p, key, "must be true or false");
			if (!r && !strcmp(k, "pi_enabled"))
				p->wl->pi = v->b;
		} else {
			r = outside(p, key);
		}
		if (r)
			return r;
	}
	return 0;
}

/* ---- the whole ------------------------------------------------------- */

/* Checks over all the tasks: shared timers, barriers, waits. */
static int check_whole(struct rp *p, struct shared_ref *refs, int nrefs)
{
	struct rtapp_wl *wl = p->wl;
	int i, j, k, e;
	char key[256];

	/* A non-unique timer ref in two tasks, or a task of instances. */
	for (i = 0; i < nrefs; i++) {
		const struct rtapp_task *t = &wl->task[refs[i].task];
		bool shared = t->instance > 1;

		if (starts(refs[i].name, "unique"))
			continue;
		for (j = 0; j < nrefs && !shared; j++)
			shared = j != i && refs[j].task != refs[i].task &&
				 !strcmp(refs[j].name, refs[i].name);
		if (shared) {
			key_join(key, sizeof(key), "tasks", t->name);
			return refuse(p, key, "timer '%s' is shared by several "
				      "threads, which rt-app does without a "
				      "lock: give each its own (a ref "
				      "starting \"unique\")", refs[i].name);
		}
	}
	for (i = 0; i < wl->nbarrier; i++) {
		int from = -1;
		bool others = false;

		/* a barrier one thread alone uses would wait for ever */
		for (k = 0; k < wl->ntask; k++)
			for (j = 0; j < wl->task[k].nphase; j++)
				for (e = 0; e < wl->task[k].phase[j].nev; e++)
					if (wl->task[k].phase[j].ev[e].type ==
					    RTE_BARRIER &&
					    wl->task[k].phase[j].ev[e].res == i) {
						others |= from >= 0 && from != k;
						if (from < 0)
							from = k;
					}
		if (!others && wl->task[from].instance < 2)
			return refuse(p, "tasks", "barrier '%s' is used by one "
				      "thread only (%s): it would wait for "
				      "ever", wl->barrier[i].name,
				      wl->task[from].name);
	}
	for (i = 0; i < wl->nwait; i++) {
		bool susp = false, res = false;

		for (k = 0; k < wl->ntask; k++)
			for (j = 0; j < wl->task[k].nphase; j++)
				for (e = 0; e < wl->task[k].phase[j].nev; e++) {
					const struct rtapp_event *x =
						&wl->task[k].phase[j].ev[e];

					if (x->res != i)
						continue;
					susp |= x->type == RTE_SUSPEND;
					res |= x->type == RTE_RESUME;
				}
		if (!res)
			return refuse(p, "tasks", "suspend '%s': no thread "
				      "resumes '%s', so it would wait for ever",
				      wl->wait[i], wl->wait[i]);
		if (!susp)
			return refuse(p, "tasks", "resume '%s': no thread "
				      "suspends on '%s'", wl->wait[i],
				      wl->wait[i]);
	}
	return 0;
}

static int parse_root(struct rp *p, const struct jval *root)
{
	struct rtapp_wl *wl = p->wl;
	const struct jval *tasks = NULL, *global = NULL;
	struct shared_ref *refs = NULL;
	int def_policy = POL_OTHER, nrefs = 0, r = 0, k;
	size_t j;

	if (root->type != J_OBJ)
		return refuse(p, "(top)", "the file must be a JSON object");
	r = no_duplicates(p, "", root);
	if (r)
		return r;
	for (j = 0; j < root->n; j++) {
		const char *k2 = root->keys[j];

		if (!strcmp(k2, "tasks"))
			tasks = &root->items[j];
		else if (!strcmp(k2, "global"))
			global = &root->items[j];
		else if (!strcmp(k2, "resources")) {
			/* kept by rt-app for old files; empty means nothing */
			if (root->items[j].type != J_OBJ || root->items[j].n)
				return outside(p, "resources");
		} else
			return outside(p, k2);
	}
	if (!tasks || tasks->type != J_OBJ || !tasks->n)
		return refuse(p, "tasks", "the file needs \"tasks\": an object "
			      "of one or more threads");
	if (global) {
		r = parse_global(p, global, &def_policy);
		if (r)
			return r;
	}
	r = no_duplicates(p, "tasks", tasks);
	if (r)
		return r;
	wl->task = calloc(tasks->n, sizeof(*wl->task));
	refs = calloc(tasks->n * RTAPP_MAX_TIMERS, sizeof(*refs));
	if (!wl->task || !refs) {
		free(refs);
		return -ENOMEM;
	}
	for (j = 0; j < tasks->n && !r; j++) {
		struct rtapp_task *t = &wl->task[wl->ntask++];

		r = parse_task(p, tasks->keys[j], &tasks->items[j], def_policy,
			       t);
		if (r)
			break;
		wl->nthreads += t->instance;
		if (t->periodic)
			wl->nperiodic += t->instance;
		if (wl->nthreads > RTAPP_MAX_THREADS)
			r = refuse(p, "tasks", "more than %d threads, instances "
				   "counted", RTAPP_MAX_THREADS);
		for (k = 0; k < t->ntimer; k++) {
			snprintf(refs[nrefs].name, RTAPP_NAME, "%s",
				 p->timer_name[k]);
			refs[nrefs++].task = wl->ntask - 1;
		}
	}
	if (!r)
		r = check_whole(p, refs, nrefs);
	free(refs);
	return r;
}

/*
 * rt-app reads its files with json-c, which takes C comments and a
 * comma before a closing bracket; its examples have both. Blank them
 * (spaces, newlines kept: the reader's line and column stay true).
 */
static void blank_pass(char *s, size_t len, bool commas)
{
	size_t i, j;
	bool str = false;

	for (i = 0; i < len; i++) {
		if (str) {
			if (s[i] == '\\' && i + 1 < len)
				i++;
			else if (s[i] == '"')
				str = false;
			continue;
		}
		if (s[i] == '"') {
			str = true;
		} else if (commas && s[i] == ',') {
			for (j = i + 1; j < len && strchr(" \t\r\n", s[j]); j++)
				;
			if (j < len && (s[j] == '}' || s[j] == ']'))
				s[i] = ' ';
		} else if (!commas && s[i] == '/' && i + 1 < len &&
			   s[i + 1] == '*') {
			/* to the closing star-slash, or the end */
			for (j = i + 2; j < len && !(s[j - 1] == '*' &&
						     s[j] == '/' && j > i + 2);
			     j++)
				;
			for (; i <= j && i < len; i++)
				if (s[i] != '\n')
					s[i] = ' ';
			i--;
		} else if (!commas && s[i] == '/' && i + 1 < len &&
			   s[i + 1] == '/') {
			for (; i < len && s[i] != '\n'; i++)
				s[i] = ' ';
		}
	}
}

static void blank_extensions(char *s, size_t len)
{
	blank_pass(s, len, false);	/* comments first: then the commas */
	blank_pass(s, len, true);
}

/* FNV-1a, 32 bits: enough to tell two files apart in a result. */
static uint32_t fnv1a(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

int rtapp_parse_text(const char *text, size_t len, const char *name,
		     struct rtapp_wl **out, char *err, size_t n)
{
	struct rp p = { .name = name, .err = err, .n = n };
	struct jval *root = NULL;
	char *buf, jerr[160];
	const char *base = strrchr(name, '/');
	int r;

	*out = NULL;
	if (memchr(text, '\0', len)) {
		snprintf(err, n, "%s: not a text file (a NUL byte)", name);
		return -EINVAL;
	}
	p.wl = calloc(1, sizeof(*p.wl));
	buf = malloc(len + 1);
	if (!p.wl || !buf) {
		free(p.wl);
		free(buf);
		snprintf(err, n, "%s: out of memory", name);
		return -ENOMEM;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	blank_extensions(buf, len);
	r = json_parse(buf, len, &root, jerr, sizeof(jerr));
	free(buf);
	if (r) {
		snprintf(err, n, "%s: not JSON rt-app can read: %s", name,
			 r == -ENOMEM ? "out of memory" : jerr);
		rtapp_free(p.wl);
		return r;
	}
	snprintf(p.wl->path, sizeof(p.wl->path), "%s", name);
	snprintf(p.wl->file, sizeof(p.wl->file), "%s", base ? base + 1 : name);
	p.wl->bytes = len;
	p.wl->fnv = fnv1a(text, len);
	snprintf(p.wl->ident, sizeof(p.wl->ident), "%s (%llu bytes, fnv1a "
		 "%08x)", name, (unsigned long long)len, p.wl->fnv);
	r = parse_root(&p, root);
	json_free(root);
	if (r == -ENOMEM)
		snprintf(err, n, "%s: out of memory", name);
	if (r) {
		rtapp_free(p.wl);
		return r;
	}
	*out = p.wl;
	return 0;
}

int rtapp_parse(const char *path, struct rtapp_wl **out, char *err, size_t n)
{
	struct stat st;
	char *text;
	ssize_t got;
	size_t have = 0;
	int fd, r;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		r = -errno;
		snprintf(err, n, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > RTAPP_MAX_FILE) {
		snprintf(err, n, "%s: not a regular file of at most %d bytes",
			 path, RTAPP_MAX_FILE);
		close(fd);
		return -EINVAL;
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		close(fd);
		snprintf(err, n, "%s: out of memory", path);
		return -ENOMEM;
	}
	while (have < (size_t)st.st_size &&
	       (got = read(fd, text + have, (size_t)st.st_size - have)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			snprintf(err, n, "%s: %s", path, strerror(errno));
			free(text);
			close(fd);
			return r;
		}
		have += (size_t)got;
	}
	close(fd);
	r = rtapp_parse_text(text, have, path, out, err, n);
	free(text);
	return r;
}

void rtapp_free(struct rtapp_wl *wl)
{
	int i, j;

	if (!wl)
		return;
	for (i = 0; i < wl->ntask; i++) {
		for (j = 0; j < wl->task[i].nphase; j++)
			free(wl->task[i].phase[j].ev);
		free(wl->task[i].phase);
	}
	free(wl->task);
	free(wl->barrier);
	free(wl->wait);
	free(wl);
}
