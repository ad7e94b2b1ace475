// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/ring.c - the "Ring" load: a ring of threads passing one token
 * around, each waking the next: lots of wakeups and context switches,
 * little CPU.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include "loads/loads.h"
#include "lib/base.h"
#include "core/load.h"

#define RING_MIN	4
#define RING_BATCH	64	/* wakeups counted at once, per thread */

struct ring;

struct ring_node {
	sem_t sem;		/* posted when this node has the token */
	struct ring *ring;
	int id;
};

struct ring {
	struct load_work *work;
	_Atomic int err;	/* -errno once a thread has failed */
	int n;
	struct ring_node node[];
};

/* Pass the token around until something fails: -errno. */
static int ring_loop(struct ring_node *me)
{
	struct ring *r = me->ring;
	sem_t *next = &r->node[(me->id + 1) % r->n].sem;
	uint64_t woken = 0;
	int err;

	for (;;) {
		struct timespec ts = load_realtime_in(NSEC_PER_SEC);

		if (sem_timedwait(&me->sem, &ts)) {
			err = errno;
			if (err != ETIMEDOUT && err != EINTR)
				break;
			/* The token is slow (or lost with a dead thread). */
			work_add(r->work, WORK_RING_WAKEUPS, woken);
			woken = 0;
			err = atomic_load(&r->err);
			if (err)
				return err;
			continue;
		}
		if (sem_post(next)) {
			err = errno;
			break;
		}
		if (++woken == RING_BATCH) {
			work_add(r->work, WORK_RING_WAKEUPS, woken);
			woken = 0;
		}
	}
	load_fail(r->work, err, "ring semaphore: %s", strerror(err));
	atomic_store(&r->err, -err);
	return -err;
}

static void *ring_thread(void *arg)
{
	ring_loop(arg);
	return NULL;
}

static int ring_run(struct load_ctx *c)
{
	int n = 2 * c->cfg->cpus, i, err;
	struct ring *r;
	pthread_t tid;

	if (n < RING_MIN)
		n = RING_MIN;
	/* Never freed: on failure other threads may still be using it. */
	r = calloc(1, sizeof(*r) + (size_t)n * sizeof(r->node[0]));
	if (!r) {
		load_fail(c->work, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	r->work = c->work;
	r->n = n;
	for (i = 0; i < n; i++) {
		r->node[i].ring = r;
		r->node[i].id = i;
		if (sem_init(&r->node[i].sem, 0, 0)) {
			err = errno;
			load_fail(c->work, err, "sem_init: %s", strerror(err));
			return -err;
		}
	}
	/* This thread is node 0; it starts the token once all are up. */
	for (i = 1; i < n; i++) {
		err = pthread_create(&tid, NULL, ring_thread, &r->node[i]);
		if (err) {
			load_fail(c->work, err, "cannot start a thread: %s",
				  strerror(err));
			atomic_store(&r->err, -err);
			return -err;
		}
		pthread_detach(tid);
	}
	if (sem_post(&r->node[1].sem)) {
		err = errno;
		load_fail(c->work, err, "sem_post: %s", strerror(err));
		return -err;
	}
	return ring_loop(&r->node[0]);
}

const struct load_desc load_ring = {
	.name = "Ring",
	.summary = "a ring of threads waking each other in turn",
	.run = ring_run,
};
