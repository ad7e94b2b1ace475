/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/figintf.h - the figures of interference (lib/interfere.h), rows of
 * the table of figures (figtable.h, which includes this): what else used
 * the machine while a cell was measured, and what the run's own cgroup's
 * limits did to it.
 */
#ifndef INTERBENCH_FIGINTF_H
#define INTERBENCH_FIGINTF_H

/*
 * What else happened while the cell was measured (interfere.h): the
 * group "interference", null where the kernel does not say.
 */
#define IB_INTF(FIG, ID, K, N, L, U, F)					\
	FIG(INTF_##ID, "interference", K, N, L, U, FB_NONE,		\
	    FIG_CSV | FIG_GATE, fig_double, SR(intf.F), 0)
/* Their gate names (--fail-if, --remeasure-if) are their keys' stems. */
#define IB_INTF_FIGURES(FIG)						\
	IB_INTF(FIG, STEAL, "steal_pct", "steal",			\
		"% CPU time stolen by the host", FU_PCT, steal_pct)	\
	IB_INTF(FIG, IRQ, "irq_pct", "irq", "% CPU time in interrupts",	\
		FU_PCT, irq_pct)					\
	IB_INTF(FIG, SOFTIRQ, "softirq_pct", "softirq",			\
		"% CPU time in softirqs", FU_PCT, softirq_pct)		\
	IB_INTF(FIG, IOWAIT, "iowait_pct", "iowait",			\
		"% CPU time in iowait", FU_PCT, iowait_pct)		\
	IB_INTF(FIG, PSI_CPU, "psi_cpu_some_pct", "psi_cpu",		\
		"% time some task stalled on CPU", FU_PCT,		\
		psi_cpu_some_pct)					\
	IB_INTF(FIG, PSI_IO, "psi_io_some_pct", "psi_io",		\
		"% time some task stalled on IO", FU_PCT,		\
		psi_io_some_pct)					\
	IB_INTF(FIG, PSI_MEM, "psi_memory_some_pct", "psi_memory",	\
		"% time some task stalled on memory", FU_PCT,		\
		psi_memory_some_pct)					\
	IB_INTF(FIG, CTXT, "ctxt_per_s", "ctxt",			\
		"context switches per second", FU_COUNT, ctxt_per_s)	\
	IB_INTF(FIG, INTR, "intr_per_s", "intr", "interrupts per second", \
		FU_COUNT, intr_per_s)					\
	IB_INTF(FIG, RUNQ, "task_runq_wait_pct", "runq_wait",		\
		"% of the task's runnable time spent waiting", FU_PCT,	\
		task_runq_wait_pct)					\
	IB_INTF(FIG, VCSW, "task_voluntary_switches", "voluntary",	\
		"the task's voluntary switches", FU_COUNT,		\
		task_voluntary_switches)				\
	IB_INTF(FIG, IVCSW, "task_involuntary_switches", "involuntary",	\
		"the task's involuntary switches", FU_COUNT,		\
		task_involuntary_switches)				\
	IB_INTF(FIG, MIGR, "task_migrations", "migrations",		\
		"the task's migrations", FU_COUNT, task_migrations)	\
	IB_INTF(FIG, OTHERS, "others_cpu_pct", "others_cpu",		\
		"% of the run's CPU time other tasks used", FU_PCT,	\
		others_cpu_pct)						\
	IB_INTF(FIG, THROTTLED, "cgroup_throttled_pct", "throttled",	\
		"% CPU time the run's cgroup was throttled", FU_PCT,	\
		cg_throttled_pct)					\
	IB_INTF(FIG, THR_PERIODS, "cgroup_throttled_periods",		\
		"throttled_periods", "its quota's periods throttled",	\
		FU_COUNT, cg_throttled_periods)				\
	IB_INTF(FIG, CG_PSI_CPU, "cgroup_psi_cpu_some_pct",		\
		"cgroup_psi_cpu", "% time some task of the run's cgroup "\
		"stalled on CPU", FU_PCT, cg_psi_cpu_some_pct)		\
	IB_INTF(FIG, CG_PSI_MEM, "cgroup_psi_memory_some_pct",		\
		"cgroup_psi_memory", "% time some task of the run's "	\
		"cgroup stalled on memory", FU_PCT, cg_psi_memory_some_pct) \
	IB_INTF(FIG, MEM_HIGH, "cgroup_memory_high_events",		\
		"memory_high", "times over the cgroup's memory.high",	\
		FU_COUNT, cg_memory_high)				\
	IB_INTF(FIG, MEM_MAX, "cgroup_memory_max_events", "memory_max",	\
		"times at the cgroup's memory limit", FU_COUNT,		\
		cg_memory_max)						\
	IB_INTF(FIG, OOM, "cgroup_oom_kills", "oom_kill",		\
		"tasks of the cgroup the OOM killer ended", FU_COUNT,	\
		cg_oom_kills)

#endif
