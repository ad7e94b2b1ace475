/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/rtapp/rtapp.h - rt-app workloads: a file in rt-app's grammar
 * (what workgen reads: rtapp_read.c) checked into plain data
 * (rtapp_parse.c, rtapp_check.c), run by the RtApp simulator (rtapp.c,
 * rtapp_run.c) as a task (-W rtapp:FILE) or a load (-w rtapp:FILE).
 *
 * The folder's files are in one order, and a file calls only files
 * before it (through rtapp_read.h, rtapp_priv.h, rtapp_sim.h: plain
 * declarations), never one after it, so there is no circle
 * (tests/t0015-layout.sh checks it on the objects):
 *
 *   rtapp_read.c     the text, as workgen reads it, into a JSON tree
 *   rtapp_parse.c    the messages; values, tasks, phases, events
 *   rtapp_check.c    the workload whole, and the machine
 *   rtapp_file.c     the file: read, its top level parsed, checked
 *   rtapp_event.c    each event, as rt-app 1.0 runs it
 *   rtapp_collect.c  the threads added up into the result
 *   rtapp_run.c      the run: the threads, their CPUs and taskgroups
 *   rtapp.c          the figures, the detail, the descriptor
 *
 * What rt-app 1.0 reads is read: tasks, instance, loop, policy and
 * priority, cpus, delay, taskgroup, phases, every event (run, runtime,
 * sleep, timer, barrier, suspend, resume, lock, unlock, wait, signal,
 * broad, sync, mem, iorun, yield), the resources section and the global
 * keys. What interbench cannot do as rt-app does is refused in one line
 * naming the file, the key and why, before anything runs
 * (doc/rtapp.txt, "Refused, with the reason").
 */
#ifndef INTERBENCH_RTAPP_H
#define INTERBENCH_RTAPP_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/sim.h"

#define RTAPP_NAME		32	/* task, resource and phase names */
#define RTAPP_MAX_THREADS	64	/* threads, instances counted */
#define RTAPP_MAX_FILE		(1024 * 1024)	/* bytes of JSON */
/* The longest run, runtime, sleep, delay or timer period: an hour, in us. */
#define RTAPP_MAX_US		3600000000LL
#define RTAPP_MAX_TIMERS	16	/* timer names in one task */
#define RTAPP_MAX_NOTES		8	/* keys ignored, said before the run */
#define RTAPP_NOTE		160
#define RTAPP_PATH		256	/* io_device, a taskgroup's path */
#define RTAPP_MAX_HELD		8	/* mutexes a thread holds at once */
/* mem_buffer_size: rt-app's default, and the most a thread may have. */
#define RTAPP_MEMBUF_DEFAULT	(4 * 1024 * 1024)
#define RTAPP_MEMBUF_MAX	(256 * 1024 * 1024)

enum rtapp_ev {
	RTE_RUN,		/* calibrated CPU work: a count of loops */
	RTE_RUNTIME,		/* busy for a wall-clock time */
	RTE_SLEEP,		/* sleep a time, from now */
	RTE_TIMER,		/* sleep to the timer's next expiry */
	RTE_BARRIER,		/* wait until every user has come */
	RTE_SUSPEND,		/* lock, wait on the name's condition, unlock */
	RTE_RESUME,		/* lock, wake all waiting on it, unlock */
	RTE_LOCK,		/* a mutex */
	RTE_UNLOCK,
	RTE_WAIT,		/* on a condition, with its mutex held */
	RTE_SIGNAL,		/* wake the first waiting on a condition */
	RTE_BROAD,		/* wake all of them */
	RTE_SYNC,		/* signal, then wait, at once */
	RTE_MEM,		/* write bytes of the thread's buffer */
	RTE_IORUN,		/* write bytes of it to io_device */
	RTE_YIELD,		/* sched_yield() */
};

struct rtapp_event {
	enum rtapp_ev type;
	uint64_t ns;		/* run, runtime, sleep; timer: its period */
	uint64_t bytes;		/* mem, iorun */
	/*
	 * timer: the thread's timer (rtapp_task.timer_abs); barrier: the
	 * workload's barrier; suspend, resume, wait, signal, broad, sync:
	 * the condition (rtapp_wl.cond); lock, unlock: the mutex.
	 */
	int res;
	int dep;		/* suspend, resume, wait, sync: the mutex */
};

struct rtapp_phase {
	char name[RTAPP_NAME];	/* "" for a thread without phases */
	long loop;		/* times in a row; -1: for ever */
	int nev;
	struct rtapp_event *ev;	/* in the file's order */
	bool has_cpus;		/* else the thread's */
	cpu_set_t cpus;
	int tg;			/* taskgroup (rtapp_wl.tg), -1: the thread's */
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
	char timer_ref[RTAPP_MAX_TIMERS][RTAPP_NAME];	/* as the file says */
	bool timer_abs[RTAPP_MAX_TIMERS];	/* mode absolute, by timer */
	bool periodic;		/* has a timer event with a period */
	bool woken;		/* waits for another thread to wake it */
	bool has_cpus;		/* else every CPU interbench may use */
	cpu_set_t cpus;
	uint64_t delay_ns;	/* before its first event */
	int tg;			/* taskgroup, -1: none */
	bool membuf;		/* mem or iorun: a buffer of its own */
	/* CPUs it asks for, from its runs and what paces them; < 0: unknown */
	double demand;
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
	/* rt-app's resources by kind, named as the file names them */
	int ncond;		/* conditions: suspend, wait, signal, ... */
	char (*cond)[RTAPP_NAME];
	int nmutex;		/* mutexes: lock, and suspend's and resume's */
	char (*mutex)[RTAPP_NAME];
	int ntg;		/* taskgroups: paths under the cpu controller */
	char (*tg)[RTAPP_PATH];
	bool pi;		/* global pi_enabled: their mutexes inherit */
	uint64_t membuf;	/* global mem_buffer_size, bytes */
	char io_device[RTAPP_PATH];	/* global io_device */
	bool io;		/* an iorun event: io_device is written */
	double demand;		/* CPUs asked, of the threads that say */
	bool demand_partial;	/* some threads' pace is another's */
	int nnote;		/* keys rt-app ignores, ignored too */
	char note[RTAPP_MAX_NOTES][RTAPP_NOTE];
};

/*
 * Read and check the rt-app file at path: 0 and *out (free with
 * rtapp_free), or -errno with one line in err naming the file and the
 * key ("x.json: tasks.t0.cpus: ..."): -EINVAL for what interbench cannot
 * run or malformed input, or the error reading it. The CPUs its threads
 * name must be among those this process may run on.
 */
int rtapp_parse(const char *path, struct rtapp_wl **out, char *err,
		size_t n);
/* The same for len bytes of text; name stands for the file in messages. */
int rtapp_parse_text(const char *text, size_t len, const char *name,
		     struct rtapp_wl **out, char *err, size_t n);
void rtapp_free(struct rtapp_wl *wl);

/*
 * The RtApp simulator's own option block (sim_ctx.opts, the plan's
 * block of it): the files -W rtapp:FILE and -w rtapp:FILE named, read
 * and checked by the command line at option time, or NULL. It has no
 * option table: the file is the option. The run takes the task's, or as
 * a load (loads/simulator.c) the load's.
 */
struct rtapp_opts {
	const struct rtapp_wl *task, *load;
};
/*
 * Read and check the file at path (rtapp_parse()) into the block, as the
 * task's or, with load, the load's: 0 with *ident (the file's name, size
 * and checksum, for the settings), or -errno with one line in err; one
 * file of each per run. rtapp_file.c, as the two below.
 */
int rtapp_opts_read(void *opts, const char *path, bool load,
		    const char **ident, char *err, size_t n);
/* Every CPU the block's files name is in allowed (rtapp_check_cpus()). */
int rtapp_opts_check_cpus(const void *opts, const cpu_set_t *allowed,
			  const char *why, char *err, size_t n);
/* Free the files a block holds: sim_rtapp's opts_free. */
void rtapp_opts_free(void *opts);

/*
 * Every CPU the workload names is in allowed: 0, or -EINVAL with one
 * line naming the key and the CPU, and why (e.g. "-u runs everything on
 * CPU 0").
 */
int rtapp_check_cpus(const struct rtapp_wl *wl, const cpu_set_t *allowed,
		     const char *why, char *err, size_t n);

/* How many of the CPUs in allowed the workload's threads may run on. */
int rtapp_ncpus(const struct rtapp_wl *wl, const cpu_set_t *allowed);

#endif
