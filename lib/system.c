// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/system.c - privileges, memory locking, limits, the calibration file,
 * and the description of the machine (see system.h).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/system.h"
#include "lib/safefile.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "lib/procfs.h"

void iso_now(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- privileges and limits ----------------------------------------- */

bool sys_realtime(void)
{
	struct sched_param sp = { .sched_priority = PRIO_PARENT };

	return !sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp);
}

bool sys_can_nice(int n)
{
	pid_t pid;
	int st;

	if (n >= 0)
		return true;
	pid = fork();
	if (pid < 0)
		return false;
	if (!pid)
		_exit(setpriority(PRIO_PROCESS, 0, n) ? 1 : 0);
	while (sys_reap(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && !WEXITSTATUS(st);
}

/*
 * Reaping a child frees its /proc entries (release_task ->
 * d_invalidate -> shrink_dcache_parent), and on 6.18 that loop can wait
 * for work that needs the reaper's CPU from a lower priority: an ab at
 * SCHED_FIFO 99 on CPU 0 (-u) spun there in the kernel for 7 minutes,
 * and went on within a second once chrt -o made it SCHED_OTHER. So we
 * wait for the child at our own priority (WNOWAIT leaves it a zombie)
 * and reap it at SCHED_OTHER.
 */
int sys_reap(int pid, int *status, int options)
{
	struct sched_param sp, other = { .sched_priority = 0 };
	siginfo_t si;
	int pol, w, err;

	si.si_pid = 0;
	if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT | (options & WNOHANG)))
		return -1;
	if (!si.si_pid)
		return 0;
	pol = sched_getscheduler(0);
	if (pol < 0 || sched_getparam(0, &sp) ||
	    ((pol & ~SCHED_RESET_ON_FORK) != SCHED_FIFO &&
	     (pol & ~SCHED_RESET_ON_FORK) != SCHED_RR) ||
	    sched_setscheduler(0, SCHED_OTHER | (pol & SCHED_RESET_ON_FORK),
			       &other))
		return waitpid(pid, status, WNOHANG);
	w = waitpid(pid, status, WNOHANG);
	err = errno;
	sched_setscheduler(0, pol, &sp);
	errno = err;
	return w;
}

int sys_lock_memory(void)
{
#ifdef IB_NO_MLOCK
	return 0;
#else
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) ||
	    (rl.rlim_cur != RLIM_INFINITY && geteuid()))
		return 0;
	return mlockall(MCL_CURRENT | MCL_FUTURE) ? -errno : 0;
#endif
}

/*
 * Hack opens 20 sockets per CPU and Net, Fork and the rest more: on a big
 * machine the usual soft limit of 1024 would fail them.
 */
void sys_raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int sys_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* The directory part of path into dir. */
static void dir_of(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, n, ".");
	else if (slash == path)
		snprintf(dir, n, "/");
	else
		snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

int sys_can_write(const char *path)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!stat(path, &st))
		return S_ISDIR(st.st_mode) ? -EISDIR :
		       access(path, W_OK) ? -errno : 0;
	if (errno != ENOENT)
		return -errno;
	dir_of(path, dir, sizeof(dir));
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

bool sys_same_file(const char *a, const char *b)
{
	char da[PATH_MAX], db[PATH_MAX];
	struct stat sa, sb;
	bool ea, eb;

	if (!strcmp(a, b))
		return true;
	ea = !stat(a, &sa);
	eb = !stat(b, &sb);
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea || eb || strcmp(base_of(a), base_of(b)))
		return false;
	/* neither is there yet: one name in one directory? */
	dir_of(a, da, sizeof(da));
	dir_of(b, db, sizeof(db));
	return !stat(da, &sa) && !stat(db, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int sys_can_replace(const char *path)
{
	char dir[PATH_MAX];
	const char *base = strrchr(path, '/');
	int err = safe_file_replaceable(path);

	if (err)
		return err;
	/* Its temporary name (NAME.XXXXXX) must fit too, checked now */
	base = base ? base + 1 : path;
	if (strlen(base) + 7 > NAME_MAX || strlen(path) + 7 >= PATH_MAX)
		return -ENAMETOOLONG;
	dir_of(path, dir, sizeof(dir));
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

int sys_outputs_check(const struct sys_output *out, int nout,
		      const char *const *in, int nin,
		      struct sys_output_fault *f)
{
	int i, k;

	for (i = 0; i < nout; i++) {
		const char *p = out[i].path;

		if (!p)
			continue;
		*f = (struct sys_output_fault){ .kind = SYS_OUT_TWICE,
						.out = i };
		for (k = 0; k < i; k++)
			if (out[k].path && sys_same_file(out[k].path, p)) {
				f->other = k;
				return -1;
			}
		if (out[i].std && !strcmp(p, SAFE_STDOUT))
			continue;
		f->kind = SYS_OUT_INPUT;
		for (k = 0; k < nin; k++)
			if (in[k] && sys_same_file(in[k], p)) {
				f->other = k;
				return -1;
			}
		f->kind = SYS_OUT_UNWRITABLE;
		if (!out[i].later && (f->err = sys_can_replace(p)))
			return -1;
	}
	return 0;
}

void sys_output_fault_text(const struct sys_output *out,
			   const struct sys_output_fault *f, char *buf,
			   size_t n)
{
	const struct sys_output *o = &out[f->out];

	if (f->kind == SYS_OUT_TWICE)
		snprintf(buf, n, "%s and %s name one file, %s",
			 out[f->other].opt, o->opt, out[f->other].path);
	else if (f->kind == SYS_OUT_INPUT)
		snprintf(buf, n, "%s is a result file to read: %s would "
			 "replace it", o->path, o->opt);
	else
		snprintf(buf, n, "cannot write %s: %s", o->path,
			 sys_file_why(f->err));
}

/* ---- files that cannot be turned against their user ----------------- */

/*
 * May we append to the existing file st at path? The rule of the
 * kernel's protected_regular, applied whatever the sysctl says: in a
 * sticky directory others may write (/tmp), a file that is neither ours
 * nor the directory owner's was planted there. A file with other hard
 * links could be anyone's file under a second name.
 */
static int may_append(const char *path, const struct stat *st)
{
	char dir[PATH_MAX];
	struct stat ds;

	if (!S_ISREG(st->st_mode))
		return -ENODEV;
	if (st->st_nlink > 1)
		return -EMLINK;
	if (st->st_uid == geteuid())
		return 0;
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &ds))
		return -errno;
	if ((ds.st_mode & S_ISVTX) && (ds.st_mode & (S_IWGRP | S_IWOTH)) &&
	    st->st_uid != ds.st_uid)
		return -EPERM;
	return 0;
}

int sys_can_append(const char *path)
{
	struct stat st;
	int err;

	if (lstat(path, &st))
		return errno == ENOENT ? sys_can_write(path) : -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	err = may_append(path, &st);
	if (!err && access(path, W_OK))
		err = -errno;
	return err;
}

int sys_open_append(const char *path)
{
	struct stat st;
	int fd, err;

	/* O_NONBLOCK: a FIFO planted there must not hang the open */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
		  O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == ENXIO ? -ENODEV : -errno;
	err = fstat(fd, &st) ? -errno : may_append(path, &st);
	if (!err && fcntl(fd, F_SETFL, O_APPEND))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

const char *sys_file_why(int err)
{
	switch (err) {
	case -ELOOP:
		return "it is a symbolic link";
	case -EMLINK:
		return "it has other hard links";
	case -EPERM:
		return "it belongs to another user in a shared directory";
	case -ENODEV:
		return "it is not a regular file";
	default:
		return strerror(-err);
	}
}

/* ---- the calibration file ------------------------------------------- */

/* What a saved calibration is good for: this kernel, this CPU. */
static void calib_key(char *kernel, size_t kn, char *cpu, size_t cn)
{
	static const char *const keys[] = { "model name", "Hardware",
					     "cpu model" };
	struct utsname u;
	char model[200] = "";
	size_t i;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	snprintf(kernel, kn, "%s", u.release);
	/* "model name\t: Intel(R) ...", or another architecture's key */
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!procfs_field("/proc/cpuinfo", keys[i], model,
				  sizeof(model)))
			break;
	/* the model cut to what is left after the machine's name */
	snprintf(cpu, cn, "%s%s%.*s", u.machine, model[0] ? " " : "",
		 (int)(cn > strlen(u.machine) + 2 ? cn - strlen(u.machine) - 2 :
		       0), model);
}

/* The state directory: see system.h. "" when there is no home. */
static void calib_dir(char *dir, size_t n)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	struct passwd *pw;

	dir[0] = '\0';
	if (x && x[0] == '/') {
		snprintf(dir, n, "%s/interbench", x);
		return;
	}
	if (!geteuid()) {
		snprintf(dir, n, "%s", CALIB_ROOT_DIR);
		return;
	}
	if (!home || home[0] != '/') {
		pw = getpwuid(geteuid());
		home = pw && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	}
	if (home)
		snprintf(dir, n, "%s/.local/state/interbench", home);
}

void calib_where(struct calib_place *cp)
{
	struct utsname u;
	char host[65];
	struct stat st;
	size_t i;

	memset(cp, 0, sizeof(*cp));
	calib_key(cp->kernel, sizeof(cp->kernel), cp->cpu, sizeof(cp->cpu));
	/* anything at the old name, even a link, is this directory's */
	if (!lstat(CALIB_FILE, &st)) {
		cp->local = true;
		snprintf(cp->path, sizeof(cp->path), "%s", CALIB_FILE);
		return;
	}
	calib_dir(cp->dir, sizeof(cp->dir));
	if (!cp->dir[0])
		return;
	/* one file a machine, for a home shared between machines */
	if (uname(&u) || !u.nodename[0])
		snprintf(u.nodename, sizeof(u.nodename), "localhost");
	snprintf(host, sizeof(host), "%s", u.nodename);
	for (i = 0; host[i]; i++)
		if (!isalnum((unsigned char)host[i]) &&
		    !strchr("-_", host[i]) && (host[i] != '.' || !i))
			host[i] = '_';
	if (snprintf(cp->path, sizeof(cp->path), "%s/%s.loops_per_ms",
		     cp->dir, host) >= (int)sizeof(cp->path))
		cp->path[0] = '\0';
}

int calib_load(struct calib_place *cp, uint64_t *v)
{
	char line[320], kernel[320] = "", cpu[320] = "", extra;
	unsigned long long x;
	struct stat st;
	FILE *f;
	int fd, ok;

	if (!cp->path[0])
		return -ENOENT;
	fd = open(cp->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* a link or a device planted there is not our calibration */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENODEV;
	}
	/* nor is another user's file in a shared directory: the logfile's
	 * rule, for what every figure is scaled by */
	ok = may_append(cp->path, &st);
	if (ok || !(f = fdopen(fd, "r"))) {
		close(fd);
		return ok ? ok : -ENODEV;
	}
	ok = fgets(line, sizeof(line), f) &&
	     sscanf(line, "%llu %c", &x, &extra) == 1 && x > 0 &&
	     x <= MAX_LOOPS_PER_MS;
	while (ok && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "kernel ", 7))
			snprintf(kernel, sizeof(kernel), "%s", line + 7);
		else if (!strncmp(line, "cpu ", 4))
			snprintf(cpu, sizeof(cpu), "%s", line + 4);
	}
	fclose(f);
	if (!ok)
		return -EINVAL;
	/* this directory's: a number alone, as 0.31 wrote it, used as is */
	if (cp->local) {
		*v = x;
		return 0;
	}
	if (strcmp(kernel, cp->kernel))
		snprintf(cp->was, sizeof(cp->was), "kernel %.*s",
			 (int)sizeof(cp->was) - 8,
			 kernel[0] ? kernel : "(not said)");
	else if (strcmp(cpu, cp->cpu))
		snprintf(cp->was, sizeof(cp->was), "CPU %.*s",
			 (int)sizeof(cp->was) - 5, cpu[0] ? cpu : "(not said)");
	if (cp->was[0])
		return -ESTALE;
	*v = x;
	return 0;
}

/* mkdir -p dir, each new level 0700 (the XDG rule): 0 or -errno */
static int make_dirs(const char *dir)
{
	char p[PATH_MAX];
	size_t i;

	snprintf(p, sizeof(p), "%s", dir);
	for (i = 1; ; i++) {
		char c = p[i];

		if (c != '/' && c)
			continue;
		p[i] = '\0';
		if (mkdir(p, 0700) && errno != EEXIST)
			return -errno;
		p[i] = c;
		if (!c)
			return 0;
	}
}

int calib_save(const struct calib_place *cp, uint64_t v)
{
	struct safe_file sf;
	struct stat st;
	int err;

	if (!cp->path[0])
		return -ENOENT;
	if (!cp->local) {
		err = make_dirs(cp->dir);
		if (err)
			return err;
		/* ours alone: no one else may plant a file in it */
		if (stat(cp->dir, &st))
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
		if (st.st_uid != geteuid() ||
		    (st.st_mode & (S_IWGRP | S_IWOTH)))
			return -EPERM;
	}
	err = safe_file_begin(&sf, cp->path);
	if (err)
		return err;
	if (cp->local)
		err = fprintf(sf.f, "%llu\n", (unsigned long long)v);
	else
		err = fprintf(sf.f, "%llu\nkernel %s\ncpu %s\n",
			      (unsigned long long)v, cp->kernel, cp->cpu);
	if (err < 0) {
		safe_file_abort(&sf);
		return -EIO;
	}
	return safe_file_commit(&sf);
}
