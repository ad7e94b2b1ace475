/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/lock.h - one measuring run per machine. Two interbench runs measure
 * each other, so a run takes a lock before it starts measuring: a POSIX
 * record lock on a fixed file, which the kernel releases when the run
 * ends however it ends (a crashed run never blocks the next), and whose
 * holder's pid the kernel tells (F_GETLK).
 */
#ifndef INTERBENCH_LOCK_H
#define INTERBENCH_LOCK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The environment variable that moves the lock (see lock_path()). */
#define LOCK_ENV		"INTERBENCH_LOCK"

struct run_lock {
	int fd;				/* held while >= 0 */
	char path[PATH_MAX];
};

/*
 * Where the lock is: $INTERBENCH_LOCK when set (the test suite gives
 * each test its own; a site may share one between users or containers):
 * true. Else a file of this user's that no other user can open or
 * replace: /run/interbench.lock for root, $XDG_RUNTIME_DIR/
 * interbench.lock for others, /tmp/interbench-UID.lock where neither
 * directory is private: false.
 */
bool lock_path(char *buf, size_t n);

/*
 * Take the lock at l->path for as long as the process lives: 0; -EBUSY
 * when another run holds it, its pid in *holder (0 when that run is in
 * a PID namespace we cannot see); or -errno when the lock file cannot
 * be used. A file it makes is 0600, or 0666 if shared.
 */
int run_lock(struct run_lock *l, bool shared, pid_t *holder);

/*
 * Runs of other users hold locks of their own: the pid of an interbench
 * of another user holding a record lock (/proc/locks), its uid in *uid,
 * or 0. Told, never obeyed: no user can hold back another's runs.
 */
pid_t lock_other_user(uid_t *uid);

#endif
