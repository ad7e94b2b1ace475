// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan/late.c - --on-late's rules read from the command line: a task and
 * a bound ("audio>5ms", "video>deadline", "any>800us"), then what to do
 * ("save,shell=CMD", "signal=USR1,pid=42", "stop", "continue"). Anything
 * it cannot read is one line, before anything runs.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "plan/plan.h"
#include "simulators/simulators.h"

static const struct { const char *name; int sig; } sig_names[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },
	{ "ALRM", SIGALRM }, { "TERM", SIGTERM }, { "CONT", SIGCONT },
	{ "STOP", SIGSTOP }, { "TSTP", SIGTSTP }, { "WINCH", SIGWINCH },
};

const char *plan_late_action(unsigned bit)
{
	switch (bit) {
	case LATE_SAVE:
		return "save";
	case LATE_SHELL:
		return "shell";
	case LATE_SIGNAL:
		return "signal";
	case LATE_STOP:
		return "stop";
	}
	return "continue";
}

/* "5ms", "800us", "0.5s", "800" (us): ns, or 0 if it cannot be read. */
static uint64_t read_bound(const char *s)
{
	double v, scale = NSEC_PER_USEC;
	char *end;

	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v <= 0)
		return 0;
	if (!strcmp(end, "ms"))
		scale = NSEC_PER_MSEC;
	else if (!strcmp(end, "s"))
		scale = NSEC_PER_SEC;
	else if (*end && strcmp(end, "us"))
		return 0;
	v *= scale;
	return v >= 1 && v < 3600.0 * NSEC_PER_SEC ? (uint64_t)v : 0;
}

/* "USR1", "SIGUSR1", "10": the signal, or 0. */
static int read_signal(const char *s)
{
	char *end;
	size_t i;
	long v;

	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (i = 0; i < sizeof(sig_names) / sizeof(sig_names[0]); i++)
		if (!strcasecmp(s, sig_names[i].name))
			return sig_names[i].sig;
	v = strtol(s, &end, 10);
	return end != s && !*end && v > 0 && v < NSIG ? (int)v : 0;
}

/* "audio>5ms": the task and the bound into r. */
static int read_expr(struct late_rule *r, char *expr, char *err, size_t n)
{
	char *gt = strchr(expr, '>');
	int i;

	if (!gt) {
		snprintf(err, n, "'%s': TASK>BOUND, e.g. "
			 "audio>5ms, before the ':'", r->text);
		return -EINVAL;
	}
	*gt = '\0';
	for (i = 0; simulators[i]; i++)
		if (!strcasecmp(simulators[i]->name, expr))
			r->sim = simulators[i];
	if (!r->sim && strcasecmp(expr, "any")) {
		snprintf(err, n, "'%s': no task '%s' "
			 "(interbench --list names them; or any)", r->text,
			 expr);
		return -EINVAL;
	}
	if (!strcasecmp(gt + 1, "deadline")) {
		if (r->sim && !(r->sim->flags & SIM_DEADLINES)) {
			snprintf(err, n, "'%s': %s has no "
				 "deadline", r->text, r->sim->name);
			return -EINVAL;
		}
		return 0;
	}
	r->bound_ns = read_bound(gt + 1);
	if (!r->bound_ns) {
		snprintf(err, n, "'%s': cannot read the "
			 "bound '%s' (e.g. 5ms, 800us, 0.5s, deadline)",
			 r->text, gt + 1);
		return -EINVAL;
	}
	return 0;
}

/* One action, a; next is the one after it (signal's pid=). */
static int read_action(struct late_rule *r, char *a, char **rest,
		       char *err, size_t n)
{
	char *eq = strchr(a, '='), *next;
	static const char *const bare[] = { "save", "stop", "continue" };
	static const unsigned bits[] = { LATE_SAVE, LATE_STOP, LATE_CONTINUE };
	size_t i;

	for (i = 0; !eq && i < 3; i++)
		if (!strcmp(a, bare[i])) {
			r->actions |= bits[i];
			return 0;
		}
	if (!eq && (!strcmp(a, "shell") || !strcmp(a, "signal"))) {
		snprintf(err, n, "'%s': %s needs its "
			 "argument (%s)", r->text, a, a[1] == 'h' ?
			 "shell=CMD" : "signal=SIG,pid=PID");
		return -EINVAL;
	}
	if (!eq || (strncmp(a, "shell=", 6) && strncmp(a, "signal=", 7))) {
		snprintf(err, n, "'%s': no action '%s' "
			 "(save, shell=CMD, signal=SIG,pid=PID, stop, "
			 "continue)", r->text, a);
		return -EINVAL;
	}
	if (!eq[1]) {
		snprintf(err, n, "'%s': %s with nothing "
			 "after the '='", r->text, a);
		return -EINVAL;
	}
	if (a[1] == 'h') {
		/* shell= takes the rest, commas and all */
		r->actions |= LATE_SHELL;
		r->cmd = eq + 1;
		*rest = NULL;
		return 0;
	}
	r->sig = read_signal(eq + 1);
	next = *rest;
	if (!r->sig) {
		snprintf(err, n, "'%s': no signal '%s'",
			 r->text, eq + 1);
		return -EINVAL;
	}
	if (!next || strncmp(next, "pid=", 4) || atoi(next + 4) <= 0) {
		snprintf(err, n, "'%s': signal=SIG needs "
			 ",pid=PID after it (a pid > 0)", r->text);
		return -EINVAL;
	}
	*rest = strchr(next, ',');
	if (*rest)
		*(*rest)++ = '\0';
	r->pid = atoi(next + 4);
	r->actions |= LATE_SIGNAL;
	return 0;
}

int plan_late_add(void *base, const char *val, char *err, size_t n)
{
	struct plan *p = base;
	struct late_rule *r = &p->late[p->nlate];
	char *s, *colon, *a, *rest;
	int e = 0;

	if (p->nlate == LATE_RULES) {
		snprintf(err, n, "at most %d", LATE_RULES);
		return -EINVAL;
	}
	memset(r, 0, sizeof(*r));
	r->text = val;
	s = strdup(val);	/* its pieces live as long as the plan */
	if (!s)
		return -ENOMEM;
	colon = strchr(s, ':');
	if (colon)
		*colon = '\0';
	e = read_expr(r, s, err, n);
	if (!e && (!colon || !colon[1])) {
		snprintf(err, n, "'%s': EXPR:ACTION, e.g. "
			 "audio>5ms:save", val);
		e = -EINVAL;
	}
	for (rest = e ? NULL : colon + 1; !e && rest;) {
		a = rest;
		rest = strchr(a, ',');
		if (rest)
			*rest++ = '\0';
		e = read_action(r, a, &rest, err, n);
	}
	if (e) {
		free(s);
		return e;
	}
	r->buf = s;
	p->nlate++;
	return 0;
}

bool plan_late_holds(const struct late_rule *r, const struct sim_desc *sim,
		     uint64_t latency_ns, uint64_t period_ns)
{
	uint64_t b = r->bound_ns ? r->bound_ns : period_ns;

	if (r->sim && r->sim != sim)
		return false;
	return b && latency_ns > b;
}

bool plan_late_bound(const struct plan *p, const struct sim_desc *sim,
		     uint64_t *ns, bool *period)
{
	bool any = false;
	int i;

	*ns = UINT64_MAX;
	*period = false;
	for (i = 0; i < p->nlate; i++) {
		const struct late_rule *r = &p->late[i];

		if (r->sim && r->sim != sim)
			continue;
		any = true;
		if (!r->bound_ns)
			*period = true;
		else if (r->bound_ns < *ns)
			*ns = r->bound_ns;
	}
	return any;
}
