// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * safefile.c - output files made new and renamed over their name (see
 * safefile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/safefile.h"

int safe_file_replaceable(const char *path)
{
	struct stat st, to;
	char target[16];
	ssize_t n;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISLNK(st.st_mode))
		return S_ISREG(st.st_mode) ? 0 : -ENODEV;
	/*
	 * A device, FIFO or socket, or a link to one or into /proc or /dev
	 * (/dev/stdout is one to /proc/self/fd/1, a regular file when the
	 * output is redirected): renamed over, the system's node would be
	 * gone (--json /dev/null once made /dev/null a regular file). Any
	 * other link, to a regular file or to nothing, is replaced and
	 * never followed.
	 */
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		if (!strncmp(target, "/proc/", 6) ||
		    !strncmp(target, "/dev/", 5))
			return -ENODEV;
	}
	return stat(path, &to) || S_ISREG(to.st_mode) ? 0 : -ENODEV;
}

int safe_file_begin(struct safe_file *sf, const char *path)
{
	mode_t mask;
	int fd, err;

	sf->path = path;
	sf->f = NULL;
	sf->fd = -1;
	err = safe_file_replaceable(path);
	if (err)
		return err;
	if (snprintf(sf->tmp, sizeof(sf->tmp), "%s.XXXXXX", path) >=
	    (int)sizeof(sf->tmp))
		return -ENAMETOOLONG;
	/* O_EXCL under a name nobody could guess: nothing planted is used */
	fd = mkostemp(sf->tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* mkostemp makes it 0600: give it the mode open() would have */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0644 & ~mask)) {
		/* still ours and private: better than no result file */
	}
	sf->f = fdopen(fd, "w");
	if (!sf->f) {
		err = -errno;
		close(fd);
		unlink(sf->tmp);
		return err;
	}
	sf->fd = fd;
	return 0;
}

int safe_file_commit(struct safe_file *sf)
{
	int err = 0;

	if (!sf->f)
		return -EBADF;
	/* synced before the rename: never an empty file after a crash */
	if (fflush(sf->f) || fsync(sf->fd))
		err = -errno;
	else if (ferror(sf->f))
		err = -EIO;
	if (fclose(sf->f) && !err)
		err = -EIO;
	sf->f = NULL;
	sf->fd = -1;
	/* It may have become a device since begin: checked again */
	if (!err)
		err = safe_file_replaceable(sf->path);
	/* rename() replaces a link at the name, never what it points to */
	if (!err && rename(sf->tmp, sf->path))
		err = -errno;
	if (err)
		unlink(sf->tmp);
	return err;
}

void safe_file_abort(struct safe_file *sf)
{
	if (!sf->f)
		return;
	fclose(sf->f);
	sf->f = NULL;
	sf->fd = -1;
	unlink(sf->tmp);
}

int safe_file_publish(struct safe_file *sf)
{
	int err;

	if (!sf->f)
		return -EBADF;
	err = safe_file_replaceable(sf->path);
	/* rename() replaces a link at the name, never what it points to */
	if (!err && !rename(sf->tmp, sf->path))
		return 0;
	if (!err)
		err = -errno;
	safe_file_abort(sf);
	return err;
}

int safe_file_write(const char *path, const void *buf, size_t len)
{
	const char *p = buf;
	struct safe_file sf;
	size_t off = 0;
	int err;

	err = safe_file_begin(&sf, path);
	if (err)
		return err;
	/* straight to the fd: nothing goes through sf.f's buffer */
	while (off < len) {
		ssize_t w = write(sf.fd, p + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = w < 0 ? -errno : -EIO;
			safe_file_abort(&sf);
			return err;
		}
		off += (size_t)w;
	}
	return safe_file_commit(&sf);
}
