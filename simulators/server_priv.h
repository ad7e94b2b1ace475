/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/server_priv.h - what the Server's two files share, for them
 * only: its limits and options (server.c: the options, figures and
 * detail; server_run.c: the requests).
 */
#ifndef INTERBENCH_SERVER_PRIV_H
#define INTERBENCH_SERVER_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/base.h"
#include "core/sim.h"

#define SERVER_MAX_THREADS	64
#define SERVER_MAX_WORKERS	1024	/* per message thread */
#define SERVER_MAX_TOTAL	4096	/* workers in all */
/*
 * Workers need little stack, and the benchmark may run with all its
 * memory locked: 8 MiB default stacks would be 8 GiB for 1024 workers.
 */
#define SERVER_STACK		(64 * 1024)
/* Time allowed for the threads to start, before the run begins. */
#define SERVER_START_NS		(10 * NSEC_PER_SEC)

struct server_opts {
	int threads;		/* message threads */
	int workers;		/* per message thread; 0: server_workers() */
	int cpus;		/* online, for the workers' default */
	int footprint_kb;	/* of one worker's three matrices */
	int ops;		/* matrix multiplications per request */
	bool lock;		/* --server-lock: the default anyway */
	bool no_lock;		/* --server-no-lock (schbench -L) */
	int rps;		/* --server-rps: requests a second, or 0 */
	int sleep_us;		/* the sleep at a request's start */
	int budget_us;		/* request deadline */
};

/* Workers per message thread (--server-workers, or the CPUs shared out). */
int server_workers(const struct server_opts *o);
/* Side of the square matrices: three of them fill the footprint. */
size_t server_matrix_dim(int footprint_kb);
/* The run: sim_server's .run. */
int server_run(struct sim_ctx *c);

#endif
