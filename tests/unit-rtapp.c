// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-rtapp - the rt-app file reader (simulators/rtapp_parse.c): every
 * key of the subset read as rt-app reads it, and everything else refused
 * in one line naming the file and the key.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "lib/base.h"
#include "lib/policy.h"
#include "simulators/rtapp.h"

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

static void events(void)
{
	struct rtapp_wl *wl;
	const struct rtapp_phase *ph;

	/* keys matched by their start, in the file's order */
	wl = ok("{\"tasks\":{\"t\":{\"run0\":100,\"runtime\":200,"
		"\"sleep_a\":300,\"run1\":4,\"timerA\":{\"ref\":\"unique\","
		"\"period\":1000},\"runtime9\":5}}}", "events by prefix");
	if (!wl)
		return;
	ph = &wl->task[0].phase[0];
	check(wl->ntask == 1 && wl->task[0].nphase == 1 && ph->nev == 6,
	      "one task, one phase, six events");
	check(ph->ev[0].type == RTE_RUN && ph->ev[0].ns == 100000 &&
	      ph->ev[1].type == RTE_RUNTIME && ph->ev[1].ns == 200000 &&
	      ph->ev[2].type == RTE_SLEEP && ph->ev[2].ns == 300000 &&
	      ph->ev[3].type == RTE_RUN && ph->ev[4].type == RTE_TIMER &&
	      ph->ev[4].ns == 1000000 && ph->ev[5].type == RTE_RUNTIME,
	      "run, runtime (before run), sleep, timer: in order, us to ns");
	check(wl->task[0].periodic && wl->nperiodic == 1 &&
	      !wl->task[0].timer_abs[0], "a timer makes it periodic; "
	      "relative by default");
	check(wl->task[0].loop == -1 && ph->loop == 1,
	      "no loop: the thread for ever, its one phase once a pass");
	check(wl->task[0].policy == POL_OTHER && wl->task[0].prio == 0 &&
	      wl->task[0].instance == 1, "defaults: SCHED_OTHER nice 0, one "
	      "instance");
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
	check(wl->nwait == 1 && !strcmp(wl->wait[0], "a") &&
	      wl->task[0].phase[0].ev[1].type == RTE_SUSPEND &&
	      wl->task[1].phase[0].ev[0].type == RTE_RESUME,
	      "suspend \"\" is the thread's own name, as workgen fills it");
	check(wl->task[1].timer_abs[0], "mode absolute");
	rtapp_free(wl);
}

static void tasks_and_phases(void)
{
	struct rtapp_wl *wl;
	int top = PRIO_SIM;
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

	wl = ok("{\"tasks\":{\"t\":{\"loop\":3,\"phases\":{\"p0\":{\"loop\":"
		"4,\"run\":1},\"p1\":{\"sleep\":2,\"run\":3}}}}}", "phases");
	if (!wl)
		return;
	check(wl->task[0].loop == 3 && wl->task[0].nphase == 2 &&
	      wl->task[0].phase[0].loop == 4 && wl->task[0].phase[1].loop == 1
	      && wl->task[0].phase[1].nev == 2, "phases in order, each its "
	      "loop (default 1), the thread's loop over them");
	rtapp_free(wl);

	/* the highest priority interbench gives a task, and one above */
	snprintf(text, sizeof(text), "{\"tasks\":{\"t\":{\"policy\":"
		 "\"SCHED_FIFO\",\"priority\":%d,\"run\":1}}}", top);
	wl = ok(text, "SCHED_FIFO at interbench's PRIO_SIM");
	rtapp_free(wl);
	snprintf(text, sizeof(text), "{\"tasks\":{\"t\":{\"policy\":"
		 "\"SCHED_FIFO\",\"priority\":%d,\"run\":1}}}", top + 1);
	refused(text, "w.json: tasks.t.priority: ");

	/* rt-app's examples: C comments and trailing commas */
	wl = ok("/* a */ {\"tasks\":{\"t\":{ // b\n\"run\":1, /* c, */\n},},"
		"\"global\":{\"logdir\":\"/*x*/\",},}", "comments and trailing "
		"commas (json-c reads them)");
	check(wl && wl->task[0].phase[0].nev == 1, "... and a comment "
	      "inside a string is text");
	rtapp_free(wl);

	wl = ok("{\"global\":{\"duration\":5,\"calibration\":\"CPU0\","
		"\"logdir\":\"./\",\"log_basename\":\"x\",\"log_size\":2,"
		"\"gnuplot\":true,\"lock_pages\":true,\"ftrace\":false,"
		"\"pi_enabled\":false,\"cumulative_slack\":true,\"io_device\":"
		"\"/dev/null\",\"mem_buffer_size\":4096},\"resources\":{},"
		"\"tasks\":{\"t\":{\"run\":1}}}", "every global key accepted");
	check(wl && !wl->pi, "pi_enabled false");
	rtapp_free(wl);
	wl = ok("{\"global\":{\"ftrace\":true,\"pi_enabled\":true},"
		"\"tasks\":{\"t\":{\"run\":1}}}", "ftrace true (rt-app's "
		"markers, not written), pi_enabled true");
	check(wl && wl->pi, "pi_enabled true: the barriers' and waits' "
	      "mutexes inherit");
	rtapp_free(wl);
	wl = ok("{\"global\":{\"calibration\":120,\"log_size\":\"file\"},"
		"\"tasks\":{\"t\":{\"run\":1}}}", "calibration as ns per loop, "
		"log_size as a word");
	rtapp_free(wl);
}

static void refusals(void)
{
	refused("{\"tasks\":{\"t\":{\"cpus\":[0],\"run\":1}}}",
		"w.json: tasks.t.cpus: outside the rt-app subset");
	refused("{\"tasks\":{\"t\":{\"delay\":5,\"run\":1}}}",
		"w.json: tasks.t.delay: outside");
	refused("{\"tasks\":{\"t\":{\"lock\":\"m\",\"run\":1}}}",
		"w.json: tasks.t.lock: rt-app's lock event is outside");
	refused("{\"tasks\":{\"t\":{\"mem\":5}}}", "tasks.t.mem: rt-app's mem");
	refused("{\"tasks\":{\"t\":{\"iorun\":5}}}", "tasks.t.iorun: ");
	refused("{\"tasks\":{\"t\":{\"yield\":\"\"}}}", "tasks.t.yield: ");
	refused("{\"tasks\":{\"t\":{\"wait\":{\"ref\":\"a\"}}}}",
		"tasks.t.wait: rt-app's wait event");
	refused("{\"tasks\":{\"t\":{\"signal\":\"a\"}}}", "tasks.t.signal: ");
	refused("{\"tasks\":{\"t\":{\"sync\":{}}}}", "tasks.t.sync: ");
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_DEADLINE\",\"run\":1}}}",
		"tasks.t.policy: SCHED_DEADLINE is outside");
	refused("{\"tasks\":{\"t\":{\"dl-runtime\":5,\"run\":1}}}",
		"tasks.t.dl-runtime: outside");
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
	refused("{\"tasks\":{\"t\":{\"loop\":0,\"run\":1}}}",
		"tasks.t.loop: must be -1 (for ever) or 1 or more");
	refused("{\"tasks\":{\"t\":{\"instance\":0,\"run\":1}}}",
		"tasks.t.instance: must be a whole number from 1 to 64");
	refused("{\"tasks\":{\"t\":{\"instance\":40,\"run\":1},"
		"\"u\":{\"instance\":40,\"run\":1}}}", "more than 64 threads");
	refused("{\"tasks\":{\"t\":{\"run\":1,\"run\":2}}}",
		"tasks.t.run: given twice in one object");
	refused("{\"tasks\":{\"t\":{\"loop\":1}}}", "tasks.t: no events");
	refused("{\"tasks\":{}}", "w.json: tasks: the file needs");
	refused("{\"global\":{}}", "w.json: tasks: the file needs");
	refused("{\"tasks\":{\"t\":{\"run\":1}},\"extra\":1}",
		"w.json: extra: outside");
	refused("{\"tasks\":{\"t\":{\"run\":1}},\"resources\":{\"m\":{}}}",
		"w.json: resources: outside");
	refused("{\"global\":{\"ftrace\":1},\"tasks\":{\"t\":{\"run\":1}}}",
		"global.ftrace: must be true or false");
	refused("{\"global\":{\"logdir\":1},\"tasks\":{\"t\":{\"run\":1}}}",
		"global.logdir: must be a string");
	refused("{\"global\":{\"frequency\":1},\"tasks\":{\"t\":{\"run\":1}}}",
		"global.frequency: outside");
	refused("{\"global\":{\"default_policy\":\"SCHED_DEADLINE\"},"
		"\"tasks\":{\"t\":{\"run\":1}}}",
		"global.default_policy: SCHED_DEADLINE");
	refused("{\"tasks\":{\"t\":{\"timer\":{\"ref\":\"a\"}}}}",
		"tasks.t.timer: a timer needs its \"period\"");
	refused("{\"tasks\":{\"t\":{\"timer\":{\"ref\":\"a\",\"period\":5,"
		"\"mode\":\"soon\"}}}}", "tasks.t.timer.mode: must be");
	refused("{\"tasks\":{\"t\":{\"timer\":{\"period\":5,\"slack\":1}}}}",
		"tasks.t.timer.slack: outside");
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
		"suspend 'x': no thread resumes 'x'");
	refused("{\"tasks\":{\"t\":{\"resume\":\"x\",\"run\":1}}}",
		"resume 'x': no thread suspends on 'x'");
	refused("{\"tasks\":{\"t\":{\"run\":1,\"phases\":{\"p\":{\"run\":1}}}}}",
		"tasks.t.run: an event beside \"phases\"");
	refused("{\"tasks\":{\"t\":{\"cpus\":[1],\"phases\":{\"p\":{\"run\":1}"
		"}}}}", "tasks.t.cpus: outside");
	refused("{\"tasks\":{\"t\":{\"phases\":{\"p\":{\"cpus\":[1],\"run\":1}"
		"}}}}", "tasks.t.phases.p.cpus: outside");
	refused("{\"tasks\":{\"t\":{\"phases\":{}}}}",
		"tasks.t.phases: must be an object of one or more phases");
	refused("{\"tasks\":{\"t\":[1]}}", "tasks.t: a task must be an object");
	refused("{\"tasks\":{\"t\":{\"run\":1}}", "w.json: not JSON rt-app can "
		"read: line 1");
	refused("[1]", "w.json: (top): the file must be a JSON object");
	refused("{\"tasks\":{\"t\\u001b[2J\":{\"run\":1}}}",
		"w.json: tasks: a task's name must be 1 to 31 printable");
	refused("{\"tasks\":{\"t\":{\"barrier\":\"\\u001b\",\"run\":1}}}",
		"tasks.t.barrier: must be printable ASCII");
	refused("{\"tasks\":{\"t\":{\"x\\u001b[2J\":1,\"run\":1}}}",
		"tasks.t.x?[2J: outside");
}

int main(void)
{
	struct rtapp_wl *wl = NULL;

	events();
	tasks_and_phases();
	refusals();
	check(rtapp_parse("/nonexistent/x.json", &wl, err, sizeof(err)) ==
	      -ENOENT && !wl && strstr(err, "/nonexistent/x.json: No such"),
	      "a missing file: its name and why (%s)", err);
	return check_done();
}
