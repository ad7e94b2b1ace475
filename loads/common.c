// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/common.c - what the loads share (declared in loads.h): running
 * several in threads (Hell), the memory and disk room they may fill,
 * their files' failures and names, bytes that do not compress, sleeps.
 * Below every load file, as the table (loads.c) is above them.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>
#include "loads/loads.h"
#include "lib/base.h"
#include "lib/cgroup.h"
#include "lib/procfs.h"
#include "core/load.h"

struct par_run;

struct par_thread {
	struct load_ctx ctx;
	struct par_run *run;
	pthread_t tid;
	int rc;
};

struct par_run {
	sem_t done;			/* posted by a load that returned */
	_Atomic int first;		/* 1 + index of the first to return */
	struct par_thread t[];
};

static void *par_thread_main(void *arg)
{
	struct par_thread *t = arg;
	int me = (int)(t - t->run->t) + 1;
	int none = 0;

	t->rc = load_run(&t->ctx);
	atomic_compare_exchange_strong(&t->run->first, &none, me);
	sem_post(&t->run->done);
	return NULL;
}

/*
 * The threads run until the process is killed, so on every way out the
 * block they share is left allocated on purpose: a thread that is still
 * working may be using it.
 */
int load_run_parallel(struct load_ctx *c, const struct load_desc *const *l,
		      int n)
{
	struct par_run *run;
	struct par_thread *t;
	int i, err;

	if (n <= 0)
		return -EINVAL;
	run = calloc(1, sizeof(*run) + (size_t)n * sizeof(run->t[0]));
	if (!run) {
		load_fail(c->work, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	if (sem_init(&run->done, 0, 0)) {
		err = errno;
		load_fail(c->work, err, "sem_init: %s", strerror(err));
		free(run);
		return -err;
	}
	for (i = 0; i < n; i++) {
		run->t[i].ctx.desc = l[i];
		run->t[i].ctx.cfg = c->cfg;
		run->t[i].ctx.cg = c->cg;
		run->t[i].ctx.work = c->work;
		run->t[i].run = run;
	}
	for (i = 0; i < n; i++) {
		err = pthread_create(&run->t[i].tid, NULL, par_thread_main,
				     &run->t[i]);
		if (err) {
			load_fail(c->work, err, "cannot start %s: %s",
				  l[i]->name, strerror(err));
			return -err;
		}
	}

	/* A load that returns has failed: wait for the first one. */
	for (;;) {
		struct timespec ts = load_realtime_in(NSEC_PER_SEC);

		if (!sem_timedwait(&run->done, &ts))
			break;
		if (errno != ETIMEDOUT && errno != EINTR) {
			err = errno;
			load_fail(c->work, err, "sem_timedwait: %s",
				  strerror(err));
			return -err;
		}
	}
	t = &run->t[atomic_load(&run->first) - 1];
	if (t->rc >= 0) {
		load_fail(c->work, EIO, "%s stopped working",
			  t->ctx.desc->name);
		return -EIO;
	}
	/* Usually the part has said why already; this is the fallback. */
	load_fail(c->work, -t->rc, "%s failed: %s", t->ctx.desc->name,
		  strerror(-t->rc));
	return t->rc;
}

/* MemAvailable in bytes, or -errno. */
int64_t load_mem_available(const struct load_ctx *c)
{
	static const char *const estimate[] = { "MemFree", "Buffers",
						"Cached" };
	unsigned long long avail = 0;
	long long kb, room;
	size_t i;
	int err;

	err = procfs_number("/proc/meminfo", "MemAvailable", &kb);
	if (!err) {
		avail = (unsigned long long)kb;
	} else if (err == -ENOENT) {
		/* Kernels before 3.14 have no MemAvailable: estimate it. */
		for (i = 0; i < sizeof(estimate) / sizeof(estimate[0]); i++)
			if (!procfs_number("/proc/meminfo", estimate[i], &kb))
				avail += (unsigned long long)kb;
	} else {
		return err;
	}
	avail *= 1024;
	/*
	 * In a cgroup with a memory limit (a container) the room under it
	 * is what there is: the run read the limits, the usage is now.
	 */
	room = c->cg ? cgroup_mem_room(c->cg) : CG_NO_LIMIT;
	if (room >= 0 && (unsigned long long)room < avail)
		avail = (unsigned long long)room;
	return (int64_t)avail;
}

int64_t load_dir_usable_bytes(const struct load_ctx *c)
{
	const char *dir = c->cfg->dir;
	struct statvfs sv;
	struct statfs sf;
	uint64_t frsize, total, avail, keep;

	if (statvfs(dir, &sv))
		return -errno;
	frsize = sv.f_frsize ? sv.f_frsize : sv.f_bsize;
	total = (uint64_t)sv.f_blocks * frsize;
	avail = (uint64_t)sv.f_bavail * frsize;
	/* Leave room for everyone else on the filesystem. */
	keep = total / 10;
	if (keep < GIB)
		keep = GIB;
	if (avail <= keep)
		return 0;
	avail -= keep;
	/*
	 * On tmpfs or ramfs the file is memory no OOM kill can free: never
	 * more than what is available, less the same reserve.
	 */
	if (!statfs(dir, &sf) && (sf.f_type == TMPFS_MAGIC ||
				  sf.f_type == RAMFS_MAGIC)) {
		int64_t mem = load_mem_available(c);

		if (mem < 0)
			return mem;
		if ((uint64_t)mem <= keep)
			return 0;
		if (avail > (uint64_t)mem - keep)
			avail = (uint64_t)mem - keep;
	}
	return avail > INT64_MAX ? INT64_MAX : (int64_t)avail;
}

int load_clear_name(struct load_ctx *c, const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : load_file_fail(c, errno, "check",
							    path);
	if (st.st_uid != geteuid()) {
		load_fail(c->work, EPERM, "%s belongs to another user (uid "
			  "%u): left as it is; remove it or use another -D",
			  path, (unsigned int)st.st_uid);
		return -EPERM;
	}
	if (unlink(path) && errno != ENOENT)
		return load_file_fail(c, errno, "replace", path);
	return 0;
}

int load_file_fail(struct load_ctx *c, int err, const char *what,
		   const char *path)
{
	switch (err) {
	case EROFS:
		load_fail(c->work, err, "cannot %s %s: read-only filesystem",
			  what, path);
		break;
	case EACCES:
	case EPERM:
		load_fail(c->work, err, "cannot %s %s: permission denied",
			  what, path);
		break;
	case ENOSPC:
	case EDQUOT:
		load_fail(c->work, err, "cannot %s %s: no space left (%s)",
			  what, path, strerror(err));
		break;
	default:
		load_fail(c->work, err, "cannot %s %s: %s", what, path,
			  strerror(err));
		break;
	}
	return -err;
}

int load_space_fail(struct load_ctx *c, int64_t usable)
{
	if (usable < 0)
		usable = 0;
	load_fail(c->work, ENOSPC,
		  "not enough free space in %s: %lld MiB usable", c->cfg->dir,
		  (long long)(usable / (int64_t)MIB));
	return -ENOSPC;
}

void load_fill_nonzero(void *buf, size_t len, uint64_t seed)
{
	unsigned char *p = buf;
	uint64_t x = seed | 1;
	size_t i;

	for (i = 0; i < len; i++) {
		/* xorshift64: plenty for data that must merely not compress */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)(x >> 56) ? (unsigned char)(x >> 56) :
		       0xa5;
	}
}

void load_sleep_ns(uint64_t ns)
{
	struct timespec ts = ns_to_ts(ns);

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

struct timespec load_realtime_in(uint64_t ns)
{
	struct timespec ts;

	/*
	 * sem_timedwait wants CLOCK_REALTIME; a clock step only stretches
	 * or shortens one wait, and every caller simply waits again.
	 */
	clock_gettime(CLOCK_REALTIME, &ts);
	return ns_to_ts(ts_to_ns(&ts) + ns);
}
