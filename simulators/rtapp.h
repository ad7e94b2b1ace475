/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/rtapp.h - rt-app workloads: a JSON file in rt-app's format
 * read into plain data (rtapp_parse.c), run by the RtApp simulator
 * (rtapp.c) as a task (-W rtapp:FILE) or a load (-w rtapp:FILE).
 *
 * Only the subset interbench runs as rt-app does is read: tasks,
 * instance, loop, policy and priority, phases, and the events run,
 * runtime, sleep, timer (ref, period, mode), barrier, suspend and resume;
 * of "global", the keys that do not change what the threads do. Anything
 * else is refused in one line naming the file and the key, before
 * anything runs (README: rt-app workloads).
 */
#ifndef INTERBENCH_RTAPP_H
#define INTERBENCH_RTAPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/sim.h"

#define RTAPP_NAME		32	/* task, resource and phase names */
#define RTAPP_MAX_THREADS	64	/* threads, instances counted */
#define RTAPP_MAX_FILE		(1024 * 1024)	/* bytes of JSON */
/* The longest run, runtime, sleep or timer period: an hour, in us. */
#define RTAPP_MAX_US		3600000000LL
#define RTAPP_MAX_TIMERS	16	/* timer names in one task */

enum rtapp_ev {
	RTE_RUN,		/* calibrated CPU work: a count of loops */
	RTE_RUNTIME,		/* busy for a wall-clock time */
	RTE_SLEEP,		/* sleep a time, from now */
	RTE_TIMER,		/* sleep to the timer's next expiry */
	RTE_BARRIER,		/* wait until every user has come */
	RTE_SUSPEND,		/* wait for a resume of its name */
	RTE_RESUME,		/* wake whoever is suspended on a name */
};

struct rtapp_event {
	enum rtapp_ev type;
	uint64_t ns;		/* run, runtime, sleep; timer: its period */
	/*
	 * timer: the thread's timer (rtapp_task.timer_abs); barrier: the
	 * workload's barrier; suspend, resume: the workload's wait name.
	 */
	int res;
};

struct rtapp_phase {
	long loop;		/* times in a row; -1: for ever */
	int nev;
	struct rtapp_event *ev;	/* in the file's order */
};

struct rtapp_task {
	char name[RTAPP_NAME];
	int instance;		/* threads made from it */
	int policy;		/* enum sched_pol: other, fifo or rr */
	int prio;		/* other: nice; fifo, rr: 1 to PRIO_SIM */
	long loop;		/* passes over the phases; -1: for ever */
	int nphase;
	struct rtapp_phase *phase;
	int ntimer;		/* its timers (each thread has its own) */
	bool timer_abs[RTAPP_MAX_TIMERS];	/* mode absolute, by timer */
	bool periodic;		/* has a timer event */
};

/* A barrier: as rt-app, every use of its name counts one user. */
struct rtapp_barrier {
	char name[RTAPP_NAME];
	int users;
};

struct rtapp_wl {
	char path[512];		/* as given */
	char file[64];		/* its last part, for notes */
	uint64_t bytes;		/* the file's size */
	uint32_t fnv;		/* FNV-1a of its bytes */
	/* "FILE (N bytes, fnv1a XXXXXXXX)": the settings' record */
	char ident[640];
	int ntask;
	struct rtapp_task *task;
	int nthreads;		/* instances added up */
	int nperiodic;		/* of them, threads with a timer */
	int nbarrier;
	struct rtapp_barrier *barrier;
	int nwait;		/* names suspended on and resumed */
	char (*wait)[RTAPP_NAME];
	bool pi;		/* global pi_enabled: their mutexes inherit */
};

/*
 * Read and check the rt-app file at path: 0 and *out (free with
 * rtapp_free), or -errno with one line in err naming the file and the
 * key ("x.json: tasks.t0.cpus: ..."): -EINVAL outside the subset or
 * malformed, or the error reading it.
 */
int rtapp_parse(const char *path, struct rtapp_wl **out, char *err,
		size_t n);
/* The same for len bytes of text; name stands for the file in messages. */
int rtapp_parse_text(const char *text, size_t len, const char *name,
		     struct rtapp_wl **out, char *err, size_t n);
void rtapp_free(struct rtapp_wl *wl);

/* The simulator that runs them (rtapp.c). */
extern const struct sim_desc sim_rtapp;

#endif
