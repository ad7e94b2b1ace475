/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan/late.h - --on-late EXPR:ACTION[,ACTION...]: what to do about a
 * frame later than a bound, as the options give it (late.c parses it and
 * says which bound a cell's frames are kept against); run/onlate.c acts.
 */
#ifndef INTERBENCH_LATE_H
#define INTERBENCH_LATE_H

#include <stdbool.h>
#include <stdint.h>
#include "core/sim.h"

#define LATE_RULES	8	/* --on-late given at most */
#define LATE_MAX_DEFAULT 20	/* --on-late-max: frames acted on a run */

/* What a rule does, in this order. */
#define LATE_SAVE	0x1	/* the trace's window around the frame */
#define LATE_SHELL	0x2	/* /bin/sh -c CMD, the frame's figures in
				   its environment */
#define LATE_SIGNAL	0x4	/* kill(pid, sig) */
#define LATE_STOP	0x8	/* end the run (exit status 5) */
#define LATE_CONTINUE	0x10	/* say it and go on (the default) */

struct late_rule {
	const char *text;		/* as given, for messages */
	const struct sim_desc *sim;	/* NULL: any task */
	uint64_t bound_ns;		/* 0: the task's period (deadline) */
	unsigned actions;
	const char *cmd;		/* LATE_SHELL's */
	int sig, pid;			/* LATE_SIGNAL's */
	char *buf;			/* the pieces, freed with the plan */
};

struct plan;

/* --on-late's OT_CALL: one rule into the plan, or -EINVAL and why. */
int plan_late_add(void *base, const char *val, char *err, size_t n);
/*
 * The bound a cell of sim keeps late frames against: the least of the
 * rules' for it, fixed (*ns, UINT64_MAX: none) and whether a rule's is
 * the task's period (*period). false: no rule is for sim.
 */
bool plan_late_bound(const struct plan *p, const struct sim_desc *sim,
		     uint64_t *ns, bool *period);
/* Does rule r hold for a frame of sim this late (period: the task's)? */
bool plan_late_holds(const struct late_rule *r, const struct sim_desc *sim,
		     uint64_t latency_ns, uint64_t period_ns);
/* The words of an action bit, e.g. "save". */
const char *plan_late_action(unsigned bit);

#endif
