/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/system.h - what interbench asks of and learns from the machine:
 * privileges, memory locking, limits, the calibration file, and the
 * description of the machine the results are stamped with.
 */
#ifndef INTERBENCH_SYSTEM_H
#define INTERBENCH_SYSTEM_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#define CALIB_FILE	"interbench.loops_per_ms"
#define CALIB_ROOT_DIR	"/var/lib/interbench"

/* ISO 8601 UTC time of now into buf. */
void iso_now(char *buf, size_t n);

/* Highest SCHED_FIFO for us; children start SCHED_OTHER. */
bool sys_realtime(void);
/* Can a process of ours be niced to n? Asked of a child, to be sure. */
bool sys_can_nice(int n);
/*
 * waitpid(pid, status, options) for one child (options 0 or WNOHANG),
 * with the reaping itself done at SCHED_OTHER by a real-time caller
 * (system.c says why); the caller's policy is back on return.
 */
int sys_reap(int pid, int *status, int options);
/*
 * mlockall where locking cannot make later allocations fail (root, or
 * no limit): 0 or -errno. Never in sanitizer builds (IB_NO_MLOCK).
 */
int sys_lock_memory(void);
/* Our and the children's open-file limit up to the hard limit. */
void sys_raise_fd_limit(void);
/*
 * Write s to a /proc or /sys file: 0 or -errno (most callers do it best
 * effort and ignore it: not every kernel or user may set it).
 */
int sys_write_file(const char *path, const char *s);
/* Can a file be made at path, without making it? 0 or -errno. */
int sys_can_write(const char *path);

/*
 * Could a file be made next to path and renamed over it (safefile.h)?
 * 0 or -errno.
 */
int sys_can_replace(const char *path);
/*
 * Do a and b name one file: the same name, the same inode, or, where
 * neither exists yet, the same name in the same directory (x.json and
 * ./x.json)?
 */
bool sys_same_file(const char *a, const char *b);

/* An output file a command is asked for, by the option that names it. */
struct sys_output {
	const char *opt;		/* "--json" */
	const char *path;		/* NULL: not asked for */
	bool std;			/* "-" is standard output: no file,
					   checked against the others only */
	bool later;			/* its writer checks it can be made */
};

/* What sys_outputs_check() found wrong first. */
struct sys_output_fault {
	enum { SYS_OUT_TWICE = 1, SYS_OUT_INPUT, SYS_OUT_UNWRITABLE } kind;
	int out;			/* the output refused */
	int other;			/* TWICE: the output before it that
					   names its file; INPUT: the input */
	int err;			/* UNWRITABLE: -errno (sys_file_why) */
};

/*
 * Every command's outputs, checked before anything is read or made, in
 * their order: each against the outputs before it (one file twice, one
 * would overwrite the other), the inputs (it would replace one) and
 * whether it can be made (sys_can_replace). 0, or -1 with *f the first
 * fault; the command words it (sys_output_fault_text, or its own).
 */
int sys_outputs_check(const struct sys_output *out, int nout,
		      const char *const *in, int nin,
		      struct sys_output_fault *f);
/*
 * The judging commands' words for f (compare, report, trend): "--json
 * and --html name one file, x", "x is a result file to read: --json
 * would replace it", "cannot write x: why". Into buf.
 */
void sys_output_fault_text(const struct sys_output *out,
			   const struct sys_output_fault *f, char *buf,
			   size_t n);
/*
 * The logfile is appended to, so it is opened by its name, but never
 * through a symbolic link (-ELOOP), never if not a regular file
 * (-ENODEV), if it has other hard links (-EMLINK) or if another user
 * planted it in a shared sticky directory such as /tmp (-EPERM).
 */
int sys_can_append(const char *path);
/* Open it so for appending: an fd or -errno. */
int sys_open_append(const char *path);
/* Why err (from the above) refused a file, for a message. */
const char *sys_file_why(int err);

/*
 * Where the calibration is kept: ./interbench.loops_per_ms (CALIB_FILE)
 * where anything has that name, as 0.31 kept it (read as is, a number);
 * else a file a machine, HOST.loops_per_ms, in $XDG_STATE_HOME/interbench
 * when XDG_STATE_HOME is set, /var/lib/interbench for root, or
 * ~/.local/state/interbench. That one says the kernel and CPU it was
 * measured on, and is not used on another.
 */
struct calib_place {
	char path[PATH_MAX];		/* "" when there is no home */
	char dir[PATH_MAX];		/* the state directory; "" local */
	bool local;			/* CALIB_FILE, this directory's */
	char kernel[80], cpu[256];	/* ours */
	char was[300];			/* what a stale file was measured on */
};

void calib_where(struct calib_place *cp);
/*
 * Loops per ms saved there: 0 and *v, -ENOENT, -EINVAL when the file
 * holds something else, -ESTALE when it was measured on another kernel
 * or CPU (cp->was says which), or what sys_file_why() explains (a link,
 * not a regular file).
 */
int calib_load(struct calib_place *cp, uint64_t *v);
/*
 * Save it, made new and renamed over the file (the state directory made
 * first, and refused if another user could write in it): 0 or -errno.
 */
int calib_save(const struct calib_place *cp, uint64_t v);

#endif
