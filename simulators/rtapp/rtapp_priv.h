/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/rtapp/rtapp_priv.h - what the RtApp reader's parts share:
 * rtapp_parse.c (the messages, each key into plain data), rtapp_check.c
 * (the workload as a whole, and the machine it is to run on) and
 * rtapp_file.c (the top level). Plain declarations, each said with the
 * file that defines it, which comes before its callers in the folder's
 * order (rtapp.h). Private.
 */
#ifndef INTERBENCH_RTAPP_PRIV_H
#define INTERBENCH_RTAPP_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/json.h"
#include "simulators/rtapp/rtapp.h"

/* What reading needs at hand: the file's name, the message buffer. */
struct rp {
	const char *name;
	char *err;
	size_t n;
	struct rtapp_wl *wl;
};

/* The messages (rtapp_parse.c). */
/* One line "FILE: KEY: WHY" in p->err (controls shown as '?'): -EINVAL. */
__attribute__((format(printf, 3, 4)))
int rp_refuse(struct rp *p, const char *key, const char *fmt, ...);
/* "parent.key" into buf (cut to n: it is only for messages). */
void rp_key(char *buf, size_t n, const char *parent, const char *key);
/* A note, for a key rt-app ignores: said before the run. */
__attribute__((format(printf, 3, 4)))
void rp_note(struct rp *p, const char *key, const char *fmt, ...);
/* The index of name in the list of *n names, added if new; -ENOMEM. */
int rp_name_index(char (**names)[RTAPP_NAME], int *n, const char *name);

/* Values (rtapp_parse.c): a whole number in [lo, hi], or refused. */
int rp_whole(struct rp *p, const char *key, const struct jval *v,
	     long long lo, long long hi, long long *out);
/* Printable ASCII: names reach the terminal and the thread's comm. */
bool rp_printable(const char *s);
/* "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR": the enum sched_pol. */
int rp_policy(struct rp *p, const char *key, const struct jval *v, int *pol);
/* The task name, object o, into t (rtapp_parse.c): 0 or refused. */
int rp_task(struct rp *p, const char *name, const struct jval *o,
	    int def_policy, struct rtapp_task *t);

/* The workload whole, every key read (rtapp_check.c): 0 or refused. */
int rtapp_check(struct rp *p);

#endif
