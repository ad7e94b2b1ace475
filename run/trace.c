// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/trace.c - --trace (see trace.h): our own tracefs instance, set up and
 * always undone, and the frames explained from what it recorded.
 *
 * Only our instance is touched (its clock, buffer and events are its
 * own), so the rest of tracing is left as it was; tracefs is mounted
 * only if it was not, and unmounted again.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/safefile.h"
#include "lib/procfs.h"
#include "run/trace.h"
#include "lib/base.h"

/*
 * The one tracer alive, for the atexit handler: a command (cmd/) may end
 * the process from many places (a refusal, a signal), and every one must
 * leave tracefs as found.
 */
static struct tracer *live;

/*
 * The events, and what each buys the explanation (trace_why.c). Each
 * costs about 0.5 us where it fires on this VM (bench/trace-events.sh),
 * and those between a release and the simulated thread running are
 * added to its latency: the timer class's four (the timing thread's
 * hrtimer_wakeup entry and exit, its waking and the simulated thread's)
 * are on every frame's path, so they are --trace-timer's only. No
 * sched_wakeup (sched_waking says it, earlier) and no timer wheel
 * expiries (their softirq says it): nothing read them.
 */
static const struct {
	const char *event;
	bool timer;		/* --trace-timer only */
} events[] = {
	{ "sched/sched_switch", false },	/* who ran instead */
	{ "sched/sched_migrate_task", false },	/* migrations */
	/* the name a task runs under after an exec: rare, off the path */
	{ "sched/sched_process_exec", false },
	{ "irq/irq_handler_entry", false },	/* hard interrupts, by name */
	{ "irq/irq_handler_exit", false },
	{ "irq/softirq_entry", false },		/* softirqs, by name */
	{ "irq/softirq_exit", false },
	/* when the timer fired; the timer interrupt, by hrtimer function */
	{ "timer/hrtimer_expire_entry", true },
	{ "timer/hrtimer_expire_exit", true },
	{ "sched/sched_waking", true },
	{ NULL, false },
};

/*
 * A frame's path on an idle CPU has two task switches: the idle task to
 * the timing thread, then the timing thread to the benchmark's thread.
 * Their events cost most there, on a CPU that has just woken (doc/
 * trace.txt, "Where it is paid"), and say only what the threads' own
 * stamps say: so a switch to a periodic benchmark's simulated thread or
 * timing thread (COMM_SIM, COMM_TIMER) from the idle task or from that
 * timing thread is not recorded, and the explanation puts those threads
 * back from their stamps (trace_why.c). Every other switch is kept: a
 * load's, a culprit's, one from a task that held the CPU, and all of the
 * threads no stamp could put back (a chain's nodes, Cyclic's).
 */
const char trace_switch_filter[] =
	"!((prev_pid == 0 || prev_comm ~ \"" COMM_TIMER "*\") && "
	"(next_comm ~ \"" COMM_SIM "*\" || next_comm ~ \"" COMM_TIMER
	"*\"))";

static int put(const struct tracer *t, const char *file, const char *s)
{
	char path[256];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", t->inst, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* Only the process that made it: children inherit atexit handlers. */
static void at_exit(void)
{
	if (live && live->owner == getpid())
		trace_close(live);
}

/* tracefs at its usual places, or mounted by us at the first. */
static int find_tracefs(struct tracer *t)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing", NULL,
	};
	char path[128];
	int i;

	for (i = 0; roots[i]; i++) {
		snprintf(path, sizeof(path), "%s/instances", roots[i]);
		if (!access(path, F_OK)) {
			snprintf(t->root, sizeof(t->root), "%s", roots[i]);
			return 0;
		}
	}
	if (mount("nodev", roots[0], "tracefs", 0, NULL))
		return -errno;
	t->mounted = true;
	snprintf(t->root, sizeof(t->root), "%s", roots[0]);
	return 0;
}

/*
 * Our events on (the timer class's only with timer) or all off: 0, or
 * the first error. The events are on only while a cell records, so that
 * between cells, and in the cells of an ab side that is not traced, no
 * event of ours costs anything where it fires.
 */
static int set_events(struct tracer *t, bool on, bool timer)
{
	char file[96];
	int i, e, err = 0;

	for (i = 0; events[i].event; i++) {
		if (on && events[i].timer && !timer)
			continue;
		snprintf(file, sizeof(file), "events/%s/enable",
			 events[i].event);
		e = put(t, file, on ? "1" : "0");
		if (e && !err && !strstr(t->missing, strchr(events[i].event,
							  '/') + 1))
			err = e;
	}
	return err;
}

/* set as a CPU list ("0-3,6") into buf */
static void cpu_list(const cpu_set_t *set, char *buf, size_t n)
{
	size_t at = 0;
	int c = 0, end;

	buf[0] = '\0';
	while (c < CPU_SETSIZE && at < n) {
		if (!CPU_ISSET(c, set)) {
			c++;
			continue;
		}
		for (end = c; end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set);
		     end++)
			;
		at += (size_t)snprintf(buf + at, n - at, end > c ? "%s%d-%d" :
				       "%s%d", at ? "," : "", c, end);
		c = end + 1;
	}
}

/*
 * Record only on the CPUs the run may use (its affinity: -u's CPU, the
 * cgroup's cpuset): every part of a frame runs there, so another CPU's
 * events explain nothing, and would cost that CPU, the buffer and the
 * read after each cell. tracing_cpumask takes 32-bit hex words, the
 * highest first, comma-separated.
 */
static int limit_cpus(struct tracer *t)
{
	char mask[CPU_SETSIZE / 32 * 9 + 1];
	size_t at = 0;
	cpu_set_t set;
	int top, w, b;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (top = CPU_SETSIZE - 1; top >= 0 && !CPU_ISSET(top, &set); top--)
		;
	if (top < 0)
		return -EINVAL;
	for (w = top / 32; w >= 0; w--) {
		uint32_t v = 0;

		for (b = 0; b < 32; b++)
			if (CPU_ISSET(w * 32 + b, &set))
				v |= 1u << b;
		at += (size_t)snprintf(mask + at, sizeof(mask) - at,
				       w == top / 32 ? "%x" : ",%08x", v);
	}
	cpu_list(&set, t->cpus, sizeof(t->cpus));
	return put(t, "tracing_cpumask", mask);
}

/* Which of the events asked for this kernel lacks: into t->missing. */
static void find_missing(struct tracer *t)
{
	size_t used = 0;
	char file[96];
	int i;

	for (i = 0; events[i].event; i++) {
		if (events[i].timer && !t->timer)
			continue;
		snprintf(file, sizeof(file), "events/%s/enable",
			 events[i].event);
		if (!put(t, file, "0"))
			continue;
		if (used < sizeof(t->missing))
			used += (size_t)snprintf(t->missing + used,
						 sizeof(t->missing) - used,
						 "%s%s", used ? " " : "",
						 strchr(events[i].event, '/') + 1);
	}
}

/*
 * The buffer of each CPU, in KiB: about 2 MiB a second of a cell (a busy
 * load's scheduler events), from 4 MiB to 64 MiB, and all CPUs' together
 * at most an eighth of the memory free. Too small, and the oldest events
 * are overwritten: the frames they explained are then said to be lost.
 */
static long buffer_kb(uint64_t duration_ns)
{
	long secs = (long)(duration_ns / NSEC_PER_SEC) + 1;
	long kb = secs * 2048, cpus = sysconf(_SC_NPROCESSORS_CONF);
	long avail = sysconf(_SC_AVPHYS_PAGES) *
		     (sysconf(_SC_PAGESIZE) / 1024);	/* KiB */

	if (kb < 4096)
		kb = 4096;
	if (kb > 65536)
		kb = 65536;
	if (cpus > 0 && avail > 0 && kb > avail / 8 / cpus)
		kb = avail / 8 / cpus;
	return kb < 1024 ? 1024 : kb;
}

/* "PID MOUNTED ROOT INSTANCE": whose instance it is, for trace_reap. */
static void state_save(struct tracer *t)
{
	char s[512];
	int k = snprintf(s, sizeof(s), "%d %d %s %s\n", (int)t->owner,
			 t->mounted, t->root, t->inst);

	if (t->state[0] && k > 0 && safe_file_write(t->state, s, (size_t)k))
		t->state[0] = '\0';
}

int trace_reap(const char *state, char *msg, size_t n)
{
	char root[64], inst[160], on[200], want[200];
	int pid, mounted, fd, i;
	struct stat st;
	FILE *f;

	/* Only a file of our own user's, never one another planted */
	if (lstat(state, &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid())
		return 0;
	f = fopen(state, "re");
	if (!f)
		return 0;
	i = fscanf(f, "%d %d %63s %159s", &pid, &mounted, root, inst);
	fclose(f);
	/* Only our instance under a tracefs root we use: nothing else */
	snprintf(want, sizeof(want), "%s/instances/" TRACE_INSTANCE, root);
	if (i != 4 || strcmp(inst, want) ||
	    (strcmp(root, "/sys/kernel/tracing") &&
	     strcmp(root, "/sys/kernel/debug/tracing"))) {
		unlink(state);
		return 0;
	}
	snprintf(on, sizeof(on), "%s/tracing_on", inst);
	fd = open(on, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "0", 1) < 0) {
			/* rmdir below stops it anyway */
		}
		close(fd);
	}
	for (i = 0; i < 20 && rmdir(inst) && errno == EBUSY; i++)
		usleep(50000);
	if (!access(inst, F_OK)) {
		snprintf(msg, n, "cannot remove %s, left recording by a "
			 "killed interbench (pid %d): %s", inst, pid,
			 strerror(errno));
		return -EBUSY;
	}
	if (mounted)
		umount(root);
	unlink(state);
	snprintf(msg, n, "removed %s, left recording by a killed interbench "
		 "(pid %d)%s", inst, pid, mounted ? "; tracefs unmounted" : "");
	return 1;
}

int trace_open(struct tracer *t, uint64_t duration_ns, bool timer,
	       const char *state, char *err, size_t n)
{
	char kb[32], path[256];
	int e;

	memset(t, 0, sizeof(*t));
	t->timer = timer;
	snprintf(t->state, sizeof(t->state), "%s", state ? state : "");
	t->on_fd = t->marker_fd = -1;
	if (geteuid()) {
		snprintf(err, n, "--trace needs root (tracefs)");
		return -EPERM;
	}
	t->owner = getpid();
	live = t;
	atexit(at_exit);
	e = find_tracefs(t);
	if (e) {
		snprintf(err, n, "--trace: no tracefs: %s", strerror(-e));
		return e;
	}
	snprintf(t->inst, sizeof(t->inst), "%s/instances/" TRACE_INSTANCE,
		 t->root);
	if (mkdir(t->inst, 0700)) {
		e = -errno;
		/* Never take over another's: it may be tracing now. */
		snprintf(err, n, "--trace: cannot make %s: %s%s", t->inst,
			 strerror(errno), e == -EEXIST ? " (another interbench"
			 " --trace, or one killed: rmdir it)" : "");
		return e;
	}
	t->made = true;
	state_save(t);
	put(t, "tracing_on", "0");
	if ((e = put(t, "trace_clock", "mono"))) {
		snprintf(err, n, "--trace: no mono trace clock: %s",
			 strerror(-e));
		return e;
	}
	snprintf(kb, sizeof(kb), "%ld", buffer_kb(duration_ns));
	if ((e = put(t, "buffer_size_kb", kb))) {
		snprintf(err, n, "--trace: cannot size the buffer (%s KiB a "
			 "CPU): %s", kb, strerror(-e));
		return e;
	}
	if ((e = limit_cpus(t))) {
		snprintf(err, n, "--trace: cannot record on the run's CPUs "
			 "alone (tracing_cpumask): %s", strerror(-e));
		return e;
	}
	find_missing(t);
	if (strstr(t->missing, "sched_switch")) {
		snprintf(err, n, "--trace: this kernel has no sched_switch "
			 "event");
		return -ENOENT;
	}
	/* A kernel without string globs in filters records every switch. */
	t->switch_filtered = !put(t, "events/sched/sched_switch/filter",
				  trace_switch_filter);
	/* Opened now: the benchmark inherits them for --breaktrace. */
	snprintf(path, sizeof(path), "%s/tracing_on", t->inst);
	t->on_fd = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/trace_marker", t->inst);
	t->marker_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (t->on_fd < 0) {
		snprintf(err, n, "--trace: cannot open tracing_on");
		return -EIO;
	}
	return 0;
}

int trace_cell_start(struct tracer *t, bool timer)
{
	int e = put(t, "trace", "");

	t->lost_events = 0;
	t->stopped_ns = 0;
	t->cg_throttled = false;
	t->cg_limit[0] = '\0';
	if (!e)
		e = set_events(t, true, timer && t->timer);
	return e ? e : put(t, "tracing_on", "1");
}

/* Events each CPU's buffer overwrote or dropped: per_cpu/cpuN/stats. */
static uint64_t lost_events(const struct tracer *t)
{
	static const char *const keys[] = { "overrun", "dropped events" };
	char path[256];
	long long v;
	uint64_t lost = 0;
	int c, k, e;

	for (c = 0;; c++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats",
			 t->inst, c);
		if (access(path, R_OK))
			break;		/* no such CPU: the end */
		for (k = 0; k < 2; k++) {
			e = procfs_number(path, keys[k], &v);
			if (!e && v > 0)
				lost += (uint64_t)v;
		}
	}
	return lost;
}

void trace_cell_stop(struct tracer *t)
{
	put(t, "tracing_on", "0");
	set_events(t, false, false);
	t->lost_events = lost_events(t);
}

int trace_save(struct tracer *t, const char *path)
{
	char src[256], buf[65536];
	struct safe_file sf;
	ssize_t k;
	int in, e;

	snprintf(src, sizeof(src), "%s/trace", t->inst);
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	e = safe_file_begin(&sf, path);
	if (e) {
		close(in);
		return e;
	}
	/* Every task's comm and pid on the machine: for root's eyes only */
	if (fchmod(sf.fd, 0600)) {
		/* safe_file_begin made it 0644 at most: still ours */
	}
	while ((k = read(in, buf, sizeof(buf))) > 0)
		if (write(sf.fd, buf, (size_t)k) != k) {
			e = -EIO;
			break;
		}
	close(in);
	if (e) {
		safe_file_abort(&sf);
		return e;
	}
	return safe_file_commit(&sf);
}

void trace_close(struct tracer *t)
{
	if (t->on_fd >= 0)
		close(t->on_fd);
	if (t->marker_fd >= 0)
		close(t->marker_fd);
	t->on_fd = t->marker_fd = -1;
	if (t->made) {
		int i;

		put(t, "tracing_on", "0");
		/*
		 * The instance's events and settings go with it. Busy while
		 * a reader still has one of its files open: a moment more.
		 */
		for (i = 0; i < 20 && rmdir(t->inst) && errno == EBUSY; i++)
			usleep(50000);
		if (access(t->inst, F_OK))
			t->made = false;
	}
	/* Gone: nothing for the next run to reap */
	if (!t->made && t->state[0])
		unlink(t->state);
	if (t->mounted && !umount(t->root))
		t->mounted = false;
	if (live == t)
		live = NULL;
}
