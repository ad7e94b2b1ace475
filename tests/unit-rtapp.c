// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-rtapp - the rt-app file reader (simulators/rtapp/rtapp_read.c,
 * rtapp_parse.c, rtapp_check.c): what workgen reads (repeated keys, a
 * bare or empty suspend, comments) read as workgen and rt-app read it,
 * every key read as rt-app 1.0 reads it, and every refusal in one line
 * naming the file and the key.
 */
#include <errno.h>
#include <mntent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "lib/base.h"
#include "lib/policy.h"
#include "simulators/rtapp/rtapp.h"

static char err[640];

static struct rtapp_wl *ok(const char *text, const char *what)
{
	struct rtapp_wl *wl = NULL;
	int r = rtapp_parse_text(text, strlen(text), "w.json", &wl, err,
				 sizeof(err));

	check(!r && wl, "read: %s%s%s", what, r ? ": " : "", r ? err : "");
	return wl;
}

/* Refused, with a message holding want (the file and the key). */
static void refused(const char *text, const char *want)
{
	struct rtapp_wl *wl = NULL;
	int r = rtapp_parse_text(text, strlen(text), "w.json", &wl, err,
				 sizeof(err));

	check(r == -EINVAL && !wl && strstr(err, want) && !strchr(err, '\n'),
	      "refused with '%s' (got %d: %s)", want, r, err);
	rtapp_free(wl);
}

static const struct rtapp_event *ev(const struct rtapp_wl *wl, int t, int p,
				    int e)
{
	return &wl->task[t].phase[p].ev[e];
}

static void events(void)
{
	struct rtapp_wl *wl;
	const struct rtapp_phase *ph;

	/* keys matched by their start, in the file's order */
	wl = ok("{\"tasks\":{\"t\":{\"run0\":100,\"runtime\":200,"
		"\"sleep_a\":300,\"run1\":4,\"timerA\":{\"ref\":\"unique\","
		"\"period\":1000},\"runtime9\":5,\"mem\":64,\"iorun\":32,"
		"\"yield\":\"\"}}}", "events by prefix");
	if (!wl)
		return;
	ph = &wl->task[0].phase[0];
	check(wl->ntask == 1 && wl->task[0].nphase == 1 && ph->nev == 9,
	      "one task, one phase, nine events");
	check(ph->ev[0].type == RTE_RUN && ph->ev[0].ns == 100000 &&
	      ph->ev[1].type == RTE_RUNTIME && ph->ev[1].ns == 200000 &&
	      ph->ev[2].type == RTE_SLEEP && ph->ev[2].ns == 300000 &&
	      ph->ev[3].type == RTE_RUN && ph->ev[4].type == RTE_TIMER &&
	      ph->ev[4].ns == 1000000 && ph->ev[5].type == RTE_RUNTIME,
	      "run, runtime (before run), sleep, timer: in order, us to ns");
	check(ph->ev[6].type == RTE_MEM && ph->ev[6].bytes == 64 &&
	      ph->ev[7].type == RTE_IORUN && ph->ev[7].bytes == 32 &&
	      ph->ev[8].type == RTE_YIELD, "mem, iorun (bytes), yield");
	check(wl->task[0].membuf && wl->io && wl->membuf == 4 * 1024 * 1024 &&
	      !strcmp(wl->io_device, "/dev/null"), "mem and iorun: a buffer "
	      "of rt-app's default 4 MB, io_device /dev/null by default");
	check(wl->task[0].periodic && wl->nperiodic == 1 &&
	      !wl->task[0].timer_abs[0], "a timer makes it periodic; "
	      "relative by default");
	check(wl->task[0].loop == -1 && ph->loop == 1,
	      "no loop: the thread for ever, its one phase once a pass");
	check(wl->task[0].policy == POL_OTHER && wl->task[0].prio == 0 &&
	      wl->task[0].instance == 1 && !wl->task[0].has_cpus &&
	      !wl->task[0].delay_ns && wl->task[0].tg < 0,
	      "defaults: SCHED_OTHER nice 0, one instance, every CPU, no "
	      "delay, no taskgroup");
	check(wl->bytes > 0 && !strcmp(wl->file, "w.json") &&
	      strstr(wl->ident, "w.json (") && strstr(wl->ident, "fnv1a"),
	      "the file's name, size and checksum for the settings: %s",
	      wl->ident);
	rtapp_free(wl);

	wl = ok("{\"tasks\":{\"a\":{\"instance\":2,\"barrier\":\"b\","
		"\"suspend\":\"\",\"run\":1},\"z\":{\"resume\":\"a\","
		"\"timer\":{\"ref\":\"t\",\"period\":10,\"mode\":\"absolute\"},"
		"\"barrier\":\"b\"}}}", "barrier, suspend, resume, absolute");
	if (!wl)
		return;
	check(wl->nthreads == 3 && wl->nperiodic == 1,
	      "instances counted: 3 threads, 1 periodic");
	check(wl->nbarrier == 1 && wl->barrier[0].users == 3,
	      "a barrier's users: every use, each instance's (3)");
	check(wl->ncond == 1 && !strcmp(wl->cond[0], "a") &&
	      wl->nmutex == 1 && !strcmp(wl->mutex[0], "a") &&
	      ev(wl, 0, 0, 1)->type == RTE_SUSPEND &&
	      ev(wl, 1, 0, 0)->type == RTE_RESUME,
	      "suspend \"\" is the thread's own name; suspend and resume use "
	      "the condition and the mutex of the name");
	check(wl->task[1].timer_abs[0] && wl->task[0].woken &&
	      wl->task[1].woken, "mode absolute; a thread that suspends or "
	      "meets a barrier is woken by others");
	rtapp_free(wl);

	/* the mutex and condition events, sharing names with suspend */
	wl = ok("{\"tasks\":{\"w\":{\"lock\":\"m\",\"wait\":{\"ref\":\"c\","
		"\"mutex\":\"m\"},\"unlock\":\"m\"},\"s\":{\"lock\":\"m\","
		"\"sync\":{\"ref\":\"c\",\"mutex\":\"m\"},\"signal\":\"c\","
		"\"broad\":\"c\",\"unlock\":\"m\",\"suspend\":\"m\"},"
		"\"r\":{\"resume\":\"m\",\"sleep\":10}}}", "lock, wait, sync, "
		"signal, broad");
	if (!wl)
		return;
	check(wl->nmutex == 1 && wl->ncond == 2 &&
	      ev(wl, 0, 0, 0)->type == RTE_LOCK && ev(wl, 0, 0, 0)->res == 0 &&
	      ev(wl, 0, 0, 1)->type == RTE_WAIT && ev(wl, 0, 0, 1)->res == 0 &&
	      ev(wl, 0, 0, 1)->dep == 0 && ev(wl, 1, 0, 1)->type == RTE_SYNC &&
	      ev(wl, 1, 0, 2)->type == RTE_SIGNAL &&
	      ev(wl, 1, 0, 3)->type == RTE_BROAD &&
	      ev(wl, 1, 0, 5)->type == RTE_SUSPEND &&
	      ev(wl, 1, 0, 5)->dep == 0 && ev(wl, 1, 0, 5)->res == 1,
	      "one mutex m (lock's and suspend's), conditions c and m");
	rtapp_free(wl);

	/* a timer's defaults: ref "unknown", period 0 (no frames) */
	wl = ok("{\"tasks\":{\"t\":{\"run\":1,\"timer\":{}}}}",
		"a timer left empty");
	check(wl && !wl->task[0].periodic && !wl->nperiodic &&
	      !strcmp(wl->task[0].timer_ref[0], "unknown") &&
	      ev(wl, 0, 0, 1)->ns == 0, "rt-app's defaults: ref \"unknown\", "
	      "period 0, which paces nothing");
	rtapp_free(wl);
}

/* workgen's grammar: repeated keys, a bare or empty suspend, comments */
static void workgen(void)
{
	struct rtapp_wl *wl;
	const struct rtapp_task *t;

	wl = ok("{\"tasks\":{\"t\":{\"run\":1,\"sleep\":2,\"run\":3,"
		"\"sleep\":4,\"run\":5}}}", "repeated keys");
	if (!wl)
		return;
	check(wl->task[0].phase[0].nev == 5 &&
	      ev(wl, 0, 0, 2)->ns == 3000 && ev(wl, 0, 0, 3)->ns == 4000 &&
	      ev(wl, 0, 0, 4)->type == RTE_RUN && ev(wl, 0, 0, 4)->ns == 5000,
	      "every repeat taken, in order");
	rtapp_free(wl);

	wl = ok("{\"tasks\":{\"t\":{\"phases\":{\"p\":{\"run\":1},\"p\":"
		"{\"run\":2},\"q\":{\"run\":3},\"q\":{\"run\":4},\"p\":{\"run\":"
		"5},\"p1\":{\"run\":6}}}}}", "repeated phases");
	if (!wl)
		return;
	t = &wl->task[0];
	check(t->nphase == 6 && !strcmp(t->phase[0].name, "p") &&
	      !strcmp(t->phase[1].name, "p1") && !strcmp(t->phase[2].name, "q")
	      && !strcmp(t->phase[3].name, "q1") &&
	      !strcmp(t->phase[4].name, "p2") &&
	      !strcmp(t->phase[5].name, "p12") &&
	      t->phase[5].ev[0].ns == 6000, "numbered as workgen numbers them "
	      "(p p1 q q1 p2; p1 again: p12, the object's counter): %s %s %s "
	      "%s %s %s", t->phase[0].name, t->phase[1].name, t->phase[2].name,
	      t->phase[3].name, t->phase[4].name, t->phase[5].name);
	rtapp_free(wl);

	/* workgen's bare "suspend": the thread's name, in any layout */
	wl = ok("{\"tasks\":{\"A\":{\"suspend\",\"run\":1},\"B\":{\"phases\":"
		"{\"p\":{\"run\":1,\n\t\"suspend\"\n}}},\"C\":{\"resume\":\"A\","
		"\"resume\":\"B\",\"sleep\":1}}}", "a bare suspend");
	if (!wl)
		return;
	check(wl->ncond == 2 && !strcmp(wl->cond[ev(wl, 0, 0, 0)->res], "A") &&
	      !strcmp(wl->cond[ev(wl, 1, 0, 1)->res], "B") &&
	      ev(wl, 1, 0, 1)->type == RTE_SUSPEND, "filled with the thread's "
	      "name (A; B, from its phase, before a closing brace)");
	rtapp_free(wl);

	wl = ok("/* a */ {\"tasks\":{\"t\":{ // b \"suspend\",\n\"run\":1, "
		"/* c, { */\n},},\"global\":{\"logdir\":\"/*x*/\",},}",
		"comments and trailing commas (json-c reads them)");
	check(wl && wl->task[0].phase[0].nev == 1, "... a comment holding "
	      "a key or a brace is nothing, and one inside a string is text");
	rtapp_free(wl);
	refused("{\"tasks\":{\"t\":{\"run\":1}} /* open", "w.json: not JSON "
		"rt-app can read");
	refused("{\"tasks\":{\"t\":{\"run\",\"sleep\":1}}}", "w.json: not "
		"JSON rt-app can read: line 1");
}

static void tasks_and_phases(void)
{
	struct rtapp_wl *wl;
	char text[256];

	wl = ok("{\"global\":{\"default_policy\":\"SCHED_FIFO\"},\"tasks\":{"
		"\"f\":{\"run\":1},\"r\":{\"policy\":\"SCHED_RR\",\"priority\":"
		"30,\"loop\":5,\"run\":1},\"o\":{\"policy\":\"SCHED_OTHER\","
		"\"priority\":-5,\"run\":1}}}", "policies and priorities");
	if (!wl)
		return;
	check(wl->task[0].policy == POL_FIFO && wl->task[0].prio == 10,
	      "default_policy SCHED_FIFO, rt-app's default priority 10");
	check(wl->task[1].policy == POL_RR && wl->task[1].prio == 30 &&
	      wl->task[1].loop == 5, "SCHED_RR 30, loop 5 (the thread, "
	      "without phases)");
	check(wl->task[2].policy == POL_OTHER && wl->task[2].prio == -5,
	      "SCHED_OTHER: priority is nice");
	rtapp_free(wl);

	wl = ok("{\"tasks\":{\"t\":{\"loop\":3,\"cpus\":[0],\"delay\":250,"
		"\"phases\":{\"p0\":{\"loop\":4,\"run\":1,\"cpus\":[0]},"
		"\"p1\":{\"sleep\":2,\"run\":3}}},\"u\":{\"delay\":-5,"
		"\"run\":1}}}", "phases, cpus, delay");
	if (!wl)
		return;
	check(wl->task[0].loop == 3 && wl->task[0].nphase == 2 &&
	      wl->task[0].phase[0].loop == 4 && wl->task[0].phase[1].loop == 1
	      && wl->task[0].phase[1].nev == 2, "phases in order, each its "
	      "loop (default 1), the thread's loop over them");
	check(wl->task[0].has_cpus && CPU_ISSET(0, &wl->task[0].cpus) &&
	      CPU_COUNT(&wl->task[0].cpus) == 1 &&
	      wl->task[0].phase[0].has_cpus && !wl->task[0].phase[1].has_cpus,
	      "cpus of the thread and of a phase");
	check(wl->task[0].delay_ns == 250000 && wl->task[1].delay_ns == 0,
	      "delay in us; a negative delay is none, as rt-app takes it");
	rtapp_free(wl);

	/* the highest priority interbench gives a task, and one above */
	snprintf(text, sizeof(text), "{\"tasks\":{\"t\":{\"policy\":"
		 "\"SCHED_FIFO\",\"priority\":%d,\"run\":1}}}", PRIO_SIM);
	rtapp_free(ok(text, "SCHED_FIFO at interbench's PRIO_SIM"));
	snprintf(text, sizeof(text), "{\"tasks\":{\"t\":{\"policy\":"
		 "\"SCHED_FIFO\",\"priority\":%d,\"run\":1}}}", PRIO_SIM + 1);
	refused(text, "w.json: tasks.t.priority: ");

	/* what the threads ask of the CPUs (tutorial example 3's shape) */
	wl = ok("{\"tasks\":{\"t\":{\"instance\":12,\"loop\":1,\"phases\":{"
		"\"light\":{\"loop\":10,\"run\":3000,\"timer\":{\"ref\":"
		"\"unique\",\"period\":30000}},\"heavy\":{\"loop\":10,\"run\":"
		"27000,\"timer\":{\"ref\":\"unique\",\"period\":30000}}}},"
		"\"w\":{\"suspend\":\"\",\"run\":9},\"x\":{\"resume\":\"w\","
		"\"run\":1000,\"sleep\":3000}}}", "demand");
	if (!wl)
		return;
	check_near(wl->demand, 12 * 0.5 + 0.25, 1e-9, "12 threads at half a "
		   "CPU, one at a quarter");
	check(wl->demand_partial && wl->task[1].demand < 0, "a thread another "
	      "one paces: its demand unknown");
	rtapp_free(wl);
}

static void global_and_resources(void)
{
	struct rtapp_wl *wl;

	wl = ok("{\"global\":{\"duration\":5,\"calibration\":\"CPU0\","
		"\"logdir\":\"./\",\"log_basename\":\"x\",\"log_size\":2,"
		"\"gnuplot\":true,\"lock_pages\":true,\"ftrace\":false,"
		"\"pi_enabled\":false,\"cumulative_slack\":true,\"io_device\":"
		"\"/dev/zero\",\"mem_buffer_size\":4096},\"resources\":{},"
		"\"tasks\":{\"t\":{\"run\":1}}}", "every global key rt-app reads");
	check(wl && !wl->pi && wl->membuf == 4096 && !wl->nnote &&
	      !strcmp(wl->io_device, "/dev/zero"), "pi_enabled false, "
	      "mem_buffer_size and io_device kept, no note");
	rtapp_free(wl);
	wl = ok("{\"global\":{\"ftrace\":\"main,task\",\"pi_enabled\":true,"
		"\"frag\":1,\"calibration\":120,\"log_size\":\"file\"},"
		"\"extra\":{},\"tasks\":{\"t\":{\"run\":1}}}", "keys rt-app "
		"ignores");
	if (!wl)
		return;
	check(wl->pi && wl->nnote == 2 &&
	      !strcmp(wl->note[1], "global.frag: rt-app 1.0 does not read "
		      "it: ignored") && !strcmp(wl->note[0], "extra: rt-app "
		      "reads only tasks, global and resources: ignored"),
	      "pi_enabled true; a top-level key and global.frag ignored, "
	      "each with a note (%s; %s)", wl->note[0], wl->note[1]);
	rtapp_free(wl);

	wl = ok("{\"resources\":{\"m0\":{\"type\":\"mutex\"},\"w\":{\"type\":"
		"\"wait\"},\"trig\":{\"type\":\"signal\",\"target\":\"w\"}},"
		"\"tasks\":{\"t\":{\"lock\":\"m0\",\"unlock\":\"m0\",\"run\":1}}}",
		"the resources section");
	check(wl && wl->nmutex == 1 && !strcmp(wl->mutex[0], "m0") &&
	      wl->ncond == 1 && ev(wl, 0, 0, 0)->res == 0 && wl->nnote == 1 &&
	      strstr(wl->note[0], "resources.trig.target: "), "declared "
	      "resources are the events' (m0); an entry's other keys noted");
	rtapp_free(wl);
}

static void refusals(void)
{
	refused("{\"tasks\":{\"t\":{\"cpus\":[],\"run\":1}}}",
		"w.json: tasks.t.cpus: must be an array of CPU numbers");
	refused("{\"tasks\":{\"t\":{\"cpus\":[-1],\"run\":1}}}",
		"tasks.t.cpus: must be a whole number from 0");
	refused("{\"tasks\":{\"t\":{\"cpus\":[1023],\"run\":1}}}",
		"w.json: tasks.t.cpus: CPU 1023 is not one interbench may use: "
		"this machine gives it CPUs ");
	refused("{\"tasks\":{\"t\":{\"phases\":{\"p\":{\"cpus\":[1000],"
		"\"run\":1}}}}}", "tasks.t.phases.p.cpus: CPU 1000 is not one");
	refused("{\"tasks\":{\"t\":{\"delay\":\"5\",\"run\":1}}}",
		"tasks.t.delay: must be a whole number");
	refused("{\"tasks\":{\"t\":{\"taskgroup\":\"tg\",\"run\":1}}}",
		"tasks.t.taskgroup: must be a path starting '/'");
	refused("{\"tasks\":{\"t\":{\"taskgroup\":\"/a/../b\",\"run\":1}}}",
		"tasks.t.taskgroup: must be a path");
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_FIFO\",\"taskgroup\":"
		"\"/tg\",\"run\":1}}}", "w.json: tasks: t is SCHED_FIFO in a "
		"taskgroup: rt-app puts only SCHED_OTHER threads");
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_DEADLINE\",\"run\":1}}}",
		"tasks.t.policy: SCHED_DEADLINE is not run");
	refused("{\"tasks\":{\"t\":{\"dl-runtime\":5,\"run\":1}}}",
		"tasks.t.dl-runtime: a SCHED_DEADLINE parameter");
	refused("{\"tasks\":{\"t\":{\"util_min\":5,\"run\":1}}}",
		"tasks.t.util_min: not a key rt-app 1.0 reads here");
	refused("{\"tasks\":{\"t\":{\"phases\":{\"p\":{\"policy\":"
		"\"SCHED_FIFO\",\"run\":1}}}}}", "tasks.t.phases.p.policy: not a "
		"key");
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_BATCH\",\"run\":1}}}",
		"tasks.t.policy: must be SCHED_OTHER, SCHED_FIFO or SCHED_RR");
	refused("{\"tasks\":{\"t\":{\"priority\":20,\"run\":1}}}",
		"tasks.t.priority: must be a whole number from -20 to 19");
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_RR\",\"priority\":0,"
		"\"run\":1}}}", "tasks.t.priority: must be a whole number from 1");
	refused("{\"tasks\":{\"t\":{\"run\":-1}}}",
		"tasks.t.run: must be a whole number from 0");
	refused("{\"tasks\":{\"t\":{\"sleep\":1.5}}}",
		"tasks.t.sleep: must be a whole number");
	refused("{\"tasks\":{\"t\":{\"mem\":\"x\"}}}",
		"tasks.t.mem: must be a whole number");
	refused("{\"tasks\":{\"t\":{\"lock\":5}}}", "tasks.t.lock: must be a "
		"string");
	refused("{\"tasks\":{\"t\":{\"signal\":\"\"}}}", "tasks.t.signal: "
		"must be a name of 1 to 31");
	refused("{\"tasks\":{\"t\":{\"wait\":\"c\"}}}", "tasks.t.wait: must be "
		"an object");
	refused("{\"tasks\":{\"t\":{\"wait\":{\"ref\":\"c\",\"mtx\":\"m\"}}}}",
		"tasks.t.wait.mtx: not a key");
	refused("{\"tasks\":{\"t\":{\"loop\":0,\"run\":1}}}",
		"tasks.t.loop: must be -1 (for ever) or 1 or more");
	refused("{\"tasks\":{\"t\":{\"instance\":0,\"run\":1}}}",
		"tasks.t.instance: must be a whole number from 1 to 64");
	refused("{\"tasks\":{\"t\":{\"instance\":40,\"run\":1},"
		"\"u\":{\"instance\":40,\"run\":1}}}", "more than 64 threads");
	refused("{\"tasks\":{\"t\":{\"loop\":1}}}", "tasks.t: no events");
	refused("{\"tasks\":{}}", "w.json: tasks: the file needs");
	refused("{\"global\":{}}", "w.json: tasks: the file needs");
	refused("{\"tasks\":{\"t\":{\"run\":1}},\"resources\":{\"m\":{}}}",
		"w.json: resources.m: must be { \"type\": T }");
	refused("{\"tasks\":{\"t\":{\"run\":1}},\"resources\":{\"m\":"
		"{\"type\":\"lock\"}}}", "w.json: resources.m: must be");
	refused("{\"global\":{\"ftrace\":1},\"tasks\":{\"t\":{\"run\":1}}}",
		"global.ftrace: must be true or false");
	refused("{\"global\":{\"logdir\":1},\"tasks\":{\"t\":{\"run\":1}}}",
		"global.logdir: must be a string");
	refused("{\"global\":{\"calibration\":\"fast\"},\"tasks\":{\"t\":{"
		"\"run\":1}}}", "global.calibration: must be ns per loop");
	refused("{\"global\":{\"mem_buffer_size\":0},\"tasks\":{\"t\":{"
		"\"run\":1}}}", "global.mem_buffer_size: must be a whole number "
		"of bytes from 1");
	refused("{\"global\":{\"io_device\":5},\"tasks\":{\"t\":{\"run\":1}}}",
		"global.io_device: must be a path");
	refused("{\"global\":{\"io_device\":\"/\"},\"tasks\":{\"t\":{"
		"\"iorun\":1}}}", "global.io_device: / is a directory: iorun "
		"writes a character device");
	refused("{\"global\":{\"default_policy\":\"SCHED_DEADLINE\"},"
		"\"tasks\":{\"t\":{\"run\":1}}}",
		"global.default_policy: SCHED_DEADLINE");
	refused("{\"tasks\":{\"t\":{\"timer\":{\"ref\":\"a\",\"period\":5,"
		"\"mode\":\"soon\"}}}}", "tasks.t.timer.mode: must be");
	refused("{\"tasks\":{\"t\":{\"timer\":{\"period\":-5}}}}",
		"tasks.t.timer.period: must be a whole number from 0");
	refused("{\"tasks\":{\"t\":{\"timer\":{\"period\":5,\"slack\":1}}}}",
		"tasks.t.timer.slack: not a key");
	refused("{\"tasks\":{\"t\":{\"timer\":{\"ref\":\"a\",\"period\":5},"
		"\"timer1\":{\"ref\":\"a\",\"period\":5,\"mode\":\"absolute\"}"
		"}}}", "timer 'a' is used both relative and absolute");
	refused("{\"tasks\":{\"t\":{\"instance\":2,\"timer\":{\"ref\":\"a\","
		"\"period\":5}}}}", "timer 'a' is shared by several threads");
	refused("{\"tasks\":{\"t\":{\"timer\":{\"ref\":\"a\",\"period\":5}},"
		"\"u\":{\"timer\":{\"ref\":\"a\",\"period\":5}}}}",
		"timer 'a' is shared");
	refused("{\"tasks\":{\"t\":{\"barrier\":\"b\",\"run\":1}}}",
		"barrier 'b' is used by one thread only");
	refused("{\"tasks\":{\"t\":{\"suspend\":\"x\"}}}",
		"w.json: tasks: 'x' is waited on (suspend, wait or sync) and no "
		"thread wakes it");
	refused("{\"tasks\":{\"t\":{\"resume\":\"x\",\"run\":1}}}",
		"'x' is woken (resume, signal or broad) and no thread waits");
	refused("{\"tasks\":{\"t\":{\"lock\":\"m\",\"lock1\":\"m\","
		"\"unlock\":\"m\"}}}", "w.json: tasks.t: lock 'm' while holding "
		"it");
	refused("{\"tasks\":{\"t\":{\"unlock\":\"m\",\"run\":1}}}",
		"tasks.t: unlock 'm', which it does not hold");
	refused("{\"tasks\":{\"t\":{\"wait\":{\"ref\":\"c\",\"mutex\":\"m\"}},"
		"\"u\":{\"signal\":\"c\",\"run\":1}}}", "tasks.t: wait on 'c' "
		"needs its mutex 'm' locked first");
	refused("{\"tasks\":{\"t\":{\"lock\":\"x\",\"suspend\":\"x\","
		"\"unlock\":\"x\"},\"u\":{\"resume\":\"x\",\"run\":1}}}",
		"tasks.t: suspend 'x' while holding the mutex 'x'");
	refused("{\"tasks\":{\"t\":{\"phases\":{\"a\":{\"lock\":\"m\"},"
		"\"b\":{\"unlock\":\"m\"}}}}}", "tasks.t.phases.a: locks 'm' and "
		"does not unlock it in the same phase");
	refused("{\"tasks\":{\"t\":{\"lock\":\"a\",\"lock\":\"b\",\"lock\":"
		"\"c\",\"lock\":\"d\",\"lock\":\"e\",\"lock\":\"f\",\"lock\":"
		"\"g\",\"lock\":\"h\",\"lock\":\"i\"}}}", "more than 8 mutexes "
		"held at once");
	refused("{\"tasks\":{\"t\":{\"run\":1,\"phases\":{\"p\":{\"run\":1}}}}}",
		"tasks.t.run: an event beside \"phases\"");
	refused("{\"tasks\":{\"t\":{\"phases\":{}}}}",
		"tasks.t.phases: must be an object of one or more phases");
	refused("{\"tasks\":{\"t\":{\"phases\":{\"p\":5}}}}",
		"tasks.t.phases.p: a phase must be an object");
	refused("{\"tasks\":{\"t\":[1]}}", "tasks.t: a task must be an object");
	refused("{\"tasks\":{\"t\":{\"run\":1}}", "w.json: not JSON rt-app can "
		"read: line 1");
	refused("[1]", "w.json: (top): the file must be a JSON object");
	refused("{\"tasks\":{\"t\\u001b[2J\":{\"run\":1}}}",
		"w.json: tasks: a task's name must be 1 to 31 printable");
	refused("{\"tasks\":{\"t\":{\"barrier\":\"\\u001b\",\"run\":1}}}",
		"tasks.t.barrier: must be printable ASCII");
	refused("{\"tasks\":{\"t\":{\"x\\u001b[2J\":1,\"run\":1}}}",
		"tasks.t.x?[2J: not a key");
}

/* The machine: CPUs under -u, taskgroups where the kernel has them. */
static void machine(void)
{
	static const char tg[] = "{\"tasks\":{\"t\":{\"taskgroup\":"
				 "\"/ib-t\",\"run\":1}}}";
	struct rtapp_wl *wl;
	cpu_set_t zero;
	FILE *f;
	struct mntent *m;
	bool v1cpu = false;
	int r;

	wl = ok("{\"tasks\":{\"t\":{\"phases\":{\"p\":{\"cpus\":"
		"[0],\"run\":1},\"q\":{\"run\":1}}},\"u\":{\"cpus\":[0],"
		"\"run\":1}}}", "cpus [0]");
	if (!wl)
		return;
	CPU_ZERO(&zero);
	CPU_SET(0, &zero);
	r = rtapp_check_cpus(wl, &zero, "-u runs everything on CPU 0", err,
			     sizeof(err));
	check(!r, "CPU 0 is among {0}");
	check(rtapp_ncpus(wl, &zero) == 1, "its threads may run on 1 CPU of "
	      "{0}");
	rtapp_free(wl);
	r = rtapp_parse_text("{\"tasks\":{}}\0", 14, "w.json", &wl, err,
			     sizeof(err));
	check(r == -EINVAL && !wl && strstr(err, "w.json: not a text file"),
	      "a NUL byte: not a text file (%s)", err);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		wl = ok("{\"tasks\":{\"t\":{\"phases\":{\"p\":{\"cpus\":[1],"
			"\"run\":1}}}}}", "cpus [1]");
		r = wl ? rtapp_check_cpus(wl, &zero, "-u runs everything on "
					  "CPU 0", err, sizeof(err)) : 0;
		check(r == -EINVAL && strstr(err, "w.json: tasks.t.phases.p."
					     "cpus: CPU 1 is not one "
					     "interbench may use: -u runs"),
		      "under -u, CPU 1 refused naming the key (%s)", err);
		rtapp_free(wl);
	} else {
		printf("# one CPU online: no CPU 1 to refuse under -u\n");
	}

	/* a taskgroup: as rt-app, where cgroup v1's cpu controller is */
	f = setmntent("/proc/mounts", "re");
	while (f && (m = getmntent(f)))
		v1cpu |= !strcmp(m->mnt_type, "cgroup") && hasmntopt(m, "cpu");
	if (f)
		endmntent(f);
	r = rtapp_parse_text(tg, strlen(tg), "w.json", &wl, err, sizeof(err));
	if (v1cpu && !geteuid())
		check(!r && wl && wl->ntg == 1 && !strcmp(wl->tg[0], "/ib-t") &&
		      wl->task[0].tg == 0, "a taskgroup, where the kernel has "
		      "cgroup v1's cpu controller (%s)", r ? err : "read");
	else
		check(r == -EINVAL && strstr(err, "taskgroup '/ib-t': "),
		      "a taskgroup refused where it cannot be made (%s)", err);
	rtapp_free(wl);
}

int main(void)
{
	struct rtapp_wl *wl = NULL;

	events();
	workgen();
	tasks_and_phases();
	global_and_resources();
	refusals();
	machine();
	check(rtapp_parse("/nonexistent/x.json", &wl, err, sizeof(err)) ==
	      -ENOENT && !wl && strstr(err, "/nonexistent/x.json: No such"),
	      "a missing file: its name and why (%s)", err);
	return check_done();
}
