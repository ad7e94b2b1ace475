// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/marks.c - the end of a run's account of what confounds its
 * figures, beside the marks on the rows (output.c): the host's steal,
 * other tasks on the run's CPUs, the run's cgroup's quota, and missing
 * real-time rights, each counted over the cells, with its bound.
 */
#include <math.h>
#include "outputs/output.h"
#include "lib/base.h"
#include "core/cfg.h"
#include "core/sim.h"
#include "core/load.h"

/*
 * What running without real-time rights did to the figures, measured
 * where it can be: the timing thread ran SCHED_OTHER, and its own
 * lateness (the timer part of each frame) is in every latency; as root
 * it runs SCHED_FIFO and that part is little more than the hrtimer's.
 */
static void print_no_rt(struct out_console *con, const struct result *res,
			int n)
{
	const struct plan *p = con->plan;
	double lo = INFINITY, hi = -INFINITY, worst = 0;
	int s, l, rows = 0;
	struct row w;

	for (s = 0; s < p->nsims; s++)
		for (l = 0; l < p->nloads; l++) {
			if (!plan_has(p->sims[s], p->loads[l]) ||
			    make_row(&w, res, n, p->sims[s], p->loads[l]) ||
			    !w.ok || !isfinite(w.v[F_TIMER_MEAN]))
				continue;
			lo = fmin(lo, w.v[F_TIMER_MEAN]);
			hi = fmax(hi, w.v[F_TIMER_MEAN]);
			worst = fmax(worst, w.v[F_TIMER_MAX]);
			rows++;
		}
	out_printf(con, "Without real-time rights (not root, no CAP_SYS_NICE "
		   "or RLIMIT_RTPRIO), the timing\nthread ran SCHED_OTHER: "
		   "its own lateness is part of every figure, and "
		   "with\nroot's SCHED_FIFO most of it goes: the figures "
		   "here lean late.");
	if (rows)
		out_printf(con, " In %d cell%s it\nadded %.3g to %.3g ms to a "
			   "frame on average (marked [no rt: timer +N], in "
			   "the\ntable's unit), %.3g ms at worst.", rows,
			   rows == 1 ? "" : "s", lo / NSEC_PER_MSEC,
			   hi / NSEC_PER_MSEC, worst / NSEC_PER_MSEC);
	out_printf(con, "\nMemory was not locked either (page faults may add "
		   "latency; not measured). Run\nas root for figures "
		   "comparable with other machines'.\n");
}

void out_steal(struct out_console *con, const struct result *res, int n)
{
	const struct plan *p = con->plan;
	int s, l, i, marked = 0, cells = 0, throttled = 0, busy = 0;
	const char *by = NULL;
	struct row w;

	for (s = 0; s < p->nsims; s++)
		for (l = 0; l < p->nloads; l++) {
			if (!plan_has(p->sims[s], p->loads[l]) ||
			    make_row(&w, res, n, p->sims[s], p->loads[l]) ||
			    !w.ok)
				continue;
			cells++;
			marked += steal_marked(w.v[F_INTF_STEAL]);
			throttled += throttle_marked(w.v[F_INTF_THROTTLED]);
			busy += busy_marked(w.v[F_INTF_OTHERS]);
		}
	if (!p->cfg.rt_ok)
		print_no_rt(con, res, n);
	if (busy)
		out_printf(con, "%d of %d cells had more than %.0f %% of the "
			   "run's CPU time used by other tasks\n(marked "
			   "[busy]: not interbench's, its loads' or the "
			   "kernel's threads): their figures\ninclude that "
			   "work's doing; measure on a quiet machine\n", busy,
			   cells, BUSY_MARK_PCT);
	if (marked)
		out_printf(con, "%d of %d cells had more than %.0f %% of "
			   "their CPU time stolen by the hypervisor\n(marked "
			   "[steal]): their figures include the host's doing, "
			   "not only the kernel's\n", marked, cells,
			   STEAL_MARK_PCT);
	for (i = n - 1; i >= 0 && !by; i--)
		if (res[i].throttled_by[0] &&
		    throttle_marked(res[i].v[F_INTF_THROTTLED]))
			by = res[i].throttled_by;
	if (throttled)
		out_printf(con, "%d of %d cells were throttled by the run's "
			   "cgroup for more than %.0f %% of their CPU\ntime "
			   "(marked [throttled]): its quota held them back "
			   "(%s),\nand their figures include the quota's "
			   "doing, not only the kernel's\n", throttled, cells,
			   THROTTLE_MARK_PCT,
			   by ? by : "see the JSON's throttled_by");
}
