// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/trend.c - `interbench trend`: its options and files checked, the
 * series searched and reported by trend/trend.c, and the exit status.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "trend/trend.h"
#include "core/resultfile.h"
#include "lib/opt.h"
#include "lib/safefile.h"
#include "lib/system.h"

static const char usage_head[] =
"Usage: interbench trend [options] FILE1.json FILE2.json [MORE.json ...]\n"
"Find where in a series of runs (files oldest first, as given) a cell's\n"
"decision figures changed, and which single runs stand out.\n";

static const char usage_tail[] =
"      --                 the rest are file names\n"
"Each cell's decision figures (p50, p99 and max latency, % deadlines met,\n"
"1 % low FPS, % desired CPU) are each a series over the files; a file's\n"
"repeats are its samples. Each series' best split into two means is\n"
"tested by permuting the values (p-values from a seeded stream: the same\n"
"files give the same answer). Cells are judged first: a cell's p is the\n"
"Simes p of its figures, Holm over the cells keeps the chance of any cell\n"
"wrongly found at --alpha, and a cell found has its figures judged by\n"
"Benjamini-Hochberg at --alpha times the share of cells found. A change\n"
"is marked worse or better when its interval (the files between the\n"
"change before it and the next) lies beyond the min change.\n"
"Each file is also held against the other files between the same\n"
"changes (their median; the repeats' noise, or the files' MAD if larger),\n"
"a cell's night as a cell is (Holm over every cell's every night, then\n"
"its figures): an outlying night is marked worse or better as a change\n"
"is.\n"
"Exit status: 2 errors; 1 a change or an outlying night for the worse;\n"
"0 otherwise.\n";

static void usage(FILE *f)
{
	fputs(usage_head, f);
	opt_help(f, trend_opts, opt_help_width(trend_opts, 18));
	fputs(usage_tail, f);
}

/* Outputs that are inputs, or one file twice: refused before any work. */
static int outputs_ok(const struct trend_opts *o, char **names, int n)
{
	const struct sys_output out[2] = {
		{ .opt = "--json", .path = o->json },
		{ .opt = "--html", .path = o->html },
	};
	struct sys_output_fault f;
	char why[2 * PATH_MAX + 64];

	if (!sys_outputs_check(out, 2, (const char *const *)names, n, &f))
		return 0;
	sys_output_fault_text(out, &f, why, sizeof(why));
	fprintf(stderr, "interbench trend: %s\n", why);
	return -EINVAL;
}

int trend_main(int argc, char **argv)
{
	struct trend_opts o = {
		.alpha = 0.05, .min_change = 5, .min_points = 1,
		.level = 0.95, .seed = 1,
	};
	struct opt_table tab = { trend_opts, &o };
	struct result_file files[2];
	struct trend t = { .o = &o };
	char err[512];
	bool help = false;
	int rest = argc, i, n, r, worse = 0, status = 2;

	r = opt_parse(&tab, 1, argc, argv, "interbench trend ",
		      opt_seen_action, &help, &rest, err, sizeof(err));
	if (r == 1 || help) {
		usage(stdout);
		return fflush(stdout) ? 2 : 0;
	}
	if (r) {
		fprintf(stderr, "interbench trend: %s\n", err);
		return 2;
	}
	n = argc - rest;
	if (n < 2) {
		fprintf(stderr, "interbench trend: %s: a series needs two or "
			"more result files, oldest first (see interbench "
			"trend --help)\n", n ? argv[rest] : "no file given");
		return 2;
	}
	if (outputs_ok(&o, argv + rest, n))
		return 2;
	t.nm = cmp_metrics(t.m, CMP_MAX_METRICS);
	if (trend_begin(&t, n))
		goto oom;
	/* one file at a time, and the one before for its settings */
	for (i = 0; i < n; i++) {
		struct result_file *f = &files[i % 2];
		struct result_file *prev = i ? &files[!(i % 2)] : NULL;

		if (rf_load_figures(f, argv[rest + i], err, sizeof(err))) {
			fprintf(stderr, "interbench trend: %s\n", err);
			if (prev)
				rf_free(prev);
			goto out;
		}
		r = trend_add(&t, f, prev);
		if (prev)
			rf_free(prev);
		if (r) {
			rf_free(f);
			goto oom;
		}
	}
	rf_free(&files[(n - 1) % 2]);
	if (trend_find(&t))
		goto oom;
	trend_print(&t, &worse);
	if (o.json && (r = trend_json(o.json, &t, worse))) {
		fprintf(stderr, "interbench trend: cannot write %s: %s\n",
			o.json, strerror(-r));
		goto out;
	}
	if (o.json)
		safe_file_said(o.json, "the series and its changes as JSON");
	if (o.html && (r = trend_html(o.html, &t))) {
		fprintf(stderr, "interbench trend: cannot write %s: %s\n",
			o.html, strerror(-r));
		goto out;
	}
	if (o.html)
		safe_file_said(o.html, "trend's page");
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "interbench trend: writing the report: %s\n",
			strerror(errno));
		goto out;
	}
	status = worse ? 1 : 0;
	goto out;
oom:
	fflush(stdout);
	fprintf(stderr, "interbench trend: out of memory\n");
out:
	trend_free(&t);
	return status;
}
