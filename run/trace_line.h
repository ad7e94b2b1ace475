/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/trace_line.h - one line of tracefs's text, as --trace's readers
 * take it apart: the explanation (trace_why.c), --trace-out's events
 * (trace_tef.c) and --on-late's windows (onlate.c). Below them all.
 */
#ifndef INTERBENCH_TRACE_LINE_H
#define INTERBENCH_TRACE_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bytes of a task's name at most (TASK_COMM_LEN less its NUL) */
#define TRACE_COMM_MAX	15

/* "  comm-pid  [001] d..2. 123.456789: event: args" */
struct trace_line {
	int cpu;
	int pid;			/* -1: no "comm-pid" before the CPU */
	char comm[24];
	uint64_t ts;			/* ns */
	const char *event, *args;	/* in the line, cut at their ends */
};

/* Take s apart (it is cut where event and args end): 0 or -EINVAL. */
int trace_line_parse(char *s, struct trace_line *l);
/* The line's time in ns, s left as it is; 0 when it has none. */
uint64_t trace_line_ns(const char *s);
/* The value of "key=" in args, up to stop (or the next blank), in buf. */
void trace_line_field(const char *args, const char *key, const char *stop,
		      char *buf, size_t n);
/*
 * A sched_process_exec's args ("filename=/bin/sh pid=N old_pid=M"): the
 * name the task runs under from then on, as the kernel makes it (the
 * file's base name, cut to 15 bytes), its pid and its pid before (a
 * thread that execs takes its leader's). 0, or -EINVAL: not such args,
 * or an exec through a file descriptor, whose name the file gives.
 */
int trace_exec_comm(const char *args, char *comm, size_t n, int *pid,
		    int *old_pid);
/*
 * A task named comm is a periodic benchmark's simulated or timing thread
 * (COMM_SIM, COMM_TIMER): a switch to it may be missing from the trace
 * (trace_switch_filter).
 */
bool trace_comm_ours(const char *comm);

#endif
