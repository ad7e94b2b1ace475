// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-trace.c - --trace's explanation of a frame (trace_why.c) from a
 * made-up trace whose truth is known: who ran, interrupts, softirqs, the
 * thread's own time, migrations, a namespace's tids, lost events, a
 * timer that fired late while its CPU sat idle (the host's, in a VM),
 * and a wait on an idle CPU that was the cgroup's CPU quota.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/trace.h"
#include "run/trace_tef.h"
#include "lib/text.h"
#include "check.h"
#include "core/raw.h"
#include "outputs/output.h"

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

/*
 * The case a VM's host makes: released at 200 s, CPU 1 idle (swapper)
 * but for another sleeper's hrtimer_wakeup at 200.010 (not ours: it
 * woke pid 4444), until its own hrtimer_wakeup fires at 200.0228, the timing thread (5002)
 * runs at once and wakes the simulated thread (5001) on CPU 0, idle too
 * for 0.4 ms. Nothing ran instead: no task is to blame.
 */
static const char idle_text[] =
"   ib:bench:Video-5001  [000] ..... 199.900000: tracing_mark_write: interbench: tid 7\n"
"   ib:bench:Video-5002  [001] ..... 199.900001: tracing_mark_write: interbench: tid 8\n"
"   ib:bench:Video-5002  [001] d..2. 199.950000: sched_switch: prev_comm=ib:bench:Video prev_pid=5002 prev_prio=0 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"   ib:bench:Video-5001  [000] d..2. 199.950000: sched_switch: prev_comm=ib:bench:Video prev_pid=5001 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
"          <idle>-0     [001] d.h1. 200.010000: hrtimer_expire_entry: hrtimer=00000000cafe0000 function=hrtimer_wakeup now=200010000000\n"
"          <idle>-0     [001] d.h2. 200.010002: sched_waking: comm=other sleeper pid=4444 prio=120 target_cpu=000\n"
"          <idle>-0     [001] d.h1. 200.010004: hrtimer_expire_exit: hrtimer=00000000cafe0000\n"
"          <idle>-0     [001] d.h1. 200.022800: hrtimer_expire_entry: hrtimer=00000000deadbeef function=hrtimer_wakeup now=200022800000\n"
"          <idle>-0     [001] d.h2. 200.022805: sched_waking: comm=ib:bench:Video pid=5002 prio=0 target_cpu=001\n"
"          <idle>-0     [001] d.h1. 200.022810: hrtimer_expire_exit: hrtimer=00000000deadbeef\n"
"          <idle>-0     [001] d..2. 200.022820: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ib:bench:Video next_pid=5002 next_prio=0\n"
"          <idle>-0     [000] d..2. 200.023300: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ib:bench:Video next_pid=5001 next_prio=120\n";

/* The idle case explained as a VM's (vm 1) or maybe the host's (vm 0). */
static void idle_case(int vm)
{
	struct worst_frames w = { .keep = 1, .n = 1, .timing_tid = 8 };
	struct why_frame *o;
	char line[512], want[128];
	FILE *f = fmemopen((void *)idle_text, sizeof(idle_text) - 1, "r");
	int n;

	w.f[0] = (struct worst_frame){ .release = S(200.0),
		.timer = S(200.0229), .timer_cpu = 1, .start = S(200.0233),
		.tid = 7, .cpu = 0 };
	if (!f)
		exit(1);
	n = trace_explain_file(f, &w, &(struct why_env){ .vm = vm }, &o);
	fclose(f);
	check(n == 1 && !o[0].lost, "vm %d: the idle frame explained", vm);
	if (n != 1)
		return;
	check(o[0].timer.fired_ns == S(0.0228), "vm %d: the timer fired "
	      "22.8 ms late (%llu ns)", vm,
	      (unsigned long long)o[0].timer.fired_ns);
	check(o[0].timer.nran == 0 && o[0].timer.others_ns == 0,
	      "vm %d: no task ran instead in the timer part (%d)", vm,
	      o[0].timer.nran);
	/*
	 * 22.8 ms before the interrupt, less the other sleeper's 4 us of
	 * hrtimer, and 10 us after it until the switch.
	 */
	check(o[0].timer.idle_ns == S(0.022806), "vm %d: its CPU idle "
	      "22.806 ms (%llu)", vm, (unsigned long long)o[0].timer.idle_ns);
	check(o[0].timer.idle_cause == (vm == 1 ? WHY_IDLE_HOST :
	      WHY_IDLE_EXIT_OR_HOST), "vm %d: the timer part is %s", vm,
	      trace_why_idle_text(o[0].timer.idle_cause));
	check(o[0].wait.idle_ns == S(0.0004) && o[0].wait.nran == 0,
	      "vm %d: the wait part idle 0.4 ms, nobody instead", vm);
	/* CPU 1's seven lines from 200.010 to the switch; CPU 0's switch */
	check(o[0].timer.events == 7 && o[0].wait.events == 1, "vm %d: the "
	      "trace's own events in each part: 7 and 1 (%d, %d)", vm,
	      o[0].timer.events, o[0].wait.events);
	check(o[0].host_ns == (vm == 1 ? S(0.022806) + S(0.0004) : 0),
	      "vm %d: the host's time in the frame (%llu)", vm,
	      (unsigned long long)o[0].host_ns);
	out_why_line(line, sizeof(line), &o[0]);
	snprintf(want, sizeof(want), "timer +22.9 fired 22.8 late (cpu idle "
		 "22.8: %s)", vm == 1 ? "host (steal or vCPU wakeup)" :
		 "host steal or idle-state exit");
	check(strstr(line, want) && !strstr(line, "behind") &&
	      !strstr(line, "idle:0"), "vm %d: the line names the host, not "
	      "an idle task (%s)", vm, line);
	check(o[0].nslices > 3 && o[0].slice[0].cpu == 0 &&
	      o[0].slice[o[0].nslices - 1].cpu == 1, "vm %d: two lanes", vm);
	for (n = 0; n < o[0].nslices; n++)
		if (o[0].slice[n].cpu == 1 && o[0].slice[n].from <= S(200.0) &&
		    o[0].slice[n].to > S(200.0))
			break;
	check(n < o[0].nslices && (vm == 1 ?
	      o[0].slice[n].kind == SK_HOST && o[0].slice[n].from == S(200.0) &&
	      o[0].slice[n - 1].kind == SK_IDLE &&
	      o[0].slice[n - 1].to == S(200.0) :
	      o[0].slice[n].kind == SK_IDLE), "vm %d: the timer part's idle "
	      "time is drawn as %s", vm, vm == 1 ? "the host's from the "
	      "release, idle before it" : "idle (not known to be the host's)");
	free(o);
}

/*
 * The run's cgroup out of its CPU quota: the simulated thread (5001) is
 * runnable (prev_state=R) but throttled, CPU 0 idle from before its
 * release at 300 s until the quota is refilled. The timing thread (5002)
 * is woken on time on CPU 1 (timer part 20 us: not late), the cgroup's
 * period timer fires on CPU 1 at 300.0234 and the thread runs at
 * 300.0235: a wait of 23.48 ms, all idle.
 */
#define THR_START \
"   ib:bench:Video-5001  [000] ..... 299.900000: tracing_mark_write: interbench: tid 7\n" \
"   ib:bench:Video-5002  [001] ..... 299.900001: tracing_mark_write: interbench: tid 8\n" \
"   ib:bench:Video-5002  [001] d..2. 299.950000: sched_switch: prev_comm=ib:bench:Video prev_pid=5002 prev_prio=0 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n" \
"   ib:bench:Video-5001  [000] d..2. 299.950000: sched_switch: prev_comm=ib:bench:Video prev_pid=5001 prev_prio=120 prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
/* --trace-timer's events: the timing thread's wakeup */
#define THR_WAKEUP \
"          <idle>-0     [001] d.h1. 300.000010: hrtimer_expire_entry: hrtimer=00000000deadbeef function=hrtimer_wakeup now=300000010000\n" \
"          <idle>-0     [001] d.h2. 300.000012: sched_waking: comm=ib:bench:Video pid=5002 prio=0 target_cpu=001\n" \
"          <idle>-0     [001] d.h1. 300.000014: hrtimer_expire_exit: hrtimer=00000000deadbeef\n"
#define THR_TIMING \
"          <idle>-0     [001] d..2. 300.000020: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ib:bench:Video next_pid=5002 next_prio=0\n" \
"   ib:bench:Video-5002  [001] d..2. 300.000030: sched_switch: prev_comm=ib:bench:Video prev_pid=5002 prev_prio=0 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
/* The cgroup's period timer, in the wait part */
#define THR_PERIOD \
"          <idle>-0     [001] d.h1. 300.023400: hrtimer_expire_entry: hrtimer=00000000f00dcafe function=sched_cfs_period_timer now=300023400000\n" \
"          <idle>-0     [001] d.h1. 300.023404: hrtimer_expire_exit: hrtimer=00000000f00dcafe\n"
#define THR_RUN \
"          <idle>-0     [000] d..2. 300.023500: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ib:bench:Video next_pid=5001 next_prio=120\n"
/* A period timer after the frame: no evidence for it */
#define THR_PERIOD_AFTER \
"          <idle>-0     [001] d.h1. 300.030000: hrtimer_expire_entry: hrtimer=00000000f00dcafe function=sched_cfs_period_timer now=300030000000\n" \
"          <idle>-0     [001] d.h1. 300.030004: hrtimer_expire_exit: hrtimer=00000000f00dcafe\n"

static const char thr_in[] = THR_START THR_WAKEUP THR_TIMING THR_PERIOD
			     THR_RUN;
static const char thr_after[] = THR_START THR_WAKEUP THR_TIMING THR_RUN
				THR_PERIOD_AFTER;
/* --trace without --trace-timer: no hrtimer expiry at all */
static const char thr_none[] = THR_START THR_TIMING THR_RUN;

#define LIMIT	"cgroup /ci-runner: cpu.max 40000/100000"

/* The throttled frame explained from text with env: one frame, or NULL. */
static struct why_frame *thr_frame(const char *text, size_t len,
				   const struct why_env *env)
{
	struct worst_frames w = { .keep = 1, .n = 1, .timing_tid = 8 };
	struct why_frame *o = NULL;
	FILE *f = fmemopen((void *)text, len, "r");
	int n;

	w.f[0] = (struct worst_frame){ .release = S(300.0),
		.timer = S(300.00002), .timer_cpu = 1, .start = S(300.0235),
		.tid = 7, .cpu = 0 };
	if (!f)
		exit(1);
	n = trace_explain_file(f, &w, env, &o);
	fclose(f);
	if (n == 1 && !o[0].lost && o[0].wait.idle_ns == S(0.02348) &&
	    o[0].timer.idle_cause == WHY_IDLE_NONE)
		return o;
	check(0, "the throttled frame explained (%d, wait idle %llu)", n,
	      n == 1 ? (unsigned long long)o[0].wait.idle_ns : 0ULL);
	free(o);
	return NULL;
}

/* The frame's line has want, and not "host" */
static void thr_line(const struct why_frame *o, const char *want)
{
	char line[512];

	if (!o)
		return;
	out_why_line(line, sizeof(line), o);
	check(strstr(line, want) && !strstr(line, "host"), "the line says "
	      "'%s' (%s)", want, line);
}

static void throttle_cases(void)
{
	struct why_env env = { .vm = 1, .throttled = true, .limit = LIMIT };
	struct why_frame *o;

	/* The period timer fired in the wait part, the cgroup throttled */
	o = thr_frame(thr_in, sizeof(thr_in) - 1, &env);
	if (!o) {
		check(false, "throttled: the frame was explained");
		return;
	}
	check(o->wait.idle_cause == WHY_IDLE_THROTTLED &&
	      o->wait.throttle_seen && o->throttled_ns == S(0.02348) &&
	      !o->host_ns && !strcmp(o->throttled_by, LIMIT),
	      "throttled: the period timer fired in the wait part (%s)",
	      trace_why_idle_text(o->wait.idle_cause));
	thr_line(o, "; waited 23.5 on cpu 0 (cpu idle 23.5: throttled, "
		 LIMIT ")");
	free(o);
	env.vm = 0;
	o = thr_frame(thr_in, sizeof(thr_in) - 1, &env);
	check(o && o->wait.idle_cause == WHY_IDLE_THROTTLED &&
	      o->throttled_ns == S(0.02348), "throttled on bare metal too");
	free(o);
	/* Without the cgroup's counters the timer may be another's */
	env = (struct why_env){ .vm = 1, .throttled = false };
	o = thr_frame(thr_in, sizeof(thr_in) - 1, &env);
	check(o && o->wait.idle_cause == WHY_IDLE_HOST && !o->throttled_ns &&
	      o->host_ns == S(0.02348) && !o->throttled_by[0],
	      "not throttled in the cell: the host's, timer or not");
	free(o);
	/* hrtimers recorded, no bandwidth timer in the window */
	env = (struct why_env){ .vm = 1, .throttled = true, .limit = LIMIT };
	o = thr_frame(thr_after, sizeof(thr_after) - 1, &env);
	check(o && o->wait.idle_cause == WHY_IDLE_HOST && !o->throttled_ns &&
	      o->host_ns == S(0.02348), "throttled in the cell, but no "
	      "period timer in the window: the host's");
	free(o);
	/* No hrtimer events to tell by: inferred from the counters */
	o = thr_frame(thr_none, sizeof(thr_none) - 1, &env);
	check(o && o->wait.idle_cause == WHY_IDLE_THROTTLED &&
	      !o->wait.throttle_seen && o->throttled_ns == S(0.02348) &&
	      !o->host_ns, "no hrtimer events: throttled, inferred");
	thr_line(o, "(cpu idle 23.5: throttled, " LIMIT ", inferred from "
		 "the cgroup's counters)");
	free(o);
	/* What throttled it not known */
	env.limit[0] = '\0';
	o = thr_frame(thr_in, sizeof(thr_in) - 1, &env);
	check(o && o->wait.idle_cause == WHY_IDLE_THROTTLED &&
	      !o->throttled_by[0], "throttled by a limit not known");
	thr_line(o, "(cpu idle 23.5: throttled by the run's cgroup)");
	free(o);
	env.throttled = false;
	o = thr_frame(thr_none, sizeof(thr_none) - 1, &env);
	check(o && o->wait.idle_cause == WHY_IDLE_HOST && !o->throttled_ns,
	      "no hrtimer events, not throttled: the host's");
	free(o);
}

/* Slice i of o's picture is cpu, [from, to) in s, kind, name. */
static int slice_is(const struct why_frame *o, int i, int cpu, double from,
		    double to, int kind, const char *name)
{
	const struct why_slice *x = &o->slice[i];

	return i < o->nslices && x->cpu == cpu && x->from == S(from) &&
	       x->to == S(to) && x->kind == kind && !strcmp(x->name, name);
}

/* The 4 ms frame's picture: every lane's slices, from 99.996 s. */
static void picture_case(const struct why_frame *o)
{
	check(o->pic_from == S(99.996) && o->pic_to == S(100.0045),
	      "the picture: 4 ms (its latency) before the release to 0.5 ms "
	      "after it ran");
	check(o->nslices == 8, "8 slices on 2 lanes (%d)", o->nslices);
	check(slice_is(o, 0, 0, 99.996, 100.002, SK_OTHER, "my hog") &&
	      o->slice[0].pid == 4000 &&
	      slice_is(o, 1, 0, 100.002, 100.0025, SK_IRQ, "eth0") &&
	      slice_is(o, 2, 0, 100.0025, 100.003, SK_SOFTIRQ, "NET_RX") &&
	      slice_is(o, 3, 0, 100.003, 100.004, SK_OTHER, "other") &&
	      slice_is(o, 4, 0, 100.004, 100.0045, SK_BENCH,
		       "ib:bench:Audio") && o->slice[4].pid == 5001,
	      "CPU 0: my hog, eth0, NET_RX, other, then the benchmarked "
	      "thread, clipped to the picture");
	check(slice_is(o, 5, 1, 99.996, 100.0002, SK_OTHER, "burner") &&
	      slice_is(o, 6, 1, 100.0002, 100.0003, SK_TIMING,
		       "ib:bench:Audio") && o->slice[6].pid == 5002 &&
	      slice_is(o, 7, 1, 100.0003, 100.0045, SK_OTHER, "burner"),
	      "CPU 1: burner, the timing thread, burner");
}

/*
 * 400 switches of 10 us between two kworkers on CPU 0 (the last 300 in
 * the picture), then 3 ms of a load's thread: kept to WHY_SLICES, the load's slice whole, the lane's
 * time whole (the short ones merged into "others", counted).
 */
static void bound_case(void)
{
	struct worst_frames w = { .keep = 1, .n = 1, .timing_tid = 8 };
	size_t cap = 600 * 200, at = 0;
	char *text = malloc(cap);
	struct why_frame *o = NULL;
	uint64_t sum = 0, merged = 0;
	FILE *f;
	int i, n, load = -1, prev = 0;

	if (!text)
		exit(1);
	for (i = 0; i <= 400; i++)
		at += (size_t)snprintf(text + at, cap - at, "  x-1 [000] d..2. "
			"%.6f: sched_switch: prev_comm=x prev_pid=1 prev_prio="
			"120 prev_state=R ==> next_comm=%s next_pid=%d "
			"next_prio=120\n", 99.996 + i * 0.00001,
			i == 400 ? "ib:load:Burn" : i % 2 ? "kworker/0:1" :
			"kworker/0:2", i == 400 ? 300 : 100 + i % 2);
	at += (size_t)snprintf(text + at, cap - at, "  x-1 [000] d..2. "
		"100.003000: sched_switch: prev_comm=x prev_pid=1 prev_prio=120 "
		"prev_state=R ==> next_comm=ib:bench:Audio next_pid=7 "
		"next_prio=120\n");
	w.f[0] = (struct worst_frame){ .release = S(100.0),
		.timer = S(100.0), .timer_cpu = 0, .start = S(100.003),
		.tid = 7, .cpu = 0 };
	f = fmemopen(text, at, "r");
	n = f ? trace_explain_file(f, &w, NULL, &o) : -1;
	if (f)
		fclose(f);
	check(n == 1 && o[0].nslices <= WHY_SLICES && o[0].nslices > 8,
	      "400 short slices kept to %d (%d)", WHY_SLICES,
	      n == 1 ? o[0].nslices : -1);
	for (i = 0; n == 1 && i < o[0].nslices; i++) {
		const struct why_slice *x = &o[0].slice[i];

		sum += x->to - x->from;
		if (x->kind == SK_MERGED)
			merged += (uint64_t)x->pid;
		if (x->kind == SK_LOAD)
			load = i;
		if (i && x->from != o[0].slice[i - 1].to)
			prev = -1;
	}
	check(n == 1 && load >= 0 && o[0].slice[load].from == S(99.996 +
	      400 * 0.00001) && o[0].slice[load].to == S(100.003) &&
	      o[0].slice[load].pid == 300, "the load's 3 ms slice kept whole");
	check(n == 1 && !prev && sum == o[0].pic_to - o[0].pic_from,
	      "the lane's time whole, no gap (%llu of %llu ns)",
	      (unsigned long long)sum, n == 1 ?
	      (unsigned long long)(o[0].pic_to - o[0].pic_from) : 0ULL);
	/* 300 of them in the picture, from 3 ms before the release */
	check(merged > 200 && merged <= 300, "others: %llu short slices "
	      "merged", (unsigned long long)merged);
	free(o);
	free(text);
}

/*
 * Tasks renamed while they ran, released at 400 s. On CPU 0 the fork of
 * a shell is switched in as sh (6000) and execs ibexec 1 ms later, which
 * spins until the simulated thread (5001) runs at 400.030: the wait part
 * (from 400.020) is ibexec's alone. On CPU 1 a task switched in as chrt
 * (6100) execs with no event the trace kept and is switched away from as
 * spinner at 400.020, when the timing thread (5002) runs: the timer
 * part is spinner's, both sides of an interrupt at 400.010. A thread (6201) of another process execs on CPU 1
 * after the frame and takes its leader's pid (6200).
 */
static const char exec_text[] =
"   ib:bench:Video-5001  [000] ..... 399.900000: tracing_mark_write: interbench: tid 7\n"
"   ib:bench:Video-5002  [001] ..... 399.900001: tracing_mark_write: interbench: tid 8\n"
"          <idle>-0     [001] d..2. 399.990000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=chrt next_pid=6100 next_prio=0\n"
"          <idle>-0     [000] d..2. 400.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=6000 next_prio=0\n"
"          ibexec-6000  [000] ..... 400.001000: sched_process_exec: filename=/tmp/a dir/ibexec pid=6000 old_pid=6000\n"
"            chrt-6100  [001] d.h1. 400.010000: irq_handler_entry: irq=24 name=eth0\n"
"            chrt-6100  [001] d.h1. 400.010010: irq_handler_exit: irq=24 ret=handled\n"
"         spinner-6100  [001] d..2. 400.020000: sched_switch: prev_comm=spinner prev_pid=6100 prev_prio=0 prev_state=S ==> next_comm=ib:timer:Video next_pid=5002 next_prio=0\n"
"          ibexec-6000  [000] d..2. 400.030000: sched_switch: prev_comm=ibexec prev_pid=6000 prev_prio=0 prev_state=S ==> next_comm=ib:sim:Video next_pid=5001 next_prio=120\n"
"  ib:timer:Video-5002  [001] d..2. 400.030100: sched_switch: prev_comm=ib:timer:Video prev_pid=5002 prev_prio=0 prev_state=S ==> next_comm=worker next_pid=6201 next_prio=120\n"
"     a-long-name-6200  [001] ..... 400.030200: sched_process_exec: filename=/usr/bin/a-long-name-of-twenty pid=6200 old_pid=6201\n"
"     a-long-name-6200  [001] d..2. 400.030300: sched_switch: prev_comm=a-long-name-of- prev_pid=6200 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

static bool has_slice(const struct why_frame *o, const char *name, int pid)
{
	int i;

	for (i = 0; i < o->nslices; i++)
		if (!strcmp(o->slice[i].name, name) && o->slice[i].pid == pid)
			return true;
	return false;
}

/* --trace-out's CPU tracks of exec_text around frame o: the same names */
static void exec_tef(const struct why_frame *o)
{
	struct tef_span win[1];
	uint64_t flow = 1;
	struct tef_cell c = { .pid = 1, .win = win, .max_events = 1000,
			      .flow_id = &flow };
	struct sbuf out;
	bool cut, ok;
	FILE *in = fmemopen((void *)exec_text, sizeof(exec_text) - 1, "r");

	if (!in)
		exit(1);
	c.nwin = trace_tef_windows(o, 1, win);
	sb_init(&out);
	ok = trace_tef_sched(in, &c, &out, &cut) > 0 && out.s &&
	     strstr(out.s, "\"sh:6000\",\"ts\":400000000.000") &&
	     strstr(out.s, "\"ibexec:6000\",\"ts\":400001000.000") &&
	     strstr(out.s, "\"spinner:6100\"") &&
	     strstr(out.s, "\"a-long-name-of-:6200\"") &&
	     !strstr(out.s, "chrt") && !strstr(out.s, "twenty");
	fclose(in);
	check(ok, "exec: --trace-out's slices named so too%s%s", ok ? "" :
	      ": ", ok || !out.s ? "" : out.s);
	sb_free(&out);
}

/*
 * A task that names itself in Latin-1 ("caf\xe9": a lone lead byte, then
 * the comm's end) on CPU 0 from 400.000 to 400.010 s.
 */
static const char latin1_text[] =
"          <idle>-0     [000] d..2. 400.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=caf\xe9 next_pid=6300 next_prio=120\n"
"           caf\xe9-6300  [000] d..2. 400.010000: sched_switch: prev_comm=caf\xe9 prev_pid=6300 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";

/* --trace-out's file is UTF-8 whatever a comm holds, as the JSON's */
static void latin1_tef_case(void)
{
	struct tef_span win[1] = { { S(399.99), S(400.02) } };
	uint64_t flow = 1;
	struct tef_cell c = { .pid = 1, .win = win, .nwin = 1,
			      .max_events = 1000, .flow_id = &flow };
	struct sbuf out;
	size_t i, l = 1;
	bool cut, ok;
	FILE *in = fmemopen((void *)latin1_text, sizeof(latin1_text) - 1,
			    "r");

	if (!in)
		exit(1);
	sb_init(&out);
	ok = trace_tef_sched(in, &c, &out, &cut) > 0 && out.s &&
	     strstr(out.s, "\"caf\\ufffd:6300\"");
	for (i = 0; ok && i < out.len && l; i += l)
		l = text_utf8_len((const unsigned char *)out.s + i,
				  out.len - i);
	fclose(in);
	check(ok && l, "--trace-out: a Latin-1 comm as caf\\ufffd, the text "
	      "all UTF-8%s%s", ok && l ? "" : ": ",
	      ok && l ? "" : out.s ? out.s : "(null)");
	sb_free(&out);
}

/* Each culprit named as it was while it ran: ibexec, spinner. */
static void exec_case(void)
{
	struct worst_frames w = { .keep = 1, .n = 1, .timing_tid = 8 };
	struct why_frame *o;
	char line[512];
	FILE *f = fmemopen((void *)exec_text, sizeof(exec_text) - 1, "r");
	int n;

	w.f[0] = (struct worst_frame){ .release = S(400.0),
		.timer = S(400.02), .timer_cpu = 1, .start = S(400.03),
		.tid = 7, .cpu = 0 };
	if (!f)
		exit(1);
	n = trace_explain_file(f, &w, NULL, &o);
	fclose(f);
	check(n == 1 && !o[0].lost, "exec: the frame explained");
	if (n != 1)
		return;
	check(o[0].wait.nran == 1 && !strcmp(o[0].wait.ran[0].name, "ibexec") &&
	      o[0].wait.ran[0].pid == 6000 && o[0].wait.ran[0].ns == S(0.01),
	      "exec: the wait part is ibexec's 10 ms, not sh's (%s %d)",
	      o[0].wait.nran ? o[0].wait.ran[0].name : "-", o[0].wait.nran);
	check(o[0].timer.nran == 1 &&
	      !strcmp(o[0].timer.ran[0].name, "spinner") &&
	      o[0].timer.ran[0].pid == 6100 &&
	      o[0].timer.ran[0].ns == S(0.01999), "exec: renamed with no "
	      "exec event, the timer part is spinner's 19.99 ms, not chrt's "
	      "(%s)",
	      o[0].timer.nran ? o[0].timer.ran[0].name : "-");
	out_why_line(line, sizeof(line), &o[0]);
	check(strstr(line, "behind spinner:6100 20;") &&
	      strstr(line, "behind ibexec:6000 10") && !strstr(line, "sh:") &&
	      !strstr(line, "chrt"), "exec: the line names them so (%s)",
	      line);
	check(has_slice(&o[0], "sh", 6000) && has_slice(&o[0], "ibexec", 6000) &&
	      has_slice(&o[0], "a-long-name-of-", 6200) &&
	      !has_slice(&o[0], "a-long-name-of-twenty", 6200) &&
	      !has_slice(&o[0], "chrt", 6100) &&
	      has_slice(&o[0], "spinner", 6100), "exec: the picture's slices "
	      "too: sh until the exec, ibexec after; a thread's exec under its "
	      "leader's pid, the name cut to 15 bytes");
	exec_tef(&o[0]);
	free(o);
}

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
	n = trace_explain_file(f, &w, NULL, &o);
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
	picture_case(&o[1]);
	free(o);
	bound_case();

	/* A trace stopped (--breaktrace) before frame 2 started. */
	f = fmemopen((void *)trace_text, sizeof(trace_text) - 1, "r");
	n = trace_explain_file(f, &w, &(struct why_env){ .vm = -1,
			       .stopped_ns = S(100.01) }, &o);
	fclose(f);
	check(n == 2 && o[0].lost && !o[1].lost, "after the trace stopped: "
	      "incomplete");
	free(o);
	idle_case(1);
	idle_case(0);
	throttle_cases();
	exec_case();
	latin1_tef_case();
	check(!strcmp(trace_why_idle_text(WHY_IDLE_HOST),
		      "host (steal or vCPU wakeup)") &&
	      !strcmp(trace_why_idle_text(WHY_IDLE_EXIT_OR_HOST),
		      "host steal or idle-state exit") &&
	      !strcmp(trace_why_idle_text(WHY_IDLE_THROTTLED), "throttled"),
	      "the causes' words");
	return check_done();
}
