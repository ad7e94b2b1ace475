// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/rtapp/rtapp_parse.c - an rt-app file's keys into plain data
 * (rtapp.h), each checked as it is read; rtapp_check.c then checks the
 * workload whole. The text itself is read by rtapp_read.c, the top
 * level, "global" and "resources" by rtapp_file.c, with the values and
 * tasks read here. Also the messages every part of the reader gives:
 * one line naming the file and the key (rp_refuse, rp_note). It calls
 * no other file of the folder's (rtapp.h: the order).
 *
 * rt-app 1.0's reading (src/rt-app_parse_config.c) is followed: events
 * are the keys of a thread or phase object in the file's order, matched
 * by their start (run0, sleep1, timer_a), "runtime" before "run"; a
 * thread without "phases" is one phase; phase loop 1 and thread loop -1
 * (for ever) by default; priority 0 (nice) for SCHED_OTHER, 10 for the
 * real-time classes; a timer's ref "unknown", its period 0, its mode
 * relative, a wait's or sync's ref and mutex "unknown" when left out;
 * timers' refs starting "unique" are each thread's own; a barrier's
 * users are its uses over every thread; suspend and resume use the
 * condition and the mutex of their name, the same ones wait, signal,
 * sync and lock of that name use. Where rt-app would go on with
 * something it does not understand (a value of the wrong type, a key
 * it ignores in a thread), we stop: one line naming the file and the
 * key. A global key rt-app ignores is ignored too, with a note.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base.h"
#include "lib/json.h"
#include "lib/policy.h"
#include "simulators/rtapp/rtapp.h"
#include "simulators/rtapp/rtapp_priv.h"

/* ---- what every part of the reader says ----------------------------- */

int rp_refuse(struct rp *p, const char *key, const char *fmt, ...)
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

void rp_note(struct rp *p, const char *key, const char *fmt, ...)
{
	struct rtapp_wl *wl = p->wl;
	char why[RTAPP_NOTE], *c;
	va_list ap;
	int used;

	if (wl->nnote == RTAPP_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	/* the key first; a note too long for the line is cut */
	used = snprintf(wl->note[wl->nnote], RTAPP_NOTE, "%s: ", key);
	if (used > 0 && used < RTAPP_NOTE)
		memcpy(wl->note[wl->nnote] + used, why,
		       strnlen(why, (size_t)(RTAPP_NOTE - used - 1)) + 1);
	wl->note[wl->nnote][RTAPP_NOTE - 1] = '\0';
	for (c = wl->note[wl->nnote]; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	wl->nnote++;
}

void rp_key(char *buf, size_t n, const char *parent, const char *key)
{
	/* a name too long for buf is cut: it is only for the message */
	if (snprintf(buf, n, "%s%s%s", parent, *parent ? "." : "", key) < 0)
		buf[0] = '\0';
}

int rp_name_index(char (**names)[RTAPP_NAME], int *n, const char *name)
{
	int i;
	void *m;

	for (i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return i;
	m = realloc(*names, (size_t)(*n + 1) * sizeof(**names));
	if (!m)
		return -ENOMEM;
	*names = m;
	snprintf((*names)[*n], RTAPP_NAME, "%s", name);
	return (*n)++;
}

/* ---- values --------------------------------------------------------- */

/* Outside what interbench runs: the same words for every such key. */
static int outside(struct rp *p, const char *key)
{
	return rp_refuse(p, key, "not a key rt-app 1.0 reads here (see "
			 "doc/rtapp.txt, \"What rt-app 1.0 reads\")");
}

/* A whole number in [lo, hi]: 0 and *v, or refused. */
int rp_whole(struct rp *p, const char *key, const struct jval *v,
		 long long lo, long long hi, long long *out)
{
	if (v->type != J_NUM || v->num != floor(v->num) ||
	    v->num < (double)lo || v->num > (double)hi)
		return rp_refuse(p, key, "must be a whole number from %lld to "
				 "%lld", lo, hi);
	*out = (long long)v->num;
	return 0;
}

/* Printable ASCII: names reach the terminal and the thread's comm. */
bool rp_printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

/* A name: a string of 1 to RTAPP_NAME - 1 printable characters. */
static int name_of(struct rp *p, const char *key, const struct jval *v,
		   char *out)
{
	if (v->type != J_STR)
		return rp_refuse(p, key, "must be a string");
	if (!rp_printable(v->str))
		return rp_refuse(p, key, "must be printable ASCII");
	if (!v->str[0] || strlen(v->str) >= RTAPP_NAME)
		return rp_refuse(p, key, "must be a name of 1 to %d "
				 "characters", RTAPP_NAME - 1);
	snprintf(out, RTAPP_NAME, "%s", v->str);
	return 0;
}

/* A named resource of a list: its index in *out, or refused. */
static int resource(struct rp *p, const char *key, const struct jval *v,
		    char (**names)[RTAPP_NAME], int *n, int *out)
{
	char name[RTAPP_NAME];
	int r = name_of(p, key, v, name);

	if (r)
		return r;
	*out = rp_name_index(names, n, name);
	return *out < 0 ? *out : 0;
}

/* "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR": the enum sched_pol. */
int rp_policy(struct rp *p, const char *key, const struct jval *v,
		     int *pol)
{
	static const struct { const char *name; int pol; } pols[] = {
		{ "SCHED_OTHER", POL_OTHER }, { "SCHED_FIFO", POL_FIFO },
		{ "SCHED_RR", POL_RR },
	};
	size_t i;

	if (v->type == J_STR && !strcmp(v->str, "SCHED_DEADLINE"))
		return rp_refuse(p, key, "SCHED_DEADLINE is not run: "
				 "interbench runs rt-app's threads SCHED_OTHER, "
				 "SCHED_FIFO or SCHED_RR");
	for (i = 0; v->type == J_STR && i < sizeof(pols) / sizeof(pols[0]);
	     i++)
		if (!strcmp(v->str, pols[i].name)) {
			*pol = pols[i].pol;
			return 0;
		}
	return rp_refuse(p, key, "must be SCHED_OTHER, SCHED_FIFO or "
			 "SCHED_RR");
}

/* "cpus": [N, ...], CPUs by number (rtapp_check.c: that they exist). */
static int cpus_of(struct rp *p, const char *key, const struct jval *v,
		   cpu_set_t *set)
{
	long long c = 0;
	size_t i;
	int r;

	if (v->type != J_ARR || !v->n)
		return rp_refuse(p, key, "must be an array of CPU numbers, "
				 "e.g. [0, 1]");
	CPU_ZERO(set);
	for (i = 0; i < v->n; i++) {
		r = rp_whole(p, key, &v->items[i], 0, CPU_SETSIZE - 1, &c);
		if (r)
			return r;
		CPU_SET((int)c, set);
	}
	return 0;
}

/* "taskgroup": "/path" under the cpu controller; "" is none (-1). */
static int taskgroup_of(struct rp *p, const char *key, const struct jval *v,
			int *tg)
{
	struct rtapp_wl *wl = p->wl;
	void *m;
	int i;

	*tg = -1;
	if (v->type != J_STR || !rp_printable(v->str))
		return rp_refuse(p, key, "must be a string, a path such as "
				 "\"/tg1\"");
	if (!v->str[0])
		return 0;
	if (v->str[0] != '/' || strstr(v->str, "..") || strstr(v->str, "//")
	    || strlen(v->str) >= RTAPP_PATH - 64 || !strcmp(v->str, "/"))
		return rp_refuse(p, key, "must be a path starting '/', below "
				 "the root, without '..'");
	for (i = 0; i < wl->ntg; i++)
		if (!strcmp(wl->tg[i], v->str)) {
			*tg = i;
			return 0;
		}
	m = realloc(wl->tg, (size_t)(wl->ntg + 1) * sizeof(*wl->tg));
	if (!m)
		return -ENOMEM;
	wl->tg = m;
	snprintf(wl->tg[wl->ntg], RTAPP_PATH, "%s", v->str);
	*tg = wl->ntg++;
	return 0;
}

/* Two keys alike in one object: rtapp_read.c numbered them all. */
static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* ---- events --------------------------------------------------------- */

/* rt-app 1.0's events, as it matches a key's start. */
static bool is_event(const char *k)
{
	static const char *const events[] = {
		"lock", "unlock", "wait", "signal", "broad", "sync", "sleep",
		"run", "timer", "suspend", "resume", "mem", "iorun", "yield",
		"barrier", NULL
	};
	int i;

	for (i = 0; events[i]; i++)
		if (starts(k, events[i]))
			return true;
	return false;
}

/* An object's string member, or def when it is left out. */
static int member_name(struct rp *p, const char *key, const struct jval *o,
		       const char *m, const char *def, char *out)
{
	const struct jval *v = json_get(o, m);
	char k[256];

	if (!v) {
		snprintf(out, RTAPP_NAME, "%s", def);
		return 0;
	}
	rp_key(k, sizeof(k), key, m);
	return name_of(p, k, v, out);
}

/* Only the members named (NULL-ended) in object o at key. */
static int only_members(struct rp *p, const char *key, const struct jval *o,
			const char *const *names)
{
	char k[256];
	size_t j;
	int i;

	for (j = 0; j < o->n; j++) {
		for (i = 0; names[i] && strcmp(o->keys[j], names[i]); i++)
			;
		if (!names[i]) {
			rp_key(k, sizeof(k), key, o->keys[j]);
			return outside(p, k);
		}
	}
	return 0;
}

/* timer: { "ref": NAME, "period": US, "mode": "relative"|"absolute" } */
static int parse_timer(struct rp *p, struct rtapp_task *t, const char *key,
		       const struct jval *v, struct rtapp_event *e)
{
	static const char *const members[] = { "ref", "period", "mode", NULL };
	const struct jval *x;
	char ref[RTAPP_NAME], k[256];
	long long period = 0;
	int abs = 0, i, r;

	if (v->type != J_OBJ)
		return rp_refuse(p, key, "a timer must be an object: { \"ref\": "
				 "NAME, \"period\": US }");
	r = only_members(p, key, v, members);
	if (!r)
		r = member_name(p, key, v, "ref", "unknown", ref);
	if (r)
		return r;
	x = json_get(v, "period");
	rp_key(k, sizeof(k), key, "period");
	if (x && (r = rp_whole(p, k, x, 0, RTAPP_MAX_US, &period)))
		return r;
	x = json_get(v, "mode");
	if (x) {
		rp_key(k, sizeof(k), key, "mode");
		if (x->type != J_STR || (strcmp(x->str, "relative") &&
					 strcmp(x->str, "absolute")))
			return rp_refuse(p, k, "must be \"relative\" or "
					 "\"absolute\"");
		abs = !strcmp(x->str, "absolute");
	}
	for (i = 0; i < t->ntimer; i++)
		if (!strcmp(t->timer_ref[i], ref))
			break;
	if (i == t->ntimer) {
		if (t->ntimer == RTAPP_MAX_TIMERS)
			return rp_refuse(p, key, "more than %d timers in one "
					 "task", RTAPP_MAX_TIMERS);
		snprintf(t->timer_ref[i], RTAPP_NAME, "%s", ref);
		t->timer_abs[i] = abs;
		t->ntimer++;
	} else if (t->timer_abs[i] != abs) {
		/* rt-app 1.0 makes the timer absolute if any use says so */
		return rp_refuse(p, key, "timer '%s' is used both relative "
				 "and absolute", ref);
	}
	e->type = RTE_TIMER;
	e->ns = (uint64_t)period * NSEC_PER_USEC;
	e->res = i;
	t->periodic |= period > 0;
	return 0;
}

/* wait, sync: { "ref": CONDITION, "mutex": MUTEX } */
static int parse_cond_wait(struct rp *p, const char *key, const char *k,
			   const struct jval *v, struct rtapp_event *e)
{
	static const char *const members[] = { "ref", "mutex", NULL };
	struct rtapp_wl *wl = p->wl;
	char ref[RTAPP_NAME], mutex[RTAPP_NAME];
	int r;

	if (v->type != J_OBJ)
		return rp_refuse(p, key, "must be an object: { \"ref\": "
				 "CONDITION, \"mutex\": MUTEX }");
	r = only_members(p, key, v, members);
	if (!r)
		r = member_name(p, key, v, "ref", "unknown", ref);
	if (!r)
		r = member_name(p, key, v, "mutex", "unknown", mutex);
	if (r)
		return r;
	e->type = starts(k, "wait") ? RTE_WAIT : RTE_SYNC;
	e->res = rp_name_index(&wl->cond, &wl->ncond, ref);
	e->dep = rp_name_index(&wl->mutex, &wl->nmutex, mutex);
	return e->res < 0 || e->dep < 0 ? -ENOMEM : 0;
}

static int parse_event(struct rp *p, struct rtapp_task *t, const char *key,
		       const char *k, const struct jval *v,
		       struct rtapp_event *e)
{
	struct rtapp_wl *wl = p->wl;
	long long x = 0;
	int r;

	if (starts(k, "run") || starts(k, "sleep")) {
		r = rp_whole(p, key, v, 0, RTAPP_MAX_US, &x);
		e->ns = (uint64_t)x * NSEC_PER_USEC;
		e->type = starts(k, "sleep") ? RTE_SLEEP :
			  starts(k, "runtime") ? RTE_RUNTIME : RTE_RUN;
		return r;
	}
	if (starts(k, "mem") || starts(k, "iorun")) {
		r = rp_whole(p, key, v, 0, 1LL << 30, &x);
		e->bytes = (uint64_t)x;
		e->type = starts(k, "mem") ? RTE_MEM : RTE_IORUN;
		t->membuf = true;
		wl->io |= e->type == RTE_IORUN;
		return r;
	}
	if (starts(k, "lock") || starts(k, "unlock")) {
		e->type = starts(k, "lock") ? RTE_LOCK : RTE_UNLOCK;
		return resource(p, key, v, &wl->mutex, &wl->nmutex, &e->res);
	}
	if (starts(k, "signal") || starts(k, "broad")) {
		e->type = starts(k, "signal") ? RTE_SIGNAL : RTE_BROAD;
		return resource(p, key, v, &wl->cond, &wl->ncond, &e->res);
	}
	if (starts(k, "wait") || starts(k, "sync"))
		return parse_cond_wait(p, key, k, v, e);
	if (starts(k, "barrier")) {
		char name[RTAPP_NAME];
		int i;

		r = name_of(p, key, v, name);
		if (r)
			return r;
		for (i = 0; i < wl->nbarrier &&
		     strcmp(wl->barrier[i].name, name); i++)
			;
		if (i == wl->nbarrier) {
			void *m = realloc(wl->barrier, (size_t)(i + 1) *
					  sizeof(*wl->barrier));

			if (!m)
				return -ENOMEM;
			wl->barrier = m;
			memset(&wl->barrier[i], 0, sizeof(*wl->barrier));
			snprintf(wl->barrier[i].name, RTAPP_NAME, "%s", name);
			wl->nbarrier++;
		}
		/* every use is a user, each instance's too (as rt-app) */
		wl->barrier[i].users += t->instance;
		e->type = RTE_BARRIER;
		e->res = i;
		return 0;
	}
	if (starts(k, "timer"))
		return parse_timer(p, t, key, v, e);
	if (starts(k, "yield")) {
		e->type = RTE_YIELD;	/* its value is not read (rt-app) */
		return 0;
	}
	/* suspend, resume: the condition and the mutex of the name */
	e->type = starts(k, "suspend") ? RTE_SUSPEND : RTE_RESUME;
	r = resource(p, key, v, &wl->cond, &wl->ncond, &e->res);
	if (!r)
		r = resource(p, key, v, &wl->mutex, &wl->nmutex, &e->dep);
	return r;
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

		rp_key(key, sizeof(key), where, k);
		if (is_event(k)) {
			r = parse_event(p, t, key, k, &o->items[j],
					&ph->ev[ph->nev]);
			if (r)
				return r;
			ph->nev++;
			continue;
		}
		for (i = 0; allowed[i] && strcmp(k, allowed[i]); i++)
			;
		if (!allowed[i])
			return starts(k, "dl-") ?
			       rp_refuse(p, key, "a SCHED_DEADLINE parameter: "
					 "SCHED_DEADLINE is not run") :
			       outside(p, key);
	}
	if (!ph->nev)
		return rp_refuse(p, where, "no events: a thread must run, "
				 "sleep or wait for something");
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
	rp_key(key, sizeof(key), where, "loop");
	r = rp_whole(p, key, v, -1, 1000000000, &l);
	if (r)
		return r;
	if (!l)
		return rp_refuse(p, key, "must be -1 (for ever) or 1 or more");
	*loop = (long)l;
	return 0;
}

/* A phase's (or a thread without phases') cpus and taskgroup. */
static int phase_keys(struct rp *p, const char *where, const struct jval *o,
		      struct rtapp_phase *x)
{
	const struct jval *v;
	char key[256];
	int r = 0;

	x->loop = 1;
	x->tg = -1;
	r = parse_loop(p, where, o, &x->loop);
	if (!r && (v = json_get(o, "cpus"))) {
		rp_key(key, sizeof(key), where, "cpus");
		r = cpus_of(p, key, v, &x->cpus);
		x->has_cpus = !r;
	}
	if (!r && (v = json_get(o, "taskgroup"))) {
		rp_key(key, sizeof(key), where, "taskgroup");
		r = taskgroup_of(p, key, v, &x->tg);
	}
	return r;
}

static int parse_phases(struct rp *p, struct rtapp_task *t, const char *where,
			const struct jval *ph)
{
	static const char *const allowed[] = {
		"loop", "cpus", "taskgroup", NULL
	};
	char key[256];
	size_t j;
	int r;

	if (ph->type != J_OBJ || !ph->n)
		return rp_refuse(p, where, "must be an object of one or more "
				 "phases");
	t->phase = calloc(ph->n, sizeof(*t->phase));
	if (!t->phase)
		return -ENOMEM;
	for (j = 0; j < ph->n; j++) {
		struct rtapp_phase *x = &t->phase[t->nphase++];

		rp_key(key, sizeof(key), where, ph->keys[j]);
		if (ph->items[j].type != J_OBJ)
			return rp_refuse(p, key, "a phase must be an object");
		snprintf(x->name, sizeof(x->name), "%s", ph->keys[j]);
		r = phase_keys(p, key, &ph->items[j], x);
		if (!r)
			r = parse_events(p, t, key, &ph->items[j], x, allowed);
		if (r)
			return r;
	}
	return 0;
}

/* instance, policy, priority, delay, cpus and taskgroup of a thread. */
static int task_keys(struct rp *p, const char *where, const struct jval *o,
		     struct rtapp_task *t)
{
	const struct jval *v;
	char key[256];
	long long x = 0;
	int r = 0;

	if ((v = json_get(o, "instance"))) {
		rp_key(key, sizeof(key), where, "instance");
		r = rp_whole(p, key, v, 1, RTAPP_MAX_THREADS, &x);
		t->instance = (int)x;
	}
	if (!r && (v = json_get(o, "policy"))) {
		rp_key(key, sizeof(key), where, "policy");
		r = rp_policy(p, key, v, &t->policy);
	}
	t->prio = t->policy == POL_OTHER ? 0 : 10;	/* rt-app's defaults */
	if (!r && (v = json_get(o, "priority"))) {
		rp_key(key, sizeof(key), where, "priority");
		if (t->policy == POL_OTHER) {
			r = rp_whole(p, key, v, -20, 19, &x);
		} else {
			r = rp_whole(p, key, v, 1, 99, &x);
			/* never above interbench's own timing and parent */
			if (!r && x > PRIO_SIM)
				r = rp_refuse(p, key, "%lld is above %d, the "
					      "highest interbench gives a task "
					      "(its own threads run at %d and "
					      "%d)", x, PRIO_SIM, PRIO_SIM + 1,
					      PRIO_SIM + 2);
		}
		t->prio = (int)x;
	}
	if (!r && (v = json_get(o, "delay"))) {
		rp_key(key, sizeof(key), where, "delay");
		/* rt-app takes a negative delay as none */
		r = rp_whole(p, key, v, -RTAPP_MAX_US, RTAPP_MAX_US, &x);
		t->delay_ns = x > 0 ? (uint64_t)x * NSEC_PER_USEC : 0;
	}
	if (!r && (v = json_get(o, "cpus"))) {
		rp_key(key, sizeof(key), where, "cpus");
		r = cpus_of(p, key, v, &t->cpus);
		t->has_cpus = !r;
	}
	if (!r && (v = json_get(o, "taskgroup"))) {
		rp_key(key, sizeof(key), where, "taskgroup");
		r = taskgroup_of(p, key, v, &t->tg);
	}
	return r;
}

int rp_task(struct rp *p, const char *name, const struct jval *o,
		      int def_policy, struct rtapp_task *t)
{
	static const char *const allowed[] = {
		"instance", "policy", "priority", "loop", "delay", "cpus",
		"taskgroup", NULL
	};
	const struct jval *ph;
	char where[256], key[256];
	size_t j;
	int i, r;

	rp_key(where, sizeof(where), "tasks", name);
	if (o->type != J_OBJ)
		return rp_refuse(p, where, "a task must be an object");
	if (!name[0] || strlen(name) >= RTAPP_NAME || !rp_printable(name))
		return rp_refuse(p, "tasks", "a task's name must be 1 to %d "
				 "printable ASCII characters", RTAPP_NAME - 1);
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->instance = 1;
	t->policy = def_policy;
	t->tg = -1;
	r = task_keys(p, where, o, t);
	if (r)
		return r;
	t->loop = -1;
	ph = json_get(o, "phases");
	if (!ph) {
		/*
		 * Without "phases" the thread is one phase, and its "loop" is
		 * how often it runs (rt-app after 1.0 and its documentation;
		 * 1.0 itself went on for ever).
		 */
		t->phase = calloc(1, sizeof(*t->phase));
		if (!t->phase)
			return -ENOMEM;
		t->nphase = 1;
		t->phase[0].loop = 1;
		t->phase[0].tg = -1;
		r = parse_loop(p, where, o, &t->loop);
		return r ? r : parse_events(p, t, where, o, &t->phase[0],
					    allowed);
	}
	for (j = 0; j < o->n; j++) {
		const char *k = o->keys[j];

		rp_key(key, sizeof(key), where, k);
		if (is_event(k))
			return rp_refuse(p, key, "an event beside \"phases\" "
					 "(rt-app would ignore it): put it in "
					 "a phase");
		for (i = 0; allowed[i] && strcmp(k, allowed[i]); i++)
			;
		if (!allowed[i] && strcmp(k, "phases"))
			return starts(k, "dl-") ?
			       rp_refuse(p, key, "a SCHED_DEADLINE parameter: "
					 "SCHED_DEADLINE is not run") :
			       outside(p, key);
	}
	rp_key(key, sizeof(key), where, "phases");
	r = parse_loop(p, where, o, &t->loop);
	return r ? r : parse_phases(p, t, key, ph);
}

