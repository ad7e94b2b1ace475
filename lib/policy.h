/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/policy.h - how the benchmarked tasks and the loads are scheduled:
 * --bench-policy, --bench-slice, --load-policy (and -r, which is fifo).
 */
#ifndef INTERBENCH_POLICY_H
#define INTERBENCH_POLICY_H

#include <stdbool.h>
#include <stdint.h>

/* In the order of their names (policy_names[]). */
enum sched_pol {
	POL_OTHER,
	POL_BATCH,
	POL_IDLE,
	POL_FIFO,
	POL_RR,
	POL_DEADLINE,
	POL_COUNT
};

extern const char *const policy_names[];	/* NULL-ended */
extern const char *const load_policy_names[];	/* other, batch, idle */

/* Real-time classes: the figures are in microseconds, as with -r. */
static inline bool policy_rt(int pol)
{
	return pol == POL_FIFO || pol == POL_RR || pol == POL_DEADLINE;
}

/* The fair classes, where an EEVDF slice request means something. */
static inline bool policy_fair(int pol)
{
	return pol == POL_OTHER || pol == POL_BATCH;
}

/* What a thread asks for (policy_set) and what it got (policy_get). */
struct sched_want {
	int policy;		/* enum sched_pol */
	int nice;		/* other, batch */
	int prio;		/* fifo, rr: 1-99 */
	uint64_t slice_ns;	/* other, batch: 0 for the kernel's own */
	uint64_t runtime_ns;	/* deadline */
	uint64_t period_ns;	/* deadline: also its deadline */
};

/* "SCHED_OTHER", "SCHED_DEADLINE", ... */
const char *policy_kernel_name(int pol);

/* The calling thread (not the process): 0 or -errno. */
int policy_set(const struct sched_want *w);
int policy_get(struct sched_want *got);

/*
 * SCHED_DEADLINE's runtime for a periodic task whose frames need at
 * most peak_ns of CPU every period_ns: the peak and a margin of an
 * eighth (burn calibration, the frame's own bookkeeping), at most the
 * whole period (the kernel requires runtime <= deadline <= period).
 */
uint64_t policy_dl_runtime(uint64_t peak_ns, uint64_t period_ns);

/*
 * Try w on a throwaway thread, before anything starts: 0, or -errno
 * with why (one line) in err. A slice is read back: a kernel without
 * EEVDF slice requests takes sched_runtime and ignores it.
 */
int policy_probe(const struct sched_want *w, char *err, size_t n);

#endif
