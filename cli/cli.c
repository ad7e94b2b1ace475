// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cli.c - argv to a plan. Every option is a line of a typed table (here
 * for interbench's own, in a simulator's descriptor for its own): parsing,
 * the error messages and --help are all made from the tables.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "cli/cli.h"
#include "lib/policy.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "lib/opt.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"
#include "simulators/simulators.h"
#include "loads/loads.h"

#define P(field)	offsetof(struct plan, field)
#define SEEN(field)	OPT_SEEN(struct plan, field)

static int pick_load(void *base, const char *val, char *err, size_t n);
static int skip_load(void *base, const char *val, char *err, size_t n);
static int pick_sim(void *base, const char *val, char *err, size_t n);
static int skip_sim(void *base, const char *val, char *err, size_t n);
static int set_comment(void *base, const char *val, char *err, size_t n);
static int set_tag(void *base, const char *val, char *err, size_t n);
/* A label for trend's axis and tables: one short line of printable text. */
static int set_tag(void *base, const char *val, char *err, size_t n)
{
	const unsigned char *c;

	for (c = (const unsigned char *)val; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			break;
	if (!*val || *c || strlen(val) > 100) {
		snprintf(err, n, "the tag must be 1 to 100 characters of one "
			 "line, without control characters");
		return -EINVAL;
	}
	((struct plan *)base)->tag = val;
	return 0;
}

static int set_dir(void *base, const char *val, char *err, size_t n);
static int add_gate(void *base, const char *val, char *err, size_t n);
static int set_repeats(void *base, const char *val, char *err, size_t n);
static int set_completion(void *base, const char *val, char *err, size_t n);
static int set_load_group(void *base, const char *val, char *err, size_t n);
static int set_remeasure(void *base, const char *val, char *err, size_t n);

static const char *const shells[] = { "bash", NULL };

/* The order of --help. */
const struct opt cli_opts[] = {
	{ .name = "loops-per-ms", .letter = 'l', .type = OT_U64, .arg = "N",
	  .help = "use N loops per ms (default: saved or measured)",
	  .off = P(cfg.loops_per_ms), .min = 1, .max = MAX_LOOPS_PER_MS,
	  .seen = SEEN(loops_given) },
	{ .name = "load-threads", .letter = 'L', .type = OT_INT, .arg = "N",
	  .help = "threads of the Burn load (default: CPUs usable)",
	  .off = P(cfg.load_threads), .min = 1, .max = 4096,
	  .flags = OF_SIDE },
	{ .name = "time", .letter = 't', .type = OT_SECONDS, .arg = "SECONDS",
	  .help = "seconds to run each cell (default: 30; may be\n"
		  "a decimal, at least 0.1)",
	  .off = P(cfg.duration_ns), .dmin = 0.1, .dmax = 86400 },
	{ .name = "bench-nice", .letter = 'B', .type = OT_INT, .arg = "N",
	  .help = "nice the benchmarked tasks to N (default: 0)",
	  .off = P(cfg.bench_nice), .min = -20, .max = 19,
	  .flags = OF_SIDE },
	{ .name = "load-nice", .letter = 'N', .type = OT_INT, .arg = "N",
	  .help = "nice the loads to N (default: 0)",
	  .off = P(cfg.load_nice), .min = -20, .max = 19,
	  .flags = OF_SIDE },
	{ .name = "recalibrate", .letter = 'b', .type = OT_FLAG,
	  .help = "measure loops per ms even if saved", .off = P(calibrate) },
	{ .name = "console-only", .letter = 'c', .type = OT_FLAG,
	  .help = "do not append to the logfile", .off = P(console_only) },
	{ .name = "keep-files", .type = OT_FLAG,
	  .help = "keep the Read load's file (up to 1 GiB in -D) for\n"
		  "the next run (default: removed at the end)",
	  .off = P(keep_files) },
	{ .name = "rt", .letter = 'r', .type = OT_FLAG,
	  .help = "run the benchmarked tasks SCHED_FIFO; figures\n"
		  "in microseconds (needs real-time rights)",
	  .off = P(cfg.rt),
	  .flags = OF_SIDE },
	{ .name = "bench-policy", .type = OT_ENUM, .arg = "POLICY",
	  .help = "the benchmarked tasks' class: other (default),\n"
		  "batch, idle, fifo (-r), rr, deadline",
	  .off = P(cfg.bench_policy), .names = policy_names,
	  .seen = SEEN(bench_policy_given),
	  .flags = OF_SIDE },
	{ .name = "bench-slice", .type = OT_U64, .arg = "US",
	  .help = "the EEVDF slice the benchmarked tasks request,\n"
		  "100-100000 us (other and batch; Linux 6.12+)",
	  .off = P(cfg.bench_slice_ns), .min = 100, .max = 100000,
	  .scale = NSEC_PER_USEC,
	  .flags = OF_SIDE },
	{ .name = "timer-slack", .type = OT_U64, .arg = "NS",
	  .help = "the benchmarked tasks' timer slack, 1-1000000000\n"
		  "ns (default: none, inherited from interbench;\n"
		  "real-time threads have none anyway)",
	  .off = P(cfg.timer_slack_ns), .min = 1, .max = 1000000000,
	  .flags = OF_SIDE },
	{ .name = "load-policy", .type = OT_ENUM, .arg = "POLICY",
	  .help = "the loads' class: other (default), batch, idle",
	  .off = P(cfg.load_policy), .names = load_policy_names,
	  .flags = OF_SIDE },
	{ .name = "load-group", .type = OT_CALL, .arg = "WHERE",
	  .help = "where the loads live: same (default: interbench's\n"
		  "own group, as 0.31), session (their own session,\n"
		  "so autogroup gives them a group, as a second\n"
		  "terminal), cgroup[:WEIGHT] (their own cgroup, cpu\n"
		  "weight 1-10000, default 100, as a desktop slice)",
	  .parse = set_load_group,
	  .flags = OF_SIDE },
	{ .name = "custom-cpu", .letter = 'C', .type = OT_UINT, .arg = "PCT",
	  .help = "CPU percent of the Custom benchmark and load",
	  .off = P(cfg.custom_cpu_pct), .min = 0, .max = 100,
	  .seen = SEEN(have_cpu) },
	{ .name = "custom-interval", .letter = 'I', .type = OT_U64,
	  .arg = "US", .help = "wake interval of Custom in microseconds",
	  .off = P(cfg.custom_interval_ns), .min = 100, .max = 60000000,
	  .scale = NSEC_PER_USEC, .seen = SEEN(have_interval) },
	{ .name = "comment", .letter = 'm', .type = OT_CALL, .arg = "TEXT",
	  .help = "add TEXT to the logfile", .parse = set_comment },
	{ .name = "tag", .type = OT_CALL, .arg = "TEXT",
	  .help = "label the run with TEXT (a commit id, a kernel's\n"
		  "name): in the JSON and the logfile, and on\n"
		  "interbench trend's points",
	  .parse = set_tag },
	{ .name = "load", .letter = 'w', .type = OT_CALL, .arg = "NAME",
	  .help = "test against this load only (repeatable);\n"
		  "a set names several (see --list); rtapp:FILE\n"
		  "runs an rt-app JSON file as a load",
	  .parse = pick_load, .complete = OC_LOAD },
	{ .name = "exclude-load", .letter = 'x', .type = OT_CALL,
	  .arg = "NAME", .help = "do not test against this load (repeatable)",
	  .parse = skip_load, .complete = OC_LOAD },
	{ .name = "bench", .letter = 'W', .type = OT_CALL, .arg = "NAME",
	  .help = "benchmark this task only (repeatable); a set\n"
		  "names several (modern: see --list); rtapp:FILE\n"
		  "runs an rt-app JSON file as a task",
	  .parse = pick_sim,
	  .complete = OC_BENCH },
	{ .name = "exclude-bench", .letter = 'X', .type = OT_CALL,
	  .arg = "NAME", .help = "do not benchmark this task (repeatable)",
	  .parse = skip_sim, .complete = OC_BENCH },
	{ .name = "uniprocessor", .letter = 'u', .type = OT_FLAG,
	  .help = "run everything on CPU 0 (or the first usable)",
	  .off = P(cfg.uniprocessor) },
	{ .name = "dir", .letter = 'D', .type = OT_CALL, .arg = "DIR",
	  .help = "where the disk loads' files go (default: .)",
	  .parse = set_dir, .complete = OC_DIR },
	{ .name = "percentiles", .letter = 'v', .type = OT_FLAG,
	  .help = "add p50, p90, p99 and p99.9 columns, and what\n"
		  "each load got done", .off = P(verbose) },
	{ .name = "repeat", .letter = 'n', .type = OT_CALL, .arg = "N",
	  .help = "run the whole matrix N times (default: 1);\n"
		  "tables show medians over the repeats. auto[:MAX]:\n"
		  "until every cell's p50, p99 and max latency are\n"
		  "known to 2.5 % (95 % interval), 3 to MAX (10)\n"
		  "times",
	  .parse = set_repeats, .seen = SEEN(repeats_given) },
	{ .name = "json", .type = OT_PATH, .arg = "FILE",
	  .help = "write every result to FILE as JSON, after\nevery cell",
	  .off = P(json_path) },
	{ .name = "csv", .type = OT_PATH, .arg = "FILE",
	  .help = "write one row per cell and repeat to FILE",
	  .off = P(csv_path) },
	{ .name = "junit", .type = OT_PATH, .arg = "FILE",
	  .help = "write JUnit XML for CI to FILE: a testcase\n"
		  "per cell, --fail-if breaches as failures",
	  .off = P(junit_path) },
	{ .name = "kcidb", .type = OT_PATH, .arg = "FILE",
	  .help = "write a KernelCI KCIDB report (schema 5.3) to\n"
		  "FILE: a test per cell and figure, after every\n"
		  "cell",
	  .off = P(kcidb_path) },
	{ .name = "ktap", .type = OT_PATH, .arg = "FILE",
	  .help = "write KTAP for kernel test runners to FILE (-:\n"
		  "standard output): a test per cell, a subtest per\n"
		  "--fail-if gate",
	  .off = P(ktap_path) },
	{ .name = "html", .type = OT_PATH, .arg = "FILE",
	  .help = "write the pictures of the run to FILE, a\n"
		  "self-contained HTML page, after a cell (pages\n"
		  "at most 5 % of the run's time) and at the end",
	  .off = P(html_path) },
	{ .name = "fail-if", .type = OT_CALL, .arg = "EXPR",
	  .help = "exit 1 if a cell's figure is so, e.g.\n"
		  "'p99>20ms' or 'deadlines<95' (repeatable); on\n"
		  "the median of the repeats, or EXPR@K: in K or\n"
		  "more of them",
	  .parse = add_gate },
	{ .name = "remeasure-if", .type = OT_CALL, .arg = "EXPR",
	  .help = "measure a cell again while EXPR holds for it,\n"
		  "e.g. 'steal>1' (the host stole over 1 %); keeps\n"
		  "the attempt least so (off by default)",
	  .parse = set_remeasure },
	{ .name = "remeasure", .type = OT_INT, .arg = "N",
	  .help = "with --remeasure-if: at most N more attempts\n"
		  "(default 3)",
	  .off = P(remeasure_max), .min = 1, .max = REMEASURE_MAX,
	  .seen = SEEN(remeasure_given) },
	{ .name = "allow-concurrent", .type = OT_FLAG,
	  .help = "run even while another interbench measures\n"
		  "(recorded in the log and JSON)",
	  .off = P(allow_concurrent) },
	{ .name = "dma-latency", .type = OT_INT, .arg = "US",
	  .help = "hold /dev/cpu_dma_latency at US for the run, as\n"
		  "cyclictest does (0: no deep C-states; root)",
	  .off = P(dma_latency_us), .min = 0, .max = 100000000,
	  .seen = SEEN(dma_given) },
	{ .name = "trace", .type = OT_FLAG,
	  .help = "explain each cell's worst frames from the\n"
		  "kernel's trace: who ran instead (root, tracefs)",
	  .off = P(trace),
	  .flags = OF_SIDE },
	{ .name = "trace-timer", .type = OT_FLAG,
	  .help = "--trace, and also when each frame's timer fired\n"
		  "(hrtimer and waking events): costs a frame's\n"
		  "wakeup about 2 us, which --trace alone does not",
	  .off = P(trace_timer),
	  .flags = OF_SIDE },
	{ .name = "trace-alternate", .type = OT_FLAG,
	  .help = "with --trace or --trace-timer: trace half the\n"
		  "repeats, in pairs (traced first, then last), to\n"
		  "measure what tracing costs (-n EVEN, not auto)",
	  .off = P(trace_alternate) },
	{ .name = "trace-frames", .type = OT_INT, .arg = "N",
	  .help = "frames --trace explains in each cell\n(default: 3)",
	  .off = P(trace_frames), .min = 1, .max = WORST_MAX,
	  .flags = OF_SIDE },
	{ .name = "breaktrace", .type = OT_U64, .arg = "US",
	  .help = "--trace, and at the first frame later than US\n"
		  "microseconds stop the trace, save it to a file\n"
		  "and end the run (exit status 5)",
	  .off = P(breaktrace_ns), .min = 1, .max = 60000000,
	  .scale = NSEC_PER_USEC },
	{ .name = "trace-out", .type = OT_PATH, .arg = "FILE",
	  .help = "--trace, and write the explained frames and the\n"
		  "CPUs around them to FILE in the Trace Event\n"
		  "Format (Perfetto, chrome://tracing)",
	  .off = P(trace_out_path) },
	{ .name = "on-late", .type = OT_CALL, .arg = "EXPR:ACTION",
	  .help = "--trace, and on each frame later than EXPR\n"
		  "('audio>5ms', 'any>deadline') act: save (its\n"
		  "trace window to a file), shell=CMD,\n"
		  "signal=SIG,pid=PID, stop, continue (repeatable)",
	  .parse = plan_late_add },
	{ .name = "on-late-max", .type = OT_INT, .arg = "K",
	  .help = "--on-late acts on K frames a run at most\n"
		  "(default 20)",
	  .off = P(late_max), .min = 1, .max = 10000 },
	{ .name = "dry-run", .type = OT_FLAG,
	  .help = "check the command line, print the cells it\n"
		  "would run and exit", .off = P(dry_run) },
	{ .name = "list", .type = OT_ACTION,
	  .help = "list benchmarks, loads and sets, one per line",
	  .min = PLAN_LIST },
	{ .name = "completion", .type = OT_CALL, .arg = "SHELL",
	  .help = "print the completion script for SHELL (bash)",
	  .parse = set_completion, .names = shells },
	{ .name = "version", .type = OT_ACTION, .help = "print the version",
	  .min = PLAN_VERSION },
	{ .name = "help", .letter = 'h', .type = OT_ACTION,
	  .help = "show this help", .min = PLAN_HELP },
	{ .name = NULL },
};

/* ---- names of things ------------------------------------------------ */

static int add_ptr(const void **v, int *n, const void *p, char *err,
		   size_t len)
{
	if (ptr_in(v, *n, p))
		return 0;
	if (*n >= MAX_ITEMS) {
		snprintf(err, len, "too many names");
		return -EINVAL;
	}
	v[(*n)++] = p;
	return 0;
}

static const struct sim_desc *find_sim(const char *name)
{
	int i;

	for (i = 0; simulators[i]; i++)
		if (!strcasecmp(simulators[i]->name, name))
			return simulators[i];
	return NULL;
}

static const struct load_desc *find_load(const char *name)
{
	int i;

	for (i = 0; loads[i]; i++)
		if (!strcasecmp(loads[i]->name, name))
			return loads[i];
	return NULL;
}

/*
 * Named sets of tasks, for -W/-X and (as loads) -w/-x: the simulators
 * whose sim_desc.set names it ("modern"), in the table's order.
 */
static bool in_set(const struct sim_desc *s, const char *set)
{
	return s->set && !strcasecmp(s->set, set);
}

const char *cli_set(int i)
{
	const char *set;
	int k, j;

	for (k = 0; simulators[k]; k++) {
		set = simulators[k]->set;
		for (j = 0; set && !in_set(simulators[j], set); j++)
			;
		if (set && j == k && i-- == 0)
			return set;
	}
	return NULL;
}

static const char *find_set(const char *name)
{
	const char *set;
	int i;

	for (i = 0; (set = cli_set(i)) && strcasecmp(set, name); i++)
		;
	return set;
}

/*
 * "unknown task 'Audoi' (did you mean Audio? see --list)": the nearest
 * name of a task (loads: of a load), or of a set, if one is near.
 */
static void unknown_name(const char *what, bool load, const char *val,
			 char *err, size_t n)
{
	struct opt_near nr;
	const char *best, *set;
	int i;

	opt_near_init(&nr, val);
	for (i = 0; !load && simulators[i]; i++)
		opt_near_try(&nr, simulators[i]->name);
	for (i = 0; load && loads[i]; i++)
		opt_near_try(&nr, loads[i]->name);
	for (i = 0; (set = cli_set(i)); i++)
		opt_near_try(&nr, set);
	best = opt_near_best(&nr);
	if (best)
		snprintf(err, n, "unknown %s '%s' (did you mean %s? see "
			 "--list)", what, val, best);
	else
		snprintf(err, n, "unknown %s '%s' (see --list)", what, val);
}

static int name_sim(const void **v, int *k, const char *val, char *err,
		    size_t n)
{
	const struct sim_desc *s = find_sim(val);
	const char *set = find_set(val);
	int i, rc = 0;

	for (i = 0; set && simulators[i] && !rc; i++)
		if (in_set(simulators[i], set))
			rc = add_ptr(v, k, simulators[i], err, n);
	if (set)
		return rc;
	if (!s) {
		unknown_name("task", false, val, err, n);
		return -EINVAL;
	}
	return add_ptr(v, k, s, err, n);
}

static int name_load(const void **v, int *k, const char *val, char *err,
		     size_t n)
{
	const struct load_desc *l = find_load(val);
	const char *set = find_set(val);
	int i, rc = 0;

	for (i = 0; set && simulators[i] && !rc; i++)
		if (in_set(simulators[i], set) && simulators[i]->as_load.name)
			rc = add_ptr(v, k, &simulators[i]->as_load, err, n);
	if (set)
		return rc;
	if (!l) {
		unknown_name("load", true, val, err, n);
		return -EINVAL;
	}
	return add_ptr(v, k, l, err, n);
}

static int pick_load(void *base, const char *val, char *err, size_t n)
{
	struct picks *pk = &((struct plan *)base)->picks;
	const struct sim_desc *s;
	int e;

	s = plan_take_arg(base, val, true, &e, err, n);
	if (s)
		return e ? e : add_ptr((const void **)pk->want_load, &pk->nwl,
				       &s->as_load, err, n);
	return name_load((const void **)pk->want_load, &pk->nwl, val, err, n);
}

static int skip_load(void *base, const char *val, char *err, size_t n)
{
	struct picks *pk = &((struct plan *)base)->picks;

	return name_load((const void **)pk->skip_load, &pk->nxl, val, err, n);
}

static int pick_sim(void *base, const char *val, char *err, size_t n)
{
	struct picks *pk = &((struct plan *)base)->picks;
	const struct sim_desc *s;
	int e;

	s = plan_take_arg(base, val, false, &e, err, n);
	if (s)
		return e ? e : add_ptr((const void **)pk->want_sim, &pk->nws,
				       s, err, n);
	return name_sim((const void **)pk->want_sim, &pk->nws, val, err, n);
}

static int skip_sim(void *base, const char *val, char *err, size_t n)
{
	struct picks *pk = &((struct plan *)base)->picks;

	return name_sim((const void **)pk->skip_sim, &pk->nxs, val, err, n);
}

static int set_comment(void *base, const char *val, char *err, size_t n)
{
	if (!*val || strchr(val, '\n') || strlen(val) > 1000) {
		snprintf(err, n, "the comment must be one non-empty line of "
			 "at most 1000 characters");
		return -EINVAL;
	}
	((struct plan *)base)->comment = val;
	return 0;
}

static int set_dir(void *base, const char *val, char *err, size_t n)
{
	struct run_cfg *cfg = &((struct plan *)base)->cfg;

	if (!*val || strlen(val) > PATH_MAX - 64) {
		snprintf(err, n, "directory name is empty or too long");
		return -EINVAL;
	}
	snprintf(cfg->dir, sizeof(cfg->dir), "%s", val);
	return 0;
}

/* N, or auto[:MAX]: as many as the noise asks, 3 to MAX. */
static int set_repeats(void *base, const char *val, char *err, size_t n)
{
	struct plan *p = base;
	struct opt o = { .type = OT_INT, .off = offsetof(struct plan, repeats),
			 .min = 1, .max = REPEATS_MAX };

	p->auto_repeats = !strncmp(val, "auto", 4);
	if (!p->auto_repeats)
		return opt_set(&o, base, val, err, n);
	if (!val[4]) {
		p->repeats = AUTO_REPEATS_MAX;
		return 0;
	}
	o.min = AUTO_REPEATS_MIN;
	if (val[4] != ':' || opt_set(&o, base, val + 5, err, n)) {
		snprintf(err, n, "'%s' is not a number of repeats or auto[:MAX]"
			 " with MAX %d to %d", val, AUTO_REPEATS_MIN,
			 REPEATS_MAX);
		return -EINVAL;
	}
	return 0;
}

static int add_gate(void *base, const char *val, char *err, size_t n)
{
	struct plan *p = base;

	if (p->ngates >= MAX_GATES) {
		snprintf(err, n, "at most %d gates", MAX_GATES);
		return -EINVAL;
	}
	return gate_parse(&p->gates[p->ngates++], val, err, n);
}

static int set_remeasure(void *base, const char *val, char *err, size_t n)
{
	struct plan *p = base;
	const struct figure *f;
	int e = gate_parse(&p->remeasure_if, val, err, n);

	if (e)
		return e;
	/*
	 * Only what else happened may decide: a condition on the task's
	 * own figures would keep the best of several draws of them.
	 */
	f = &figures[p->remeasure_if.fig];
	if (!f->group || strcmp(f->group, "interference")) {
		char names[512];

		figure_group_names("interference", names, sizeof(names));
		snprintf(err, n, "'%s': only what else happened in the cell "
			 "may decide (%s): a condition on the task's own "
			 "figures would keep its best draw", val, names);
		return -EINVAL;
	}
	p->remeasure_on = true;
	return 0;
}

static int set_load_group(void *base, const char *val, char *err, size_t n)
{
	struct plan *p = base;
	struct opt o = { .type = OT_UINT, .off = offsetof(struct plan,
							  cfg.load_weight),
			 .min = 1, .max = 10000 };
	int i;

	for (i = 0; load_group_names[i]; i++)
		if (!strcmp(val, load_group_names[i])) {
			p->cfg.load_group = (enum load_group)i;
			return 0;
		}
	if (!strncmp(val, "cgroup:", 7) && !opt_set(&o, base, val + 7, err, n)) {
		p->cfg.load_group = LG_CGROUP;
		return 0;
	}
	snprintf(err, n, "'%s' is not same, session, cgroup or cgroup:WEIGHT "
		 "with WEIGHT 1 to 10000", val);
	return -EINVAL;
}

static int set_completion(void *base, const char *val, char *err, size_t n)
{
	int i;

	for (i = 0; shells[i]; i++)
		if (!strcmp(val, shells[i])) {
			((struct plan *)base)->action = PLAN_COMPLETION;
			return 0;
		}
	snprintf(err, n, "'%s': only bash has a completion script", val);
	return -EINVAL;
}

/* The checks of options that depend on each other, after them all. */
static int cli_finish(struct plan *p, char *err, size_t n)
{
	int i;

	if (p->have_cpu != p->have_interval) {
		snprintf(err, n, "option %s needs %s too",
			 p->have_cpu ? "-C" : "-I", p->have_cpu ? "-I" : "-C");
		return -EINVAL;
	}
	p->custom = p->have_cpu;
	if (p->cfg.rt) {
		if (p->bench_policy_given && p->cfg.bench_policy != POL_FIFO) {
			snprintf(err, n, "option -r is --bench-policy fifo: it "
				 "contradicts --bench-policy %s",
				 policy_names[p->cfg.bench_policy]);
			return -EINVAL;
		}
		p->cfg.bench_policy = POL_FIFO;
	}
	p->cfg.rt = policy_rt(p->cfg.bench_policy);
	if (p->cfg.bench_slice_ns && !policy_fair(p->cfg.bench_policy)) {
		snprintf(err, n, "option --bench-slice: a slice is for the "
			 "fair classes (--bench-policy other or batch), not %s",
			 policy_names[p->cfg.bench_policy]);
		return -EINVAL;
	}
	if (p->remeasure_given && !p->remeasure_on) {
		snprintf(err, n, "option --remeasure needs --remeasure-if");
		return -EINVAL;
	}
	for (i = 0; i < p->ngates; i++)
		if (p->gates[i].k > p->repeats) {
			snprintf(err, n, "option --fail-if '%s': %d repeats "
				 "can never be past it with -n %d",
				 p->gates[i].text, p->gates[i].k, p->repeats);
			return -EINVAL;
		}
	if (p->trace_alternate && (!(p->trace || p->trace_timer) ||
				   p->breaktrace_ns || p->auto_repeats ||
				   p->repeats < 2 || p->repeats % 2)) {
		snprintf(err, n, "option --trace-alternate needs --trace or "
			 "--trace-timer, no --breaktrace, and an even -n");
		return -EINVAL;
	}
	if (p->loops_given && p->calibrate) {
		snprintf(err, n, "options -l and -b contradict each other");
		return -EINVAL;
	}
	if (p->cfg.uniprocessor) {
		cpu_set_t zero;
		char why[48];
		int e;

		CPU_ZERO(&zero);
		CPU_SET(p->cfg.uni_cpu, &zero);
		snprintf(why, sizeof(why), "-u runs everything on CPU %d",
			 p->cfg.uni_cpu);
		for (i = 0; simulators[i]; i++) {
			e = simulators[i]->check_cpus ?
			    simulators[i]->check_cpus(p->sim_opts[i], &zero,
						      why, err, n) : 0;
			if (e)
				return e;
		}
	}
	return plan_build(p, err, n);
}

/* ---- parsing -------------------------------------------------------- */

/* Table 0 is interbench's own; table 1 + i is simulators[i]'s. */
static int cli_tables(struct plan *p, struct opt_table *t)
{
	int i, n = 0;

	t[n].opts = cli_opts;
	t[n++].base = p;
	for (i = 0; i < MAX_ITEMS && simulators[i]; i++) {
		t[n].opts = simulators[i]->opts;
		t[n++].base = p->sim_opts[i];
	}
	return n;
}

static int nsimulators(void)
{
	int i;

	for (i = 0; i < MAX_ITEMS && simulators[i]; i++)
		;
	return i;
}

/* An option was set: note a simulator's, stop at an action. */
static int cli_seen(void *ctx, int table, const struct opt *o,
		    const char *val, char *err, size_t n)
{
	struct plan *p = ctx;

	(void)err;
	(void)n;
	if (o->type == OT_ACTION)
		p->action = (enum plan_action)o->min;
	/* a subcommand's own table comes after the simulators' */
	if (table > 0 && table <= nsimulators()) {
		p->sim_opts_given[table - 1] = true;
		if (p->ngiven < MAX_ITEMS) {
			p->given[p->ngiven].name = o->name;
			p->given[p->ngiven++].value = val;
		}
	}
	return p->action != PLAN_RUN;
}

static void save_args(struct plan *p, int argc, char **argv)
{
	size_t used = 0;
	int i;

	for (i = 0; i < argc && used < sizeof(p->args) - 1; i++)
		used += (size_t)snprintf(p->args + used, sizeof(p->args) - used,
					 "%s%s", i ? " " : "", argv[i]);
}

int cli_parse(struct plan *p, int argc, char **argv, char *err, size_t n)
{
	return cli_parse_with(p, argc, argv, NULL, "", err, n);
}

int cli_parse_with(struct plan *p, int argc, char **argv,
		   const struct opt_table *more, const char *cmd, char *err,
		   size_t n)
{
	struct opt_table t[2 + MAX_ITEMS];
	int nt = cli_tables(p, t), rest, r;

	if (more)
		t[nt++] = *more;
	save_args(p, argc, argv);
	r = opt_parse(t, nt, argc, argv, cmd, cli_seen, p, &rest, err, n);
	if (r)
		return r > 0 ? 0 : r;
	if (rest < argc) {
		snprintf(err, n, "unexpected argument '%s' (see --help)",
			 argv[rest]);
		return -EINVAL;
	}
	return cli_finish(p, err, n);
}

/* ---- help ----------------------------------------------------------- */

void cli_usage(FILE *f)
{
	int i, width = opt_help_width(cli_opts, 20);

	for (i = 0; simulators[i]; i++)
		width = opt_help_width(simulators[i]->opts, width);
	fprintf(f,
"Usage: interbench [options]\n"
"       interbench ab [options] [--a CMD] [--b CMD] [--b-opts OPTS] [-o PREFIX]\n"
"       interbench compare [options] BASE NEW... (a file, DIR/ or a,b)\n"
"       interbench report RESULT.json... -o FILE.html [--svg DIR]\n"
"       interbench trend [options] OLDEST.json ... NEWEST.json\n"
"       interbench study [options] FILE.json|DIR...\n"
"       interbench --list | --version | --help\n"
"Measures how late simulated interactive tasks run under background loads.\n"
"\n");
	opt_help(f, cli_opts, width);
	fprintf(f,
"\n"
"Exit status: 0 all cells measured, 1 a --fail-if gate failed, 2 bad\n"
"command line, 3 cannot set up (or another interbench is measuring,\n"
"or an output could not be written whole),\n"
"4 some cells failed or were skipped, 5 --breaktrace or an --on-late\n"
"stop ended the run, 7 a gate failed and some cells failed (1 and 4\n"
"both), 128+N stopped by signal N. At the end of a run 3 wins over 7,\n"
"7 over 1, 1 over 4.\n"
"interbench ab --help and interbench compare --help: their own (1: a\n"
"cell worse or mixed; 125 with --bisect: undecided).\n");
	for (i = 0; simulators[i]; i++) {
		if (!simulators[i]->opts)
			continue;
		fprintf(f, "\n%s (-W %s) options:\n", simulators[i]->name,
			simulators[i]->name);
		opt_help(f, simulators[i]->opts, width);
	}
}

void cli_list(FILE *f)
{
	const char *set;
	int i, k;

	for (i = 0; simulators[i]; i++)
		fprintf(f, "bench %-10s %s\n", simulators[i]->name,
			simulators[i]->summary);
	for (i = 0; loads[i]; i++)
		fprintf(f, "load  %-10s %s\n", loads[i]->name,
			loads[i]->summary);
	for (k = 0; (set = cli_set(k)); k++) {
		fprintf(f, "set   %-10s", set);
		for (i = 0; simulators[i]; i++)
			if (in_set(simulators[i], set))
				fprintf(f, " %s", simulators[i]->name);
		fprintf(f, "\n");
	}
}

const struct opt *cli_opt_named(const char *name, int letter)
{
	const struct opt *o;

	for (o = cli_opts; o->name; o++)
		if (name ? !strcmp(o->name, name) : o->letter == letter)
			return o;
	return NULL;
}
