/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/shell.h - a command the user wrote, run for `interbench ab` with
 * /bin/sh -c as their own shell would run it: its own process group,
 * SCHED_OTHER, the CPUs and OOM score interbench was started with,
 * stdin from /dev/null and its output on our stderr (stdout is the
 * table's). Every wait has its timeout.
 */
#ifndef INTERBENCH_SHELL_H
#define INTERBENCH_SHELL_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How interbench was started, for its commands (shell_save()). */
struct shell_env {
	cpu_set_t cpus;
	char oom_adj[16];		/* "" when unknown */
};

/* Before interbench changes itself (binds CPUs, OOM score). */
void shell_save(struct shell_env *e);
/*
 * Run cmd, waiting at most timeout_ns: 0 when it exited 0; else -1 with
 * what happened in why ("exited with status 3", "killed by signal 9",
 * "still running after 60 s: killed", "stopped by signal 2"). A command
 * that outlives its timeout, or a signal to us (unless past_signal: a
 * command that puts the machine back after one), ends its whole group.
 */
int shell_run(const char *cmd, uint64_t timeout_ns, bool past_signal,
	      const struct shell_env *e, char *why, size_t n);

#endif
