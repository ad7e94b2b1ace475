// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session/setup.c - a run's set-up: what it needs checked up front
 * (rights, classes, files), then the lock, the trace instance, the PM QoS
 * request and the files, in that order, so that a refused run is one
 * line and leaves nothing behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "session/session.h"
#include "core/load.h"
#include "lib/base.h"
#include "lib/cgroup.h"
#include "lib/lock.h"
#include "lib/policy.h"
#include "lib/safefile.h"
#include "lib/system.h"
#include "run/trace.h"
#include "simulators/simulators.h"

/*
 * Ask the kernel now whether it takes the classes asked for, on a
 * throwaway thread, so that a refusal stops the run before it starts.
 * SCHED_DEADLINE is tried with the most any task may reserve, a whole
 * period: what admission control takes for that it takes for all.
 */
static int check_policies(const struct plan *p)
{
	const struct run_cfg *cfg = &p->cfg;
	struct sched_want w = { .policy = cfg->bench_policy, .prio = PRIO_SIM,
				.nice = cfg->bench_nice,
				.slice_ns = cfg->bench_slice_ns,
				.runtime_ns = 10 * NSEC_PER_MSEC,
				.period_ns = 10 * NSEC_PER_MSEC };
	char why[256];

	if (p->dry_run)
		return 0;
	if ((cfg->bench_policy != POL_OTHER || cfg->bench_slice_ns) &&
	    policy_probe(&w, why, sizeof(why)))
		return session_fail(IB_EXIT_SETUP, "--bench-policy %s%s: %s%s",
		    policy_names[cfg->bench_policy],
		    cfg->bench_slice_ns ? " --bench-slice" : "", why,
		    cfg->bench_policy == POL_DEADLINE && cfg->uniprocessor ?
		    " (a deadline task may not be bound to some CPUs: -u)" :
		    "");
	w = (struct sched_want){ .policy = cfg->load_policy,
				 .nice = cfg->load_nice };
	if (cfg->load_policy != POL_OTHER &&
	    policy_probe(&w, why, sizeof(why)))
		return session_fail(IB_EXIT_SETUP, "--load-policy %s: %s",
		    load_policy_names[cfg->load_policy], why);
	return 0;
}

/*
 * Root refused SCHED_FIFO: RT group scheduling gives the run's cgroup no
 * real-time time. The reason, or "".
 */
static const char *rt_group_why(struct session *r)
{
	static char why[PATH_MAX + 96];
	const struct cgroup_self *cg;

	if (geteuid())
		return "";
	cg = session_cgroup(r);
	why[0] = '\0';
	if (!cg->rt_runtime_us)
		snprintf(why, sizeof(why), " (cgroup %s has cpu.rt_runtime_us "
			 "0: RT group scheduling gives it no real-time time)",
			 cg->at[CG_CPU].path);
	return why;
}

const struct cgroup_self *session_cgroup(struct session *r)
{
	if (!r->cg) {
		cgroup_read(&r->cg_own, getenv(CG_ROOT_ENV));
		r->cg = &r->cg_own;
	}
	return r->cg;
}

/* What needs privileges, asked before anything is made. */
int session_check_rights(struct session *r)
{
	struct plan *p = &r->plan;
	struct run_cfg *cfg = &p->cfg;
	int e;

	/*
	 * --breaktrace stops a trace, --trace-timer adds to one, --on-late
	 * acts on what one kept.
	 */
	if (p->breaktrace_ns || p->trace_timer || p->trace_out_path ||
	    p->nlate)
		p->trace = true;
	if (p->trace && !p->dry_run && geteuid())
		return session_fail(IB_EXIT_SETUP, "--trace needs root (it "
				    "uses tracefs)");
	cfg->rt_ok = sys_realtime();
	if (cfg->bench_policy == POL_FIFO && !cfg->rt_ok) {
		e = errno;
		return session_fail(IB_EXIT_SETUP, "%s needs real-time "
				    "privileges (SCHED_FIFO): %s%s",
				    p->bench_policy_given ?
				    "--bench-policy fifo" : "-r",
				    strerror(e), rt_group_why(r));
	}
	e = check_policies(p);
	if (e)
		return e;
	if (!sys_can_nice(cfg->bench_nice))
		return session_fail(IB_EXIT_SETUP, "-B %d needs the right to "
				    "raise priority (root, CAP_SYS_NICE or "
				    "RLIMIT_NICE)", cfg->bench_nice);
	if (!sys_can_nice(cfg->load_nice))
		return session_fail(IB_EXIT_SETUP, "-N %d needs the right to "
				    "raise priority (root, CAP_SYS_NICE or "
				    "RLIMIT_NICE)", cfg->load_nice);
	if (snprintf(cfg->read_file, sizeof(cfg->read_file),
		     "%s/interbench.read", cfg->dir) >=
	    (int)sizeof(cfg->read_file) ||
	    snprintf(cfg->write_file, sizeof(cfg->write_file),
		     "%s/interbench.write.%d", cfg->dir, (int)getpid()) >=
	    (int)sizeof(cfg->write_file))
		return session_fail(IB_EXIT_USAGE, "option -D: directory "
				    "name is too long");
	return 0;
}

int session_output_fault(const struct sys_output *out,
			 const struct sys_output_fault *f,
			 const char *input_is)
{
	const struct sys_output *o = &out[f->out];

	if (f->kind == SYS_OUT_TWICE)
		return session_fail(IB_EXIT_USAGE, "options %s and %s name "
				    "one file, %s", out[f->other].opt, o->opt,
				    o->path);
	if (f->kind == SYS_OUT_INPUT)
		return session_fail(IB_EXIT_USAGE, "option %s: %s is %s",
				    o->opt, o->path, input_is);
	return session_fail(IB_EXIT_USAGE, "option %s: cannot write %s: %s",
			    o->opt, o->path, sys_file_why(f->err));
}

/*
 * The result files, against the files the run reads (the simulators'
 * inputs, each a task's and a load's: in[], with the option that named
 * it in what[]) and each other: 0, or the status, said.
 */
static int check_outputs(const struct plan *p)
{
	struct sys_output out[RUN_SINKS];
	struct sys_output_fault f;
	const char **in, **what;
	char is[PATH_MAX + 96];
	int i, n = 0, err = 0;

	for (i = 0; simulators[i]; i++)
		;
	in = calloc(2 * (size_t)i + 1, sizeof(*in));
	what = calloc(2 * (size_t)i + 1, sizeof(*what));
	if (!in || !what) {
		free(in);
		free(what);
		return session_fail(IB_EXIT_SETUP, "out of memory");
	}
	for (i = 0; simulators[i]; i++) {
		const void *o = plan_sim_opts(p, simulators[i]);
		int load;

		for (load = 0; load < 2 && simulators[i]->input; load++) {
			in[n] = simulators[i]->input(o, load, &what[n]);
			n += !!in[n];
		}
	}
	session_outputs(p, out);
	if (sys_outputs_check(out, RUN_SINKS, in, n, &f)) {
		if (f.kind == SYS_OUT_INPUT)
			snprintf(is, sizeof(is), "an input (%s%s): it would "
				 "be replaced", what[f.other], in[f.other]);
		err = session_output_fault(out, &f, is);
	}
	free(in);
	free(what);
	return err;
}

/*
 * Check up front what would otherwise fail half-way through a run. The
 * logfile is only appended to; the result files are made new and
 * renamed over their names, so checking changes nothing. A dry run
 * opens nothing.
 */
int session_check_files(struct session *r)
{
	const struct plan *p = &r->plan;
	bool files = false;
	struct stat st;
	int i, err;

	for (i = 0; i < p->nloads; i++)
		files |= !!(p->loads[i]->flags & LOAD_FILES);
	if (files) {
		if (stat(p->cfg.dir, &st))
			return session_fail(IB_EXIT_USAGE, "option -D: %s: %s",
					    p->cfg.dir, strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return session_fail(IB_EXIT_USAGE, "option -D: %s is "
					    "not a directory", p->cfg.dir);
		if (access(p->cfg.dir, W_OK | X_OK))
			return session_fail(IB_EXIT_USAGE, "option -D: cannot "
					    "write in %s: %s", p->cfg.dir,
					    strerror(errno));
	}
	/* Another user's file at a load's name is never replaced */
	for (i = 0; i < 2 * p->nloads; i++) {
		unsigned int fl = p->loads[i / 2]->flags;
		const char *name = i % 2 ? (fl & LOAD_WRITE_FILE ?
					    p->cfg.write_file : NULL) :
				   (fl & LOAD_READ_FILE ? p->cfg.read_file :
				    NULL);

		if (name && !lstat(name, &st) && st.st_uid != geteuid())
			return session_fail(IB_EXIT_USAGE, "option -D: %s "
					    "belongs to another user (uid %u) "
					    "and the %s load would replace "
					    "it; remove it or use another -D",
					    name, (unsigned int)st.st_uid,
					    p->loads[i / 2]->name);
	}
	if (!p->console_only) {
		struct utsname u;

		uname(&u);
		snprintf(r->log_name, sizeof(r->log_name), "%s.log", u.release);
		err = sys_can_append(r->log_name);
		if (err)
			return session_fail(IB_EXIT_USAGE, "logfile %s: %s "
					    "(use -c for console only)",
					    r->log_name, sys_file_why(err));
	}
	return check_outputs(p);
}

/* Every check passed: only now is anything made. */
int session_open_files(struct session *r)
{
	int fd;

	if (!r->plan.console_only) {
		struct stat st;

		/* what the last line says: a new file, or one with a past */
		if (lstat(r->log_name, &st))
			r->log_how = "created";
		else if (st.st_size)
			r->log_how = "appended to";
		else
			r->log_how = "written; it was empty";
		fd = sys_open_append(r->log_name);
		if (fd < 0 || !(r->con.log = stream_keep_errno(fd, "a")))
			return session_fail(IB_EXIT_USAGE, "logfile %s: %s "
					    "(use -c for console only)",
					    r->log_name,
					    sys_file_why(fd < 0 ? fd : -errno));
	}
	return session_open_outputs(r);
}

/*
 * One measuring run per machine: another run would measure us and we
 * it. Taken after every check and before anything is made, so that a
 * refused run leaves nothing behind.
 */
int session_lock(struct session *r)
{
	struct results_info *ri = &r->info;
	bool shared;
	pid_t holder;
	int err;

	/* how other users' runs know this one, whatever the binary's name */
	prctl(PR_SET_NAME, "interbench");
	shared = lock_path(r->lock.path, sizeof(r->lock.path));
	err = run_lock(&r->lock, shared, &holder);
	if (!err) {
		/* each user's lock is private: another's run is only told */
		holder = lock_other_user(&ri->other_uid);
		if (holder) {
			ri->concurrent = true;
			ri->concurrent_pid = holder;
			ri->other_user = true;
		}
		return 0;
	}
	if (err == -EBUSY) {
		ri->concurrent = true;
		ri->concurrent_pid = holder;
		if (r->plan.allow_concurrent)
			return 0;
		if (holder)
			return session_fail(IB_EXIT_SETUP, "another "
					    "interbench (pid %d) is measuring "
					    "on this machine; two runs "
					    "measure each other "
					    "(--allow-concurrent runs anyway)",
					    (int)holder);
		return session_fail(IB_EXIT_SETUP, "another interbench (in "
				    "another PID namespace) is measuring on "
				    "this machine; two runs measure each "
				    "other (--allow-concurrent runs anyway)");
	}
	if (r->plan.allow_concurrent) {
		fprintf(stderr, "interbench: warning: cannot use the lock %s: "
			"%s; running anyway (--allow-concurrent)\n",
			r->lock.path, sys_file_why(err));
		return 0;
	}
	return session_fail(IB_EXIT_SETUP, "cannot take the lock %s: %s "
			    "(--allow-concurrent runs without it)",
			    r->lock.path, sys_file_why(err));
}

/*
 * --trace: our tracefs instance, made after every check and the lock
 * and before any file, so that a kernel without tracefs (or its events)
 * is one line and nothing made. Undone at exit, whatever the exit.
 */
/*
 * Our trace instance, where a killed run left it recording: holding the
 * lock, no interbench is measuring, so it is removed before this run
 * measures (or the run says it measures under it). Beside another run
 * (--allow-concurrent) it may be that run's: left alone.
 */
int session_open_trace(struct session *r, bool trace, bool timer)
{
	char err[320], state[sizeof(r->lock.path) + 8], msg[512];
	int e;

	state[0] = '\0';
	if (r->lock.path[0] && (!r->info.concurrent || r->info.other_user)) {
		snprintf(state, sizeof(state), "%s.trace", r->lock.path);
		e = trace_reap(state, msg, sizeof(msg));
		if (e > 0)
			fprintf(stderr, "interbench: %s\n", msg);
		else if (e < 0 && trace)
			return session_fail(IB_EXIT_SETUP, "%s", msg);
		else if (e < 0)
			fprintf(stderr, "interbench: warning: %s: this run "
				"is measured while it records\n", msg);
	}
	if (!trace)
		return 0;
	if (trace_open(&r->tracer, r->plan.cfg.duration_ns, timer, state,
		       err, sizeof(err)))
		return session_fail(IB_EXIT_SETUP, "%s", err);
	return 0;
}

/* "LEAD: tracefs instance ..., timer events on|off; ...; switches ..." */
void session_say_trace(struct out_console *con, const char *lead,
		      const struct tracer *t, bool timer)
{
	out_printf(con, "%s: tracefs instance %s, clock mono, CPUs %s, timer "
		   "events %s; events this kernel lacks: %s; switches to a "
		   "periodic task's threads from idle or its timing thread: "
		   "%s\n", lead, t->inst, t->cpus,
		   timer ? "on" : "off (--trace-timer)",
		   t->missing[0] ? t->missing : "none", t->switch_filtered ?
		   "from their stamps" : "recorded (the kernel refused the "
		   "filter)");
}

/*
 * --dma-latency: a PM QoS request, held while the file stays open: the
 * kernel drops it when we exit, however we exit. Deliberately never
 * closed, so the descriptor is not kept anywhere.
 */
int session_hold_dma_latency(const struct plan *p)
{
	int32_t us = p->dma_latency_us;
	int fd;

	if (!p->dma_given)
		return 0;
	fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return session_fail(IB_EXIT_SETUP, "--dma-latency: "
				    "/dev/cpu_dma_latency: %s",
				    strerror(errno));
	if (write(fd, &us, sizeof(us)) != sizeof(us))
		return session_fail(IB_EXIT_SETUP, "--dma-latency: writing %d "
				    "to /dev/cpu_dma_latency: %s", (int)us,
				    strerror(errno));
	return 0;
}

int session_bind_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return session_fail(IB_EXIT_SETUP, "-u: cannot bind to CPU "
				    "%d: %s", cpu, strerror(errno));
	return 0;
}
