// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/compare.c - `interbench compare`: its options and files checked,
 * each file against BASE (and every pair of three or more) printed and
 * written by compare/, and the exit status.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "compare/compare.h"
#include "lib/base.h"
#include "core/resultfile.h"
#include "lib/opt.h"
#include "lib/system.h"

static const char usage_head[] =
"Usage: interbench compare [options] BASE.json NEW.json [MORE.json ...]\n"
"Compare result files of `interbench --json` with BASE.json, cell by cell.\n";

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
static int parse_options(int argc, char **argv, struct options *o,
			 const char **files, int *nfiles, char *err, size_t n)
{
	struct opt_table t = { compare_opts, NULL };
	bool help = false;
	int i, rest, r;

	memset(o, 0, sizeof(*o));
	t.base = o;
	o->cmp.alpha = 0.05;
	o->cmp.min_change = 5;
	/* A point of deadlines is a frame in a hundred missed. */
	o->cmp.min_points = 1;
	o->cmp.level = 0.95;
	o->cmp.primary = -1;
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

/* An output that is an input, or two outputs one file: refused. */
static bool outputs_clash(const struct options *o, const char *const *names,
			  int n)
{
	static const char *const opt[] = { "json", "html", "junit" };
	const char *out[3] = { o->json, o->html, o->junit };
	int i, k;

	for (k = 0; k < 3; k++)
		for (i = k + 1; out[k] && i < 3; i++)
			if (out[i] && sys_same_file(out[k], out[i])) {
				fprintf(stderr, "interbench compare: --%s and "
					"--%s name one file, %s\n", opt[k],
					opt[i], out[k]);
				return true;
			}
	for (k = 0; k < 3; k++)
		for (i = 0; out[k] && i < n; i++)
			if (sys_same_file(names[i], out[k])) {
				fprintf(stderr, "interbench compare: %s is a "
					"result file to read: --%s would "
					"replace it\n", out[k], opt[k]);
				return true;
			}
	return false;
}

int compare_main(int argc, char **argv)
{
	struct result_file *files = NULL;
	struct cmp_metric m[CMP_MAX_METRICS];
	const char **names = calloc((size_t)argc + 1, sizeof(*names));
	struct json_cmp jc = { 0 };
	struct options o;
	char err[512];
	struct cmp_outcome oc = { 0 };
	int nfiles = 0, i, ret, nm, status = 2;

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
	nm = cmp_metrics(m, CMP_MAX_METRICS);
	files = calloc((size_t)nfiles, sizeof(*files));
	if (!files) {
		fprintf(stderr, "interbench compare: out of memory\n");
		goto out;
	}
	/* check every file before printing anything */
	for (i = 0; i < nfiles; i++)
		if (rf_load(&files[i], names[i], err, sizeof(err))) {
			fprintf(stderr, "interbench compare: %s\n", err);
			goto out;
		}
	cmp_ab_pair(files, nfiles, &o);
	if (cmp_same_policies(files, nfiles, &o))
		goto out;
	if (outputs_clash(&o, names, nfiles))
		goto out;
	if (o.html && (ret = sys_can_replace(o.html))) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o.html, sys_file_why(ret));
		goto out;
	}
	if (o.junit && (ret = sys_can_replace(o.junit))) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o.junit, sys_file_why(ret));
		goto out;
	}
	if (o.json && json_cmp_begin(&jc, o.json, &o, files[0].path)) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o.json, sys_file_why(-errno));
		goto out;
	}
	for (i = 1; i < nfiles; i++) {
		if (i > 1)
			printf("\n");
		if (compare_one(&files[0], &files[i], &o, m, nm,
				o.json ? &jc.w : NULL, &oc))
			goto oom;
	}
	if (nfiles > 2 && compare_all(files, nfiles, &o, m, nm,
				      o.json ? &jc : NULL))
		goto oom;
	if (o.html && (ret = report_compare_html(o.html, files, nfiles,
						 &o.cmp, m, nm))) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o.html, strerror(-ret));
		goto out;
	}
	if (o.junit && (ret = compare_junit(o.junit, files, nfiles, &o.cmp, m,
					    nm))) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o.junit, strerror(-ret));
		goto out;
	}
	if (o.json && json_cmp_end(&jc)) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o.json, strerror(errno));
		goto out;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "interbench compare: writing the report: %s\n",
			strerror(errno));
		goto out;
	}
	/* a gate that judged nothing must not pass: said, and its own status */
	if (oc.unjudged && nfiles > 2)
		fprintf(stderr, "interbench compare: %s against %s: %s\n",
			oc.file, names[0], oc.why);
	else if (oc.unjudged)
		fprintf(stderr, "interbench compare: %s\n", oc.why);
	status = oc.breached || oc.worse ? IB_EXIT_FAIL :
		 o.bisect && oc.undecided ? IB_EXIT_SKIP :
		 oc.unjudged ? IB_EXIT_UNJUDGED : IB_EXIT_OK;
	goto out;
oom:
	fflush(stdout);
	fprintf(stderr, "interbench compare: out of memory\n");
out:
	json_cmp_abort(&jc);
	for (i = 0; files && i < nfiles; i++)
		rf_free(&files[i]);
	free(files);
	free(names);
	return status;
}
