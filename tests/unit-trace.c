// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-trace.c - --trace's explanation of a frame (trace_why.c) from a
 * made-up trace whose truth is known: who ran, interrupts, softirqs, the
 * thread's own time, migrations, a namespace's tids, lost events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/trace.h"
#include "check.h"
#include "core/raw.h"

/* Times are seconds in the trace: 100.000000 is 100 s. */
#define S(x)	((uint64_t)((x) * 1e9 + 0.5))

static const char trace_text[] =
"# tracer: nop\n"
"#\n"
"   ib:bench:Audio-5001  [001] ..... 99.900000: tracing_mark_write: interbench: tid 7\n"
"   ib:bench:Audio-5002  [001] ..... 99.900001: tracing_mark_write: interbench: tid 8\n"
"          <idle>-0     [000] d..2. 99.950000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=my hog next_pid=4000 next_prio=120\n"
"          <idle>-0     [001] d..2. 99.950000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=burner next_pid=4001 next_prio=120\n"
/* CPU 1: the timing thread (5002) runs 100.000200 to 100.000300 */
"          burner-4001  [001] d..2. 100.000200: sched_switch: prev_comm=burner prev_pid=4001 prev_prio=120 prev_state=R ==> next_comm=ib:bench:Audio next_pid=5002 next_prio=0\n"
"   ib:bench:Audio-5002  [001] d..2. 100.000300: sched_switch: prev_comm=ib:bench:Audio prev_pid=5002 prev_prio=0 prev_state=S ==> next_comm=burner next_pid=4001 next_prio=120\n"
/* CPU 0: my hog until 100.002, an irq 100.002-100.0025, NET_RX to 100.003 */
"          my hog-4000  [000] d.h1. 100.002000: irq_handler_entry: irq=24 name=eth0\n"
"          my hog-4000  [000] d.h1. 100.002500: irq_handler_exit: irq=24 ret=handled\n"
"          my hog-4000  [000] ..s1. 100.002500: softirq_entry: vec=3 [action=NET_RX]\n"
"          my hog-4000  [000] ..s1. 100.003000: softirq_exit: vec=3 [action=NET_RX]\n"
"          my hog-4000  [000] d..2. 100.003000: sched_switch: prev_comm=my hog prev_pid=4000 prev_prio=120 prev_state=R ==> next_comm=other next_pid=4002 next_prio=120\n"
"          other-4002   [000] d..2. 100.004000: sched_migrate_task: comm=ib:bench:Audio pid=5001 prio=120 orig_cpu=1 dest_cpu=0\n"
"          other-4002   [000] d..2. 100.004000: sched_switch: prev_comm=other prev_pid=4002 prev_prio=120 prev_state=R ==> next_comm=ib:bench:Audio next_pid=5001 next_prio=120\n"
/* Frame 2 on CPU 1, after events were lost there. */
"CPU:1 [LOST 42 EVENTS]\n"
"          burner-4001  [001] d..2. 100.100000: sched_switch: prev_comm=burner prev_pid=4001 prev_prio=120 prev_state=R ==> next_comm=ib:bench:Audio next_pid=5001 next_prio=120\n";

int main(void)
{
	struct worst_frames w = { .keep = 3, .n = 2, .timing_tid = 8 };
	struct why_frame *o;
	FILE *f;
	int n;

	/* Released at 100 s; timing thread awake at 100.0003 on CPU 1. */
	w.f[0] = (struct worst_frame){ .release = S(100.0),
		.timer = S(100.0003), .timer_cpu = 1, .start = S(100.004),
		.tid = 7, .cpu = 0 };
	/* Its window on CPU 1 saw a [LOST] line: incomplete. */
	w.f[1] = (struct worst_frame){ .release = S(100.05),
		.timer = S(100.0501), .timer_cpu = 1, .start = S(100.1),
		.tid = 7, .cpu = 1 };
	f = fmemopen((void *)trace_text, sizeof(trace_text) - 1, "r");
	if (!f)
		return 1;
	n = trace_explain_file(f, &w, 0, &o);
	fclose(f);
	check(n == 2, "two frames explained (%d)", n);
	if (n != 2)
		return check_done();
	/* Worst first: o[0] is the 50 ms frame, o[1] the 4 ms one. */
	check(o[0].latency_ns == S(0.05) && o[1].latency_ns == S(0.004),
	      "worst first (%llu, %llu)", (unsigned long long)o[0].latency_ns,
	      (unsigned long long)o[1].latency_ns);
	check(o[0].lost && !o[1].lost, "the frame after a LOST line is "
	      "incomplete, the other complete");
	check(o[1].tid == 5001, "tid 7 of our namespace is 5001 in the "
	      "trace's (%d)", o[1].tid);
	check(o[1].timer.ns == S(0.0003) && o[1].wait.ns == S(0.0037),
	      "timer 0.3 ms + wait 3.7 ms");
	check(o[1].timer.nran == 1 && !strcmp(o[1].timer.ran[0].name,
	      "burner") && o[1].timer.ran[0].ns == S(0.0002),
	      "timer part: burner 0.2 ms (the timing thread's own 0.1 ms "
	      "is not 'instead')");
	check(o[1].wait.nran == 2 && !strcmp(o[1].wait.ran[0].name,
	      "my hog") && o[1].wait.ran[0].pid == 4000 &&
	      o[1].wait.ran[0].ns == S(0.0017) &&
	      !strcmp(o[1].wait.ran[1].name, "other") &&
	      o[1].wait.ran[1].ns == S(0.001),
	      "wait part: 'my hog' (a comm with a blank) 1.7 ms, then other "
	      "1 ms, largest first");
	check(o[1].wait.irq_ns == S(0.0005) && o[1].wait.nirq == 1 &&
	      !strcmp(o[1].wait.irq[0].name, "eth0"), "irq eth0 0.5 ms");
	check(o[1].wait.softirq_ns == S(0.0005) && o[1].wait.nsoft == 1 &&
	      !strcmp(o[1].wait.soft[0].name, "NET_RX"), "softirq NET_RX "
	      "0.5 ms");
	check(o[1].migrations == 1, "one migration (%d)", o[1].migrations);
	free(o);

	/* A trace stopped (--breaktrace) before frame 2 started. */
	f = fmemopen((void *)trace_text, sizeof(trace_text) - 1, "r");
	n = trace_explain_file(f, &w, S(100.01), &o);
	fclose(f);
	check(n == 2 && o[0].lost && !o[1].lost, "after the trace stopped: "
	      "incomplete");
	free(o);
	return check_done();
}
