// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/ab.c - `interbench ab`'s command line: its own options, each side's
 * plan, and the order in which the sides measure each cell (see ab.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "cli/ab.h"
#include "cli/cli.h"
#include "lib/base.h"

#define O(field)	offsetof(struct ab_plan, field)

static int set_text(const char **dst, const char *val, const char *what,
		    char *err, size_t n)
{
	if (!*val) {
		snprintf(err, n, "empty %s", what);
		return -EINVAL;
	}
	*dst = val;
	return 0;
}

#define SETTER(fn, field, what)						\
static int fn(void *base, const char *val, char *err, size_t n)		\
{									\
	return set_text(&((struct ab_plan *)base)->field, val, what,	\
			err, n);					\
}
SETTER(set_a, side[0].cmd, "command")
SETTER(set_a_undo, side[0].undo, "command")
SETTER(set_b, side[1].cmd, "command")
SETTER(set_b_undo, side[1].undo, "command")
SETTER(set_a_opts, side[0].opts, "list of options")
SETTER(set_b_opts, side[1].opts, "list of options")

const struct opt ab_opts[] = {
	{ .name = "a", .type = OT_CALL, .arg = "CMD", .parse = set_a,
	  .help = "shell command that puts the machine in state A\n"
		  "(run before A's cells; default: none, A is the\n"
		  "machine as it is)" },
	{ .name = "a-undo", .type = OT_CALL, .arg = "CMD",
	  .parse = set_a_undo,
	  .help = "shell command that takes it out of state A\n"
		  "(run before B's command)" },
	{ .name = "b", .type = OT_CALL, .arg = "CMD", .parse = set_b,
	  .help = "shell command that puts the machine in state B" },
	{ .name = "b-undo", .type = OT_CALL, .arg = "CMD",
	  .parse = set_b_undo,
	  .help = "shell command that takes it out of state B" },
	{ .name = "a-opts", .type = OT_CALL, .arg = "OPTIONS",
	  .parse = set_a_opts,
	  .help = "interbench options for A's cells only, blank-\n"
		  "separated: those a side may have of its own\n"
		  "(below)" },
	{ .name = "b-opts", .type = OT_CALL, .arg = "OPTIONS",
	  .parse = set_b_opts,
	  .help = "the same for B's cells (e.g. '--bench-slice 300';\n"
		  "'--trace': what tracing costs the cells)" },
	{ .name = "output", .letter = 'o', .type = OT_PATH, .arg = "PREFIX",
	  .off = O(prefix),
	  .help = "write PREFIX.A.json and PREFIX.B.json (default:\n"
		  "ab-RELEASE-YYYYMMDD-HHMMSS)" },
	{ .name = "cmd-timeout", .type = OT_SECONDS, .arg = "SECONDS",
	  .off = O(cmd_timeout_ns), .dmin = 0.1, .dmax = 3600,
	  .help = "a side's command still running after SECONDS\n"
		  "has failed (default: 60)" },
	{ .name = "primary", .type = OT_PATH, .arg = "FIG",
	  .off = O(primary), .complete = OC_FIGURE,
	  .help = "judge every cell on FIG alone, as compare\n"
		  "--primary" },
	{ .name = "alpha", OPT_ALPHA, .arg = "P", .off = O(alpha),
	  .help = "the verdict's false discovery rate, as compare\n"
		  "--alpha (default 0.05; a bisect judges many\n"
		  "times: take a smaller one)" },
	{ .name = "plain", .type = OT_FLAG, .off = O(plain),
	  .help = "test each cell on its own spread, as compare\n"
		  "--plain (not moderated)" },
	{ .name = "moderate", .type = OT_FLAG, .off = O(moderate),
	  .help = "moderated tests, as compare's (the default)" },
	{ .name = "bisect", .type = OT_FLAG, .off = O(bisect),
	  .help = "exit 125 when no cell is worse and some cannot\n"
		  "be decided, as compare --bisect" },
	{ .name = NULL },
};

/*
 * Options a side may have of its own, flagged OF_SIDE on their rows
 * (cli/cli.c): how it is scheduled, not what; and whether it is traced,
 * so that a pair says what --trace costs a cell (the other side's cells
 * run with no event of ours enabled).
 */
bool ab_side_may(const struct opt *o)
{
	return o->flags & OF_SIDE;
}

/* Their names, "-B, -N, ..., --trace-frames", into buf. */
void ab_side_names(char *buf, size_t n)
{
	const struct opt *o;
	size_t used = 0;

	buf[0] = '\0';
	for (o = cli_opts; o->name && used < n; o++) {
		if (!ab_side_may(o))
			continue;
		if (o->letter)
			used += (size_t)snprintf(buf + used, n - used,
						 "%s-%c", used ? ", " : "",
						 o->letter);
		else
			used += (size_t)snprintf(buf + used, n - used,
						 "%s--%s", used ? ", " : "",
						 o->name);
	}
}

int ab_side_words(const char *what, char **w, int nw, char *err, size_t n)
{
	int i, j;

	for (i = 0; i < nw; i++) {
		const char *a = w[i];
		const struct opt *o = NULL;
		bool value = false;

		if (a[0] == '-' && a[1] == '-' && a[2]) {
			const char *eq = strchr(a + 2, '=');
			char name[64];

			snprintf(name, sizeof(name), "%.*s",
				 (int)(eq ? eq - a - 2 : (ptrdiff_t)strlen(a + 2)),
				 a + 2);
			o = cli_opt_named(name, 0);
			value = o && o->arg && !eq;
		} else if (a[0] == '-' && a[1]) {
			/* flags may be grouped; a value ends the group */
			for (j = 1; a[j]; j++) {
				o = cli_opt_named(NULL, a[j]);
				if (!o || !ab_side_may(o))
					break;
				if (o->arg) {
					value = !a[j + 1];
					break;
				}
			}
		} else {
			snprintf(err, n, "%s: '%s' is not an option", what, a);
			return -EINVAL;
		}
		if (!o || !ab_side_may(o)) {
			char names[256];

			ab_side_names(names, sizeof(names));
			snprintf(err, n, "%s: '%s' is not one a side may have "
				 "of its own (%s); the rest are common to every side",
				 what, a, names);
			return -EINVAL;
		}
		if (value && ++i == nw) {
			snprintf(err, n, "%s: '%s' needs a value", what, a);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * What ab writes itself and decides itself: refused in its options. side:
 * the plan has a side's own words, which may trace it (A is parsed first
 * without its words: what is common to both is checked there).
 */
static int check_plan(const struct plan *p, bool side, char *err, size_t n)
{
	const char *bad = p->json_path ? "--json" : p->csv_path ? "--csv" :
			  NULL;

	if (bad) {
		snprintf(err, n, "option %s: ab writes one result file per "
			 "side, PREFIX.A.json and PREFIX.B.json (-o PREFIX)",
			 bad);
		return -EINVAL;
	}
	bad = p->breaktrace_ns ? "--breaktrace" : p->nlate ? "--on-late" :
	      p->remeasure_on ? "--remeasure-if" : NULL;
	if (bad) {
		snprintf(err, n, "option %s is not for ab: one side measured "
			 "again or stopped alone would break its pairs", bad);
		return -EINVAL;
	}
	if (!side && (p->trace || p->trace_timer)) {
		snprintf(err, n, "option %s is not for both sides: give it to "
			 "one (--b-opts %s) to measure what it costs, or "
			 "trace the cell in a plain run of each state",
			 p->trace_timer ? "--trace-timer" : "--trace",
			 p->trace_timer ? "--trace-timer" : "--trace");
		return -EINVAL;
	}
	if (p->ngates) {
		snprintf(err, n, "option --fail-if is not for ab: its verdict "
			 "is compare's (exit 1 when a cell is worse or "
			 "mixed)");
		return -EINVAL;
	}
	if (p->repeats_given && !p->auto_repeats &&
	    p->repeats < AUTO_REPEATS_MIN) {
		snprintf(err, n, "option -n %d: a paired verdict needs %d "
			 "pairs at least (-n %d or more, or -n auto, the "
			 "default)", p->repeats, AUTO_REPEATS_MIN,
			 AUTO_REPEATS_MIN);
		return -EINVAL;
	}
	return 0;
}

int ab_parse_words(struct plan *p, int argc, char **argv, const char *opts,
		   const struct opt_table *more, const char *cmd,
		   const char *what, char *err, size_t n)
{
	char *copy = NULL, **av, *save = NULL, *w;
	int ac = argc, r;

	if (plan_init(p))
		goto oom;
	av = calloc((size_t)argc + 1 + 512, sizeof(*av));
	if (!av)
		goto oom;
	memcpy(av, argv, (size_t)argc * sizeof(*av));
	if (opts) {
		copy = strdup(opts);
		if (!copy) {
			free(av);
			goto oom;
		}
		for (w = strtok_r(copy, " \t\n", &save); w && ac < argc + 512;
		     w = strtok_r(NULL, " \t\n", &save))
			av[ac++] = w;
		r = ab_side_words(what, av + argc, ac - argc, err, n);
		if (r)
			goto out;
		/* after a "--" the side's words would be taken as files */
		for (r = 1; r < argc && strcmp(argv[r], "--"); r++)
			;
		if (r < argc) {
			snprintf(err, n, "'--': %stakes no file names", cmd);
			r = -EINVAL;
			goto out;
		}
	}
	r = cli_parse_with(p, ac, av, more, cmd, err, n);
out:
	free(copy);
	free(av);
	return r;
oom:
	snprintf(err, n, "out of memory");
	return -ENOMEM;
}

/* argv with a side's words after it, parsed into a fresh plan. */
static int parse_side(struct ab_plan *ab, struct plan *p, int s, int argc,
		      char **argv, char *err, size_t n)
{
	struct opt_table more = { ab_opts, ab };
	const char *o = ab->side[s].opts;
	char what[32];
	int r;

	snprintf(what, sizeof(what), "option --%c-opts",
		 ab->side[s].name + 'a' - 'A');
	r = ab_parse_words(p, argc, argv, o, &more, "ab ", what, err, n);
	if (!r && p->action == PLAN_RUN)
		r = check_plan(p, o && o[strspn(o, " \t\n")], err, n);
	return r;
}

/* -n: given N is N pairs; -n auto (the default) stops when decided. */
static void set_repeats(struct plan *p)
{
	if (!p->repeats_given) {
		p->auto_repeats = true;
		p->repeats = AUTO_REPEATS_MAX;
	}
	p->cells = p->repeats * p->per_pass;
}

static void default_prefix(struct ab_plan *ab, char *buf, size_t n)
{
	struct utsname u;
	time_t now = time(NULL);
	char stamp[32];

	uname(&u);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	snprintf(buf, n, "ab-%s-%s", u.release, stamp);
	ab->prefix = buf;
}

/*
 * --kcidb FILE on ab: a file per side, the side's letter before ".json"
 * (k.json: k.A.json, k.B.json), or after the name if it has no such end
 * (k: k.A.json). 0, or -ENAMETOOLONG.
 */
static int side_name(char *buf, size_t n, const char *name, char side)
{
	size_t len = strlen(name);
	int r;

	if (len > 5 && !strcmp(name + len - 5, ".json"))
		r = snprintf(buf, n, "%.*s.%c.json", (int)(len - 5), name,
			     side);
	else
		r = snprintf(buf, n, "%s.%c.json", name, side);
	return r < 0 || (size_t)r >= n ? -ENAMETOOLONG : 0;
}

int ab_parse(struct ab_plan *ab, struct plan *const p[2], int argc,
	     char **argv, char *err, size_t n)
{
	static char prefix[128];
	int s, r, i;

	memset(ab, 0, sizeof(*ab));
	ab->side[0].name = 'A';
	ab->side[1].name = 'B';
	ab->cmd_timeout_ns = 60 * NSEC_PER_SEC;
	ab->alpha = 0.05;
	/* refused before a side's parse would ask for --trace with it */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--trace-alternate")) {
			snprintf(err, n, "option --trace-alternate is not for "
				 "ab: its pairs alternate already (--b-opts "
				 "--trace measures what tracing costs)");
			return -EINVAL;
		}
	/* A first without its words: ab's own options are known then */
	for (s = 0; s < 2; s++) {
		r = parse_side(ab, p[s], s, argc, argv, err, n);
		if (r)
			return r;
		if (p[s]->action == PLAN_HELP)
			return 1;
		if (p[s]->action != PLAN_RUN) {
			snprintf(err, n, "ab runs the matrix: --list, "
				 "--version and --completion are "
				 "interbench's own");
			return -EINVAL;
		}
		if (!s && ab->side[0].opts) {
			/* again, now with A's words */
			plan_free(p[0]);
			r = parse_side(ab, p[0], 0, argc, argv, err, n);
			if (r)
				return r;
		}
		set_repeats(p[s]);
	}
	/*
	 * --junit, --ktap and --html are the verdict's (compare's), not a
	 * side's run's: one page of A against B says more than a page a side
	 */
	ab->junit = p[0]->junit_path;
	ab->html = p[0]->html_path;
	p[0]->junit_path = p[1]->junit_path = NULL;
	p[0]->html_path = p[1]->html_path = NULL;
	ab->ktap = p[0]->ktap_path;
	p[0]->ktap_path = p[1]->ktap_path = NULL;
	if (!ab->prefix)
		default_prefix(ab, prefix, sizeof(prefix));
	for (s = 0; s < 2; s++) {
		if (snprintf(ab->side[s].path, sizeof(ab->side[s].path),
			     "%s.%c.json", ab->prefix, ab->side[s].name) >=
		    (int)sizeof(ab->side[s].path)) {
			snprintf(err, n, "option -o: the name is too long");
			return -EINVAL;
		}
		p[s]->json_path = ab->side[s].path;
		if (p[s]->kcidb_path &&
		    side_name(ab->side[s].kcidb, sizeof(ab->side[s].kcidb),
			      p[s]->kcidb_path, ab->side[s].name)) {
			snprintf(err, n, "option --kcidb: the name is too long");
			return -EINVAL;
		}
		if (p[s]->kcidb_path)
			p[s]->kcidb_path = ab->side[s].kcidb;
	}
	ab->looks = plan_nlooks(p[0]);
	ab_new_id(ab->id, sizeof(ab->id), &ab->seed);
	return 0;
}

void ab_new_id(char *id, size_t n, uint32_t *seed)
{
	unsigned char rnd[8];
	int r, i;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		memset(rnd, 0, sizeof(rnd));
	r = snprintf(id, n, "%lld-", (long long)time(NULL));
	for (i = 0; i < (int)sizeof(rnd) && r > 0 && (size_t)r < n; i++)
		r += snprintf(id + r, n - (size_t)r, "%02x", rnd[i]);
	/* the order's coins: unknown to the states, recorded in the files */
	if (getrandom(seed, sizeof(*seed), 0) != (ssize_t)sizeof(*seed))
		*seed = (uint32_t)time(NULL) ^ (uint32_t)getpid();
}

void ab_usage(FILE *f)
{
	char names[256];
	const char *w;
	size_t len, col;

	fputs(
"Usage: interbench ab [interbench options] [ab options]\n"
"Measure the matrix in two states of the machine, A and B, interleaved\n"
"cell by cell in A B B A order, so that drift falls on both alike. Each\n"
"pair is an A and the B measured next to it; the verdict is compare's on\n"
"those pairs (a paired t-test per cell), printed at the end.\n"
"\n", f);
	opt_help(f, ab_opts, opt_help_width(ab_opts, 22));
	ab_side_names(names, sizeof(names));
	fputs("\nA side may have of its own (--a-opts, --b-opts):", f);
	/* the names, wrapped at 72 columns */
	for (w = names, col = 72; *w; w += len + (w[len] ? 2 : 0)) {
		len = strcspn(w, ",");
		if (col + len + 2 > 72) {
			fputs("\n ", f);
			col = 1;
		}
		fprintf(f, " %.*s%s", (int)len, w, w[len] ? "," : ".");
		col += len + 2;
	}
	fputc('\n', f);
	fputs(
"\n"
"Every other option is interbench's (see interbench --help) and is\n"
"common to both sides; -n N measures N pairs of each cell, -n auto[:MAX]\n"
"(the default, MAX 10) stops once every cell is decided. Only commands\n"
"given here are run, with /bin/sh -c, when the run enters or leaves a\n"
"side. A command that fails or times out stops the run (exit 6), and\n"
"every run ends in state A: B's undo and then A's command are run.\n"
"--junit FILE writes the verdicts as compare --junit does (a failure a\n"
"cell worse or mixed), --ktap FILE as compare --ktap does (- standard\n"
"output, the console then on stderr), --html FILE compare's page of A\n"
"against B (as interbench compare A.json B.json --html FILE); --json and\n"
"--csv are refused: -o names the sides' result files.\n"
"The verdict is compare's: a cell is judged on its decision figures\n"
"(p50, p99 and max latency, misses, 1 % low FPS, CPU): worse when one is\n"
"worse, mixed when some are better and some worse (interbench compare\n"
"--help).\n"
"--kcidb FILE writes a KCIDB report per side, the side's letter before\n"
"\".json\" (--kcidb k.json: k.A.json and k.B.json).\n"
"Exit status, the first that applies: 2 bad command line; 3 cannot set\n"
"up or write a file; 6 a side's command failed; 128+N stopped by signal\n"
"N; 7 a cell worse or mixed and some cells not measured; 1 a cell worse\n"
"or mixed; 125 with --bisect when none is and some cannot be decided;\n"
"4 some cells were not measured; 8 no cell could be judged; 0\n"
"otherwise.\n", f);
}
