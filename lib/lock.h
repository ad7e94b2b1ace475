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
 * each test its own, so that suites run side by side), else
 * /run/lock/interbench.lock where /run/lock is a directory, else
 * /tmp/interbench.lock: the same file for every user of the machine.
 */
void lock_path(char *buf, size_t n);

/*
 * Take the lock at l->path for as long as the process lives: 0; -EBUSY
 * when another run holds it, its pid in *holder (0 when that run is in
 * a PID namespace we cannot see); or -errno when the lock file cannot
 * be used.
 */
int run_lock(struct run_lock *l, pid_t *holder);

#endif
