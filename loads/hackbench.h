/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loads/hackbench.h - the Hack load's engine (hackbench.c, at the top).
 */
#ifndef INTERBENCH_HACKBENCH_H
#define INTERBENCH_HACKBENCH_H

#include "core/load.h"

struct hack_cfg {
	int groups;		/* groups of senders and receivers */
	int fds;		/* senders (and receivers) per group */
	unsigned msg_bytes;	/* bytes per message */
};

/* Size a hackbench to the machine (cpus online). */
void hackbench_size(struct hack_cfg *h, int cpus);
/*
 * Run hackbench rounds until the process is killed, counting every
 * message received in w. Returns only on failure (-errno, why set).
 * No read or write blocks for more than a second, so it cannot hang.
 */
int hackbench_run(const struct hack_cfg *h, struct load_work *w);

#endif
