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
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lib/safefile.h"

/*
 * A stdio stream on an fd that keeps the errno of its first failed
 * write: stdio keeps only a flag, and by the time a caller looks, errno
 * is gone (a full disk was reported as "Input/output error").
 */
struct kept_err {
	int fd;
	int err;
};

static ssize_t kept_write(void *cookie, const char *buf, size_t len)
{
	struct kept_err *k = cookie;
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(k->fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!k->err)
				k->err = w < 0 ? errno : ENOSPC;
			errno = k->err;
			/* short: stdio marks the stream in error */
			return (ssize_t)off;
		}
		off += (size_t)w;
	}
	return (ssize_t)off;
}

static int kept_close(void *cookie)
{
	struct kept_err *k = cookie;
	int err = k->err;

	if (close(k->fd) && !err)
		err = errno;
	free(k);
	errno = err;
	return err ? -1 : 0;
}

FILE *stream_keep_errno(int fd, const char *mode)
{
	static const cookie_io_functions_t io = {
		.write = kept_write,
		.close = kept_close,
	};
	struct kept_err *k = calloc(1, sizeof(*k));
	FILE *f;

	if (!k)
		return NULL;
	k->fd = fd;
	f = fopencookie(k, mode, io);
	if (!f)
		free(k);
	return f;
}

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

/*
 * The new file, unnamed where the filesystem can (O_TMPFILE): a run
 * killed before its rename leaves nothing behind. Else a name nobody
 * could guess, made with O_EXCL, so nothing planted is ever used.
 */
static int make_temporary(struct safe_file *sf, mode_t mode)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(sf->path, '/');
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == sf->path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - sf->path),
			 sf->path);
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	if (fd >= 0)
		return fd;
	fd = mkostemp(sf->tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	sf->named = true;
	return fd;
}

int safe_file_begin(struct safe_file *sf, const char *path)
{
	mode_t mask;
	int fd, err;

	sf->path = path;
	sf->f = NULL;
	sf->fd = -1;
	sf->named = false;
	err = safe_file_replaceable(path);
	if (err)
		return err;
	if (snprintf(sf->tmp, sizeof(sf->tmp), "%s.XXXXXX", path) >=
	    (int)sizeof(sf->tmp))
		return -ENAMETOOLONG;
	mask = umask(0);
	umask(mask);
	fd = make_temporary(sf, 0644);
	if (fd < 0)
		return fd;
	/* mkostemp makes it 0600: give it the mode open() would have */
	if (sf->named && fchmod(fd, 0644 & ~mask)) {
		/* still ours and private: better than no result file */
	}
	sf->f = stream_keep_errno(fd, "w");
	if (!sf->f) {
		err = -errno;
		close(fd);
		if (sf->named)
			unlink(sf->tmp);
		return err;
	}
	sf->fd = fd;
	return 0;
}

/* Six letters for a temporary's name: unguessable enough with O_EXCL */
static void random_suffix(char *x)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	struct timespec ts;
	int i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != sizeof(r)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		for (i = 0; i < 6; i++)
			r[i] = (unsigned char)((ts.tv_nsec >> (i * 5)) ^
					       (getpid() >> i));
	}
	for (i = 0; i < 6; i++)
		x[i] = set[r[i] % (sizeof(set) - 1)];
}

/*
 * Give the unnamed file sf->tmp as a name, just before the rename: the
 * only moment a killed run could leave a temporary. 0 or -errno.
 */
static int name_temporary(struct safe_file *sf)
{
	char proc[32];
	size_t len = strlen(sf->tmp);
	int tries;

	if (sf->named)
		return 0;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", sf->fd);
	for (tries = 0; tries < 100; tries++) {
		random_suffix(sf->tmp + len - 6);
		/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc does not */
		if (!linkat(sf->fd, "", AT_FDCWD, sf->tmp, AT_EMPTY_PATH) ||
		    !linkat(AT_FDCWD, proc, AT_FDCWD, sf->tmp,
			    AT_SYMLINK_FOLLOW)) {
			sf->named = true;
			return 0;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* The name and the temporary, once the stream is closed or handed on */
static int rename_over(struct safe_file *sf)
{
	int err = safe_file_replaceable(sf->path);

	/* rename() replaces a link at the name, never what it points to */
	if (!err && rename(sf->tmp, sf->path))
		err = -errno;
	if (err)
		unlink(sf->tmp);
	sf->named = false;
	return err;
}

int safe_file_commit(struct safe_file *sf)
{
	int err = 0;

	if (!sf->f)
		return -EBADF;
	/*
	 * Synced before the rename: never an empty file after a crash.
	 * fclose() fails with the errno of the first write that failed.
	 */
	if (fflush(sf->f) || fsync(sf->fd))
		err = -errno;
	if (!err)
		err = name_temporary(sf);
	if (fclose(sf->f) && !err)
		err = errno ? -errno : -EIO;
	sf->f = NULL;
	sf->fd = -1;
	if (err) {
		if (sf->named)
			unlink(sf->tmp);
		sf->named = false;
		return err;
	}
	/* It may have become a device since begin: checked again */
	return rename_over(sf);
}

void safe_file_abort(struct safe_file *sf)
{
	if (!sf->f)
		return;
	fclose(sf->f);
	sf->f = NULL;
	sf->fd = -1;
	if (sf->named)
		unlink(sf->tmp);
	sf->named = false;
}

int safe_file_publish(struct safe_file *sf)
{
	int err;

	if (!sf->f)
		return -EBADF;
	err = name_temporary(sf);
	if (!err)
		err = rename_over(sf);
	if (err)
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

void safe_file_said(const char *path, const char *what)
{
	if (!strcmp(path, SAFE_STDOUT))
		printf("Wrote standard output (%s)\n", what);
	else
		printf("Wrote %s (%s)\n", path, what);
}

FILE *safe_stdout_aside(void)
{
	FILE *f;
	int fd, e;

	if (fflush(stdout))
		return NULL;
	/* close-on-exec: a load or ab's shell never writes into it */
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return NULL;
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	/* what was a pipe's full buffering is a console's now */
	setvbuf(stdout, NULL, _IOLBF, 0);
	f = stream_keep_errno(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
		errno = e;
	}
	return f;
}
