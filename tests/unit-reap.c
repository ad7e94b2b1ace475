// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-reap.c - sys_reap (lib/system.c), how every parent of ours reaps
 * a child: waitpid's answers (the child's status, 0 for one still
 * running, -1 ECHILD for one not ours), and a real-time caller gets its
 * policy and priority back (it reaps at SCHED_OTHER, then returns).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/system.h"
#include "check.h"

static pid_t child_exiting(int code)
{
	pid_t pid = fork();

	if (!pid)
		_exit(code);
	return pid;
}

static void reap_cases(const char *as)
{
	struct timespec ms = { 0, 1000000 };
	pid_t pid;
	int st = -1, w, i;

	pid = child_exiting(7);
	w = sys_reap(pid, &st, 0);
	check(w == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "%s: a child that exits 7 is reaped with its status", as);

	pid = fork();
	if (!pid) {
		pause();
		_exit(0);
	}
	w = sys_reap(pid, &st, WNOHANG);
	check(w == 0, "%s: WNOHANG on a child still running: 0 (got %d)",
	      as, w);
	kill(pid, SIGKILL);
	for (i = 0; i < 5000 && (w = sys_reap(pid, &st, WNOHANG)) == 0; i++)
		nanosleep(&ms, NULL);
	check(w == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	      "%s: WNOHANG reaps it once killed, with its signal", as);

	errno = 0;
	w = sys_reap(pid, &st, 0);
	check(w == -1 && errno == ECHILD,
	      "%s: a pid already reaped: -1, ECHILD (got %d, %d)",
	      as, w, errno);
}

int main(void)
{
	struct sched_param sp = { .sched_priority = 10 }, now;
	int pol;

	reap_cases("SCHED_OTHER");
	check(sched_getscheduler(0) == SCHED_OTHER,
	      "a SCHED_OTHER caller stays so");

	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp)) {
		printf("ok %d # skip a SCHED_FIFO caller: no real-time "
		       "rights\n", ++check_n);
		return check_done();
	}
	reap_cases("SCHED_FIFO 10");
	pol = sched_getscheduler(0);
	if (sched_getparam(0, &now))
		now.sched_priority = -1;
	check(pol == (SCHED_FIFO | SCHED_RESET_ON_FORK) &&
	      now.sched_priority == 10,
	      "a SCHED_FIFO 10 caller has its policy, reset-on-fork and "
	      "priority back (policy %#x, priority %d)", pol,
	      now.sched_priority);
	return check_done();
}
