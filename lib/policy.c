// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/policy.c - scheduling classes for the benchmarked tasks and the loads,
 * through sched_setattr(2): the one call that sets every class,
 * including SCHED_DEADLINE's parameters and the EEVDF slice request
 * (sched_runtime of a fair task, Linux 6.12 on).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "lib/policy.h"

#ifndef SCHED_BATCH
#define SCHED_BATCH	3
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE	5
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

const char *const policy_names[] = {
	"other", "batch", "idle", "fifo", "rr", "deadline", NULL
};
const char *const load_policy_names[] = { "other", "batch", "idle", NULL };

/* The kernel's; glibc before 2.41 has no declaration of its own. */
struct ib_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static const int kernel_policy[POL_COUNT] = {
	[POL_OTHER] = SCHED_OTHER, [POL_BATCH] = SCHED_BATCH,
	[POL_IDLE] = SCHED_IDLE, [POL_FIFO] = SCHED_FIFO,
	[POL_RR] = SCHED_RR, [POL_DEADLINE] = SCHED_DEADLINE,
};

const char *policy_kernel_name(int pol)
{
	static const char *const names[POL_COUNT] = {
		"SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE", "SCHED_FIFO",
		"SCHED_RR", "SCHED_DEADLINE",
	};

	return pol >= 0 && pol < POL_COUNT ? names[pol] : "SCHED_?";
}

int policy_set(const struct sched_want *w)
{
	struct ib_sched_attr a = { .size = sizeof(a) };

	if (w->policy < 0 || w->policy >= POL_COUNT)
		return -EINVAL;
	a.sched_policy = (uint32_t)kernel_policy[w->policy];
	switch (w->policy) {
	case POL_FIFO:
	case POL_RR:
		a.sched_priority = (uint32_t)w->prio;
		break;
	case POL_DEADLINE:
		a.sched_runtime = w->runtime_ns;
		a.sched_deadline = w->period_ns;
		a.sched_period = w->period_ns;
		break;
	default:
		a.sched_nice = w->nice;
		if (policy_fair(w->policy))
			a.sched_runtime = w->slice_ns;
	}
	if (syscall(SYS_sched_setattr, 0, &a, 0))
		return -errno;
	return 0;
}

int policy_get(struct sched_want *got)
{
	struct ib_sched_attr a = { .size = sizeof(a) };
	int i;

	if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0))
		return -errno;
	memset(got, 0, sizeof(*got));
	got->policy = -1;
	for (i = 0; i < POL_COUNT; i++)
		if ((uint32_t)kernel_policy[i] == a.sched_policy)
			got->policy = i;
	got->nice = a.sched_nice;
	got->prio = (int)a.sched_priority;
	if (got->policy == POL_DEADLINE) {
		got->runtime_ns = a.sched_runtime;
		got->period_ns = a.sched_period;
	} else {
		/* Fair tasks: their slice, where the kernel says it. */
		got->slice_ns = a.sched_runtime;
	}
	return 0;
}

uint64_t policy_dl_runtime(uint64_t peak_ns, uint64_t period_ns)
{
	uint64_t r = peak_ns + peak_ns / 8;

	/* The kernel refuses a runtime under 1024 ns. */
	if (r < 1024)
		r = 1024;
	return r > period_ns ? period_ns : r;
}

struct probe {
	const struct sched_want *w;
	int err;
	struct sched_want got;
};

static void *probe_thread(void *arg)
{
	struct probe *pr = arg;

	pr->err = policy_set(pr->w);
	if (!pr->err)
		pr->err = policy_get(&pr->got);
	return NULL;
}

int policy_probe(const struct sched_want *w, char *err, size_t n)
{
	struct probe pr = { .w = w };
	pthread_t t;
	int e;

	e = pthread_create(&t, NULL, probe_thread, &pr);
	if (e) {
		snprintf(err, n, "cannot start a thread: %s", strerror(e));
		return -e;
	}
	pthread_join(t, NULL);
	if (pr.err) {
		/*
		 * EBUSY is only ever admission control: say what it
		 * asked for, a whole CPU's bandwidth for the probe.
		 */
		snprintf(err, n, "the kernel refuses %s%s: %s%s",
			 policy_kernel_name(w->policy),
			 w->slice_ns ? " with a slice" : "",
			 strerror(-pr.err), pr.err == -EBUSY &&
			 w->policy == POL_DEADLINE ? " (admission control: "
			 "other deadline tasks hold the bandwidth it needs)" :
			 pr.err == -EPERM && geteuid() ? " (it needs root or "
			 "CAP_SYS_NICE)" : "");
		return pr.err;
	}
	if (w->slice_ns && pr.got.slice_ns != w->slice_ns) {
		snprintf(err, n, "this kernel does not take EEVDF slice "
			 "requests (asked %llu ns, it says %llu: Linux 6.12 "
			 "or later has them)",
			 (unsigned long long)w->slice_ns,
			 (unsigned long long)pr.got.slice_ns);
		return -EOPNOTSUPP;
	}
	return 0;
}
