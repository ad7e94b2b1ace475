// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/load.c - the kinds of work loads count, and how a load records
 * its failure: the parts of the load's contract that are data or touch
 * only struct load_work.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include "core/load.h"

/* What loads count, with the unit the tables show it in. */
const struct work_unit work_units[WORK_KINDS] = {
	[WORK_BURN_LOOPS]	= { "burn_loops", "Mloops/s", 1e6 },
	[WORK_BYTES_WRITTEN]	= { "bytes_written", "MB/s written", 1e6 },
	[WORK_BYTES_READ]	= { "bytes_read", "MB/s read", 1e6 },
	[WORK_RING_WAKEUPS]	= { "ring_wakeups", "wakeups/s", 1 },
	[WORK_HACK_MESSAGES]	= { "hack_messages", "messages/s", 1 },
	[WORK_MEM_BYTES]	= { "mem_bytes", "MB/s touched", 1e6 },
	[WORK_FRAMES]		= { "frames", "frames/s", 1 },
	[WORK_NET_PACKETS]	= { "net_packets", "UDP datagrams/s", 1 },
	[WORK_NET_BYTES]	= { "net_bytes", "MB/s received", 1e6 },
	[WORK_FORKS]		= { "forks", "forks/s", 1 },
};

/*
 * The last byte of why is never part of the message (vsnprintf is given
 * one byte less), so it can be the claim: whoever flips it from 0 to 1
 * first writes why, then publishes failed. The parent therefore never
 * sees failed set with why half written, and needs no extra field.
 */
void load_fail(struct load_work *w, int err, const char *fmt, ...)
{
	char *claim = &w->why[sizeof(w->why) - 1];
	char unclaimed = 0;
	va_list ap;

	/* Callers pass an errno; accept it negated too, never store 0. */
	if (err < 0)
		err = -err;
	if (!err)
		err = EIO;
	if (atomic_load_explicit(&w->failed, memory_order_acquire))
		return;
	if (!__atomic_compare_exchange_n(claim, &unclaimed, 1, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	va_start(ap, fmt);
	vsnprintf(w->why, sizeof(w->why) - 1, fmt, ap);
	va_end(ap);
	atomic_store_explicit(&w->failed, -err, memory_order_release);
}

const char *const load_group_names[] = { "same", "session", "cgroup", NULL };
