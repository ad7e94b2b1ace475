// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * interbench - the Linux interactivity benchmark.
 *
 * This file is the orchestrator: the command line, the run matrix, the
 * processes of each cell, the tables and the logfile. It is the only
 * place that exits. Simulators are in simulators/, loads in loads/, the
 * timing engines in timing.c, statistics in stats.c.
 *
 * Each cell (benchmark x load) runs the load in one process and the
 * benchmark in another, each in its own process group, while the parent
 * waits at the highest real-time priority with its memory locked. The
 * children report through a shared anonymous mapping.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "interbench.h"
#include "report.h"

const struct work_unit work_units[WORK_KINDS] = {
	[WORK_BURN_LOOPS]	= { "burn_loops", "Mloops/s", 1e6 },
	[WORK_BYTES_WRITTEN]	= { "bytes_written", "MB/s written", 1e6 },
	[WORK_BYTES_READ]	= { "bytes_read", "MB/s read", 1e6 },
	[WORK_RING_WAKEUPS]	= { "ring_wakeups", "wakeups/s", 1 },
	[WORK_HACK_MESSAGES]	= { "hack_messages", "messages/s", 1 },
	[WORK_MEM_BYTES]	= { "mem_bytes", "MB/s touched", 1e6 },
	[WORK_FRAMES]		= { "frames", "frames/s", 1 },
	[WORK_NET_PACKETS]	= { "net_packets", "UDP datagrams/s", 1 },
	[WORK_NET_BYTES]	= { "net_bytes", "MB/s received", 1e6 },
	[WORK_FORKS]		= { "forks", "forks/s", 1 },
};

#define CALIB_FILE	"interbench.loops_per_ms"
#define MAX_ITEMS	32
#define MAX_GATES	16
#define MAX_SIM_OPTS	64
/* Far above any CPU's loop speed; beyond it a burn chunk never ends. */
#define MAX_LOOPS_PER_MS	100000000
#define SIM_OPT_BASE	1000

/* --fail-if METRIC OP VALUE: the run fails when a cell's figure is so. */
enum gate_metric { G_MEAN, G_SD, G_MAX, G_P50, G_P90, G_P99, G_P999,
		   G_CPU, G_DEADLINES };
struct gate {
	const char *text;
	enum gate_metric metric;
	int op;			/* '<', '>', 'l' (<=), 'g' (>=) */
	double value;		/* ns for latencies, % otherwise */
};

/* Everything a run needs: settings, lists and the shared mapping. */
struct run {
	struct run_cfg cfg;
	struct calibration cal;
	bool calibrate;			/* -b */
	bool loops_given;		/* -l */
	bool console_only;		/* -c */
	bool percentiles;		/* -v */
	bool custom;			/* -C and -I given */
	bool dry_run;			/* --dry-run */
	const char *comment;		/* -m */
	char args[1024];		/* the command line, for the log */
	const struct sim_desc *bench[MAX_ITEMS];
	int nbench;
	void *sim_opts[MAX_ITEMS];	/* by index in simulators[] */
	struct { const char *name, *value; } given[MAX_ITEMS]; /* sim opts */
	int ngiven;
	const struct load_desc *load[MAX_ITEMS];
	int nload;
	int repeats;			/* -n */
	const char *json_path;		/* --json */
	const char *csv_path;		/* --csv */
	struct gate gates[MAX_GATES];	/* --fail-if */
	int ngates;
	struct cell *cells;		/* every cell of every repeat, in order */
	int ncells;
	struct sysinfo_ib sys;
	struct run_info info;
	FILE *csv;
	FILE *log;
	char log_name[PATH_MAX];
	int cells_total, cells_done, cells_bad;
	uint64_t started;
	bool read_file_dirty;		/* made this run and not complete */
	struct shared {
		struct bench_result res;
		struct load_work work;
	} *sh;
	pid_t kids[2];			/* process groups alive now */
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;
}

static void die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("interbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(IB_EXIT_USAGE);
}

/* ---- command line -------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
"Usage: interbench [options]\n"
"       interbench compare [--threshold PCT] [--alpha P] BASE.json NEW.json...\n"
"       interbench --list | --version | --help\n"
"Measures how late simulated interactive tasks run under background loads.\n"
"\n"
"  -l, --loops-per-ms N     use N loops per ms (default: saved or measured)\n"
"  -L, --load-threads N     threads of the Burn load (default: CPUs online)\n"
"  -t, --time SECONDS       seconds to run each cell (default: 30; may be\n"
"                           a decimal, at least 0.1)\n"
"  -B, --bench-nice N       nice the benchmarked tasks to N (default: 0)\n"
"  -N, --load-nice N        nice the loads to N (default: 0)\n"
"  -b, --recalibrate        measure loops per ms even if saved\n"
"  -c, --console-only       do not append to the logfile\n"
"  -r, --rt                 run the benchmarked tasks SCHED_FIFO; figures\n"
"                           in microseconds (needs real-time rights)\n"
"  -C, --custom-cpu PCT     CPU percent of the Custom benchmark and load\n"
"  -I, --custom-interval US wake interval of Custom in microseconds\n"
"  -m, --comment TEXT       add TEXT to the logfile\n"
"  -w, --load NAME          test against this load only (repeatable)\n"
"  -x, --exclude-load NAME  do not test against this load (repeatable)\n"
"  -W, --bench NAME         benchmark this task only (repeatable)\n"
"  -X, --exclude-bench NAME do not benchmark this task (repeatable)\n"
"  -u, --uniprocessor       run everything on CPU 0\n"
"  -D, --dir DIR            where the disk loads' files go (default: .)\n"
"  -v, --percentiles        add p50, p90, p99 and p99.9 columns, and what\n"
"                           each load got done\n"
"  -n, --repeat N           run the whole matrix N times (default: 1);\n"
"                           tables show medians over the repeats\n"
"      --json FILE          write every result to FILE as JSON, after\n"
"                           every cell\n"
"      --csv FILE           write one row per cell and repeat to FILE\n"
"      --fail-if EXPR       exit 1 if a cell's figure is so, e.g.\n"
"                           'p99>20ms' or 'deadlines<95' (repeatable)\n"
"      --dry-run            check the command line, print the cells it\n"
"                           would run and exit\n"

"      --list               list benchmarks and loads, one per line\n"
"      --version            print the version\n"
"  -h, --help               show this help\n"
"\n"
"Exit status: 0 all cells measured, 1 a --fail-if gate failed, 2 bad\n"
"command line, 3 cannot set up, 4 some cells failed or were skipped,\n"
"128+N stopped by signal N.\n");
}

/* A whole number in [min, max], nothing else: one-line error otherwise. */
static long parse_int(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	if (!*s || isspace((unsigned char)*s))
		die_usage("option %s: '%s' is not a whole number", opt, s);
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end)
		die_usage("option %s: '%s' is not a whole number", opt, s);
	if (errno == ERANGE || v < min || v > max)
		die_usage("option %s: %s is out of range (%ld to %ld)",
			  opt, s, min, max);
	return v;
}

static double parse_num(const char *opt, const char *s, double min,
			double max)
{
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s))
		die_usage("option %s: '%s' is not a number", opt, s);
	errno = 0;
	v = strtod(s, &end);
	if (*end || !isfinite(v))
		die_usage("option %s: '%s' is not a number", opt, s);
	if (errno == ERANGE || v < min || v > max)
		die_usage("option %s: %s is out of range (%g to %g)",
			  opt, s, min, max);
	return v;
}

static const struct sim_desc *find_bench(const char *opt, const char *name)
{
	int i;

	for (i = 0; simulators[i]; i++)
		if (!strcasecmp(simulators[i]->name, name))
			return simulators[i];
	die_usage("option %s: unknown benchmark '%s' (see --list)", opt, name);
}

static const struct load_desc *find_load(const char *opt, const char *name)
{
	int i;

	for (i = 0; loads[i]; i++)
		if (!strcasecmp(loads[i]->name, name))
			return loads[i];
	die_usage("option %s: unknown load '%s' (see --list)", opt, name);
}

static void list_all(void)
{
	int i;

	for (i = 0; simulators[i]; i++)
		printf("bench %-8s %s\n", simulators[i]->name,
		       simulators[i]->summary);
	for (i = 0; loads[i]; i++)
		printf("load  %-8s %s\n", loads[i]->name, loads[i]->summary);
}

/* Options that name things are collected first, then checked together. */
struct picks {
	const struct sim_desc *w_bench[MAX_ITEMS], *x_bench[MAX_ITEMS];
	const struct load_desc *w_load[MAX_ITEMS], *x_load[MAX_ITEMS];
	int nwb, nxb, nwl, nxl;
};

static bool has_ptr(const void *const *v, int n, const void *p)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == p)
			return true;
	return false;
}

static void add_pick(const void **v, int *n, const void *p, const char *opt)
{
	if (has_ptr(v, *n, p))
		return;
	if (*n >= MAX_ITEMS)
		die_usage("option %s: too many names", opt);
	v[(*n)++] = p;
}

static void build_lists(struct run *r, struct picks *pk)
{
	int i;

	for (i = 0; i < pk->nwb; i++)
		if (has_ptr((const void **)pk->x_bench, pk->nxb, pk->w_bench[i]))
			die_usage("options -W and -X both name benchmark '%s'",
				  pk->w_bench[i]->name);
	for (i = 0; i < pk->nwl; i++)
		if (has_ptr((const void **)pk->x_load, pk->nxl, pk->w_load[i]))
			die_usage("options -w and -x both name load '%s'",
				  pk->w_load[i]->name);
	for (i = 0; simulators[i]; i++) {
		const struct sim_desc *s = simulators[i];

		if (pk->nwb ? !has_ptr((const void **)pk->w_bench, pk->nwb, s)
			    : ((s->flags & SIM_CUSTOM) && !r->custom) ||
			      (s->flags & SIM_NAMED))
			continue;
		if (has_ptr((const void **)pk->x_bench, pk->nxb, s))
			continue;
		if ((s->flags & SIM_CUSTOM) && !r->custom)
			die_usage("option -W: benchmark '%s' needs -C and -I",
				  s->name);
		r->bench[r->nbench++] = s;
	}
	for (i = 0; loads[i]; i++) {
		const struct load_desc *l = loads[i];

		if (pk->nwl ? !has_ptr((const void **)pk->w_load, pk->nwl, l)
			    : (l->flags & LOAD_CUSTOM) && !r->custom)
			continue;
		if (has_ptr((const void **)pk->x_load, pk->nxl, l))
			continue;
		if ((l->flags & LOAD_CUSTOM) && !r->custom)
			die_usage("option -w: load '%s' needs -C and -I",
				  l->name);
		r->load[r->nload++] = l;
	}
	if (!r->nbench)
		die_usage("options -W/-X leave no benchmark to run");
	if (!r->nload)
		die_usage("options -w/-x leave no load to run against");
}

/*
 * --fail-if METRIC OP VALUE, e.g. 'p99>20ms', 'deadlines<95', 'cpu<=99.5%'.
 * Latencies need a unit (ns, us, ms, s) so that a gate never means one
 * thing with -r and another without.
 */
static void parse_gate(struct gate *g, const char *text)
{
	static const struct {
		const char *name;
		enum gate_metric m;
	} metrics[] = {
		{ "mean", G_MEAN }, { "latency", G_MEAN }, { "sd", G_SD },
		{ "max", G_MAX }, { "p50", G_P50 }, { "p90", G_P90 },
		{ "p99.9", G_P999 }, { "p999", G_P999 }, { "p99", G_P99 },
		{ "cpu", G_CPU }, { "desired", G_CPU },
		{ "deadlines", G_DEADLINES }, { "met", G_DEADLINES },
	};
	static const struct {
		const char *name;
		double ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	const char *p = text, *rest;
	char *end;
	size_t i, len = 0;
	bool found = false;

	g->text = text;
	while (*p == ' ')
		p++;
	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		len = strlen(metrics[i].name);
		if (!strncasecmp(p, metrics[i].name, len)) {
			g->metric = metrics[i].m;
			found = true;
			break;
		}
	}
	if (!found)
		die_usage("option --fail-if: '%s': unknown metric (mean, sd, "
			  "max, p50, p90, p99, p99.9, cpu, deadlines)", text);
	p += len;
	while (*p == ' ')
		p++;
	if (p[0] == '<' && p[1] == '=')
		g->op = 'l', p += 2;
	else if (p[0] == '>' && p[1] == '=')
		g->op = 'g', p += 2;
	else if (*p == '<' || *p == '>')
		g->op = *p++;
	else
		die_usage("option --fail-if: '%s': expected <, <=, > or >= "
			  "after the metric", text);
	while (*p == ' ')
		p++;
	errno = 0;
	g->value = strtod(p, &end);
	if (end == p || errno || !isfinite(g->value) || g->value < 0)
		die_usage("option --fail-if: '%s': expected a number after "
			  "the comparison", text);
	rest = end;
	if (g->metric >= G_CPU) {
		if (*rest == '%')
			rest++;
		if (*rest)
			die_usage("option --fail-if: '%s': a percentage takes "
				  "no unit but %%", text);
		return;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(rest, units[i].name)) {
			g->value *= units[i].ns;
			return;
		}
	die_usage("option --fail-if: '%s': a latency needs a unit: ns, us, "
		  "ms or s", text);
}

/*
 * A simulator's options only make sense if it runs, and must make sense
 * together (its opts_check).
 */
static void check_sim_opts(struct run *r, const bool *given_for)
{
	char err[160];
	int i;

	for (i = 0; simulators[i]; i++) {
		const struct sim_desc *s = simulators[i];

		if (!s->opts)
			continue;
		if (given_for[i] && !has_ptr((const void **)r->bench, r->nbench,
					     s))
			die_usage("options for %s are given but %s does not "
				  "run (add -W %s)", s->name, s->name,
				  s->name);
		err[0] = '\0';
		if (s->opts_check && s->opts_check(r->sim_opts[i], err,
						   sizeof(err)))
			die_usage("options for %s: %s", s->name, err);
	}
}

/* Room for every simulator's defaults, before the command line. */
static void init_sim_opts(struct run *r)
{
	int i;

	for (i = 0; i < MAX_ITEMS && simulators[i]; i++) {
		const struct sim_desc *s = simulators[i];

		if (!s->opts_size)
			continue;
		r->sim_opts[i] = calloc(1, s->opts_size);
		if (!r->sim_opts[i]) {
			fprintf(stderr, "interbench: out of memory\n");
			exit(IB_EXIT_SETUP);
		}
		if (s->opts_init)
			s->opts_init(r->sim_opts[i], &r->cfg);
	}
}

/* The simulators' options in --help. */
static void usage_sim_opts(FILE *f)
{
	const struct sim_opt *o;
	char left[64];
	int i;

	for (i = 0; simulators[i]; i++) {
		if (!simulators[i]->opts)
			continue;
		fprintf(f, "\n%s (-W %s) options:\n", simulators[i]->name,
			simulators[i]->name);
		for (o = simulators[i]->opts; o->name; o++) {
			snprintf(left, sizeof(left), "--%s%s%s", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
			fprintf(f, "      %-23s %s\n", left, o->help);
		}
	}
}

static void parse_args(struct run *r, int argc, char **argv)
{
	static const struct option base[] = {
		{ "loops-per-ms", required_argument, NULL, 'l' },
		{ "load-threads", required_argument, NULL, 'L' },
		{ "time", required_argument, NULL, 't' },
		{ "bench-nice", required_argument, NULL, 'B' },
		{ "load-nice", required_argument, NULL, 'N' },
		{ "recalibrate", no_argument, NULL, 'b' },
		{ "console-only", no_argument, NULL, 'c' },
		{ "rt", no_argument, NULL, 'r' },
		{ "custom-cpu", required_argument, NULL, 'C' },
		{ "custom-interval", required_argument, NULL, 'I' },
		{ "comment", required_argument, NULL, 'm' },
		{ "load", required_argument, NULL, 'w' },
		{ "exclude-load", required_argument, NULL, 'x' },
		{ "bench", required_argument, NULL, 'W' },
		{ "exclude-bench", required_argument, NULL, 'X' },
		{ "uniprocessor", no_argument, NULL, 'u' },
		{ "dir", required_argument, NULL, 'D' },
		{ "percentiles", no_argument, NULL, 'v' },
		{ "repeat", required_argument, NULL, 'n' },
		{ "json", required_argument, NULL, 3 },
		{ "csv", required_argument, NULL, 4 },
		{ "fail-if", required_argument, NULL, 5 },
		{ "dry-run", no_argument, NULL, 6 },
		{ "list", no_argument, NULL, 1 },
		{ "version", no_argument, NULL, 2 },
		{ "help", no_argument, NULL, 'h' },
	};
	struct option lopts[sizeof(base) / sizeof(base[0]) + MAX_SIM_OPTS + 1];
	struct { int sim; const struct sim_opt *opt; } map[MAX_SIM_OPTS];
	struct run_cfg *cfg = &r->cfg;
	struct picks pk;
	bool given_for[MAX_ITEMS] = { false };
	bool have_c = false, have_i = false;
	size_t used = 0, nl = sizeof(base) / sizeof(base[0]);
	int c, i, nmap = 0;

	/* The simulators' own options follow ours (SIM_OPT_BASE + k). */
	memcpy(lopts, base, sizeof(base));
	for (i = 0; simulators[i]; i++) {
		const struct sim_opt *o;

		for (o = simulators[i]->opts; o && o->name; o++) {
			if (nmap >= MAX_SIM_OPTS)
				break;
			map[nmap].sim = i;
			map[nmap].opt = o;
			lopts[nl].name = o->name;
			lopts[nl].has_arg = o->arg ? required_argument :
						     no_argument;
			lopts[nl].flag = NULL;
			lopts[nl++].val = SIM_OPT_BASE + nmap++;
		}
	}
	memset(&lopts[nl], 0, sizeof(lopts[nl]));
	memset(&pk, 0, sizeof(pk));
	for (i = 0; i < argc && used < sizeof(r->args) - 1; i++)
		used += (size_t)snprintf(r->args + used, sizeof(r->args) - used,
					 "%s%s", i ? " " : "", argv[i]);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:L:t:B:N:bcrC:I:m:w:x:W:X:uD:vn:h",
				lopts, NULL)) != -1) {
		if (c >= SIM_OPT_BASE && c < SIM_OPT_BASE + nmap) {
			const struct sim_opt *o = map[c - SIM_OPT_BASE].opt;
			int si = map[c - SIM_OPT_BASE].sim;
			char err[160] = "";

			if (o->parse(r->sim_opts[si], optarg, err, sizeof(err)))
				die_usage("option --%s: %s", o->name,
					  err[0] ? err : "bad value");
			if (r->ngiven < MAX_ITEMS) {
				r->given[r->ngiven].name = o->name;
				r->given[r->ngiven++].value = optarg;
			}
			given_for[si] = true;
			continue;
		}
		switch (c) {
		case 'l':
			cfg->loops_per_ms = (uint64_t)parse_int("-l", optarg,
						1, MAX_LOOPS_PER_MS);
			r->loops_given = true;
			break;
		case 'L':
			cfg->load_threads = (int)parse_int("-L", optarg, 1, 4096);
			break;
		case 't':
			cfg->duration_ns = (uint64_t)(parse_num("-t", optarg,
						0.1, 86400) * NSEC_PER_SEC);
			break;
		case 'B':
			cfg->bench_nice = (int)parse_int("-B", optarg, -20, 19);
			break;
		case 'N':
			cfg->load_nice = (int)parse_int("-N", optarg, -20, 19);
			break;
		case 'b':
			r->calibrate = true;
			break;
		case 'c':
			r->console_only = true;
			break;
		case 'r':
			cfg->rt = true;
			break;
		case 'C':
			cfg->custom_cpu_pct = (unsigned)parse_int("-C", optarg,
								  0, 100);
			have_c = true;
			break;
		case 'I':
			cfg->custom_interval_ns = (uint64_t)parse_int("-I",
					optarg, 100, 60000000) * NSEC_PER_USEC;
			have_i = true;
			break;
		case 'm':
			if (!*optarg || strchr(optarg, '\n') ||
			    strlen(optarg) > 1000)
				die_usage("option -m: the comment must be one "
					  "non-empty line of at most 1000 "
					  "characters");
			r->comment = optarg;
			break;
		case 'w':
			add_pick((const void **)pk.w_load, &pk.nwl,
				 find_load("-w", optarg), "-w");
			break;
		case 'x':
			add_pick((const void **)pk.x_load, &pk.nxl,
				 find_load("-x", optarg), "-x");
			break;
		case 'W':
			add_pick((const void **)pk.w_bench, &pk.nwb,
				 find_bench("-W", optarg), "-W");
			break;
		case 'X':
			add_pick((const void **)pk.x_bench, &pk.nxb,
				 find_bench("-X", optarg), "-X");
			break;
		case 'u':
			cfg->uniprocessor = true;
			break;
		case 'D':
			if (!*optarg || strlen(optarg) > PATH_MAX - 64)
				die_usage("option -D: directory name is empty "
					  "or too long");
			snprintf(cfg->dir, sizeof(cfg->dir), "%s", optarg);
			break;
		case 'v':
			r->percentiles = true;
			break;
		case 'n':
			/*
			 * The JSON is rewritten after every cell: 100 passes
			 * of the full matrix is already a 5000-cell file.
			 */
			r->repeats = (int)parse_int("-n", optarg, 1, 100);
			break;
		case 3:
			if (!*optarg)
				die_usage("option --json: empty file name");
			r->json_path = optarg;
			break;
		case 4:
			if (!*optarg)
				die_usage("option --csv: empty file name");
			r->csv_path = optarg;
			break;
		case 5:
			if (r->ngates >= MAX_GATES)
				die_usage("option --fail-if: at most %d gates",
					  MAX_GATES);
			parse_gate(&r->gates[r->ngates++], optarg);
			break;
		case 6:
			r->dry_run = true;
			break;
		case 1:
			list_all();
			exit(IB_EXIT_OK);
		case 2:
			printf("interbench %s\n", IB_VERSION);
			exit(IB_EXIT_OK);
		case 'h':
			usage(stdout);
			usage_sim_opts(stdout);
			exit(IB_EXIT_OK);
		case ':':
			/* optopt is a letter only for short options. */
			if (optopt > ' ' && optopt < 127)
				die_usage("option -%c needs a value", optopt);
			die_usage("option %s needs a value", argv[optind - 1]);
		default:
			if (optopt > ' ' && optopt < 127)
				die_usage("unknown option -%c (see --help)",
					  optopt);
			die_usage("unknown option %s (see --help)",
				  argv[optind - 1]);
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s' (see --help)", argv[optind]);
	if (have_c != have_i)
		die_usage("option %s needs %s too", have_c ? "-C" : "-I",
			  have_c ? "-I" : "-C");
	r->custom = have_c;
	if (r->loops_given && r->calibrate)
		die_usage("options -l and -b contradict each other");
	build_lists(r, &pk);
	check_sim_opts(r, given_for);
}

/* Check up front what would otherwise fail half-way through a run. */
/* Can a file be made at path? Without making it: its directory, or it. */
static int can_write(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!stat(path, &st))
		return S_ISDIR(st.st_mode) ? -EISDIR :
		       access(path, W_OK) ? -errno : 0;
	if (errno != ENOENT)
		return -errno;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

/*
 * Check up front what would otherwise fail half-way through a run, in an
 * order that loses nothing: the logfile is only appended to, and the CSV
 * (truncated when opened) comes last. A dry run opens nothing.
 */
static void check_files(struct run *r, bool dry)
{
	struct run_cfg *cfg = &r->cfg;
	bool files = false;
	struct stat st;
	int i, err;

	for (i = 0; i < r->nload; i++)
		if (r->load[i]->flags & LOAD_FILES)
			files = true;
	if (files) {
		if (stat(cfg->dir, &st))
			die_usage("option -D: %s: %s", cfg->dir, strerror(errno));
		if (!S_ISDIR(st.st_mode))
			die_usage("option -D: %s is not a directory", cfg->dir);
		if (access(cfg->dir, W_OK | X_OK))
			die_usage("option -D: cannot write in %s: %s", cfg->dir,
				  strerror(errno));
	}
	if (!r->console_only) {
		struct utsname u;

		uname(&u);
		snprintf(r->log_name, sizeof(r->log_name), "%s.log", u.release);
		err = can_write(r->log_name);
		if (err)
			die_usage("logfile %s: %s (use -c for console only)",
				  r->log_name, strerror(-err));
	}
	if (r->json_path) {
		char tmp[PATH_MAX + 8];

		snprintf(tmp, sizeof(tmp), "%s.tmp", r->json_path);
		err = can_write(r->json_path);
		if (!err)
			err = can_write(tmp);
		if (err)
			die_usage("option --json: cannot write %s: %s",
				  r->json_path, strerror(-err));
	}
	if (r->csv_path) {
		err = can_write(r->csv_path);
		if (err)
			die_usage("option --csv: cannot write %s: %s",
				  r->csv_path, strerror(-err));
	}
	if (dry)
		return;
	/* Every check passed: only now is anything made. */
	if (!r->console_only) {
		int fd = open(r->log_name, O_WRONLY | O_APPEND | O_CREAT |
			      O_CLOEXEC, 0644);

		if (fd < 0 || !(r->log = fdopen(fd, "a")))
			die_usage("logfile %s: %s (use -c for console only)",
				  r->log_name, strerror(errno));
	}
	if (r->csv_path && !(r->csv = fopen(r->csv_path, "we")))
		die_usage("option --csv: cannot write %s: %s", r->csv_path,
			  strerror(errno));
}

/* ---- output -------------------------------------------------------- */

/* Print to the console and, unless -c, to the logfile. */
static void vout(struct run *r, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void vout(struct run *r, const char *fmt, va_list ap)
{
	va_list ap2;

	va_copy(ap2, ap);
	vprintf(fmt, ap);
	fflush(stdout);
	if (r->log) {
		vfprintf(r->log, fmt, ap2);
		fflush(r->log);
	}
	va_end(ap2);
}

static void out(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void out(struct run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vout(r, fmt, ap);
	va_end(ap);
}

/* out() for the simulators' detail hooks. */
static void out_cb(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void out_cb(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vout(ctx, fmt, ap);
	va_end(ap);
}

static void progress(struct run *r, const struct sim_desc *b,
		     const struct load_desc *l)
{
	uint64_t per = r->cfg.duration_ns + 300 * NSEC_PER_MSEC;
	uint64_t left = (uint64_t)(r->cells_total - r->cells_done) * per;

	if (!isatty(STDERR_FILENO))
		return;
	if (!b) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K[%d/%d] %s under %s, about %llu s left",
		r->cells_done + 1, r->cells_total, b->name, l->name,
		(unsigned long long)(left / NSEC_PER_SEC));
}

/* Latency figures are in ms, or us with -r (as interbench always did). */
static double unit_ns(const struct run *r)
{
	return r->cfg.rt ? 1e3 : 1e6;
}

static void table_head(struct run *r, const struct sim_desc *b)
{
	const char *u = r->cfg.rt ? "us" : "ms";

	out(r, "\n--- Benchmarking simulated cpu of %s in the presence of "
	    "simulated ---\n", b->name);
	out(r, "%-9s %-24s %11s %14s", "Load", r->cfg.rt ?
	    "Latency +/- SD (us)" : "Latency +/- SD (ms)", "Max Latency",
	    "% Desired CPU");
	if (b->flags & SIM_DEADLINES)
		out(r, " %16s", "% Deadlines Met");
	if (r->percentiles)
		out(r, " %9s %9s %9s %9s", "p50", "p90", "p99", "p99.9");
	if (r->percentiles)
		out(r, "  (%s)", u);
	if (r->repeats > 1)
		out(r, "  [median of %d repeats; ok of run, mean min-max]",
		    r->repeats);
	out(r, "\n");
}

/* What a table row shows: one cell, or the medians of its repeats. */
struct row {
	const struct sim_desc *bench;
	const struct load_desc *load;
	int n, ok;			/* repeats run, and measured */
	const struct cell *bad;		/* the first that was not */
	double mean, sd, max, p50, p90, p99, p999;	/* ns */
	double desired, met;		/* % */
	double mean_lo, mean_hi;	/* range of the mean over repeats */
	double work_rate[WORK_KINDS];
};

/* Median over the row's good repeats of one figure of a cell. */
#define ROW_MEDIAN(r, b, l, v, expr)					\
	do {								\
		int i_, n_ = 0;						\
		for (i_ = 0; i_ < (r)->ncells; i_++) {			\
			const struct cell *c = &(r)->cells[i_];		\
			if (c->bench == (b) && c->load == (l) &&	\
			    c->status == CELL_OK)			\
				(v)[n_++] = (double)(expr);		\
		}							\
		tmp_ = stats_median((v), (size_t)n_);			\
	} while (0)

static void make_row(const struct run *r, const struct sim_desc *b,
		     const struct load_desc *l, struct row *w)
{
	double *v = calloc((size_t)r->ncells + 1, sizeof(double));
	double tmp_;
	int i, k;

	memset(w, 0, sizeof(*w));
	w->bench = b;
	w->load = l;
	w->mean_lo = INFINITY;
	w->mean_hi = -INFINITY;
	for (i = 0; i < r->ncells; i++) {
		const struct cell *c = &r->cells[i];

		if (c->bench != b || c->load != l)
			continue;
		w->n++;
		if (c->status != CELL_OK) {
			if (!w->bad)
				w->bad = c;
			continue;
		}
		w->ok++;
		w->mean_lo = fmin(w->mean_lo, c->lat.mean);
		w->mean_hi = fmax(w->mean_hi, c->lat.mean);
	}
	if (!v || !w->ok) {
		free(v);
		w->ok = v ? w->ok : 0;
		return;
	}
	ROW_MEDIAN(r, b, l, v, c->lat.mean); w->mean = tmp_;
	ROW_MEDIAN(r, b, l, v, c->lat.sd); w->sd = tmp_;
	ROW_MEDIAN(r, b, l, v, c->lat.max); w->max = tmp_;
	ROW_MEDIAN(r, b, l, v, c->lat.p50); w->p50 = tmp_;
	ROW_MEDIAN(r, b, l, v, c->lat.p90); w->p90 = tmp_;
	ROW_MEDIAN(r, b, l, v, c->lat.p99); w->p99 = tmp_;
	ROW_MEDIAN(r, b, l, v, c->lat.p999); w->p999 = tmp_;
	ROW_MEDIAN(r, b, l, v, c->desired_pct); w->desired = tmp_;
	ROW_MEDIAN(r, b, l, v, c->met_pct); w->met = tmp_;
	for (k = 0; k < WORK_KINDS; k++) {
		ROW_MEDIAN(r, b, l, v, c->work_rate[k]);
		w->work_rate[k] = tmp_;
	}
	free(v);
}

/* A figure as the table prints it; "-" where there is none. */
static const char *fig(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3g", v);
	return buf;
}

static void table_row(struct run *r, const struct row *w)
{
	double u = unit_ns(r);
	char lat[64], num[32];
	int k;
	bool any = false;

	if (!w->ok) {
		out(r, "%-9s %s\n", w->load->name,
		    w->bad ? w->bad->why : "not run");
		return;
	}
	snprintf(lat, sizeof(lat), "%.3g +/- %.3g", w->mean / u, w->sd / u);
	out(r, "%-9s %-24s %11.3g %14s", w->load->name, lat, w->max / u,
	    fig(num, sizeof(num), w->desired));
	if (w->bench->flags & SIM_DEADLINES)
		out(r, " %16s", fig(num, sizeof(num), w->met));
	if (r->percentiles)
		out(r, " %9.3g %9.3g %9.3g %9.3g", w->p50 / u, w->p90 / u,
		    w->p99 / u, w->p999 / u);
	if (r->repeats > 1)
		out(r, "  [%d of %d ok; mean %.3g-%.3g]", w->ok, w->n,
		    w->mean_lo / u, w->mean_hi / u);
	out(r, "\n");
	if (w->bad && r->repeats > 1)
		out(r, "          repeat %d: %s\n", w->bad->repeat,
		    w->bad->why);
	if (!r->percentiles)
		return;
	for (k = 0; k < WORK_KINDS; k++) {
		if (!(w->work_rate[k] > 0))
			continue;
		out(r, "%s%.4g %s", any ? ", " : "          load did: ",
		    w->work_rate[k] / work_units[k].scale, work_units[k].unit);
		any = true;
	}
	if (any)
		out(r, "\n");
}

static void log_header(struct run *r)
{
	struct utsname u;
	char stamp[32];
	time_t t = time(NULL);

	uname(&u);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M", localtime(&t));
	out(r, "\nBenchmarking kernel %s with datestamp %s\n", u.release,
	    stamp);
	out(r, "interbench %s: %s\n", IB_VERSION, r->args);
	out(r, "Using %llu loops per ms (burn error %+.2f %%), running "
	    "every cell for %.3g seconds\n",
	    (unsigned long long)r->cfg.loops_per_ms, r->cal.error_pct,
	    (double)r->cfg.duration_ns / NSEC_PER_SEC);
	out(r, "Benchmarked tasks %s, nice %d; loads nice %d, %d burn "
	    "threads; %d CPUs%s\n",
	    r->cfg.rt ? "SCHED_FIFO" : "SCHED_OTHER", r->cfg.bench_nice,
	    r->cfg.load_nice, r->cfg.load_threads, r->cfg.cpus,
	    r->cfg.uniprocessor ? " (all on CPU 0)" : "");
	if (r->cal.measured && r->cal.spread_pct > 10)
		out(r, "Note: the CPU's speed varied by %.0f %% while "
		    "calibrating; load throughput figures will vary too\n",
		    r->cal.spread_pct);
	if (!r->cfg.rt_ok)
		out(r, "WARNING: no real-time privileges: the timing thread "
		    "runs SCHED_OTHER and results are unreliable\n");
	if (r->comment)
		out(r, "Comment: %s\n", r->comment);
}

/* ---- processes ----------------------------------------------------- */

/*
 * In a fresh child: own process group, dies with the parent, and a name
 * (ib:bench:Audio, ib:load:Burn) so ps and the tests can tell them apart.
 */
static void child_setup(pid_t parent, const char *role, const char *name)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD };
	char comm[16];
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	snprintf(comm, sizeof(comm), "ib:%s:%s", role, name);
	prctl(PR_SET_NAME, comm);
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, s, strlen(s)) < 0) {
		/* best effort: not every kernel or user may set it */
	}
	close(fd);
}

/*
 * mlockall, where locking cannot make later allocations (thread stacks)
 * fail: as root, or with no limit on locked memory. Not in sanitizer
 * builds, whose shadow memory is huge.
 */
static int lock_memory(void)
{
#ifdef IB_NO_MLOCK
	return 0;
#else
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) ||
	    (rl.rlim_cur != RLIM_INFINITY && geteuid()))
		return 0;
	return mlockall(MCL_CURRENT | MCL_FUTURE);
#endif
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = ns_to_ts(ns);

	nanosleep(&ts, NULL);
}

/*
 * Wait for pid until the monotonic deadline: 1 exited (*status set),
 * 0 timed out, -1 a signal asked us to stop.
 */
static int wait_pid(pid_t pid, int *status, uint64_t deadline)
{
	uint64_t now;

	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid)
			return 1;
		if (w < 0 && errno != EINTR) {
			*status = 0;
			return 1;
		}
		if (got_signal)
			return -1;
		now = now_ns();
		if (now >= deadline)
			return 0;
		/*
		 * SIGCHLD and the stop signals cut this sleep short, so it
		 * can be long: we wake rarely, and disturb what we measure
		 * little. A child ending just before the sleep costs 50 ms.
		 */
		sleep_ns(deadline - now < 50 * NSEC_PER_MSEC ? deadline - now :
			 50 * NSEC_PER_MSEC);
	}
}

static void forget_kid(struct run *r, pid_t pid)
{
	int i;

	for (i = 0; i < 2; i++)
		if (r->kids[i] == pid)
			r->kids[i] = 0;
}

/* End a process group for good: TERM, then KILL, reaping its leader. */
static void end_group(struct run *r, pid_t pid)
{
	int st;

	if (pid <= 0)
		return;
	kill(-pid, SIGTERM);
	if (waitpid(pid, &st, WNOHANG) != pid) {
		uint64_t until = now_ns() + NSEC_PER_SEC / 2;

		while (waitpid(pid, &st, WNOHANG) == 0 && now_ns() < until)
			sleep_ns(2 * NSEC_PER_MSEC);
		kill(-pid, SIGKILL);
		until = now_ns() + 2 * NSEC_PER_SEC;
		while (waitpid(pid, &st, WNOHANG) == 0 && now_ns() < until)
			sleep_ns(2 * NSEC_PER_MSEC);
	}
	/* The leader's threads are gone; kill anything it left behind. */
	kill(-pid, SIGKILL);
	forget_kid(r, pid);
}

static void describe_exit(char *buf, size_t n, const char *who, int st)
{
	if (WIFSIGNALED(st))
		snprintf(buf, n, "%s died: signal %d (%s)", who, WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(buf, n, "%s exited early: status %d", who,
			 WEXITSTATUS(st));
}

static void load_ctx_init(struct run *r, struct load_ctx *lc,
			  const struct load_desc *l)
{
	memset(lc, 0, sizeof(*lc));
	lc->desc = l;
	lc->cfg = &r->cfg;
	lc->work = &r->sh->work;
}

/*
 * Run a load's prepare() (making its files) in a child, so that a signal
 * can stop it at once: 0, -ETIMEDOUT, -EINTR, or the load's -errno.
 */
static int prepare_load(struct run *r, const struct load_desc *l)
{
	struct load_ctx lc;
	pid_t me = getpid(), pid;
	int st, w;

	if (!l->prepare)
		return 0;
	memset(&r->sh->work, 0, sizeof(r->sh->work));
	load_ctx_init(r, &lc, l);
	/* A read file that was there before is not ours to remove. */
	if ((l->flags & LOAD_FILES) && access(r->cfg.read_file, F_OK))
		r->read_file_dirty = true;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		int err;

		child_setup(me, "prep", l->name);
		err = l->prepare(&lc);
		if (err && !atomic_load(&r->sh->work.failed))
			load_fail(&r->sh->work, -err, "%s", strerror(-err));
		_exit(err ? 1 : 0);
	}
	r->kids[0] = pid;
	w = wait_pid(pid, &st, now_ns() + 600 * NSEC_PER_SEC);
	if (w <= 0) {
		end_group(r, pid);
		return w ? -EINTR : -ETIMEDOUT;
	}
	forget_kid(r, pid);
	if (WIFEXITED(st) && !WEXITSTATUS(st)) {
		r->read_file_dirty = false;
		return 0;
	}
	if (!atomic_load(&r->sh->work.failed))
		describe_exit(r->sh->work.why, sizeof(r->sh->work.why),
			      "preparing the load", st);
	return atomic_load(&r->sh->work.failed) ? : -EIO;
}

static pid_t start_load(struct run *r, const struct load_desc *l)
{
	pid_t me = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	child_setup(me, "load", l->name);
	{
		struct load_ctx lc;
		int err;

		/* Under memory pressure the kernel should pick a load. */
		write_file("/proc/self/oom_score_adj", "500");
		/* Threads inherit it: every thread of the load runs niced. */
		if (setpriority(PRIO_PROCESS, 0, r->cfg.load_nice)) {
			load_fail(&r->sh->work, errno, "cannot nice the load "
				  "to %d: %s", r->cfg.load_nice,
				  strerror(errno));
			_exit(1);
		}
		load_ctx_init(r, &lc, l);
		err = l->run(&lc);
		if (err && !atomic_load(&r->sh->work.failed))
			load_fail(&r->sh->work, -err, "%s", strerror(-err));
		_exit(1);
	}
}

static const void *sim_opts_of(const struct run *r, const struct sim_desc *b)
{
	int i;

	for (i = 0; i < MAX_ITEMS && simulators[i]; i++)
		if (simulators[i] == b)
			return r->sim_opts[i];
	return NULL;
}

static pid_t start_bench(struct run *r, const struct sim_desc *b)
{
	pid_t me = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	child_setup(me, "bench", b->name);
	{
		struct bench_result *res = &r->sh->res;
		struct sim_ctx sc = {
			.desc = b,
			.cfg = &r->cfg,
			.opts = sim_opts_of(r, b),
			.duration_ns = r->cfg.duration_ns,
			.nice = r->cfg.bench_nice,
			.rt = r->cfg.rt,
			.timing_rt = r->cfg.rt_ok,
			.res = res,
		};
		int err;

		write_file("/proc/self/oom_score_adj", "-1000");
		/* Best effort: page faults would show up as latency. */
		lock_memory();
		err = b->run(&sc);
		if (err && !res->status) {
			res->status = err;
			snprintf(res->why, sizeof(res->why), "%s",
				 strerror(-err));
		}
		_exit(err ? 1 : 0);
	}
}

static void snapshot(const struct load_work *w, uint64_t *v)
{
	int k;

	for (k = 0; k < WORK_KINDS; k++)
		v[k] = atomic_load(&w->count[k]);
}

/* Stop everything and leave: used when a signal arrives. */
static void __attribute__((noreturn)) interrupted(struct run *r);

static void run_cell(struct run *r, struct cell *c)
{
	struct shared *sh = r->sh;
	uint64_t w0[WORK_KINDS], w1[WORK_KINDS], t0, t1, settle, limit;
	pid_t lpid, bpid;
	int err, st, lst, w, k;
	bool load_gone = false, did_work = false;

	memset(&sh->res, 0, sizeof(sh->res));
	stats_init(&sh->res.latency);
	stats_init(&sh->res.timer);
	stats_init(&sh->res.wakeup);
	stats_init(&sh->res.rate);
	err = prepare_load(r, c->load);
	if (err == -EINTR)
		interrupted(r);
	if (err) {
		c->status = CELL_SKIPPED;
		snprintf(c->why, sizeof(c->why), "skipped: %s",
			 sh->work.why[0] ? sh->work.why : strerror(-err));
		goto cleanup;
	}
	memset(&sh->work, 0, sizeof(sh->work));
	lpid = start_load(r, c->load);
	if (lpid < 0) {
		c->status = CELL_SKIPPED;
		snprintf(c->why, sizeof(c->why), "skipped: fork: %s",
			 strerror(errno));
		goto cleanup;
	}
	r->kids[0] = lpid;
	/* Let the load get going before measuring. */
	settle = r->cfg.duration_ns / 10;
	if (settle < 100 * NSEC_PER_MSEC)
		settle = 100 * NSEC_PER_MSEC;
	if (settle > 2 * NSEC_PER_SEC)
		settle = 2 * NSEC_PER_SEC;
	w = wait_pid(lpid, &st, now_ns() + settle);
	if (w < 0)
		interrupted(r);
	if (w > 0) {
		load_gone = true;
		forget_kid(r, lpid);
		c->status = CELL_LOAD_DIED;
		if (atomic_load(&sh->work.failed))
			snprintf(c->why, sizeof(c->why), "load failed: %s",
				 sh->work.why);
		else
			describe_exit(c->why, sizeof(c->why), "load", st);
		goto cleanup;
	}
	snapshot(&sh->work, w0);
	t0 = now_ns();
	bpid = start_bench(r, c->bench);
	if (bpid < 0) {
		c->status = CELL_FAILED;
		snprintf(c->why, sizeof(c->why), "failed: fork: %s",
			 strerror(errno));
		goto cleanup;
	}
	r->kids[1] = bpid;
	/*
	 * The engines finish within two frames and a second of the end;
	 * past this the benchmark is stuck and is killed.
	 */
	limit = t0 + r->cfg.duration_ns + r->cfg.duration_ns / 10 +
		5 * NSEC_PER_SEC;
	if (c->bench->grace_ns)
		limit += c->bench->grace_ns(&r->cfg, sim_opts_of(r, c->bench));
	for (;;) {
		w = wait_pid(bpid, &st, now_ns() + 50 * NSEC_PER_MSEC);
		if (w < 0)
			interrupted(r);
		if (w > 0)
			break;
		if (!load_gone && waitpid(lpid, &lst, WNOHANG) == lpid) {
			load_gone = true;
			forget_kid(r, lpid);
			c->status = CELL_LOAD_DIED;
			describe_exit(c->why, sizeof(c->why), "load", lst);
		}
		if (now_ns() >= limit) {
			end_group(r, bpid);
			c->status = CELL_TIMEOUT;
			snprintf(c->why, sizeof(c->why), "timed out: the "
				 "benchmark did not finish in %.3g s",
				 (double)(limit - t0) / NSEC_PER_SEC);
			goto cleanup;
		}
	}
	forget_kid(r, bpid);
	t1 = now_ns();
	snapshot(&sh->work, w1);
	for (k = 0; k < WORK_KINDS; k++) {
		c->work_rate[k] = (double)(w1[k] - w0[k]) * NSEC_PER_SEC /
				  (double)(t1 - t0);
		did_work |= w1[k] != w0[k];
	}
	if (!load_gone && waitpid(lpid, &lst, WNOHANG) == lpid) {
		load_gone = true;
		forget_kid(r, lpid);
		c->status = CELL_LOAD_DIED;
		describe_exit(c->why, sizeof(c->why), "load", lst);
	}
	if (c->status == CELL_LOAD_DIED && atomic_load(&sh->work.failed)) {
		snprintf(c->why, sizeof(c->why), "load failed: %s",
			 sh->work.why);
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) || sh->res.status) {
		c->status = CELL_FAILED;
		if (sh->res.status)
			snprintf(c->why, sizeof(c->why), "failed: %s",
				 sh->res.why);
		else
			describe_exit(c->why, sizeof(c->why), "benchmark", st);
	} else if (c->status == CELL_OK && !did_work &&
		   !(c->load->flags & LOAD_IDLE)) {
		/* A load that did nothing must not pass for a light one. */
		c->status = CELL_LOAD_DIED;
		snprintf(c->why, sizeof(c->why), "load did no work while the "
			 "benchmark ran");
	} else if (c->status == CELL_OK &&
		   cell_from_result(c, &sh->res)) {
		c->status = CELL_FAILED;
		snprintf(c->why, sizeof(c->why), "failed: out of memory");
	}
cleanup:
	if (r->kids[0])
		end_group(r, r->kids[0]);
	if (c->status == CELL_OK && atomic_load(&sh->work.failed)) {
		c->status = CELL_LOAD_DIED;
		snprintf(c->why, sizeof(c->why), "load failed: %s",
			 sh->work.why);
	}
	if (c->load->cleanup) {
		struct load_ctx lc;

		load_ctx_init(r, &lc, c->load);
		c->load->cleanup(&lc);
	}
}

static void finish_loads(struct run *r)
{
	int i;

	for (i = 0; i < r->nload; i++)
		if (r->load[i]->finish)
			r->load[i]->finish(&r->cfg);
	/* A read file we were still making is no use to anyone. */
	if (r->read_file_dirty)
		unlink(r->cfg.read_file);
}

/* Write the JSON document as it stands; a failure is reported once. */
static void save_json(struct run *r)
{
	static bool warned;
	int err;

	if (!r->json_path)
		return;
	err = json_write_results(r->json_path, &r->info, r->cells, r->ncells);
	if (err && !warned) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->json_path, strerror(-err));
		warned = true;
	}
}

/* With repeats the tables come at the end, as medians over repeats. */
static void print_tables(struct run *r)
{
	struct row w;
	int b, l;

	for (b = 0; b < r->nbench; b++) {
		table_head(r, r->bench[b]);
		for (l = 0; l < r->nload; l++) {
			if (r->load[l]->sim == r->bench[b])
				continue;
			make_row(r, r->bench[b], r->load[l], &w);
			if (w.n)
				table_row(r, &w);
		}
	}
}

static void interrupted(struct run *r)
{
	int sig = got_signal, i;
	char what[32];

	for (i = 0; i < 2; i++)
		if (r->kids[i] > 0)
			kill(-r->kids[i], SIGKILL);
	for (i = 0; i < 2; i++)
		end_group(r, r->kids[i]);
	for (i = 0; i < r->nload; i++)
		if (r->load[i]->cleanup) {
			struct load_ctx lc;

			load_ctx_init(r, &lc, r->load[i]);
			r->load[i]->cleanup(&lc);
		}
	finish_loads(r);
	progress(r, NULL, NULL);
	if (r->repeats > 1)
		print_tables(r);
	out(r, "\nInterrupted by signal %d (%s) after %d of %d cells\n", sig,
	    strsignal(sig), r->cells_done, r->cells_total);
	snprintf(what, sizeof(what), "signal %d", sig);
	r->info.interrupted = what;
	iso_now(r->info.finished, sizeof(r->info.finished));
	save_json(r);
	if (r->log)
		fclose(r->log);
	if (r->csv)
		fclose(r->csv);
	exit(128 + sig);
}

/* ---- set-up -------------------------------------------------------- */

static void setup_signals(void)
{
	/* SIGPIPE: stdout was a pipe whose reader left (| head). */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* Only to interrupt our sleeps when a child ends (no SA_RESTART). */
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
}

/*
 * Hack opens 20 sockets per CPU and Net, Fork and the rest more: on a big
 * machine the usual soft limit of 1024 would fail them. Ours and the
 * children's go up to the hard limit.
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Can a process of ours be niced to n? Asked of a child, to be sure. */
static bool can_nice(int n)
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
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && !WEXITSTATUS(st);
}

/* Highest SCHED_FIFO for us; children start SCHED_OTHER (reset on fork). */
static bool setup_priority(void)
{
	struct sched_param sp = { .sched_priority = PRIO_PARENT };

	return !sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp);
}

static void setup_calibration(struct run *r)
{
	struct calibration *cal = &r->cal;
	FILE *f;
	int err;

	if (r->loops_given) {
		cal->loops_per_ms = r->cfg.loops_per_ms;
	} else if (!r->calibrate && (f = fopen(CALIB_FILE, "r"))) {
		unsigned long long v;
		char extra;

		if (fscanf(f, "%llu %c", &v, &extra) == 1 && v > 0 &&
		    v <= MAX_LOOPS_PER_MS)
			cal->loops_per_ms = v;
		else
			fprintf(stderr, "interbench: %s is not a number, "
				"measuring again\n", CALIB_FILE);
		fclose(f);
	}
	if (!cal->loops_per_ms) {
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "Measuring loops per ms...\n");
		err = calibrate_loops(cal);
		if (err) {
			fprintf(stderr, "interbench: cannot calibrate the CPU "
				"loop: %s\n", strerror(-err));
			exit(IB_EXIT_SETUP);
		}
		f = fopen(CALIB_FILE, "w");
		if (!f || fprintf(f, "%llu\n",
				  (unsigned long long)cal->loops_per_ms) < 0 ||
		    fclose(f))
			fprintf(stderr, "interbench: warning: cannot save %s: "
				"%s\n", CALIB_FILE, strerror(errno));
		if (cal->spread_pct > 10)
			fprintf(stderr, "interbench: warning: the CPU's speed "
				"varied by %.0f %% while measuring: simulated "
				"tasks burn CPU time, not loop counts, but load "
				"throughput figures will vary\n",
				cal->spread_pct);
	}
	if (got_signal)
		interrupted(r);
	calibration_check(cal);
	if (fabs(cal->error_pct) > 2.0)
		fprintf(stderr, "interbench: warning: burning CPU costs %+.2f %% "
			"of what it asks (more than 2 %%): is the machine "
			"busy?\n", cal->error_pct);
	r->cfg.loops_per_ms = cal->loops_per_ms;
	printf("Loops per ms: %llu (%s); burning 1-20 ms of CPU costs "
	       "%+.2f %% of what it asks in thread CPU time\n",
	       (unsigned long long)cal->loops_per_ms,
	       cal->measured ? "measured now" : r->loops_given ? "from -l" :
	       "saved in " CALIB_FILE, cal->error_pct);
}

static void print_plan(const struct run *r)
{
	double secs = (double)r->cells_total *
		      ((double)r->cfg.duration_ns / 1e9 + 0.3);
	int b, l;

	printf("Would run %d cells (%d per pass, %d pass%s) of %.3g s: about "
	       "%.0f s\n", r->cells_total, r->cells_total / r->repeats,
	       r->repeats, r->repeats > 1 ? "es" : "",
	       (double)r->cfg.duration_ns / 1e9, secs);
	for (b = 0; b < r->nbench; b++)
		for (l = 0; l < r->nload; l++)
			if (r->load[l]->sim != r->bench[b])
				printf("  %s under %s\n", r->bench[b]->name,
				       r->load[l]->name);
}

/* Gates are checked on the figures the tables show. */
static double gate_figure(const struct row *w, enum gate_metric m)
{
	switch (m) {
	case G_MEAN: return w->mean;
	case G_SD: return w->sd;
	case G_MAX: return w->max;
	case G_P50: return w->p50;
	case G_P90: return w->p90;
	case G_P99: return w->p99;
	case G_P999: return w->p999;
	case G_CPU: return w->desired;
	case G_DEADLINES: return w->met;
	}
	return NAN;
}

static bool gate_broken(const struct gate *g, double v)
{
	switch (g->op) {
	case '<': return v < g->value;
	case '>': return v > g->value;
	case 'l': return v <= g->value;
	default: return v >= g->value;
	}
}

/* Every broken gate, said once per cell; true if any. */
static bool check_gates(struct run *r)
{
	bool broken = false;
	struct row w;
	int b, l, g;

	for (b = 0; b < r->nbench; b++)
		for (l = 0; l < r->nload; l++) {
			if (r->load[l]->sim == r->bench[b])
				continue;
			make_row(r, r->bench[b], r->load[l], &w);
			if (!w.ok)
				continue;
			for (g = 0; g < r->ngates; g++) {
				const struct gate *gt = &r->gates[g];
				double v = gate_figure(&w, gt->metric);
				bool pct = gt->metric >= G_CPU;

				if (isnan(v) || !gate_broken(gt, v))
					continue;
				out(r, "FAILED --fail-if '%s': %s under %s has "
				    "%.4g %s\n", gt->text, w.bench->name,
				    w.load->name, pct ? v : v / unit_ns(r),
				    pct ? "%" : r->cfg.rt ? "us" : "ms");
				broken = true;
			}
		}
	return broken;
}

/* Cell i of the matrix in pass p: odd passes run it backwards. */
static void matrix_cell(const struct run *r, int pass, int i,
			const struct sim_desc **b, const struct load_desc **l)
{
	int per = r->cells_total / r->repeats, k = 0, bi, li;

	if (pass % 2)
		i = per - 1 - i;
	for (bi = 0; bi < r->nbench; bi++)
		for (li = 0; li < r->nload; li++) {
			if (r->load[li]->sim == r->bench[bi])
				continue;
			if (k++ == i) {
				*b = r->bench[bi];
				*l = r->load[li];
				return;
			}
		}
}

static void open_outputs(struct run *r)
{
	int i;

	r->info.command_line = r->args;
	r->info.sys = &r->sys;
	r->info.cfg = &r->cfg;
	r->info.cal = &r->cal;
	r->info.rt_ok = r->cfg.rt_ok;
	r->info.repeats = r->repeats;
	r->info.bench = r->bench;
	r->info.nbench = r->nbench;
	r->info.load = r->load;
	r->info.nload = r->nload;
	r->info.comment = r->comment;
	for (i = 0; i < r->ngiven; i++) {
		r->info.simopt_name[i] = r->given[i].name;
		r->info.simopt_value[i] = r->given[i].value;
	}
	r->info.nsimopts = r->ngiven;
	iso_now(r->info.started, sizeof(r->info.started));
	if (r->csv) {
		csv_header(r->csv);
		fflush(r->csv);
	}
}

int main(int argc, char **argv)
{
	static struct run run;
	struct run *r = &run;
	int i, per, ret = IB_EXIT_OK;

	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_main(argc - 1, argv + 1);
	r->cfg.duration_ns = 30 * NSEC_PER_SEC;
	r->cfg.cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (r->cfg.cpus < 1)
		r->cfg.cpus = 1;
	r->cfg.load_threads = r->cfg.cpus;
	r->repeats = 1;
	snprintf(r->cfg.dir, sizeof(r->cfg.dir), ".");
	init_sim_opts(r);
	parse_args(r, argc, argv);
	for (i = 0; i < r->nbench; i++) {
		int l;

		for (l = 0; l < r->nload; l++)
			if (r->load[l]->sim != r->bench[i])
				r->cells_total++;
	}
	if (!r->cells_total)
		die_usage("no cell to run: a task is never run against itself "
			  "as a load");
	r->cfg.rt_ok = setup_priority();
	if (r->cfg.rt && !r->cfg.rt_ok) {
		fprintf(stderr, "interbench: -r needs real-time privileges "
			"(SCHED_FIFO): %s\n", strerror(errno));
		exit(IB_EXIT_SETUP);
	}
	if (!can_nice(r->cfg.bench_nice) || !can_nice(r->cfg.load_nice)) {
		fprintf(stderr, "interbench: -%c %d needs the right to raise "
			"priority (root, CAP_SYS_NICE or RLIMIT_NICE)\n",
			can_nice(r->cfg.bench_nice) ? 'N' : 'B',
			can_nice(r->cfg.bench_nice) ? r->cfg.load_nice :
			r->cfg.bench_nice);
		exit(IB_EXIT_SETUP);
	}
	if (snprintf(r->cfg.read_file, sizeof(r->cfg.read_file),
		     "%s/interbench.read", r->cfg.dir) >=
	    (int)sizeof(r->cfg.read_file) ||
	    snprintf(r->cfg.write_file, sizeof(r->cfg.write_file),
		     "%s/interbench.write.%d", r->cfg.dir, (int)getpid()) >=
	    (int)sizeof(r->cfg.write_file))
		die_usage("option -D: directory name is too long");
	check_files(r, r->dry_run);
	if (r->cfg.uniprocessor) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "interbench: -u: cannot bind to CPU 0:"
				" %s\n", strerror(errno));
			exit(IB_EXIT_SETUP);
		}
	}
	per = r->cells_total;
	r->cells_total *= r->repeats;
	if (r->dry_run) {
		print_plan(r);
		return IB_EXIT_OK;
	}
	r->cells = calloc((size_t)r->cells_total, sizeof(*r->cells));
	r->sh = mmap(NULL, sizeof(*r->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!r->cells || r->sh == MAP_FAILED) {
		fprintf(stderr, "interbench: out of memory\n");
		exit(IB_EXIT_SETUP);
	}
	sysinfo_read(&r->sys);
	raise_fd_limit();
	open_outputs(r);
	setup_signals();
	/*
	 * Our own page faults must not delay the timing of anything. Only
	 * where locking cannot make later allocations fail (root, or no
	 * limit on locked memory).
	 */
	if (lock_memory())
		fprintf(stderr, "interbench: warning: cannot lock memory: %s\n",
			strerror(errno));
	write_file("/proc/self/oom_score_adj", "-1000");
	setup_calibration(r);

	r->started = now_ns();
	log_header(r);
	save_json(r);
	for (i = 0; i < r->cells_total; i++) {
		struct cell *c = &r->cells[r->ncells];
		int pass = i / per;

		matrix_cell(r, pass, i % per, &c->bench, &c->load);
		c->repeat = pass + 1;
		if (r->repeats == 1 && (i == 0 || c->bench != c[-1].bench))
			table_head(r, c->bench);
		progress(r, c->bench, c->load);
		run_cell(r, c);
		progress(r, NULL, NULL);
		/* Measured in full: kept even if a signal came meanwhile. */
		r->ncells++;
		r->cells_done++;
		if (c->status != CELL_OK)
			r->cells_bad++;
		if (r->repeats == 1) {
			struct row w;

			make_row(r, c->bench, c->load, &w);
			table_row(r, &w);
			if (c->status == CELL_OK && c->bench->detail)
				c->bench->detail(c, sim_opts_of(r, c->bench),
						 out_cb, r);
		}
		if (r->csv)
			csv_row(r->csv, c);
		save_json(r);
		if (got_signal)
			interrupted(r);
	}
	if (got_signal)
		interrupted(r);
	finish_loads(r);
	if (r->repeats > 1)
		print_tables(r);
	out(r, "\n");
	if (r->cells_bad) {
		out(r, "%d of %d cells were not measured (see their rows)\n",
		    r->cells_bad, r->cells_total);
		ret = IB_EXIT_CELLS;
	}
	if (check_gates(r))
		ret = IB_EXIT_FAIL;
	iso_now(r->info.finished, sizeof(r->info.finished));
	save_json(r);
	if (r->log)
		fclose(r->log);
	if (r->csv && fclose(r->csv)) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->csv_path, strerror(errno));
		ret = ret ? ret : IB_EXIT_SETUP;
	}
	for (i = 0; i < r->ncells; i++)
		cell_free(&r->cells[i]);
	free(r->cells);
	return ret;
}
