/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/schema.h - the names of the result file (interbench --json): shared by
 * the writer (results.c), compare and the tests' reader. The figures'
 * own keys are in the table of figures (figures.h).
 */
#ifndef INTERBENCH_SCHEMA_H
#define INTERBENCH_SCHEMA_H

#include <stddef.h>

#define SCHEMA_NAME		"interbench-result/1"

/* The document */
#define K_SCHEMA		"schema"
#define K_VERSION		"interbench_version"
#define K_COMMAND_LINE		"command_line"
#define K_STARTED		"started"
#define K_FINISHED		"finished"
#define K_INTERRUPTED		"interrupted"
#define K_TAG			"tag"	/* --tag: the run's label, or null */
#define K_SYSTEM		"system"
#define K_SETTINGS		"settings"
/* in "system": the boot and the process a file was measured in */
#define K_BOOT_ID		"boot_id"
#define K_INVOCATION		"invocation"
#define K_CALIBRATION		"calibration"
#define K_RESULTS		"results"
/* `interbench ab`: {"id", "side": "A"|"B", "looks", "command", ...} */
#define K_AB			"ab"
#define K_AB_ID			"id"
#define K_AB_SIDE		"side"
#define K_AB_LOOKS		"looks"
#define K_AB_STOPPED		"stopped"	/* -n auto: when and why */
#define K_AB_PAIRS		"pairs"
#define K_AB_WHY		"why"
#define K_AB_SEED		"seed"		/* the coins of the order */
#define K_AB_FIRST		"first"		/* "ABBA...": who went first */
#define K_AB_SHARE		"candidates"	/* a sweep's: alpha shared by */
#define K_AB_SWEEP		"sweep"		/* a sweep's state: its name */

/* One result */
#define K_BENCH			"bench"
#define K_LOAD			"load"
#define K_REPEAT		"repeat"
#define K_STATUS		"status"
#define STATUS_OK		"ok"
#define K_SCHED			"sched"	/* the class the kernel reported */
#define K_STEAL_MARKED		"steal_marked"	/* steal > 1 % of CPU time */
#define K_BUSY_MARKED		"busy_marked"	/* others > 5 % of CPU time */
#define K_THROTTLED_MARKED	"throttled_marked" /* cgroup throttled > 1 % */
#define K_THROTTLED_BY		"throttled_by"	/* which quota: "/ci: cpu.max
						   40000/100000", or null */
#define K_HISTOGRAM		"histogram"
#define K_HIST_UNIT		"unit"
#define K_BUCKETS		"buckets"	/* [[low_ns, high_ns, count]] */
#define K_LOAD_WORK		"load_work"
#define K_PER_S_SUFFIX		"_per_s"
/* {"window_ms": W, "values": [worst us or null, ...]}: latency over time */
#define K_WINDOWS		"worst_by_window_us"
#define K_WINDOW_MS		"window_ms"
#define K_VALUES		"values"
/* --trace only: the worst frames explained, worst first (doc/trace.txt) */
#define K_WORST_FRAMES		"worst_frames"
/* A part of a frame is late, and explained, from this much on. */
#define WHY_LATE_NS		50000ULL
/*
 * ... each with its picture (doc/trace.txt): {"from_us", "to_us",
 * "deadline_us", "slices": [[cpu, from_us, to_us, kind, name, pid]]},
 * times from the release. The kinds of a slice, as the JSON names them:
 */
#define K_PICTURE		"picture"
#define K_PIC_FROM		"from_us"
#define K_PIC_TO		"to_us"
#define K_PIC_DEADLINE		"deadline_us"
#define K_PIC_SLICES		"slices"
#define SLICE_KINDS(X) \
	X(SK_BENCH, "bench")		/* the benchmarked thread */ \
	X(SK_TIMING, "timing")		/* its timing thread */ \
	X(SK_LOAD, "load")		/* a load's thread (ib:load:) */ \
	X(SK_KTHREAD, "kthread")	/* a kernel thread, by its name */ \
	X(SK_OTHER, "other")		/* any other task */ \
	X(SK_IRQ, "irq")		/* a hard interrupt, an hrtimer */ \
	X(SK_SOFTIRQ, "softirq") \
	X(SK_IDLE, "idle")		/* no task ran */ \
	X(SK_HOST, "host")		/* ... and it was the host's (a VM) */ \
	X(SK_THROTTLED, "throttled")	/* ... the cgroup's quota */ \
	X(SK_MERGED, "others")		/* short slices merged */
#define SK_ENUM(e, name)	e,
enum slice_kind { SLICE_KINDS(SK_ENUM) SK_COUNT };
/* --remeasure-if only: every attempt at the cell, and the one kept */
#define K_REMEASURE		"remeasure"
#define K_TRACE_LOST		"trace_lost_events"
#define K_TRACE			"trace"		/* top level: how it traced */

/*
 * The blocks a reader reads field by field: "settings", "system", its
 * "cgroup", "calibration". Each is one list, X(name, kind, flags), its
 * key the name: the writer (outputs/results*.c) writes each key as
 * RF_KEY(block, name), which fails to compile for a name not listed,
 * and core/rf_blocks.c reads every listed key into the block's struct
 * (struct rf_settings, ...: resultfile.h), so that no reader looks a key
 * up by a literal of its own. tests/unit-output.c's round trip fails on
 * a key written and not listed, or listed and never written.
 *
 * kind: RK_STR (const char *, NULL when null or absent), RK_NUM (double,
 * NaN then), RK_BOOL (signed char, -1 then), RK_ANY (the value itself,
 * const struct jval *: an array or object, read where it is used).
 * flags: RKF_SOME (written in some runs only: the round trip's run
 * writes it), RKF_ALT (written instead of the entry before it).
 */
enum rf_kind { RK_STR, RK_NUM, RK_BOOL, RK_ANY };
#define RKF_SOME	0x1
#define RKF_ALT		0x2

#define RF_SETTINGS(X) \
	X(duration_s, RK_NUM, 0) \
	X(repeats, RK_NUM, 0) \
	X(repeats_auto, RK_BOOL, RKF_SOME) \
	X(load_threads, RK_NUM, 0) \
	X(bench_nice, RK_NUM, 0) \
	X(load_nice, RK_NUM, 0) \
	X(rt, RK_BOOL, 0) \
	X(bench_policy, RK_STR, 0) \
	X(timer_slack_ns, RK_NUM, 0) \
	X(bench_slice_us, RK_NUM, 0) \
	X(load_policy, RK_STR, 0) \
	X(load_group, RK_STR, 0) \
	X(load_cpu_weight, RK_NUM, 0) \
	X(load_cgroup, RK_STR, 0) \
	X(uniprocessor, RK_BOOL, 0) \
	X(dir, RK_STR, 0) \
	X(custom_cpu_pct, RK_NUM, 0) \
	X(custom_interval_us, RK_NUM, 0) \
	X(comment, RK_STR, 0) \
	X(remeasure_if, RK_STR, RKF_SOME) \
	X(remeasure_max, RK_NUM, RKF_SOME) \
	X(benches, RK_ANY, 0) \
	X(loads, RK_ANY, 0) \
	X(allow_concurrent, RK_BOOL, 0) \
	X(dma_latency_us, RK_NUM, 0) \
	X(concurrent, RK_BOOL, 0) \
	X(concurrent_pid, RK_NUM, 0) \
	X(concurrent_uid, RK_NUM, 0) \
	X(sim_options, RK_ANY, 0)

/* boot_id and invocation: K_BOOT_ID and K_INVOCATION above */
#define RF_SYSTEM(X) \
	X(sysname, RK_STR, 0) \
	X(release, RK_STR, 0) \
	X(version, RK_STR, 0) \
	X(machine, RK_STR, 0) \
	X(hostname, RK_STR, 0) \
	X(boot_id, RK_STR, 0) \
	X(invocation, RK_STR, 0) \
	X(cpu_model, RK_STR, 0) \
	X(cpus_online, RK_NUM, 0) \
	X(smt, RK_BOOL, 0) \
	X(governor, RK_STR, 0) \
	X(preempt, RK_STR, 0) \
	X(clocksource, RK_STR, 0) \
	X(mem_total_kb, RK_NUM, 0) \
	X(swap_total_kb, RK_NUM, 0) \
	X(preempt_source, RK_STR, 0) \
	X(preempt_build, RK_STR, 0) \
	X(sched_ext, RK_STR, 0) \
	X(cmdline_latency, RK_STR, 0) \
	X(cpufreq_driver, RK_STR, 0) \
	X(cpufreq_governors, RK_STR, 0) \
	X(cpuidle_driver, RK_STR, 0) \
	X(cpuidle_governor, RK_STR, 0) \
	X(transparent_hugepages, RK_STR, 0) \
	X(autogroup, RK_BOOL, 0) \
	X(sched_rt_runtime_us, RK_NUM, 0) \
	X(virtual_machine, RK_BOOL, 0) \
	X(hypervisor, RK_STR, 0) \
	X(cgroup, RK_ANY, 0) \
	X(realtime_ok, RK_BOOL, 0)

/* system.cgroup, when the run's cgroup was read (else null) */
#define RF_CGROUP(X) \
	X(cpu_version, RK_NUM, 0) \
	X(cpu_path, RK_STR, 0) \
	X(cpuset_version, RK_NUM, 0) \
	X(cpuset_path, RK_STR, 0) \
	X(memory_version, RK_NUM, 0) \
	X(memory_path, RK_STR, 0) \
	X(cpu_quota_us, RK_NUM, 0) \
	X(cpu_period_us, RK_NUM, 0) \
	X(cpu_burst_us, RK_NUM, 0) \
	X(cpu_quota_at, RK_STR, 0) \
	X(cpu_quota_cpus, RK_NUM, 0) \
	X(cpu_quotas, RK_STR, 0) \
	X(cpu_weight, RK_NUM, 0)		/* cgroup v2's */ \
	X(cpu_shares, RK_NUM, RKF_ALT)	/* or v1's */ \
	X(rt_runtime_us, RK_NUM, 0) \
	X(cpuset_cpus, RK_STR, 0) \
	X(cpus_usable, RK_NUM, 0) \
	X(memory_max_bytes, RK_NUM, 0) \
	X(memory_high_bytes, RK_NUM, 0) \
	X(memory_limit_at, RK_STR, 0) \
	X(unread, RK_STR, 0)

/* the rest only when the calibration was measured in this run */
#define RF_CALIBRATION(X) \
	X(loops_per_ms, RK_NUM, 0) \
	X(error_pct, RK_NUM, 0) \
	X(check_off_cpu_pct, RK_NUM, 0) \
	X(check_others_pct, RK_NUM, 0) \
	X(measured, RK_BOOL, 0) \
	X(spread_pct, RK_NUM, 0) \
	X(samples, RK_NUM, RKF_SOME) \
	X(undisturbed_samples, RK_NUM, RKF_SOME) \
	X(speed_spread_pct, RK_NUM, RKF_SOME) \
	X(off_cpu_pct, RK_NUM, RKF_SOME) \
	X(others_pct, RK_NUM, RKF_SOME) \
	X(host_pct, RK_NUM, RKF_SOME) \
	X(others_machine_pct, RK_NUM, RKF_SOME) \
	X(cpufreq, RK_BOOL, RKF_SOME)

/*
 * worst_frames[] (--trace): each frame's keys, read where they are used
 * by RF_KEY(frame, ...); who ran, each: RF_KEY(who, ...).
 */
#define RF_FRAME(X) \
	X(latency_us, RK_NUM, 0) \
	X(timer_us, RK_NUM, 0) \
	X(wait_us, RK_NUM, 0) \
	X(cpu, RK_NUM, 0) \
	X(ran_instead, RK_ANY, 0) \
	X(others_us, RK_NUM, 0) \
	X(irq_us, RK_NUM, 0) \
	X(softirq_us, RK_NUM, 0) \
	X(irqs, RK_ANY, 0) \
	X(softirqs, RK_ANY, 0) \
	X(own_us, RK_NUM, 0) \
	X(migrations, RK_NUM, 0) \
	X(timer_cpu, RK_NUM, 0) \
	X(timer_ran_instead, RK_ANY, 0) \
	X(timer_others_us, RK_NUM, 0) \
	X(timer_fired_late_us, RK_NUM, 0) \
	X(timer_idle_us, RK_NUM, 0) \
	X(wait_idle_us, RK_NUM, 0) \
	X(trace_events, RK_NUM, 0) \
	X(idle_cause, RK_STR, 0) \
	X(host_us, RK_NUM, 0) \
	X(throttled_us, RK_NUM, 0) \
	X(throttled_by, RK_STR, 0) \
	X(throttle_inferred, RK_BOOL, 0) \
	X(tid, RK_NUM, 0) \
	X(complete, RK_BOOL, 0) \
	X(breaktrace, RK_BOOL, 0) \
	X(picture, RK_ANY, 0)		/* K_PICTURE */
#define RF_WHO(X) \
	X(comm, RK_STR, 0)		/* a task's name */ \
	X(name, RK_STR, RKF_ALT)	/* or an interrupt's */ \
	X(pid, RK_NUM, RKF_SOME)	/* a task's */ \
	X(us, RK_NUM, 0)

#define RF_KEY_ENUM_frame(n, k, f)		RFK_frame_##n,
#define RF_KEY_ENUM_who(n, k, f)		RFK_who_##n,
enum rf_frame_key { RF_FRAME(RF_KEY_ENUM_frame) RFK_FRAME };
enum rf_who_key { RF_WHO(RF_KEY_ENUM_who) RFK_WHO };
#define RF_KEY_ENUM_settings(n, k, f)		RFK_settings_##n,
#define RF_KEY_ENUM_system(n, k, f)		RFK_system_##n,
#define RF_KEY_ENUM_cgroup(n, k, f)		RFK_cgroup_##n,
#define RF_KEY_ENUM_calibration(n, k, f)	RFK_calibration_##n,
enum rf_settings_key { RF_SETTINGS(RF_KEY_ENUM_settings) RFK_SETTINGS };
enum rf_system_key { RF_SYSTEM(RF_KEY_ENUM_system) RFK_SYSTEM };
enum rf_cgroup_key { RF_CGROUP(RF_KEY_ENUM_cgroup) RFK_CGROUP };
enum rf_calibration_key { RF_CALIBRATION(RF_KEY_ENUM_calibration)
			  RFK_CALIBRATION };
/*
 * A listed key of a block, as the writer writes it: RF_KEY(system, smt)
 * is "smt", a constant, and no name that is not listed compiles.
 */
#define RF_KEY(block, name) \
	(&#name[0 * sizeof(char[1 + RFK_##block##_##name])])

/* One key of a block, for the reader and the round trip (rf_blocks.c). */
struct rf_field {
	const char *key;
	enum rf_kind kind;
	unsigned int flags;
	size_t off;			/* in the block's struct */
};

#endif
