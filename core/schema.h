/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/schema.h - the names of the result file (interbench --json): shared by
 * the writer (results.c), compare and the tests' reader. The figures'
 * own keys are in the table of figures (figures.h).
 */
#ifndef INTERBENCH_SCHEMA_H
#define INTERBENCH_SCHEMA_H

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

#endif
