// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/burn.c - the "Burn" load: -L threads spinning on the CPU,
 * doing nothing but the calibrated loop.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "loads/loads.h"
#include "lib/cpuwork.h"
#include "core/load.h"

/* When the loop is not calibrated (tests): about 1 ms on a modern CPU. */
#define BURN_DEFAULT_CHUNK	100000

struct burn {
	struct load_work *work;
	uint64_t chunk;		/* loops between counts: about 1 ms */
};

static void *burn_thread(void *arg)
{
	const struct burn *b = arg;

	for (;;) {
		burn_loops(b->chunk);
		work_add(b->work, WORK_BURN_LOOPS, b->chunk);
	}
	return NULL;
}

static int burn_run(struct load_ctx *c)
{
	int threads = c->cfg->load_threads > 0 ? c->cfg->load_threads : 1;
	struct burn *b;
	pthread_t tid;
	int i, err;

	/*
	 * On the heap and never freed: if starting a thread fails we
	 * return while the others still read it.
	 */
	b = malloc(sizeof(*b));
	if (!b) {
		load_fail(c->work, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	b->work = c->work;
	b->chunk = c->cfg->loops_per_ms ? c->cfg->loops_per_ms :
		   BURN_DEFAULT_CHUNK;
	/* This thread is the last burner; the others are started first. */
	for (i = 1; i < threads; i++) {
		err = pthread_create(&tid, NULL, burn_thread, b);
		if (err) {
			load_fail(c->work, err, "cannot start a thread: %s",
				  strerror(err));
			return -err;
		}
		pthread_detach(tid);
	}
	burn_thread(b);
	return -EIO;
}

const struct load_desc load_burn = {
	.name = "Burn",
	.summary = "-L threads burning CPU",
	.run = burn_run,
};
