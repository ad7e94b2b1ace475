// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/shell.c - the user's commands for `interbench ab` (see shell.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "run/shell.h"
#include "lib/procfs.h"
#include "run/cell.h"
#include "lib/base.h"
#include "lib/system.h"

/* How often a command's end is looked for: commands take seconds. */
#define SHELL_POLL_NS	(10 * NSEC_PER_MSEC)
/* A command asked to end (SIGTERM) gets this long before SIGKILL. */
#define SHELL_GRACE_NS	(2 * NSEC_PER_SEC)

void shell_save(struct shell_env *e)
{
	if (sched_getaffinity(0, sizeof(e->cpus), &e->cpus))
		CPU_ZERO(&e->cpus);
	/* "" when unreadable: then it is left as the child inherits it */
	procfs_line("/proc/self/oom_score_adj", e->oom_adj,
		    sizeof(e->oom_adj));
}

static void __attribute__((noreturn)) child(const char *cmd,
					    const struct shell_env *e)
{
	sigset_t none;
	int fd, sig;

	setpgid(0, 0);
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (CPU_COUNT(&e->cpus))
		sched_setaffinity(0, sizeof(e->cpus), &e->cpus);
	/* if it cannot be put back, the command keeps ours: harmless */
	if (e->oom_adj[0])
		sys_write_file("/proc/self/oom_score_adj", e->oom_adj);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	dup2(2, 1);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

static void nap(void)
{
	struct timespec ts = ns_to_ts(SHELL_POLL_NS);

	nanosleep(&ts, NULL);
}

/* End pid's group: SIGTERM, then SIGKILL after the grace; reaped. */
static void end_group(pid_t pid)
{
	uint64_t until = now_ns() + SHELL_GRACE_NS;
	int st;

	kill(-pid, SIGTERM);
	while (sys_reap(pid, &st, WNOHANG) == 0 && now_ns() < until)
		nap();
	kill(-pid, SIGKILL);
	while (sys_reap(pid, &st, 0) < 0 && errno == EINTR)
		;
}

int shell_run(const char *cmd, uint64_t timeout_ns, bool past_signal,
	      const struct shell_env *e, char *why, size_t n)
{
	uint64_t deadline = now_ns() + timeout_ns;
	pid_t pid, w;
	int st = 0;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(why, n, "cannot start it: %s", strerror(errno));
		return -1;
	}
	if (!pid)
		child(cmd, e);
	/* in the child's group before anything can be sent to it */
	setpgid(pid, pid);
	for (;;) {
		w = sys_reap(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			snprintf(why, n, "lost it: %s", strerror(errno));
			return -1;
		}
		if (cell_stopped() && !past_signal) {
			end_group(pid);
			snprintf(why, n, "stopped by signal %d",
				 cell_stopped());
			return -1;
		}
		if (now_ns() >= deadline) {
			end_group(pid);
			snprintf(why, n, "still running after %g s: killed",
				 (double)timeout_ns / NSEC_PER_SEC);
			return -1;
		}
		nap();
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	if (WIFEXITED(st))
		snprintf(why, n, "exited with status %d%s", WEXITSTATUS(st),
			 WEXITSTATUS(st) == 127 ? " (not found?)" : "");
	else
		snprintf(why, n, "killed by signal %d", WTERMSIG(st));
	return -1;
}
