// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/read.c - the "Read" load: one file read over and over from
 * storage in 1 MiB blocks.
 *
 * The file is made once (up to 1 GiB) and kept in -D for later cells, and
 * with --keep-files for later runs (the run removes it at its end,
 * session/outputs.c); a header with a magic line and the size tells a
 * finished file from a foreign or half-written one. It is read with
 * O_DIRECT, so every read goes to the device however much RAM there is:
 * the other way, a file bigger than RAM, would cost tens of GiB of disk
 * and minutes to write on a large machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "loads/loads.h"
#include "lib/base.h"
#include "core/load.h"

#define READ_MAGIC	"interbench read file v1\n"
#define READ_HDR	4096		/* header block; buffer alignment */
#define READ_BLOCK	MIB
#define READ_MIN	(64 * MIB)
#define READ_MAX	GIB

/* Is the file at path one we made and finished? (loads.h) */
bool load_read_file_valid(const char *path)
{
	char hdr[READ_HDR + 1], *end;
	unsigned long long hdr_size;
	struct stat st;
	ssize_t n;
	bool ok;
	int fd;

	/* O_NONBLOCK: a FIFO planted there must not hang the open. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	     st.st_uid == geteuid() && st.st_size % READ_BLOCK == 0 &&
	     (uint64_t)st.st_size >= READ_MIN &&
	     (uint64_t)st.st_size <= READ_MAX;
	if (ok) {
		n = pread(fd, hdr, READ_HDR, 0);
		ok = n == READ_HDR;
	}
	close(fd);
	if (!ok)
		return false;
	hdr[READ_HDR] = '\0';
	if (memcmp(hdr, READ_MAGIC, strlen(READ_MAGIC)))
		return false;
	errno = 0;
	hdr_size = strtoull(hdr + strlen(READ_MAGIC), &end, 10);
	return !errno && end != hdr + strlen(READ_MAGIC) && *end == '\n' &&
	       hdr_size == (unsigned long long)st.st_size;
}

/* Write all of buf at off: 0 or -errno. */
static int pwrite_all(int fd, const char *buf, size_t len, uint64_t off)
{
	ssize_t n;

	while (len) {
		n = pwrite(fd, buf, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ENOSPC;
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Fill the new, empty file fd with size bytes: 0 or -errno. */
static int read_file_fill(int fd, uint64_t size)
{
	uint64_t off, seed;
	char *buf;
	int rc = 0;

	buf = malloc(READ_BLOCK);
	if (!buf)
		return -ENOMEM;
	seed = size ^ now_ns();
	load_fill_nonzero(buf, READ_BLOCK, seed);
	for (off = 0; off < size && !rc; off += READ_BLOCK) {
		size_t i;

		/* Every 4 KiB different, so no filesystem can share blocks. */
		for (i = 0; i < READ_BLOCK; i += READ_HDR) {
			uint64_t stamp = off + i;

			memcpy(buf + i, &stamp, sizeof(stamp));
		}
		if (!off) {
			memset(buf, 0, READ_HDR);
			snprintf(buf, READ_HDR, READ_MAGIC "%" PRIu64 "\n",
				 size);
		}
		rc = pwrite_all(fd, buf, READ_BLOCK, off);
		if (!off)
			load_fill_nonzero(buf, READ_HDR, ~seed);
	}
	if (!rc && fsync(fd))
		rc = -errno;
	free(buf);
	return rc;
}

static int read_prepare(struct load_ctx *c)
{
	const char *path = c->cfg->read_file;
	int64_t usable;
	uint64_t size;
	int fd, rc;

	if (load_read_file_valid(path))
		return 0;
	/* Ours but stale or half written: replaced; another user's: not */
	rc = load_clear_name(c, path);
	if (rc)
		return rc;
	/* Create first: the error says best why the directory won't do. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return load_file_fail(c, errno, "create", path);
	usable = load_dir_usable_bytes(c);
	if (usable < 0) {
		rc = load_file_fail(c, (int)-usable, "check free space in",
				    c->cfg->dir);
		goto fail;
	}
	size = (uint64_t)usable / 4;
	if (size < READ_MIN)
		size = READ_MIN;
	if (size > READ_MAX)
		size = READ_MAX;
	size -= size % READ_BLOCK;
	if ((uint64_t)usable < size) {
		rc = load_space_fail(c, usable);
		goto fail;
	}
	rc = read_file_fill(fd, size);
	if (close(fd) && !rc)
		rc = -errno;
	fd = -1;
	if (rc == -ENOSPC || rc == -EDQUOT) {
		unlink(path);
		return load_space_fail(c, load_dir_usable_bytes(c));
	}
	if (rc) {
		load_file_fail(c, -rc, "write", path);
		goto fail;
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(path);
	return rc;
}

static int read_run(struct load_ctx *c)
{
	const char *path = c->cfg->read_file;
	bool direct = true;
	uint64_t off = 0;
	void *buf;
	ssize_t n;
	int fd, rc;

	rc = posix_memalign(&buf, READ_HDR, READ_BLOCK);
	if (rc) {
		load_fail(c->work, rc, "out of memory");
		return -rc;
	}
	fd = open(path, O_RDONLY | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL) {
		/* tmpfs and some others have no O_DIRECT */
		direct = false;
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0) {
		rc = load_file_fail(c, errno, "open", path);
		goto out_free;
	}
	for (;;) {
		/* Without O_DIRECT, drop the cache so a pass can't hit it. */
		if (!off && !direct)
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		n = pread(fd, buf, READ_BLOCK, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EINVAL && direct) {
			/* Opened with O_DIRECT yet cannot read with it. */
			close(fd);
			direct = false;
			fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0) {
				rc = load_file_fail(c, errno, "open", path);
				goto out_free;
			}
			continue;
		}
		if (n < 0) {
			rc = load_file_fail(c, errno, "read", path);
			break;
		}
		if (!n && !off) {
			load_fail(c->work, EIO, "%s is empty", path);
			rc = -EIO;
			break;
		}
		work_add(c->work, WORK_BYTES_READ, (uint64_t)n);
		/* A short read is the end of the file: start over. */
		off = n == READ_BLOCK ? off + READ_BLOCK : 0;
	}
	close(fd);
out_free:
	free(buf);
	return rc;
}

const struct load_desc load_read = {
	.name = "Read",
	.summary = "reading a file in -D from storage, over and over",
	.flags = LOAD_FILES | LOAD_READ_FILE,
	.prepare = read_prepare,
	.run = read_run,
};
