// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/compare.c - `interbench compare`: its command line into struct
 * compare_options, then compare_files() (compare/compare.h) does the
 * work, and its tally is made the exit status.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "cmd/cmd.h"
#include "compare/compare.h"
#include "lib/base.h"
#include "lib/opt.h"

static const char usage_head[] =
"Usage: interbench compare [options] BASE NEW [MORE ...]\n"
"Compare result files of `interbench --json` with BASE, cell by cell. Each\n"
"side is a result file, a directory of them (A/: each boot's file) or a\n"
"list joined by commas (a1.json,a2.json); the unit of replication is the\n"
"highest level the sides differ at (boot, invocation, repeat).\n";

static const char usage_tail[] =
"      --                 the rest are file names\n"
"Each figure of each cell is tested on its per-repeat values (latencies\n"
"and load rates as ratios, percentages in points): Welch's t-test against\n"
"BASE (paired for the two files of one `interbench ab`); the frames later\n"
"than 4 times the cell's typical latency and the deadlines missed are\n"
"counted in every repeat and tested as counts, their spread between runs\n"
"estimated; each test moderated (its variance shrunk towards the table's,\n"
"unless --plain). With three or more files also one-way ANOVA and\n"
"Tukey-Kramer for every pair. A cell is judged on its decision figures\n"
"(marked *): p50, p99 and max latency, % frames late, % deadlines missed,\n"
"1 % low FPS and % desired CPU, unless --primary; their p-values are\n"
"adjusted over the whole table (Benjamini-Hochberg, worse and better\n"
"apart, each at half of alpha), the other figures' as a family of their\n"
"own. A cell is worse when a decision figure is worse, better when one is\n"
"better and none worse, mixed when some are better and some worse (a\n"
"trade-off), unchanged when every figure marked * or = is known to be\n"
"within the min change (a latency: or within 2 % of the task's period),\n"
"else inconclusive, with about how many repeats would decide it. A\n"
"verdict needs 3 measured repeats of a cell in each file (5 or more are\n"
"better).\n"
"Exit status, the first that applies: 2 errors; 1 a cell worse or mixed\n"
"(or --threshold exceeded); with --bisect, 125 when some cell cannot be\n"
"decided (git bisect run's \"skip\"); 8 when no cell of a file could be\n"
"judged (too few repeats, or no cell in both files: one line says why);\n"
"0 otherwise.\n";

/*
 * Options anywhere, file names in order into files[]. Returns 0, 1 for
 * --help, or -EINVAL with a message in err.
 */
static int parse_options(int argc, char **argv, struct compare_options *o,
			 const char **files, int *nfiles, char *err, size_t n)
{
	struct opt_table t = { compare_opts, NULL };
	bool help = false;
	int i, rest, r;

	compare_options_init(o);
	t.base = o;
	*nfiles = 0;
	r = opt_parse(&t, 1, argc, argv, "interbench compare ", opt_seen_action,
		      &help, &rest, err, n);
	if (r)
		return r;
	if (o->plain && o->moderate) {
		snprintf(err, n, "--plain and --moderate ask for opposite "
			 "tests: give one");
		return -EINVAL;
	}
	o->cmp.moderate = !o->plain;
	for (i = rest; i < argc; i++)
		files[(*nfiles)++] = argv[i];
	if (*nfiles < 2) {
		snprintf(err, n, "need a base file and at least one file to "
			 "compare (see interbench compare --help)");
		return -EINVAL;
	}
	return 0;
}

static void compare_usage(FILE *f)
{
	fputs(usage_head, f);
	opt_help(f, compare_opts, opt_help_width(compare_opts, 18));
	fputs(usage_tail, f);
}

int compare_main(int argc, char **argv)
{
	const char **names = calloc((size_t)argc + 1, sizeof(*names));
	struct compare_options o;
	struct cmp_tally t;
	char err[512];
	int nfiles = 0, ret;

	if (!names) {
		fprintf(stderr, "interbench compare: out of memory\n");
		return 2;
	}
	ret = parse_options(argc, argv, &o, names, &nfiles, err, sizeof(err));
	if (ret == 1) {
		free(names);
		compare_usage(stdout);
		return fflush(stdout) ? 2 : 0;
	}
	if (ret) {
		fprintf(stderr, "interbench compare: %s\n", err);
		free(names);
		return 2;
	}
	ret = compare_files(&o, names, nfiles, &t);
	free(names);
	return ret ? IB_EXIT_USAGE : cmp_status(&t, o.bisect);
}
