// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.c - --trace (see trace.h): our own tracefs instance, set up and
 * always undone, and the frames explained from what it recorded.
 *
 * Only our instance is touched (its clock, buffer and events are its
 * own), so the rest of tracing is left as it was; tracefs is mounted
 * only if it was not, and unmounted again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "interbench.h"
#include "system.h"
#include "trace.h"

/*
 * The one tracer alive, for exit(): interbench.c may exit from many
 * places (die(), a signal), and every one must leave tracefs as found.
 */
static struct tracer *live;

static const char *const events[] = {
	"sched/sched_switch", "sched/sched_wakeup", "sched/sched_waking",
	"sched/sched_migrate_task", "irq/irq_handler_entry",
	"irq/irq_handler_exit", "irq/softirq_entry", "irq/softirq_exit",
	"timer/hrtimer_expire_entry", "timer/hrtimer_expire_exit",
	"timer/timer_expire_entry", "timer/timer_expire_exit", NULL,
};

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

static void at_exit(void)
{
	if (live)
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

static void enable_events(struct tracer *t)
{
	size_t used = 0;
	char file[96];
	int i;

	for (i = 0; events[i]; i++) {
		snprintf(file, sizeof(file), "events/%s/enable", events[i]);
		if (!put(t, file, "1"))
			continue;
		if (used < sizeof(t->missing))
			used += (size_t)snprintf(t->missing + used,
						 sizeof(t->missing) - used,
						 "%s%s", used ? " " : "",
						 strchr(events[i], '/') + 1);
	}
}

int trace_open(struct tracer *t, uint64_t duration_ns, char *err, size_t n)
{
	char kb[32], path[256];
	long secs = (long)(duration_ns / NSEC_PER_SEC) + 1;
	int e;

	memset(t, 0, sizeof(*t));
	t->on_fd = t->marker_fd = -1;
	if (geteuid()) {
		snprintf(err, n, "--trace needs root (tracefs)");
		return -EPERM;
	}
	live = t;
	atexit(at_exit);
	e = find_tracefs(t);
	if (e) {
		snprintf(err, n, "--trace: no tracefs: %s", strerror(-e));
		return e;
	}
	/* Our pid in the name: two runs never share an instance. */
	snprintf(t->inst, sizeof(t->inst), "%s/instances/interbench-%d",
		 t->root, (int)getpid());
	if (mkdir(t->inst, 0700)) {
		e = -errno;
		snprintf(err, n, "--trace: cannot make %s: %s", t->inst,
			 strerror(errno));
		return e;
	}
	t->made = true;
	put(t, "tracing_on", "0");
	if ((e = put(t, "trace_clock", "mono"))) {
		snprintf(err, n, "--trace: no mono trace clock: %s",
			 strerror(-e));
		return e;
	}
	/* About 512 KiB a CPU a second of a busy cell, within bounds. */
	snprintf(kb, sizeof(kb), "%ld", secs * 512 < 2048 ? 2048 :
		 secs * 512 > 65536 ? 65536 : secs * 512);
	put(t, "buffer_size_kb", kb);
	enable_events(t);
	if (strstr(t->missing, "sched_switch")) {
		snprintf(err, n, "--trace: this kernel has no sched_switch "
			 "event");
		return -ENOENT;
	}
	/* Opened now: the benchmark inherits them for --breaktrace. */
	snprintf(path, sizeof(path), "%s/tracing_on", t->inst);
	t->on_fd = open(path, O_WRONLY);
	snprintf(path, sizeof(path), "%s/trace_marker", t->inst);
	t->marker_fd = open(path, O_WRONLY);
	if (t->on_fd < 0) {
		snprintf(err, n, "--trace: cannot open tracing_on");
		return -EIO;
	}
	return 0;
}

int trace_cell_start(struct tracer *t)
{
	int e = put(t, "trace", "");

	return e ? e : put(t, "tracing_on", "1");
}

void trace_cell_stop(struct tracer *t)
{
	put(t, "tracing_on", "0");
}

int trace_save(struct tracer *t, const char *path)
{
	char src[256], tmp[512], buf[65536];
	ssize_t k;
	int in, out, e = 0;

	snprintf(src, sizeof(src), "%s/trace", t->inst);
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = sys_file_create(path, tmp, sizeof(tmp));
	if (out < 0) {
		close(in);
		return out;
	}
	while ((k = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)k) != k) {
			e = -EIO;
			break;
		}
	close(in);
	if (close(out) && !e)
		e = -errno;
	if (e) {
		unlink(tmp);
		return e;
	}
	return sys_file_commit(tmp, path);
}

void trace_close(struct tracer *t)
{
	if (t->on_fd >= 0)
		close(t->on_fd);
	if (t->marker_fd >= 0)
		close(t->marker_fd);
	t->on_fd = t->marker_fd = -1;
	if (t->made) {
		put(t, "tracing_on", "0");
		/* The instance's events go with it. */
		if (!rmdir(t->inst))
			t->made = false;
	}
	if (t->mounted && !umount(t->root))
		t->mounted = false;
	if (live == t)
		live = NULL;
}
