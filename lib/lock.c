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
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/lock.h"

/* A directory nobody but its owner (this user, or root) can add to. */
static bool private_dir(const char *dir)
{
	struct stat st;

	return dir && *dir == '/' && !stat(dir, &st) && S_ISDIR(st.st_mode) &&
	       (st.st_uid == geteuid() || st.st_uid == 0) &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

bool lock_path(char *buf, size_t n)
{
	const char *env = getenv(LOCK_ENV);
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (env && *env) {
		snprintf(buf, n, "%s", env);
		return true;
	}
	/*
	 * Not in a world-writable directory, and not a file every user can
	 * open: whoever can open a lock file can hold it, and any user
	 * could then block every run (or plant a link at its name).
	 */
	if (!geteuid() && private_dir("/run"))
		snprintf(buf, n, "/run/interbench.lock");
	else if (geteuid() && private_dir(xdg))
		snprintf(buf, n, "%s/interbench.lock", xdg);
	else
		snprintf(buf, n, "/tmp/interbench-%u.lock", (unsigned)geteuid());
	return false;
}

pid_t lock_other_user(uid_t *uid)
{
	char line[256], path[64], comm[32], status[256];
	unsigned int lpid;
	pid_t found = 0;
	FILE *f, *c;

	f = fopen("/proc/locks", "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		/* "1: POSIX  ADVISORY  WRITE 4242 00:1a:77 0 EOF" */
		if (sscanf(line, "%*d: POSIX %*s WRITE %u", &lpid) != 1 ||
		    (pid_t)lpid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%u/comm", lpid);
		c = fopen(path, "re");
		if (!c)
			continue;
		if (!fgets(comm, sizeof(comm), c) ||
		    strcmp(comm, "interbench\n")) {
			fclose(c);
			continue;
		}
		fclose(c);
		snprintf(path, sizeof(path), "/proc/%u/status", lpid);
		c = fopen(path, "re");
		if (!c)
			continue;
		while (fgets(status, sizeof(status), c)) {
			unsigned int ruid, euid;

			if (sscanf(status, "Uid: %u %u", &ruid, &euid) == 2) {
				if ((uid_t)euid != geteuid()) {
					*uid = (uid_t)euid;
					found = (pid_t)lpid;
				}
				break;
			}
		}
		fclose(c);
	}
	fclose(f);
	return found;
}

/* The lock file, made if need be and open for writing: fd or -errno. */
static int lock_open(const char *path, bool shared)
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
			  O_CLOEXEC, 0600);
		if (fd >= 0) {
			/* a lock the site chose to share: every user's runs */
			if (shared && fchmod(fd, 0666)) {
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

int run_lock(struct run_lock *l, bool shared, pid_t *holder)
{
	struct flock fl;
	int fd, tries;

	l->fd = -1;
	*holder = 0;
	fd = lock_open(l->path, shared);
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
