// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-stamps.c - --trace does not record a switch to a periodic
 * benchmark's simulated or timing thread from the idle task or from the
 * timing thread (run/trace.c's trace_switch_filter); the explanation
 * (trace_why.c) and --trace-out (trace_tef.c) put those threads back
 * from their stamps. Each made-up
 * trace here is whole, with its truth known; the test drops the lines the
 * filter drops and checks that the frame is explained as the whole trace
 * explains it (to the few us between a switch and the stamp after it):
 * an idle CPU, a thread still on its previous frame, and a culprit; and
 * without the threads' markers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/trace.h"
#include "run/trace_tef.h"
#include "check.h"
#include "core/raw.h"
#include "lib/svg.h"

/* Times are seconds in the trace: 100.000000 is 100 s. */
#define S(x)	((uint64_t)((x) * 1e9 + 0.5))
#define US	1000.0

#define MARKS \
"   ib:sim:Audio-5001  [000] ..... 99.900000: tracing_mark_write: interbench: tid 7\n" \
"   ib:timer:Audio-5002  [000] ..... 99.900001: tracing_mark_write: interbench: tid 8\n"
#define SW(cpu, t, pc, pp, nc, np) \
"   " pc "-" #pp "  [00" #cpu "] d..2. " t ": sched_switch: prev_comm=" pc \
" prev_pid=" #pp " prev_prio=120 prev_state=S ==> next_comm=" nc \
" next_pid=" #np " next_prio=120\n"
#define SIM	"ib:sim:Audio"
#define TIMER	"ib:timer:Audio"
#define IDLE0	"swapper/0"
#define IDLE1	"swapper/1"

/*
 * One CPU (-u), idle: released at 100 s, the timing thread switched in at
 * 100.000300 and stamped at .000310, the thread switched in at .000340
 * and stamped its start at .000350.
 */
static const char idle_text[] = MARKS
	SW(0, "99.950000", SIM, 5001, IDLE0, 0)
	SW(0, "100.000300", IDLE0, 0, TIMER, 5002)
	SW(0, "100.000340", TIMER, 5002, SIM, 5001)
	SW(0, "100.002400", SIM, 5001, IDLE0, 0);

/*
 * One CPU, the thread still on its previous frame (started 99.990000)
 * when the next is released at 100 s: the timing thread preempts it at
 * 100.000020, stamps at .000030, and the thread goes on until it starts
 * the new frame at 100.002.
 */
static const char busy_text[] = MARKS
	SW(0, "99.950000", SIM, 5001, IDLE0, 0)
	SW(0, "99.989990", IDLE0, 0, TIMER, 5002)
	SW(0, "99.990000", TIMER, 5002, SIM, 5001)
	SW(0, "100.000020", SIM, 5001, TIMER, 5002)
	SW(0, "100.000050", TIMER, 5002, SIM, 5001)
	SW(0, "100.002500", SIM, 5001, IDLE0, 0);

/*
 * One CPU: the previous frame, released late, ran from 99.999 to
 * 100.0001, after the next one's release at 100 s; the thread then
 * slept until the timing thread (stamped at 100.00031) woke it.
 */
static const char ended_text[] = MARKS
	SW(0, "99.950000", SIM, 5001, IDLE0, 0)
	SW(0, "99.999000", IDLE0, 0, SIM, 5001)
	SW(0, "100.000100", SIM, 5001, IDLE0, 0)
	SW(0, "100.000300", IDLE0, 0, TIMER, 5002)
	SW(0, "100.000340", TIMER, 5002, SIM, 5001)
	SW(0, "100.002400", SIM, 5001, IDLE0, 0);

/*
 * Two CPUs: the timing thread on CPU 1, the thread on CPU 0, where a
 * spinner ("spin", 6000) holds the CPU from 99.990 to 100.003.
 */
static const char culprit_text[] = MARKS
	SW(0, "99.950000", SIM, 5001, IDLE0, 0)
	SW(1, "99.950000", TIMER, 5002, IDLE1, 0)
	SW(0, "99.990000", IDLE0, 0, "spin", 6000)
	SW(1, "100.000300", IDLE1, 0, TIMER, 5002)
	SW(1, "100.000400", TIMER, 5002, IDLE1, 0)
	SW(0, "100.003000", "spin", 6000, SIM, 5001)
	SW(0, "100.004000", SIM, 5001, IDLE0, 0);

/* The filter, as trace_switch_filter says it: is line s dropped? */
static int dropped(const char *s)
{
	const char *p = strstr(s, "prev_comm="), *n = strstr(s, "next_comm=");

	if (!strstr(s, "sched_switch") || !p || !n)
		return 0;
	p += strlen("prev_comm=");
	n += strlen("next_comm=");
	return (!strncmp(p, "swapper", 7) || !strncmp(p, "ib:timer:", 9)) &&
	       (!strncmp(n, "ib:sim:", 7) || !strncmp(n, "ib:timer:", 9));
}

/* text without the lines the filter drops, in out (as big): how many */
static int filter(const char *text, char *out)
{
	const char *s = text;
	int n = 0;

	out[0] = '\0';
	while (*s) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s + 1) : strlen(s);
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)len, s);
		if (dropped(line))
			n++;
		else
			strcat(out, line);
		s += len;
	}
	return n;
}

/* The one frame f explained from text, filtered or whole: NULL if not. */
static struct why_frame *explain(const char *text, bool filtered,
				 const struct worst_frame *f)
{
	struct worst_frames w = { .keep = 1, .n = 1, .timing_tid = 8 };
	char buf[4096];
	struct why_frame *o = NULL;
	FILE *in;
	int n;

	if (filtered)
		filter(text, buf);
	else
		snprintf(buf, sizeof(buf), "%s", text);
	w.f[0] = *f;
	in = fmemopen(buf, strlen(buf), "r");
	if (!in)
		exit(1);
	n = trace_explain_file(in, &w, &(struct why_env){ .vm = 1,
			       .filtered = filtered }, &o);
	fclose(in);
	if (n == 1 && !o[0].lost)
		return o;
	free(o);
	return NULL;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void idle_case(void)
{
	const struct worst_frame f = { .release = S(100.0),
		.timer = S(100.000310), .timer_cpu = 0,
		.start = S(100.000350), .tid = 7, .cpu = 0 };
	char buf[4096];
	struct why_frame *a = explain(idle_text, false, &f);
	struct why_frame *b = explain(idle_text, true, &f);

	check(filter(idle_text, buf) == 2, "idle: the filter drops both "
	      "switches on the frame's path");
	check(a && b, "idle: explained, whole and filtered");
	if (!a || !b)
		goto out;
	check(a->timer.idle_ns == S(0.0003) && b->timer.idle_ns ==
	      S(0.00031), "idle: timer part idle to the switch (0.300 ms) "
	      "and to the stamp (0.310 ms) (%.3f, %.3f)", ms(a->timer.idle_ns),
	      ms(b->timer.idle_ns));
	check(a->timer.idle_cause == WHY_IDLE_HOST && b->timer.idle_cause ==
	      WHY_IDLE_HOST && !a->timer.nran && !b->timer.nran, "idle: the "
	      "timer part is the host's in both, nobody ran instead");
	check(b->wait.nran == 1 && b->wait.ran[0].pid == 5002 &&
	      !strcmp(b->wait.ran[0].name, TIMER) &&
	      b->wait.others_ns == S(0.00004) && !b->wait.idle_ns,
	      "idle, filtered: the wait part is the timing thread's, from "
	      "its stamp to the start (%.3f ms)", ms(b->wait.others_ns));
	check(a->wait.others_ns + a->wait.own_ns == b->wait.others_ns,
	      "idle: the same wait, whole (timing %.3f + own %.3f ms)",
	      ms(a->wait.others_ns), ms(a->wait.own_ns));
	check(b->nstamps == 2 && b->stamp[0].pid == 5002 &&
	      !strcmp(b->stamp[0].comm, TIMER) && b->stamp[1].pid == 5001 &&
	      b->stamp[1].ns == S(100.000350), "idle: two stamps kept, the "
	      "timing thread's and the start, with their trace pids");
	check(!a->nstamps, "a whole trace uses no stamps");
out:
	free(a);
	free(b);
}

/* --trace-out of the busy frame, filtered: CPU 0's track */
static void tef_case(const struct why_frame *o, const char *text)
{
	struct tef_span win[1];
	struct why_stamp st[WHY_STAMPS];
	uint64_t flow = 1;
	struct tef_cell c = { .pid = 1, .win = win, .max_events = 1000,
			      .flow_id = &flow, .stamp = st };
	char buf[4096];
	struct sbuf out;
	bool cut, ok;
	FILE *in;
	long n;

	filter(text, buf);
	c.nwin = trace_tef_windows(o, 1, win);
	c.nstamp = trace_tef_stamps(o, 1, st);
	in = fmemopen(buf, strlen(buf), "r");
	if (!in)
		exit(1);
	sb_init(&out);
	n = trace_tef_sched(in, &c, &out, &cut);
	fclose(in);
	ok = n > 0 && out.s && strstr(out.s, "\"name\":\"" SIM ":5001\","
	     "\"ts\":100000000.000") && strstr(out.s, "\"name\":\"" SIM
	     ":5001\",\"ts\":100000030.000,\"pid\":1,\"tid\":10100,\"dur\":"
	     "2470.000");
	check(ok, "--trace-out: CPU 0 runs the thread from the release and "
	      "again from the timing thread's stamp to its switch out%s%s",
	      ok ? "" : ": ", ok || !out.s ? "" : out.s);
	sb_free(&out);
}

static void busy_case(void)
{
	struct worst_frame f = { .release = S(100.0), .timer = S(100.00003),
		.timer_cpu = 0, .start = S(100.002), .tid = 7, .cpu = 0,
		.busy_from = S(100.0), .busy_to = S(100.002) };
	char buf[4096];
	struct why_frame *a = explain(busy_text, false, &f);
	struct why_frame *b = explain(busy_text, true, &f);

	check(filter(busy_text, buf) == 3, "busy: the filter drops three "
	      "switches, keeps the thread's to the timing thread");
	check(a && b, "busy: explained, whole and filtered");
	if (!a || !b)
		goto out;
	check(a->wait.own_ns == S(0.00195) && b->wait.own_ns == S(0.00197) &&
	      !b->wait.others_ns && !b->wait.idle_ns, "busy: the wait part "
	      "is the thread's own previous frame (%.3f whole, %.3f "
	      "filtered)", ms(a->wait.own_ns), ms(b->wait.own_ns));
	check(b->timer.nran == 1 && b->timer.ran[0].pid == 5001 &&
	      b->timer.ran[0].ns == S(0.00002) && !b->timer.idle_ns &&
	      a->timer.ran[0].ns == S(0.00002), "busy: the thread ran in the "
	      "timer part until the timing thread preempted it, not idle");
	tef_case(b, busy_text);
	free(b);
	/* The previous frame started after the release: busy from then */
	f.busy_from = S(100.00001);
	b = explain(busy_text, true, &f);
	check(b && b->timer.idle_ns == S(0.00001) && b->timer.nran == 1 &&
	      b->timer.ran[0].ns == S(0.00001) && b->wait.own_ns ==
	      S(0.00197), "busy from after the release: idle until then, "
	      "the thread after");
	free(b);
	/* Without busy_from, the timing thread would be blamed: say so */
	f.busy_from = f.busy_to = 0;
	b = explain(busy_text, true, &f);
	check(b && b->wait.others_ns == S(0.00197), "busy unknown: the "
	      "stale timing thread takes the wait (what busy_from is for)");
	free(b);
	/* The previous frame ended before the timing thread woke */
	f = (struct worst_frame){ .release = S(100.0), .timer = S(100.00031),
		.timer_cpu = 0, .start = S(100.00035), .tid = 7, .cpu = 0,
		.busy_from = S(100.0), .busy_to = S(100.0001) };
	b = explain(ended_text, true, &f);
	check(b && b->timer.nran == 1 && b->timer.ran[0].ns == S(0.0001) &&
	      b->timer.idle_ns == S(0.00021) && !b->wait.own_ns &&
	      b->wait.others_ns == S(0.00004), "busy until before the "
	      "timing thread woke: the thread, then idle, then the timing "
	      "thread, not the thread again");
out:
	free(a);
	free(b);
}

static void culprit_case(void)
{
	const struct worst_frame f = { .release = S(100.0),
		.timer = S(100.00031), .timer_cpu = 1, .start = S(100.00301),
		.tid = 7, .cpu = 0 };
	char buf[4096];
	struct why_frame *a = explain(culprit_text, false, &f);
	struct why_frame *b = explain(culprit_text, true, &f);

	check(filter(culprit_text, buf) == 1, "culprit: only the idle "
	      "task's switch to the timing thread is dropped");
	check(a && b, "culprit: explained, whole and filtered");
	if (!a || !b)
		goto out;
	check(b->wait.nran == 1 && !strcmp(b->wait.ran[0].name, "spin") &&
	      b->wait.ran[0].ns == S(0.00269) && a->wait.ran[0].ns ==
	      S(0.00269), "culprit: spin ran through the wait part to the "
	      "switch, 2.69 ms, filtered as whole");
	check(b->timer.idle_ns == S(0.00031) && a->timer.idle_ns ==
	      S(0.0003), "culprit: the timer part idle to the stamp");
out:
	free(a);
	free(b);
}

/*
 * The markers overwritten (a full buffer): the threads are known by our
 * tids alone, named by their prefix, and their stamps still apply.
 */
static void unmarked_case(void)
{
	const struct worst_frame f = { .release = S(100.0),
		.timer = S(100.000310), .timer_cpu = 0,
		.start = S(100.000350), .tid = 7, .cpu = 0 };
	struct why_frame *b = explain(idle_text + strlen(MARKS), true, &f);

	check(b && b->wait.nran == 1 && b->wait.ran[0].pid == 8 &&
	      !strcmp(b->wait.ran[0].name, "ib:timer:") &&
	      b->wait.others_ns == S(0.00004) && b->timer.idle_ns ==
	      S(0.00031), "no markers: the timing thread (tid 8) from its "
	      "stamp, the thread from its start, as with them");
	free(b);
}

/* A chain's nodes and Cyclic's threads keep their switches: no stamp
 * could put them back. dropped() is the filter's rule, read off it. */
static void kept_case(void)
{
	check(strstr(trace_switch_filter, "!((prev_pid == 0 || prev_comm ~ "
		     "\"ib:timer:*\") && (next_comm ~ \"ib:sim:*\" || "
		     "next_comm ~ \"ib:timer:*\"))") != NULL, "the filter is "
	      "the rule this test drops lines by (%s)", trace_switch_filter);
	check(!dropped(SW(0, "1.0", IDLE0, 0, "ib:bench:AudioG", 42)) &&
	      !dropped(SW(0, "1.0", TIMER, 5002, "ib:bench:Cyclic", 42)) &&
	      !dropped(SW(0, "1.0", "burner", 4001, SIM, 5001)) &&
	      !dropped(SW(0, "1.0", SIM, 5001, TIMER, 5002)) &&
	      dropped(SW(0, "1.0", IDLE0, 0, SIM, 5001)),
	      "kept: idle to a chain's node, to Cyclic, a load's and the "
	      "thread's own to the timing thread; dropped: idle to ours");
}

int main(void)
{
	kept_case();
	unmarked_case();
	idle_case();
	busy_case();
	culprit_case();
	return check_done();
}
