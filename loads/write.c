// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/write.c - the "Write" load: one file written in a stream of
 * 1 MiB writes, synced often enough that the data really goes to storage
 * instead of piling up as dirty pages, and restarted from empty when it
 * reaches its cap or the filesystem fills up.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "loads/loads.h"
#include "lib/base.h"
#include "core/load.h"

#define WRITE_BUF	MIB
#define WRITE_MIN_SPACE	(64 * MIB)	/* prepare refuses below */
#define WRITE_SYNC_EVERY (64 * MIB)
#define WRITE_NOSPC_MAX	3		/* ENOSPCs in a row: fatal */

static int write_prepare(struct load_ctx *c)
{
	const char *path = c->cfg->write_file;
	int64_t usable;
	int fd;

	/*
	 * Creating the file is the surest test that the directory works.
	 * A fresh file of our own, never one a symlink planted in -D points
	 * to: what has the name already is removed if it is ours (unlink
	 * takes a link, not its target), another user's is left and the
	 * load fails; O_EXCL | O_NOFOLLOW make sure.
	 */
	fd = load_clear_name(c, path);
	if (fd)
		return fd;
	fd = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return load_file_fail(c, errno, "create", path);
	close(fd);
	usable = load_dir_usable_bytes(c);
	if (usable < 0) {
		unlink(path);
		return load_file_fail(c, (int)-usable, "check free space in",
				      c->cfg->dir);
	}
	if ((uint64_t)usable < WRITE_MIN_SPACE) {
		unlink(path);
		return load_space_fail(c, usable);
	}
	return 0;
}

/* Write all of buf, counting what gets written: 0 or -errno. */
static int write_all(int fd, const char *buf, size_t len,
		     struct load_work *w)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			return -ENOSPC;
		work_add(w, WORK_BYTES_WRITTEN, (uint64_t)n);
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Push the file to storage: 0 or -errno. */
static int write_sync(int fd)
{
	/* Some filesystems cannot sync: nothing to wait for, go on. */
	if (fdatasync(fd) && errno != EINVAL)
		return -errno;
	return 0;
}

/* Empty the file and write it again from the start: 0 or -errno. */
static int write_restart(int fd)
{
	if (lseek(fd, 0, SEEK_SET) < 0 || ftruncate(fd, 0))
		return -errno;
	return 0;
}

static int write_run(struct load_ctx *c)
{
	const char *path = c->cfg->write_file;
	uint64_t cap, ram, size = 0, unsynced = 0, since_nospc = 0;
	int64_t usable;
	int fd, rc, nospc = 0;
	char *buf;

	buf = malloc(WRITE_BUF);
	if (!buf) {
		load_fail(c->work, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	load_fill_nonzero(buf, WRITE_BUF, now_ns() ^ (uint64_t)getpid());

	/*
	 * Twice RAM, so the page cache can never hold the whole file, but
	 * never more than the filesystem can spare.
	 */
	usable = load_dir_usable_bytes(c);
	if (usable < 0) {
		rc = load_file_fail(c, (int)-usable, "check free space in",
				    c->cfg->dir);
		goto out_free;
	}
	ram = (uint64_t)sysconf(_SC_PHYS_PAGES) *
	      (uint64_t)sysconf(_SC_PAGESIZE);
	cap = 2 * ram;
	if (cap > (uint64_t)usable)
		cap = (uint64_t)usable;
	cap -= cap % WRITE_BUF;
	if (!cap) {
		rc = load_space_fail(c, usable);
		goto out_free;
	}

	/* Made anew, as in write_prepare(): never a file planted since. */
	rc = load_clear_name(c, path);
	if (rc)
		goto out_free;
	fd = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		rc = load_file_fail(c, errno, "create", path);
		goto out_free;
	}
	for (;;) {
		rc = 0;
		if (size >= cap) {
			rc = write_sync(fd);
			if (!rc) {
				rc = write_restart(fd);
				size = 0;
				unsynced = 0;
			}
		}
		if (!rc) {
			rc = write_all(fd, buf, WRITE_BUF, c->work);
			if (!rc) {
				size += WRITE_BUF;
				unsynced += WRITE_BUF;
				since_nospc += WRITE_BUF;
			}
		}
		if (!rc && unsynced >= WRITE_SYNC_EVERY) {
			rc = write_sync(fd);
			unsynced = 0;
		}
		if (rc == -ENOSPC || rc == -EDQUOT) {
			/*
			 * Someone else may be filling the disk too: start
			 * over, and give up only if we cannot get going.
			 */
			if (since_nospc >= WRITE_SYNC_EVERY)
				nospc = 0;
			since_nospc = 0;
			if (++nospc >= WRITE_NOSPC_MAX) {
				load_fail(c->work, -rc,
					  "%s: out of space %d times in a row",
					  path, nospc);
				break;
			}
			rc = write_restart(fd);
			size = 0;
			unsynced = 0;
		}
		if (rc) {
			load_file_fail(c, -rc, "write", path);
			break;
		}
	}
	close(fd);
out_free:
	free(buf);
	return rc;
}

static void write_cleanup(struct load_ctx *c)
{
	struct stat st;

	if (!lstat(c->cfg->write_file, &st) && st.st_uid == geteuid())
		unlink(c->cfg->write_file);
}

const struct load_desc load_write = {
	.name = "Write",
	.summary = "streaming writes to a file in -D",
	.flags = LOAD_FILES | LOAD_WRITE_FILE,
	.prepare = write_prepare,
	.run = write_run,
	.cleanup = write_cleanup,
};
