// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/lock.c - one measuring run per machine (see lock.h).
 *
 * Why a record lock on a file and not a pid file: a pid file outlives a
 * crashed run and its pid may have been reused; a lock the kernel holds
 * for the process goes with it. Why not flock(): F_GETLK names the
 * holder, so the refusal can say which run is in the way. Nothing is
 * ever written to the file: it may have been made by any user, and a
 * lock changes nothing in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/lock.h"

void lock_path(char *buf, size_t n)
{
	const char *env = getenv(LOCK_ENV);
	struct stat st;

	if (env && *env)
		snprintf(buf, n, "%s", env);
	else if (!stat("/run/lock", &st) && S_ISDIR(st.st_mode))
		snprintf(buf, n, "/run/lock/interbench.lock");
	else
		snprintf(buf, n, "/tmp/interbench.lock");
}

/* The lock file, made if need be and open for writing: fd or -errno. */
static int lock_open(const char *path)
{
	struct stat st;
	int fd = -1, tries;

	for (tries = 0; tries < 3; tries++) {
		/*
		 * Opened without O_CREAT first: protected_regular refuses
		 * O_CREAT on another user's file in a sticky directory, and
		 * the file is shared by every user.
		 */
		fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 || errno != ENOENT)
			break;
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0666);
		if (fd >= 0) {
			/* other users' runs must be able to lock it too */
			if (fchmod(fd, 0666)) {
				/* then they cannot: they say so themselves */
			}
			break;
		}
		if (errno != EEXIST)
			break;
	}
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

int run_lock(struct run_lock *l, pid_t *holder)
{
	struct flock fl;
	int fd, tries;

	l->fd = -1;
	*holder = 0;
	fd = lock_open(l->path);
	if (fd < 0)
		return fd;
	/* A holder may end between F_SETLK and F_GETLK: try again. */
	for (tries = 0; tries < 5; tries++) {
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		if (!fcntl(fd, F_SETLK, &fl)) {
			l->fd = fd;
			return 0;
		}
		if (errno != EAGAIN && errno != EACCES)
			break;
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		if (fcntl(fd, F_GETLK, &fl))
			break;
		if (fl.l_type != F_UNLCK) {
			*holder = fl.l_pid > 0 ? fl.l_pid : 0;
			close(fd);
			return -EBUSY;
		}
	}
	tries = tries < 5 ? -errno : -EBUSY;
	close(fd);
	return tries;
}
