// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli.c - argv to a plan. Every option is a line of a typed table (here
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
/* getopt_long's value for a long-only option k of a table */
#define LONG_BASE	1000
#define MAX_LONGOPTS	128

static int pick_load(void *base, const char *val, char *err, size_t n);
static int skip_load(void *base, const char *val, char *err, size_t n);
static int pick_sim(void *base, const char *val, char *err, size_t n);
static int skip_sim(void *base, const char *val, char *err, size_t n);
static int set_comment(void *base, const char *val, char *err, size_t n);
static int set_dir(void *base, const char *val, char *err, size_t n);
static int add_gate(void *base, const char *val, char *err, size_t n);
static int set_repeats(void *base, const char *val, char *err, size_t n);
static int set_completion(void *base, const char *val, char *err, size_t n);

static const char *const shells[] = { "bash", NULL };

/* The order of --help. */
const struct opt cli_opts[] = {
	{ .name = "loops-per-ms", .letter = 'l', .type = OT_U64, .arg = "N",
	  .help = "use N loops per ms (default: saved or measured)",
	  .off = P(cfg.loops_per_ms), .min = 1, .max = MAX_LOOPS_PER_MS,
	  .seen = SEEN(loops_given) },
	{ .name = "load-threads", .letter = 'L', .type = OT_INT, .arg = "N",
	  .help = "threads of the Burn load (default: CPUs online)",
	  .off = P(cfg.load_threads), .min = 1, .max = 4096 },
	{ .name = "time", .letter = 't', .type = OT_SECONDS, .arg = "SECONDS",
	  .help = "seconds to run each cell (default: 30; may be\n"
		  "a decimal, at least 0.1)",
	  .off = P(cfg.duration_ns), .dmin = 0.1, .dmax = 86400 },
	{ .name = "bench-nice", .letter = 'B', .type = OT_INT, .arg = "N",
	  .help = "nice the benchmarked tasks to N (default: 0)",
	  .off = P(cfg.bench_nice), .min = -20, .max = 19 },
	{ .name = "load-nice", .letter = 'N', .type = OT_INT, .arg = "N",
	  .help = "nice the loads to N (default: 0)",
	  .off = P(cfg.load_nice), .min = -20, .max = 19 },
	{ .name = "recalibrate", .letter = 'b', .type = OT_FLAG,
	  .help = "measure loops per ms even if saved", .off = P(calibrate) },
	{ .name = "console-only", .letter = 'c', .type = OT_FLAG,
	  .help = "do not append to the logfile", .off = P(console_only) },
	{ .name = "rt", .letter = 'r', .type = OT_FLAG,
	  .help = "run the benchmarked tasks SCHED_FIFO; figures\n"
		  "in microseconds (needs real-time rights)",
	  .off = P(cfg.rt) },
	{ .name = "bench-policy", .type = OT_ENUM, .arg = "POLICY",
	  .help = "the benchmarked tasks' class: other (default),\n"
		  "batch, idle, fifo (-r), rr, deadline",
	  .off = P(cfg.bench_policy), .names = policy_names,
	  .seen = SEEN(bench_policy_given) },
	{ .name = "bench-slice", .type = OT_U64, .arg = "US",
	  .help = "the EEVDF slice the benchmarked tasks request,\n"
		  "100-100000 us (other and batch; Linux 6.12+)",
	  .off = P(cfg.bench_slice_ns), .min = 100, .max = 100000,
	  .scale = NSEC_PER_USEC },
	{ .name = "load-policy", .type = OT_ENUM, .arg = "POLICY",
	  .help = "the loads' class: other (default), batch, idle",
	  .off = P(cfg.load_policy), .names = load_policy_names },
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
	{ .name = "load", .letter = 'w', .type = OT_CALL, .arg = "NAME",
	  .help = "test against this load only (repeatable)",
	  .parse = pick_load, .complete = OC_LOAD },
	{ .name = "exclude-load", .letter = 'x', .type = OT_CALL,
	  .arg = "NAME", .help = "do not test against this load (repeatable)",
	  .parse = skip_load, .complete = OC_LOAD },
	{ .name = "bench", .letter = 'W', .type = OT_CALL, .arg = "NAME",
	  .help = "benchmark this task only (repeatable)", .parse = pick_sim,
	  .complete = OC_BENCH },
	{ .name = "exclude-bench", .letter = 'X', .type = OT_CALL,
	  .arg = "NAME", .help = "do not benchmark this task (repeatable)",
	  .parse = skip_sim, .complete = OC_BENCH },
	{ .name = "uniprocessor", .letter = 'u', .type = OT_FLAG,
	  .help = "run everything on CPU 0", .off = P(cfg.uniprocessor) },
	{ .name = "dir", .letter = 'D', .type = OT_CALL, .arg = "DIR",
	  .help = "where the disk loads' files go (default: .)",
	  .parse = set_dir, .complete = OC_DIR },
	{ .name = "percentiles", .letter = 'v', .type = OT_FLAG,
	  .help = "add p50, p90, p99 and p99.9 columns, and what\n"
		  "each load got done", .off = P(verbose) },
	{ .name = "repeat", .letter = 'n', .type = OT_CALL, .arg = "N",
	  .help = "run the whole matrix N times (default: 1);\n"
		  "tables show medians over the repeats. auto[:MAX]:\n"
		  "until every cell's mean latency is known to\n"
		  "2.5 % (95 % interval), 3 to MAX (10) times",
	  .parse = set_repeats },
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
	{ .name = "html", .type = OT_PATH, .arg = "FILE",
	  .help = "write the pictures of the run to FILE, a\n"
		  "self-contained HTML page, after every cell",
	  .off = P(html_path) },
	{ .name = "fail-if", .type = OT_CALL, .arg = "EXPR",
	  .help = "exit 1 if a cell's figure is so, e.g.\n"
		  "'p99>20ms' or 'deadlines<95' (repeatable)",
	  .parse = add_gate },
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
	  .off = P(trace) },
	{ .name = "trace-frames", .type = OT_INT, .arg = "N",
	  .help = "frames --trace explains in each cell\n(default: 3)",
	  .off = P(trace_frames), .min = 1, .max = WORST_MAX },
	{ .name = "breaktrace", .type = OT_U64, .arg = "US",
	  .help = "--trace, and at the first frame later than US\n"
		  "microseconds stop the trace, save it to a file\n"
		  "and end the run (exit status 5)",
	  .off = P(breaktrace_ns), .min = 1, .max = 60000000,
	  .scale = NSEC_PER_USEC },
	{ .name = "dry-run", .type = OT_FLAG,
	  .help = "check the command line, print the cells it\n"
		  "would run and exit", .off = P(dry_run) },
	{ .name = "list", .type = OT_ACTION,
	  .help = "list benchmarks and loads, one per line",
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

/* ---- values --------------------------------------------------------- */

/* An optional sign and digits, nothing else: 0, or -EINVAL and why. */
static int whole(const char *s, long long min, long long max,
		 long long *out, char *err, size_t n)
{
	const char *d = s + (*s == '-' || *s == '+');
	char *end;
	long long v;

	if (*d < '0' || *d > '9') {
		snprintf(err, n, "'%s' is not a whole number", s);
		return -EINVAL;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end) {
		snprintf(err, n, "'%s' is not a whole number", s);
		return -EINVAL;
	}
	if (errno == ERANGE || v < min || v > max) {
		snprintf(err, n, "%s is out of range (%lld to %lld)", s, min,
			 max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int decimal(const char *s, double min, double max, double *out,
		   char *err, size_t n)
{
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s)) {
		snprintf(err, n, "'%s' is not a number", s);
		return -EINVAL;
	}
	errno = 0;
	v = strtod(s, &end);
	if (*end || !isfinite(v)) {
		snprintf(err, n, "'%s' is not a number", s);
		return -EINVAL;
	}
	if (errno == ERANGE || v < min || v > max) {
		snprintf(err, n, "%s is out of range (%g to %g)", s, min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static void join_names(const char *const *names, char *buf, size_t n)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; names[i]; i++)
		used += (size_t)snprintf(buf + used, used < n ? n - used : 0,
					 "%s%s", !i ? "" : names[i + 1] ?
					 ", " : " or ", names[i]);
}

int opt_set(const struct opt *o, void *base, const char *val, char *err,
	    size_t n)
{
	char *at = (char *)base + o->off;
	char names[160];
	long long v;
	double d;
	int i, e = 0;

	switch (o->type) {
	case OT_FLAG:
		*(bool *)at = true;
		break;
	case OT_INT:
	case OT_UINT:
	case OT_U64:
		e = whole(val, o->min, o->max, &v, err, n);
		if (e)
			break;
		if (o->type == OT_INT)
			*(int *)at = (int)v;
		else if (o->type == OT_UINT)
			*(unsigned *)at = (unsigned)v;
		else
			*(uint64_t *)at = (uint64_t)v *
					  (o->scale ? o->scale : 1);
		break;
	case OT_SECONDS:
		e = decimal(val, o->dmin, o->dmax, &d, err, n);
		if (!e)
			*(uint64_t *)at = (uint64_t)(d * NSEC_PER_SEC);
		break;
	case OT_PATH:
		if (!*val) {
			snprintf(err, n, "empty file name");
			e = -EINVAL;
		} else {
			*(const char **)at = val;
		}
		break;
	case OT_ENUM:
		for (i = 0; o->names[i]; i++)
			if (!strcasecmp(o->names[i], val)) {
				*(int *)at = i;
				break;
			}
		if (o->names[i])
			break;
		join_names(o->names, names, sizeof(names));
		snprintf(err, n, "'%s': expected %s", val, names);
		e = -EINVAL;
		break;
	case OT_CALL:
		e = o->parse(base, val, err, n);
		break;
	case OT_ACTION:
		break;
	}
	if (!e && o->seen)
		*(bool *)((char *)base + o->seen - 1) = true;
	return e;
}

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

static int name_sim(const void **v, int *k, const char *val, char *err,
		    size_t n)
{
	const struct sim_desc *s = find_sim(val);

	if (!s) {
		snprintf(err, n, "unknown benchmark '%s' (see --list)", val);
		return -EINVAL;
	}
	return add_ptr(v, k, s, err, n);
}

static int name_load(const void **v, int *k, const char *val, char *err,
		     size_t n)
{
	const struct load_desc *l = find_load(val);

	if (!l) {
		snprintf(err, n, "unknown load '%s' (see --list)", val);
		return -EINVAL;
	}
	return add_ptr(v, k, l, err, n);
}

static int pick_load(void *base, const char *val, char *err, size_t n)
{
	struct picks *pk = &((struct plan *)base)->picks;

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

/*
 * Every repeat's results stay in memory and in the JSON: 100 passes of
 * the full matrix is already a 5000-result file.
 */
#define MAX_REPEATS	100

/* N, or auto[:MAX]: as many as the noise asks, 3 to MAX. */
static int set_repeats(void *base, const char *val, char *err, size_t n)
{
	struct plan *p = base;
	struct opt o = { .type = OT_INT, .off = offsetof(struct plan, repeats),
			 .min = 1, .max = MAX_REPEATS };

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
			 MAX_REPEATS);
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
	if (p->loops_given && p->calibrate) {
		snprintf(err, n, "options -l and -b contradict each other");
		return -EINVAL;
	}
	return plan_build(p, err, n);
}

/* ---- parsing -------------------------------------------------------- */

/* What a getopt_long value stands for: an option and whose it is. */
struct optref {
	const struct opt *o;
	int sim;			/* index in simulators[], or -1 */
};

struct optmap {
	struct option lo[MAX_LONGOPTS + 1];
	struct optref ref[MAX_LONGOPTS];
	int n;
	char shorts[128];
};

static void map_add(struct optmap *m, const struct opt *o, int sim)
{
	int k = m->n;

	if (k >= MAX_LONGOPTS)
		return;
	m->ref[k].o = o;
	m->ref[k].sim = sim;
	m->lo[k].name = o->name;
	m->lo[k].has_arg = o->arg ? required_argument : no_argument;
	m->lo[k].flag = NULL;
	m->lo[k].val = o->letter ? o->letter : LONG_BASE + k;
	m->n++;
}

static void build_map(struct optmap *m)
{
	const struct opt *o;
	size_t used = 0;
	int i;

	memset(m, 0, sizeof(*m));
	/* ':' first: a missing value is told apart from an unknown option */
	m->shorts[used++] = ':';
	for (o = cli_opts; o->name; o++) {
		map_add(m, o, -1);
		if (o->letter && used + 3 < sizeof(m->shorts)) {
			m->shorts[used++] = (char)o->letter;
			if (o->arg)
				m->shorts[used++] = ':';
		}
	}
	for (i = 0; simulators[i]; i++)
		for (o = simulators[i]->opts; o && o->name; o++)
			map_add(m, o, i);
}

static const struct optref *map_find(const struct optmap *m, int c)
{
	int k;

	if (c >= LONG_BASE && c < LONG_BASE + m->n)
		return &m->ref[c - LONG_BASE];
	for (k = 0; k < m->n; k++)
		if (m->ref[k].o->letter && m->ref[k].o->letter == c)
			return &m->ref[k];
	return NULL;
}

/* "-l" for an option with a letter, "--json" for one without. */
static void opt_display(const struct opt *o, char *buf, size_t n)
{
	if (o->letter)
		snprintf(buf, n, "-%c", o->letter);
	else
		snprintf(buf, n, "--%s", o->name);
}

static int take(struct plan *p, const struct optref *r, const char *val,
		char *err, size_t n)
{
	char why[256] = "", name[64];
	void *base = r->sim < 0 ? (void *)p : p->sim_opts[r->sim];

	if (r->o->type == OT_ACTION) {
		p->action = (enum plan_action)r->o->min;
		return 0;
	}
	if (opt_set(r->o, base, val, why, sizeof(why))) {
		opt_display(r->o, name, sizeof(name));
		snprintf(err, n, "option %s: %s", name,
			 why[0] ? why : "bad value");
		return -EINVAL;
	}
	if (r->sim >= 0) {
		p->sim_opts_given[r->sim] = true;
		if (p->ngiven < MAX_ITEMS) {
			p->given[p->ngiven].name = r->o->name;
			p->given[p->ngiven++].value = val;
		}
	}
	return 0;
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
	static struct optmap m;
	const struct optref *r;
	int c;

	build_map(&m);
	save_args(p, argc, argv);
	opterr = 0;
	optind = 0;	/* a fresh scan, also when called again (tests) */
	while ((c = getopt_long(argc, argv, m.shorts, m.lo, NULL)) != -1) {
		if (c == ':') {
			/* optopt is a letter only for short options */
			if (optopt > ' ' && optopt < 127)
				snprintf(err, n, "option -%c needs a value",
					 optopt);
			else
				snprintf(err, n, "option %s needs a value",
					 argv[optind - 1]);
			return -EINVAL;
		}
		r = c == '?' ? NULL : map_find(&m, c);
		if (!r) {
			if (optopt > ' ' && optopt < 127)
				snprintf(err, n, "unknown option -%c (see "
					 "--help)", optopt);
			else
				snprintf(err, n, "unknown option %s (see "
					 "--help)", argv[optind - 1]);
			return -EINVAL;
		}
		if (take(p, r, optarg, err, n))
			return -EINVAL;
		if (p->action != PLAN_RUN)
			return 0;
	}
	if (optind < argc) {
		snprintf(err, n, "unexpected argument '%s' (see --help)",
			 argv[optind]);
		return -EINVAL;
	}
	return cli_finish(p, err, n);
}

/* ---- help ----------------------------------------------------------- */

/* The width of the options' column of --help: the longest, or 20. */
static int usage_width(void)
{
	const struct opt *o;
	int i, w = 20;

	for (i = -1; i < 0 || simulators[i]; i++)
		for (o = i < 0 ? cli_opts : simulators[i]->opts; o && o->name;
		     o++) {
			int l = (int)strlen(o->name) + 2 +
				(o->arg ? (int)strlen(o->arg) + 1 : 0);

			if (l > w)
				w = l;
		}
	return w;
}

/* One option in --help: "  -l, --loops-per-ms N     use N ...". */
static void usage_opt(FILE *f, const struct opt *o, int width)
{
	char left[64];
	const char *h = o->help;

	snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "",
		 o->arg ? o->arg : "");
	if (o->letter)
		fprintf(f, "  -%c, %-*s ", o->letter, width, left);
	else
		fprintf(f, "      %-*s ", width, left);
	while (*h) {
		size_t l = strcspn(h, "\n");

		fprintf(f, "%.*s\n", (int)l, h);
		h += l;
		if (*h == '\n') {
			h++;
			fprintf(f, "%*s", width + 7, "");
		}
	}
}

void cli_usage(FILE *f)
{
	const struct opt *o;
	int i, width = usage_width();

	fprintf(f,
"Usage: interbench [options]\n"
"       interbench compare [options] BASE.json NEW.json...\n"
"       interbench report RESULT.json... -o FILE.html [--svg DIR]\n"
"       interbench --list | --version | --help\n"
"Measures how late simulated interactive tasks run under background loads.\n"
"\n");
	for (o = cli_opts; o->name; o++)
		usage_opt(f, o, width);
	fprintf(f,
"\n"
"Exit status: 0 all cells measured, 1 a --fail-if gate failed, 2 bad\n"
"command line, 3 cannot set up (or another interbench is measuring),\n"
"4 some cells failed or were skipped, 5 --breaktrace stopped the run,\n"
"128+N stopped by signal N.\n");
	for (i = 0; simulators[i]; i++) {
		if (!simulators[i]->opts)
			continue;
		fprintf(f, "\n%s (-W %s) options:\n", simulators[i]->name,
			simulators[i]->name);
		for (o = simulators[i]->opts; o->name; o++)
			usage_opt(f, o, width);
	}
}

void cli_list(FILE *f)
{
	int i;

	for (i = 0; simulators[i]; i++)
		fprintf(f, "bench %-8s %s\n", simulators[i]->name,
			simulators[i]->summary);
	for (i = 0; loads[i]; i++)
		fprintf(f, "load  %-8s %s\n", loads[i]->name,
			loads[i]->summary);
}
