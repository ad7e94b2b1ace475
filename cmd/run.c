// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * interbench - the Linux interactivity benchmark.
 *
 * This file is the orchestrator and the only place that exits: it turns
 * the command line into a plan (cli.c), sets the machine up (system.c),
 * runs the cells in order (run.c), keeps their results (figures.c) and
 * feeds the outputs (output.c: tables and logfile; results.c: JSON and
 * CSV). Simulators are in simulators/, loads in loads/, the timing
 * engines in timing.c, statistics in stats.c. HACKING says more.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "cli/ab.h"
#include "cli/cli.h"
#include "outputs/junit.h"
#include "outputs/kcidb.h"
#include "report/report.h"
#include "lib/lock.h"
#include "lib/policy.h"
#include "lib/safefile.h"
#include "outputs/output.h"
#include "outputs/results.h"
#include "run/run.h"
#include "run/shell.h"
#include "run/placement.h"
#include "lib/system.h"
#include "run/machine.h"
#include "run/trace.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/load.h"
#include "simulators/rtapp.h"
#include "compare/compare.h"
#include "compare/trend.h"
#include "cmd/cmd.h"

/* Everything a run has: its plan, its results so far, its outputs. */
struct run {
	struct plan plan;
	struct placement place;		/* --load-group */
	struct calibration cal;
	struct sysinfo_ib sys;
	struct run_info info;
	struct console con;
	struct runner runner;
	struct tracer tracer;		/* --trace */
	struct json_out json;
	bool json_warned, junit_warned, html_warned, kcidb_warned;
	struct run_lock lock;
	FILE *csv;
	char log_name[PATH_MAX];
	struct result *res;		/* every cell of every repeat, in order */
	int nres, nbad;
};

static void die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static void die(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("interbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

/* ---- set-up --------------------------------------------------------- */

/* cmds: interbench's subcommands, for the shell's completion */
static void parse_command_line(struct plan *p, int argc, char **argv,
			       const struct opt_cmd *cmds, int ncmds)
{
	char err[512];

	if (plan_init(p))
		die(IB_EXIT_SETUP, "out of memory");
	if (cli_parse(p, argc, argv, err, sizeof(err)))
		die(IB_EXIT_USAGE, "%s", err);
	switch (p->action) {
	case PLAN_RUN:
		return;
	case PLAN_HELP:
		cli_usage(stdout);
		break;
	case PLAN_LIST:
		cli_list(stdout);
		break;
	case PLAN_VERSION:
		printf("interbench %s\n", IB_VERSION);
		break;
	case PLAN_COMPLETION:
		completion_bash(stdout, cmds, ncmds);
		break;
	}
	exit(IB_EXIT_OK);
}

/*
 * Ask the kernel now whether it takes the classes asked for, on a
 * throwaway thread, so that a refusal stops the run before it starts.
 * SCHED_DEADLINE is tried with the most any task may reserve, a whole
 * period: what admission control takes for that it takes for all.
 */
static void check_policies(const struct plan *p)
{
	const struct run_cfg *cfg = &p->cfg;
	struct sched_want w = { .policy = cfg->bench_policy, .prio = PRIO_SIM,
				.nice = cfg->bench_nice,
				.slice_ns = cfg->bench_slice_ns,
				.runtime_ns = 10 * NSEC_PER_MSEC,
				.period_ns = 10 * NSEC_PER_MSEC };
	char why[256];

	if (p->dry_run)
		return;
	if ((cfg->bench_policy != POL_OTHER || cfg->bench_slice_ns) &&
	    policy_probe(&w, why, sizeof(why)))
		die(IB_EXIT_SETUP, "--bench-policy %s%s: %s%s",
		    policy_names[cfg->bench_policy],
		    cfg->bench_slice_ns ? " --bench-slice" : "", why,
		    cfg->bench_policy == POL_DEADLINE && cfg->uniprocessor ?
		    " (a deadline task may not be bound to some CPUs: -u)" :
		    "");
	w = (struct sched_want){ .policy = cfg->load_policy,
				 .nice = cfg->load_nice };
	if (cfg->load_policy != POL_OTHER &&
	    policy_probe(&w, why, sizeof(why)))
		die(IB_EXIT_SETUP, "--load-policy %s: %s",
		    load_policy_names[cfg->load_policy], why);
}

/* What needs privileges, asked before anything is made. */
static void check_rights(struct plan *p)
{
	struct run_cfg *cfg = &p->cfg;

	/* --breaktrace stops a trace, --trace-timer adds to one. */
	if (p->breaktrace_ns || p->trace_timer)
		p->trace = true;
	if (p->trace && !p->dry_run && geteuid())
		die(IB_EXIT_SETUP, "--trace needs root (it uses tracefs)");
	cfg->rt_ok = sys_realtime();
	if (cfg->bench_policy == POL_FIFO && !cfg->rt_ok)
		die(IB_EXIT_SETUP, "%s needs real-time privileges "
		    "(SCHED_FIFO): %s", p->bench_policy_given ?
		    "--bench-policy fifo" : "-r", strerror(errno));
	check_policies(p);
	if (!sys_can_nice(cfg->bench_nice))
		die(IB_EXIT_SETUP, "-B %d needs the right to raise priority "
		    "(root, CAP_SYS_NICE or RLIMIT_NICE)", cfg->bench_nice);
	if (!sys_can_nice(cfg->load_nice))
		die(IB_EXIT_SETUP, "-N %d needs the right to raise priority "
		    "(root, CAP_SYS_NICE or RLIMIT_NICE)", cfg->load_nice);
	if (snprintf(cfg->read_file, sizeof(cfg->read_file),
		     "%s/interbench.read", cfg->dir) >=
	    (int)sizeof(cfg->read_file) ||
	    snprintf(cfg->write_file, sizeof(cfg->write_file),
		     "%s/interbench.write.%d", cfg->dir, (int)getpid()) >=
	    (int)sizeof(cfg->write_file))
		die(IB_EXIT_USAGE, "option -D: directory name is too long");
}

/*
 * Check up front what would otherwise fail half-way through a run. The
 * logfile is only appended to; the result files are made new and
 * renamed over their names, so checking changes nothing. A dry run
 * opens nothing.
 */
static void check_files(struct run *r)
{
	const struct plan *p = &r->plan;
	const struct { const char *opt, *path; } outs[] = {
		{ "--json", p->json_path }, { "--csv", p->csv_path },
		{ "--junit", p->junit_path }, { "--html", p->html_path },
		{ "--kcidb", p->kcidb_path },
	};
	/* what the run reads: an output there would replace it */
	const struct { const char *what, *path; } ins[] = {
		{ "-W rtapp:", p->cfg.rtapp_task ? p->cfg.rtapp_task->path :
			       NULL },
		{ "-w rtapp:", p->cfg.rtapp_load ? p->cfg.rtapp_load->path :
			       NULL },
	};
	bool files = false;
	struct stat st;
	int i, err;

	for (i = 0; i < p->nloads; i++)
		files |= !!(p->loads[i]->flags & LOAD_FILES);
	if (files) {
		if (stat(p->cfg.dir, &st))
			die(IB_EXIT_USAGE, "option -D: %s: %s", p->cfg.dir,
			    strerror(errno));
		if (!S_ISDIR(st.st_mode))
			die(IB_EXIT_USAGE, "option -D: %s is not a directory",
			    p->cfg.dir);
		if (access(p->cfg.dir, W_OK | X_OK))
			die(IB_EXIT_USAGE, "option -D: cannot write in %s: %s",
			    p->cfg.dir, strerror(errno));
	}
	/* Another user's file at a load's name is never replaced */
	for (i = 0; i < p->nloads; i++) {
		unsigned int fl = p->loads[i]->flags;
		const char *name = fl & LOAD_READ_FILE ? p->cfg.read_file :
				   fl & LOAD_WRITE_FILE ? p->cfg.write_file :
				   NULL;

		if (name && !lstat(name, &st) && st.st_uid != geteuid())
			die(IB_EXIT_USAGE, "option -D: %s belongs to another "
			    "user (uid %u) and the %s load would replace it; "
			    "remove it or use another -D", name,
			    (unsigned int)st.st_uid, p->loads[i]->name);
	}
	if (!p->console_only) {
		struct utsname u;

		uname(&u);
		snprintf(r->log_name, sizeof(r->log_name), "%s.log", u.release);
		err = sys_can_append(r->log_name);
		if (err)
			die(IB_EXIT_USAGE, "logfile %s: %s (use -c for console "
			    "only)", r->log_name, sys_file_why(err));
	}
	for (i = 0; i < (int)(sizeof(outs) / sizeof(outs[0])); i++) {
		int k;

		if (!outs[i].path)
			continue;
		/* Two outputs in one file: one would overwrite the other */
		for (k = 0; k < i; k++)
			if (outs[k].path &&
			    sys_same_file(outs[k].path, outs[i].path))
				die(IB_EXIT_USAGE, "options %s and %s name one "
				    "file, %s", outs[k].opt, outs[i].opt,
				    outs[i].path);
		for (k = 0; k < (int)(sizeof(ins) / sizeof(ins[0])); k++)
			if (ins[k].path &&
			    sys_same_file(ins[k].path, outs[i].path))
				die(IB_EXIT_USAGE, "option %s: %s is an input "
				    "(%s%s): it would be replaced",
				    outs[i].opt, outs[i].path, ins[k].what,
				    ins[k].path);
		err = sys_can_replace(outs[i].path);
		if (err)
			die(IB_EXIT_USAGE, "option %s: cannot write %s: %s",
			    outs[i].opt, outs[i].path, sys_file_why(err));
	}
}

/* Every check passed: only now is anything made. */
static void open_files(struct run *r)
{
	const struct plan *p = &r->plan;
	struct safe_file sf;
	int fd, err;

	if (!p->console_only) {
		fd = sys_open_append(r->log_name);
		if (fd < 0 || !(r->con.log = stream_keep_errno(fd, "a")))
			die(IB_EXIT_USAGE, "logfile %s: %s (use -c for console "
			    "only)", r->log_name,
			    sys_file_why(fd < 0 ? fd : -errno));
	}
	if (p->csv_path) {
		/* In place at once: the CSV grows row by row where it is. */
		err = safe_file_begin(&sf, p->csv_path);
		if (!err)
			err = safe_file_publish(&sf);
		if (err)
			die(IB_EXIT_USAGE, "option --csv: cannot write %s: %s",
			    p->csv_path, strerror(-err));
		r->csv = sf.f;
	}
}

/*
 * One measuring run per machine: another run would measure us and we
 * it. Taken after every check and before anything is made, so that a
 * refused run leaves nothing behind.
 */
static void take_lock(struct run *r)
{
	struct run_info *ri = &r->info;
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
		return;
	}
	if (err == -EBUSY) {
		ri->concurrent = true;
		ri->concurrent_pid = holder;
		if (r->plan.allow_concurrent)
			return;
		if (holder)
			die(IB_EXIT_SETUP, "another interbench (pid %d) is "
			    "measuring on this machine; two runs measure each "
			    "other (--allow-concurrent runs anyway)",
			    (int)holder);
		die(IB_EXIT_SETUP, "another interbench (in another PID "
		    "namespace) is measuring on this machine; two runs "
		    "measure each other (--allow-concurrent runs anyway)");
	}
	if (r->plan.allow_concurrent) {
		fprintf(stderr, "interbench: warning: cannot use the lock %s: "
			"%s; running anyway (--allow-concurrent)\n",
			r->lock.path, sys_file_why(err));
		return;
	}
	die(IB_EXIT_SETUP, "cannot take the lock %s: %s (--allow-concurrent "
	    "runs without it)", r->lock.path, sys_file_why(err));
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
static void open_trace(struct run *r, bool trace, bool timer)
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
			die(IB_EXIT_SETUP, "%s", msg);
		else if (e < 0)
			fprintf(stderr, "interbench: warning: %s: this run "
				"is measured while it records\n", msg);
	}
	if (!trace)
		return;
	if (trace_open(&r->tracer, r->plan.cfg.duration_ns, timer, state,
		       err, sizeof(err)))
		die(IB_EXIT_SETUP, "%s", err);
}

/* "LEAD: tracefs instance ..., timer events on|off; ..." */
static void say_trace(struct console *con, const char *lead,
		      const struct tracer *t, bool timer)
{
	out(con, "%s: tracefs instance %s, clock mono, timer events %s; "
	    "events this kernel lacks: %s\n", lead, t->inst, timer ? "on" :
	    "off (--trace-timer)", t->missing[0] ? t->missing : "none");
}

/*
 * --dma-latency: a PM QoS request, held while the file stays open: the
 * kernel drops it when we exit, however we exit. Deliberately never
 * closed, so the descriptor is not kept anywhere.
 */
static void hold_dma_latency(const struct plan *p)
{
	int32_t us = p->dma_latency_us;
	int fd;

	if (!p->dma_given)
		return;
	fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die(IB_EXIT_SETUP, "--dma-latency: /dev/cpu_dma_latency: %s",
		    strerror(errno));
	if (write(fd, &us, sizeof(us)) != sizeof(us))
		die(IB_EXIT_SETUP, "--dma-latency: writing %d to "
		    "/dev/cpu_dma_latency: %s", (int)us, strerror(errno));
}

static void bind_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die(IB_EXIT_SETUP, "-u: cannot bind to CPU 0: %s",
		    strerror(errno));
}

static void __attribute__((noreturn)) interrupted(struct run *r);

static void calibrate(struct run *r)
{
	struct calibration *cal = &r->cal;
	const struct plan *p = &r->plan;
	int err;

	if (p->loops_given) {
		cal->loops_per_ms = p->cfg.loops_per_ms;
	} else if (!p->calibrate) {
		err = calib_load(&cal->loops_per_ms);
		if (err == -EINVAL)
			fprintf(stderr, "interbench: %s is not a number, "
				"measuring again\n", CALIB_FILE);
		else if (err && err != -ENOENT)
			fprintf(stderr, "interbench: not reading %s: %s; "
				"measuring again\n", CALIB_FILE,
				sys_file_why(err));
	}
	if (!cal->loops_per_ms) {
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "Measuring loops per ms...\n");
		err = calibrate_loops(cal);
		if (err)
			die(IB_EXIT_SETUP, "cannot calibrate the CPU loop: %s",
			    strerror(-err));
		err = calib_save(cal->loops_per_ms);
		if (err)
			fprintf(stderr, "interbench: warning: cannot save %s: "
				"%s\n", CALIB_FILE, strerror(-err));
		/* a CPU whose speed varied is said once, in log_header() */
	}
	if (runner_stopped())
		interrupted(r);
	calibration_check(cal);
	if (fabs(cal->error_pct) > 2.0)
		fprintf(stderr, "interbench: warning: burning CPU costs %+.2f %% "
			"of what it asks (more than 2 %%): is the machine "
			"busy?\n", cal->error_pct);
	r->plan.cfg.loops_per_ms = cal->loops_per_ms;
	printf("Loops per ms: %llu (%s); burning 1-20 ms of CPU costs "
	       "%+.2f %% of what it asks in thread CPU time\n",
	       (unsigned long long)cal->loops_per_ms,
	       cal->measured ? "measured now" : p->loops_given ? "from -l" :
	       "saved in " CALIB_FILE, cal->error_pct);
}

/* ---- outputs -------------------------------------------------------- */

static void json_failed(struct run *r, int err)
{
	if (!err || r->json_warned)
		return;
	fprintf(stderr, "interbench: cannot write %s: %s\n",
		r->plan.json_path, strerror(-err));
	r->json_warned = true;
}

/* The JUnit file, whole again: 0 or -errno (said once). */
static int junit_out(struct run *r)
{
	int err;

	if (!r->plan.junit_path)
		return 0;
	err = junit_write(r->plan.junit_path, &r->info, r->res, r->nres);
	if (err && !r->junit_warned) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->plan.junit_path, strerror(-err));
		r->junit_warned = true;
	}
	return err;
}

/* The KCIDB report, whole again: 0 or -errno (said once). */
static int kcidb_out(struct run *r)
{
	int err;

	if (!r->plan.kcidb_path)
		return 0;
	err = kcidb_write(r->plan.kcidb_path, &r->info, r->res, r->nres);
	if (err && !r->kcidb_warned) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->plan.kcidb_path, strerror(-err));
		r->kcidb_warned = true;
	}
	return err;
}

/* The pictures, drawn anew from every result so far. */
/* The page, whole again: 0 or -errno (said once). */
static int html_out(struct run *r)
{
	int err;

	if (!r->plan.html_path)
		return 0;
	err = report_run_html(r->plan.html_path, &r->info, r->res, r->nres);
	if (err && !r->html_warned) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->plan.html_path, strerror(-err));
		r->html_warned = true;
	}
	return err;
}

/* The run has ended (or was stopped): the JSON whole, files closed. */
static int close_outputs(struct run *r)
{
	int ret = 0;

	iso_now(r->info.finished, sizeof(r->info.finished));
	/*
	 * An output that could not be written whole at the end: said (once)
	 * and exit 3. What was valid before is left so (doc/files.txt).
	 */
	if (r->plan.json_path) {
		int err = json_out_end(&r->json, &r->info, r->res, r->nres);

		json_failed(r, err);
		if (err)
			ret = IB_EXIT_SETUP;
	}
	if (junit_out(r))
		ret = IB_EXIT_SETUP;
	if (kcidb_out(r))
		ret = IB_EXIT_SETUP;
	if (html_out(r))
		ret = IB_EXIT_SETUP;
	/* fclose() fails with the first failed write's errno (safefile.h) */
	if (r->con.log && fclose(r->con.log)) {
		fprintf(stderr, "interbench: cannot write the logfile %s: %s\n",
			r->log_name, strerror(errno));
		ret = IB_EXIT_SETUP;
	}
	r->con.log = NULL;
	if (r->csv && fclose(r->csv)) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->plan.csv_path, strerror(errno));
		ret = IB_EXIT_SETUP;
	}
	r->csv = NULL;
	return ret;
}

/* A result is in: every output hears of it. */
static void result_done(struct run *r)
{
	const struct result *res = &r->res[r->nres - 1];

	if (res->status != RES_OK)
		r->nbad++;
	if (r->plan.repeats == 1)
		print_result(&r->con, r->res, r->nres);
	print_remeasured(&r->con, res);
	print_why(&r->con, res);
	if (r->csv)
		csv_row(r->csv, res);
	if (r->plan.json_path)
		json_failed(r, json_out_add(&r->json, res));
	junit_out(r);
	kcidb_out(r);
	html_out(r);
}

/*
 * The last lines of every run, once its files are whole: where the log
 * went, and the Read load's file if it was left for the next run.
 */
static void say_files(const struct run *r)
{
	const struct plan *p = &r->plan;
	struct stat st;
	int i;

	if (!p->console_only)
		printf("Logfile: %s (appended to)\n", r->log_name);
	for (i = 0; i < p->nloads; i++)
		if ((p->loads[i]->flags & LOAD_READ_FILE) &&
		    !stat(p->cfg.read_file, &st) && st.st_uid == geteuid()) {
			printf("Kept for the next run's Read load: %s (%.1f "
			       "GiB); remove it when done: rm %s\n",
			       p->cfg.read_file, (double)st.st_size /
			       (1 << 30), p->cfg.read_file);
			break;
		}
	fflush(stdout);
}

/* Stop everything and leave: a signal asked us to. */
static void interrupted(struct run *r)
{
	int sig = runner_stopped();
	char what[32];

	runner_abort(&r->runner);
	progress(&r->plan, 0, NULL, NULL);
	if (r->plan.repeats > 1)
		print_tables(&r->con, r->res, r->nres);
	out(&r->con, "\nInterrupted by signal %d (%s) after %d of %d cells\n",
	    sig, strsignal(sig), r->nres, r->plan.cells);
	snprintf(what, sizeof(what), "signal %d", sig);
	r->info.interrupted = what;
	close_outputs(r);
	say_files(r);
	exit(128 + sig);
}

/*
 * --breaktrace: a frame was that late, the trace stopped there. Save it
 * (named by the time, next to the log) and end the run.
 */
static void __attribute__((noreturn)) broke(struct run *r)
{
	const struct worst_frame *b = &r->runner.sh->res.worst.brk;
	char path[96], stamp[32];
	time_t now = time(NULL);
	int err;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	snprintf(path, sizeof(path), "interbench-breaktrace-%s.txt", stamp);
	err = trace_save(&r->tracer, path);
	if (!err)
		r->info.breaktrace_file = path;
	out(&r->con, "\n--breaktrace: a frame %.3f ms late (more than %.3f ms) "
	    "on CPU %d, thread %d; ", (double)(b->start - b->release) /
	    NSEC_PER_MSEC, (double)r->plan.breaktrace_ns / NSEC_PER_MSEC,
	    (int)b->cpu, (int)b->tid);
	if (err)
		out(&r->con, "cannot save the trace to %s: %s\n", path,
		    strerror(-err));
	else
		out(&r->con, "trace saved to %s (marker \"interbench: "
		    "breaktrace\")\n", path);
	r->info.interrupted = "breaktrace";
	runner_finish(&r->runner);
	close_outputs(r);
	trace_close(&r->tracer);
	say_files(r);
	exit(IB_EXIT_BREAK);
}

/* --load-group cgroup: the groups made, removed at every exit() */
static struct placement *groups_made[2];

static void remove_groups(void)
{
	int i;

	for (i = 0; i < 2; i++)
		if (groups_made[i])
			placement_remove(groups_made[i]);
}

/*
 * Where the loads go, made after every check and the lock, like the
 * trace instance: a refusal is one line and nothing left (exit 3).
 */
static void place_loads(struct run *r, char tag)
{
	static bool registered;
	struct placement *pl = &r->place;
	char err[PATH_MAX + 256];

	pl->group = r->plan.cfg.load_group;
	pl->weight = r->plan.cfg.load_weight;
	pl->tag = tag;
	if (!registered) {
		atexit(remove_groups);
		registered = true;
	}
	if (placement_setup(pl, err, sizeof(err)))
		die(IB_EXIT_SETUP, "%s", err);
	if (pl->dir[0])
		groups_made[tag == 'B'] = pl;
}

/* ---- the run -------------------------------------------------------- */

static void start(struct run *r, const struct run *twin)
{
	r->res = calloc((size_t)r->plan.cells, sizeof(*r->res));
	if (!r->res || runner_init(&r->runner, &r->plan))
		die(IB_EXIT_SETUP, "out of memory");
	r->runner.place = &r->place;
	r->info.load_where = r->place.what;
	if (r->plan.trace) {
		r->runner.trace = &r->tracer;
		r->info.trace = &r->tracer;
	}
	sysinfo_read(&r->sys);
	/* What a late frame's idle CPU was: the host's, in a VM */
	r->tracer.vm = r->sys.st.vm;
	sys_raise_fd_limit();
	r->con.plan = &r->plan;
	r->info.plan = &r->plan;
	r->info.sys = &r->sys;
	r->info.cal = &r->cal;
	iso_now(r->info.started, sizeof(r->info.started));
	r->info.pid = getpid();
	if (r->csv) {
		csv_header(r->csv);
		fflush(r->csv);
	}
	runner_signals();
	/*
	 * Our own page faults must not delay the timing of anything. Only
	 * where locking cannot make later allocations fail (root, or no
	 * limit on locked memory).
	 */
	if (sys_lock_memory())
		fprintf(stderr, "interbench: warning: cannot lock memory: %s\n",
			strerror(errno));
	sys_write_file("/proc/self/oom_score_adj", "-1000");
	if (twin) {
		/* ab's side B: A's calibration, lock and logfile */
		r->cal = twin->cal;
		r->plan.cfg.loops_per_ms = twin->cal.loops_per_ms;
		r->info.concurrent = twin->info.concurrent;
		r->info.concurrent_pid = twin->info.concurrent_pid;
		r->info.other_user = twin->info.other_user;
		r->info.other_uid = twin->info.other_uid;
		goto outputs;
	}
	calibrate(r);
	log_header(&r->con, &r->cal);
	machine_state_print(&r->sys, out_cb, &r->con);
	if (r->place.group == LG_SESSION)
		out(&r->con, "Loads: in a session of their own (autogroup %s: "
		    "%s)\n", r->sys.st.autogroup > 0 ? "on" : "off",
		    r->sys.st.autogroup > 0 ? "a scheduling group of their "
		    "own, as a second terminal's" : "the session changes "
		    "nothing for the scheduler");
	else if (r->place.group == LG_CGROUP)
		out(&r->con, "Loads: in their own %s\n", r->place.what);
	machine_warnings(&r->sys, &r->plan, out_cb, &r->con);
	if (r->plan.trace)
		say_trace(&r->con, "Trace", &r->tracer, r->plan.trace_timer);
	if (r->info.other_user)
		out(&r->con, "WARNING: another user's interbench (pid %d, "
		    "uid %u) is running; each measures the other and "
		    "results are unreliable\n", (int)r->info.concurrent_pid,
		    (unsigned int)r->info.other_uid);
	else if (r->info.concurrent && r->info.concurrent_pid)
		out(&r->con, "WARNING: --allow-concurrent: another interbench "
		    "(pid %d) is measuring too; results are unreliable\n",
		    (int)r->info.concurrent_pid);
	else if (r->info.concurrent)
		out(&r->con, "WARNING: --allow-concurrent: another interbench "
		    "(in another PID namespace) is measuring too; results "
		    "are unreliable\n");
	else if (r->plan.allow_concurrent)
		out(&r->con, "Note: --allow-concurrent given; no other "
		    "interbench was measuring when this run started\n");
outputs:
	if (r->plan.json_path)
		json_failed(r, json_out_begin(&r->json, r->plan.json_path,
					      &r->info));
	junit_out(r);
	kcidb_out(r);
}

/*
 * -n auto, at the end of a pass: stop once every cell's latency decision
 * figures (compare's) are known well enough (or at the last pass, saying
 * which are not).
 */
/* What --remeasure-if keeps of an attempt (NaN: not measured). */
static void attempt_note(struct attempt *a, const struct result *res,
			 enum fig_id f)
{
	bool ok = res->status == RES_OK;

	a->status = res->status;
	a->value = ok ? res->v[f] : NAN;
	a->steal_pct = ok ? res->v[F_INTF_STEAL] : NAN;
	a->lat_mean = ok ? res->v[F_LAT_MEAN] : NAN;
	a->lat_p99 = ok ? res->v[F_LAT_P99] : NAN;
}

/* Is attempt a better than b: measured, and less so ('>': less). */
static bool attempt_better(const struct gate *g, const struct attempt *a,
			   const struct attempt *b)
{
	if ((a->status == RES_OK) != (b->status == RES_OK))
		return a->status == RES_OK;
	if (isnan(a->value) || isnan(b->value))
		return !isnan(a->value);
	return g->op == '>' || g->op == 'g' ? a->value < b->value :
					      a->value > b->value;
}

/*
 * --remeasure-if: while the cell's latest attempt is so, measure it
 * again, up to --remeasure more times; res ends as the best attempt,
 * with every attempt recorded in it. Nothing is hidden: the row, the
 * JSON and JUnit say it was re-measured and how each attempt was.
 */
static void remeasure(struct run *r, struct result *res)
{
	const struct plan *p = &r->plan;
	const struct gate *g = &p->remeasure_if;
	struct attempt att[1 + REMEASURE_MAX];
	int n = 1, best = 0;

	if (!p->remeasure_on)
		return;
	attempt_note(&att[0], res, g->fig);
	while (n <= p->remeasure_max && att[n - 1].status == RES_OK &&
	       gate_broken(g, att[n - 1].value) && !r->runner.broke &&
	       !runner_stopped()) {
		struct result next = { .sim = res->sim, .load = res->load,
				       .repeat = res->repeat };

		progress(p, r->nres, res->sim, res->load);
		if (run_cell(&r->runner, &next)) {
			/* res is measured: run_all() keeps it, then stops */
			result_free(&next);
			break;
		}
		attempt_note(&att[n], &next, g->fig);
		/*
		 * The attempt --breaktrace stopped at is the one its frame
		 * and trace belong to: it is kept, whatever its figure.
		 */
		if (r->runner.broke ||
		    attempt_better(g, &att[n], &att[best])) {
			result_free(res);
			*res = next;
			best = n;
		} else {
			result_free(&next);
		}
		n++;
	}
	memcpy(res->attempt, att, sizeof(att[0]) * (size_t)n);
	res->nattempts = n;
	res->chosen = best;
}

static bool auto_done(struct run *r, int passes)
{
	struct plan *p = &r->plan;
	bool settled = passes >= AUTO_REPEATS_MIN &&
		       variation_settled(p, r->res, r->nres);

	if (settled)
		out(&r->con, "\n-n auto: every cell's p50, p99 and max latency "
		    "are known to %g %% (95 %%\ninterval) after %d repeats\n",
		    AUTO_HALF_WIDTH_PCT, passes);
	else if (passes == p->repeats) {
		out(&r->con, "\n-n auto: after %d repeats, the most asked, "
		    "these cells' decision figures are\nnot known to %g %% (more "
		    "repeats with -n auto:MAX, or a longer -t where the\n"
		    "advice below says length helps):\n", passes,
		    AUTO_HALF_WIDTH_PCT);
		print_unsettled(&r->con, r->res, r->nres);
	}
	if (settled) {
		p->repeats = passes;
		p->cells = passes * p->per_pass;
	}
	return settled;
}

static void run_all(struct run *r)
{
	const struct plan *p = &r->plan;
	int i;

	for (i = 0; i < p->cells; i++) {
		struct result *res = &r->res[r->nres];

		if (p->auto_repeats && i && i % p->per_pass == 0 &&
		    auto_done(r, i / p->per_pass))
			break;

		plan_cell(p, i, &res->repeat, &res->sim, &res->load);
		if (p->repeats == 1 && (i == 0 || res->sim != res[-1].sim))
			table_head(&r->con, res->sim);
		progress(p, r->nres, res->sim, res->load);
		if (run_cell(&r->runner, res))
			interrupted(r);
		remeasure(r, res);
		progress(p, r->nres, NULL, NULL);
		/* Measured in full: kept even if a signal came meanwhile. */
		r->nres++;
		result_done(r);
		if (r->runner.broke)
			broke(r);
		if (runner_stopped())
			interrupted(r);
	}
	if (p->auto_repeats)
		auto_done(r, p->repeats);
}

static int finish(struct run *r)
{
	int ret = IB_EXIT_OK, i;

	runner_finish(&r->runner);
	if (r->plan.repeats > 1)
		print_tables(&r->con, r->res, r->nres);
	if (r->plan.repeats >= 3)
		print_variation(&r->con, r->res, r->nres);
	out(&r->con, "\n");
	print_steal(&r->con, r->res, r->nres);
	if (r->nbad) {
		out(&r->con, "%d of %d cells were not measured (see their "
		    "rows)\n", r->nbad, r->plan.cells);
		ret = IB_EXIT_CELLS;
	}
	/*
	 * The status a script branches on, the first that applies: an
	 * output not written whole (3), a gate broken and cells unmeasured
	 * (7: both a finding and a fault), a gate (1), cells (4).
	 */
	if (check_gates(&r->con, r->res, r->nres))
		ret = ret == IB_EXIT_CELLS ? IB_EXIT_FAIL_CELLS : IB_EXIT_FAIL;
	i = close_outputs(r);
	if (i)
		ret = i;
	if (r->plan.trace)
		trace_close(&r->tracer);
	say_files(r);
	for (i = 0; i < r->nres; i++)
		result_free(&r->res[i]);
	free(r->res);
	plan_free(&r->plan);
	return ret;
}

/* ---- interbench ab: two states of the machine, interleaved ---------- */

struct ab_run {
	struct ab_plan ab;
	struct run side[2];		/* A's and B's plans, results, files */
	struct shell_env env;		/* how we were started: for commands */
	int state;			/* the side in effect; -1: neither */
	int half;			/* a side half entered or left, or -1 */
	bool read[2];			/* the side's machine state read */
	const char *failed;		/* the command that failed */
};

/*
 * Side s's command, or its undo: 0, or -1 having said which failed and
 * how. After a signal (home) it is still run: the machine goes back.
 */
static int ab_cmd(struct ab_run *a, int s, bool undo, bool home)
{
	const struct ab_side *sd = &a->ab.side[s];
	const char *cmd = undo ? sd->undo : sd->cmd;
	char why[160];

	if (!cmd)
		return 0;
	if (!shell_run(cmd, a->ab.cmd_timeout_ns, home, &a->env, why,
		       sizeof(why)))
		return 0;
	a->failed = cmd;
	out(&a->side[0].con, "ab: side %c's %s (%s) failed: %s\n", sd->name,
	    undo ? "undo" : "command", cmd, why);
	return -1;
}

/* Leave the side in effect (its undo) and enter s (its command). */
static int ab_enter(struct ab_run *a, int s)
{
	if (a->state == s)
		return 0;
	if (a->state >= 0 && ab_cmd(a, a->state, true, false)) {
		a->half = a->state;
		a->state = -1;
		return -1;
	}
	a->state = -1;
	if (ab_cmd(a, s, false, false)) {
		a->half = s;
		return -1;
	}
	a->state = s;
	/* what the side's command changed is the side's machine state */
	if (!a->read[s]) {
		sysinfo_read(&a->side[s].sys);
		a->read[s] = true;
	}
	return 0;
}

/*
 * Every run ends in state A: out of B (or of a side half entered), into
 * A. Said when it cannot be.
 */
static void ab_home(struct ab_run *a)
{
	const struct ab_side *sd = a->ab.side;
	bool b_left = true, a_in = true;

	if (a->state == 0)
		return;
	/* out of B, or of B half entered; a command that failed is not
	 * run again */
	if ((a->state == 1 || a->half == 1) && sd[1].undo)
		b_left = sd[1].undo != a->failed && !ab_cmd(a, 1, true, true);
	if (sd[0].cmd)
		a_in = sd[0].cmd != a->failed && !ab_cmd(a, 0, false, true);
	if (!a_in)
		out(&a->side[0].con, "ab: the machine may not be in state A: "
		    "A's command failed\n");
	else if (!b_left)
		out(&a->side[0].con, "ab: the machine may still be partly in "
		    "state B: B's undo failed\n");
	else
		out(&a->side[0].con, "ab: the machine is back in state A\n");
	a->state = 0;
}

/* Both sides' files whole, with why the run stopped early, if it did. */
static int ab_close(struct ab_run *a)
{
	int s, ret = 0, e;

	/* B writes into A's logfile: A closes it */
	a->side[1].con.log = NULL;
	for (s = 1; s >= 0; s--) {
		e = close_outputs(&a->side[s]);
		if (e && !ret)
			ret = e;
	}
	return ret;
}

static void __attribute__((noreturn)) ab_stop(struct ab_run *a, int status,
					      const char *why)
{
	const struct plan *p = &a->side[0].plan;
	int s;

	for (s = 0; s < 2; s++) {
		if (runner_stopped())
			runner_abort(&a->side[s].runner);
		else
			runner_finish(&a->side[s].runner);
		a->side[s].info.interrupted = why;
	}
	progress(p, 0, NULL, NULL);
	ab_home(a);
	out(&a->side[0].con, "\nab stopped (%s) after %d and %d of %d cells "
	    "of A and B; the files keep them: %s, %s\n", why,
	    a->side[0].nres, a->side[1].nres, p->cells, a->ab.side[0].path,
	    a->ab.side[1].path);
	ab_close(a);
	say_files(&a->side[0]);
	exit(status);
}

/*
 * -n auto, at a look: is every cell decided, as compare judges the files
 * so far? At the last look, the cells still undecided are named with what
 * would decide them.
 */
static bool ab_decided(struct ab_run *a, int passes, bool last)
{
	struct plan *p[2] = { &a->side[0].plan, &a->side[1].plan };
	char list[2048];
	int left = compare_undecided(a->ab.side[0].path, a->ab.side[1].path,
				     a->ab.primary, a->ab.alpha, list,
				     sizeof(list)), s;

	if (left < 0) {
		out(&a->side[0].con, "ab: cannot judge the files so far (%s): "
		    "going on to -n %d\n", strerror(-left), p[0]->repeats);
		return false;
	}
	if (!left) {
		out(&a->side[0].con, "\n-n auto: every cell decided after %d "
		    "pairs\n", passes);
		for (s = 0; s < 2; s++) {
			p[s]->repeats = passes;
			p[s]->cells = passes * p[s]->per_pass;
		}
		return true;
	}
	if (last)
		out(&a->side[0].con, "\n-n auto: after %d pairs, the most asked, "
		    "%d cell%s undecided: %s. More pairs (-n auto:MAX) or "
		    "longer cells (-t) would decide %s\n", passes, left,
		    left == 1 ? " is" : "s are", list,
		    left == 1 ? "it" : "them");
	else
		out(&a->side[0].con, "-n auto: %d pairs, %d cell%s undecided\n",
		    passes, left, left == 1 ? "" : "s");
	return false;
}

static void ab_describe(struct ab_run *a)
{
	struct console *con = &a->side[0].con;
	const struct plan *p = &a->side[0].plan;
	int s;

	out(con, "\nab: %d cell%s, each measured in A and in B side by side "
	    "(A B, then B A, alternating), ", p->per_pass,
	    p->per_pass == 1 ? "" : "s");
	if (p->auto_repeats)
		out(con, "until every cell is decided (at %d looks) or %d "
		    "pairs\n", a->ab.looks, p->repeats);
	else
		out(con, "%d pairs\n", p->repeats);
	for (s = 0; s < 2; s++) {
		const struct ab_side *sd = &a->ab.side[s];

		out(con, "  %c: command %s%s%s, undo %s%s%s, options %s -> "
		    "%s%s%s\n", sd->name, sd->cmd ? "'" : "",
		    sd->cmd ? sd->cmd : "none", sd->cmd ? "'" : "",
		    sd->undo ? "'" : "", sd->undo ? sd->undo : "none",
		    sd->undo ? "'" : "", sd->opts ? sd->opts : "none",
		    sd->path, sd->kcidb[0] ? ", KCIDB " : "", sd->kcidb);
	}
	for (s = 0; s < 2; s++)
		if (a->side[s].plan.trace)
			say_trace(con, s ? "  B traced" : "  A traced",
				  &a->side[0].tracer,
				  a->side[s].plan.trace_timer);
	if (a->side[0].plan.trace != a->side[1].plan.trace)
		out(con, "  the other side's cells run with no event of ours "
		    "enabled: the pairs say what tracing costs\n");
	if (!a->ab.side[0].cmd && !a->ab.side[1].cmd && !a->ab.side[0].opts &&
	    !a->ab.side[1].opts)
		out(con, "  A and B are the same: an A/A run; a cell marked "
		    "better or worse is a false mark\n");
}

static void ab_run_all(struct ab_run *a)
{
	const struct plan *p = &a->side[0].plan;
	char why[32];
	int i, k;

	for (i = 0; i < p->cells; i++) {
		int first = ab_first(p, i), pass = i / p->per_pass;

		if (i && i % p->per_pass == 0 && p->auto_repeats &&
		    ab_look(p, pass) && ab_decided(a, pass, false)) {
			progress(p, 0, NULL, NULL);
			return;
		}
		for (k = 0; k < 2; k++) {
			int s = k ? !first : first;
			struct run *r = &a->side[s];
			struct result *res = &r->res[r->nres];

			if (ab_enter(a, s) && !runner_stopped())
				ab_stop(a, IB_EXIT_SIDE, "a side's command "
					"failed");
			if (runner_stopped())
				break;
			plan_cell(&r->plan, i, &res->repeat, &res->sim,
				  &res->load);
			progress(p, i, res->sim, res->load);
			if (run_cell(&r->runner, res))
				break;
			r->nres++;
			result_done(r);
			if (runner_stopped())
				break;
		}
		if (runner_stopped()) {
			snprintf(why, sizeof(why), "signal %d",
				 runner_stopped());
			ab_stop(a, 128 + runner_stopped(), why);
		}
	}
	progress(p, 0, NULL, NULL);
	if (p->auto_repeats)
		ab_decided(a, p->repeats, true);
}

/* The sides' tables, then compare's verdict on their pairs: its status. */
static int ab_finish(struct ab_run *a)
{
	char *av[16];
	int ac = 0, s, ret, nbad = 0;

	for (s = 0; s < 2; s++) {
		struct run *r = &a->side[s];

		runner_finish(&r->runner);
		out(&r->con, "\n== %c (%s): medians over its %d repeats\n",
		    a->ab.side[s].name, a->ab.side[s].path, r->plan.repeats);
		print_tables(&r->con, r->res, r->nres);
		print_steal(&r->con, r->res, r->nres);
		nbad += r->nbad;
	}
	if (nbad)
		out(&a->side[0].con, "%d cells were not measured (see their "
		    "rows)\n", nbad);
	ret = ab_close(a);
	if (a->side[0].plan.trace || a->side[1].plan.trace)
		trace_close(&a->side[0].tracer);
	say_files(&a->side[0]);
	if (ret)
		return ret;
	out(&a->side[0].con, "\n");
	fflush(stdout);
	av[ac++] = "compare";
	if (a->ab.primary) {
		av[ac++] = "--primary";
		av[ac++] = (char *)a->ab.primary;
	}
	if (a->ab.bisect)
		av[ac++] = "--bisect";
	if (a->ab.moderate)
		av[ac++] = "--moderate";
	if (a->ab.alpha_text) {
		av[ac++] = "--alpha";
		av[ac++] = (char *)a->ab.alpha_text;
	}
	if (a->ab.junit) {
		av[ac++] = "--junit";
		av[ac++] = (char *)a->ab.junit;
	}
	av[ac++] = a->ab.side[0].path;
	av[ac++] = a->ab.side[1].path;
	av[ac] = NULL;
	ret = compare_main(ac, av);
	/* as a run's: worse and unmeasured is 7; undecided beats unmeasured */
	if (nbad && ret == IB_EXIT_FAIL)
		return IB_EXIT_FAIL_CELLS;
	return ret == IB_EXIT_OK && nbad ? IB_EXIT_CELLS : ret;
}

int ab_main(int argc, char **argv)
{
	static struct ab_run run;
	struct ab_run *a = &run;
	struct plan *p[2] = { &a->side[0].plan, &a->side[1].plan };
	char err[512];
	int s, r;

	a->state = 0;
	a->half = -1;
	r = ab_parse(&a->ab, p, argc, argv, err, sizeof(err));
	if (r == 1) {
		ab_usage(stdout);
		exit(fflush(stdout) ? IB_EXIT_SETUP : IB_EXIT_OK);
	}
	if (r)
		die(IB_EXIT_USAGE, "%s", err);
	if (a->ab.primary && cmp_fig_named(a->ab.primary) < 0)
		die(IB_EXIT_USAGE, "option --primary: '%s' is not a figure "
		    "compare tests (%s)", a->ab.primary, CMP_FIG_NAMES);
	shell_save(&a->env);
	if (p[0]->cfg.uniprocessor)
		bind_cpu0();
	for (s = 0; s < 2; s++) {
		check_rights(p[s]);
		check_files(&a->side[s]);
	}
	/* the verdict's JUnit: checked now, written by compare at the end */
	if (a->ab.junit) {
		for (s = 0; s < 2; s++)
			if (sys_same_file(a->ab.junit, a->ab.side[s].path))
				die(IB_EXIT_USAGE, "option --junit: %s is %c's "
				    "result file", a->ab.junit,
				    a->ab.side[s].name);
		if ((r = sys_can_replace(a->ab.junit)))
			die(IB_EXIT_USAGE, "option --junit: cannot write %s: "
			    "%s", a->ab.junit, sys_file_why(r));
	}
	if (p[0]->dry_run) {
		print_plan(p[0]);
		ab_describe(a);
		printf("--dry-run: no command was run, nothing measured\n");
		exit(IB_EXIT_OK);
	}
	take_lock(&a->side[0]);
	hold_dma_latency(p[0]);
	/* one instance, A's, records the cells of the sides that trace */
	open_trace(&a->side[0], p[0]->trace || p[1]->trace,
		   p[0]->trace_timer || p[1]->trace_timer);
	for (s = 0; s < 2; s++)
		place_loads(&a->side[s], a->ab.side[s].name);
	open_files(&a->side[0]);
	for (s = 0; s < 2; s++) {
		a->side[s].info.ab = &a->ab;
		a->side[s].info.ab_side = s;
	}
	a->side[1].con.log = a->side[0].con.log;
	start(&a->side[0], NULL);
	start(&a->side[1], &a->side[0]);
	for (s = 0; s < 2; s++)
		if (p[s]->trace) {
			a->side[s].runner.trace = &a->side[0].tracer;
			a->side[s].info.trace = &a->side[0].tracer;
		}
	ab_describe(a);
	/* in neither state yet: the first cell enters A (A's command) */
	a->state = -1;
	ab_run_all(a);
	ab_home(a);
	return ab_finish(a);
}

int run_main(int argc, char **argv, const struct opt_cmd *cmds, int ncmds)
{
	static struct run run;
	struct run *r = &run;

	parse_command_line(&r->plan, argc, argv, cmds, ncmds);
	/* First: SCHED_DEADLINE is refused on a CPU subset (check_rights) */
	if (r->plan.cfg.uniprocessor)
		bind_cpu0();
	check_rights(&r->plan);
	check_files(r);
	if (r->plan.dry_run) {
		print_plan(&r->plan);
		return IB_EXIT_OK;
	}
	take_lock(r);
	hold_dma_latency(&r->plan);
	open_trace(r, r->plan.trace, r->plan.trace_timer);
	place_loads(r, 0);
	open_files(r);
	start(r, NULL);
	run_all(r);
	if (runner_stopped())
		interrupted(r);
	return finish(r);
}
