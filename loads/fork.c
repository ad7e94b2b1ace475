// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/fork.c - the "Fork" load: a storm of short-lived processes, the
 * process-creation costs lmbench measures (fork+exit, fork+exec+exit)
 * turned into a load.
 *
 * max(2, CPUs) threads each fork a child, wait for it and start over,
 * the children taking turns to _exit() at once or to exec /bin/true.
 * The children stay in the load's process group, so the signal that ends
 * the load ends them too, and die with their parent if it goes first.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "loads/loads.h"
#include "lib/base.h"
#include "core/load.h"

#define FORK_EXEC	"/bin/true"
/* All threads together start at most this many children a second. */
#define FORK_MAX_RATE	20000
#define FORK_WAIT_NS	NSEC_PER_SEC	/* for a child, then kill it */
#define FORK_POLL_MIN_NS (10 * NSEC_PER_USEC)
#define FORK_POLL_MAX_NS NSEC_PER_MSEC
/* Out of processes: try again so often, for so long, then give up. */
#define FORK_RETRY_NS	(10 * NSEC_PER_MSEC)
#define FORK_GIVE_UP_NS	(5 * NSEC_PER_SEC)
#define FORK_EXEC_FAILED 127

struct fork_run {
	struct load_work *work;
	_Atomic int err;	/* -errno once a thread has failed */
	pid_t parent;		/* the load's process */
	bool can_exec;		/* FORK_EXEC is there to run */
	uint64_t interval_ns;	/* between one thread's forks, at least */
};

/* In the child: only async-signal-safe calls until execve or _exit. */
static void __attribute__((noreturn)) fork_exec(const struct fork_run *f)
{
	static char *const argv[] = { (char *)"true", NULL };
	static char *const envp[] = { NULL };

	/*
	 * Die with the load, even if it is SIGKILLed while we run. (The
	 * parent that counts is the forking thread, which never ends
	 * before it has reaped us.)
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != f->parent)
		_exit(0);	/* the load is gone already */
	execve(FORK_EXEC, argv, envp);
	_exit(FORK_EXEC_FAILED);
}

/*
 * Wait for child pid, a second at most, then SIGKILL it and wait another
 * second. 1 if it finished on its own (*st says how), 0 if it had to be
 * killed, -errno if waitpid fails.
 */
static int fork_reap(pid_t pid, int *st)
{
	uint64_t until = now_ns() + FORK_WAIT_NS, delay = FORK_POLL_MIN_NS;
	bool killed = false;
	pid_t w;

	for (;;) {
		w = waitpid(pid, st, WNOHANG);
		if (w == pid)
			return killed ? 0 : 1;
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno != ECHILD)
				return -errno;
			/* Reaped for us (SIGCHLD ignored): it is done. */
			*st = 0;
			return killed ? 0 : 1;
		}
		if (now_ns() >= until) {
			/*
			 * One that outlives even SIGKILL by a second is
			 * stuck in the kernel: leave it to be reaped when
			 * the load ends rather than hang with it.
			 */
			if (killed)
				return 0;
			kill(pid, SIGKILL);
			killed = true;
			until = now_ns() + FORK_WAIT_NS;
		}
		/* Short at first: most children are done in microseconds. */
		load_sleep_ns(delay);
		if (delay < FORK_POLL_MAX_NS)
			delay *= 2;
	}
}

/* Tell the other threads to give up (after load_fail): returns -err. */
static int fork_stop(struct fork_run *f, int err)
{
	int none = 0;

	atomic_compare_exchange_strong(&f->err, &none, -err);
	return -err;
}

/* Fork, wait, count, again, until a thread fails: -errno. */
static int fork_loop(struct fork_run *f)
{
	uint64_t slot = now_ns(), start, stuck_since = 0;
	bool can_exec = f->can_exec, exec = false;
	struct timespec ts;
	pid_t pid;
	int err, st, done;

	for (;;) {
		err = atomic_load_explicit(&f->err, memory_order_relaxed);
		if (err)
			return err;
		/* At most one fork per interval_ns: that is the rate cap. */
		ts = ns_to_ts(slot);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
		start = now_ns();
		slot = start + f->interval_ns;
		/* Every other child execs, when there is something to run. */
		exec = can_exec && !exec;
		pid = fork();
		if (!pid) {
			if (!exec)
				_exit(0);
			fork_exec(f);
		}
		if (pid < 0) {
			err = errno;
			/* Out of processes or memory for now: back off. */
			if (err == EAGAIN || err == ENOMEM) {
				if (!stuck_since)
					stuck_since = start;
				if (start - stuck_since < FORK_GIVE_UP_NS) {
					load_sleep_ns(FORK_RETRY_NS);
					continue;
				}
				load_fail(f->work, err, "fork: %s for %llu s",
					  strerror(err), (unsigned long long)
					  (FORK_GIVE_UP_NS / NSEC_PER_SEC));
				return fork_stop(f, err);
			}
			load_fail(f->work, err, "fork: %s", strerror(err));
			return fork_stop(f, err);
		}
		stuck_since = 0;
		done = fork_reap(pid, &st);
		if (done < 0) {
			load_fail(f->work, -done, "waitpid: %s",
				  strerror(-done));
			return fork_stop(f, -done);
		}
		/* Killed after a second: not a process that ran its course. */
		if (!done)
			continue;
		/* Could not exec after all: from now on, fork and exit. */
		if (exec && WIFEXITED(st) &&
		    WEXITSTATUS(st) == FORK_EXEC_FAILED)
			can_exec = false;
		work_add(f->work, WORK_FORKS, 1);
	}
}

static void *fork_thread(void *arg)
{
	fork_loop(arg);
	return NULL;
}

static int fork_run(struct load_ctx *c)
{
	int threads = c->cfg->cpus > 2 ? c->cfg->cpus : 2;
	struct fork_run *f;
	pthread_t tid;
	int i, err;

	/*
	 * On the heap and never freed: if starting a thread fails we
	 * return while the others still read it.
	 */
	f = calloc(1, sizeof(*f));
	if (!f) {
		load_fail(c->work, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	f->work = c->work;
	f->parent = getpid();
	f->can_exec = !access(FORK_EXEC, X_OK);
	f->interval_ns = (uint64_t)threads * NSEC_PER_SEC / FORK_MAX_RATE;
	/* This thread is the last forker; the others are started first. */
	for (i = 1; i < threads; i++) {
		err = pthread_create(&tid, NULL, fork_thread, f);
		if (err) {
			load_fail(c->work, err, "cannot start a thread: %s",
				  strerror(err));
			return fork_stop(f, err);
		}
		pthread_detach(tid);
	}
	return fork_loop(f);
}

const struct load_desc load_fork = {
	.name = "Fork",
	.summary = "fork+exit and fork+exec storm on every CPU",
	.run = fork_run,
};
