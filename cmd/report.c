// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/report.c - `interbench report`: its options and files checked, the
 * result files read, their page drawn by report/, and the exit status.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cmd/cmd.h"
#include "compare/sweep_page.h"
#include "core/resultfile.h"
#include "lib/base.h"
#include "lib/opt.h"
#include "lib/safefile.h"
#include "lib/system.h"
#include "report/report.h"

static void report_usage(FILE *f)
{
	fputs("Usage: interbench report RESULT.json [MORE.json ...] "
	      "-o FILE.html\n"
	      "Draw result files of `interbench --json` as one "
	      "self-contained HTML page;\n"
	      "two or more first side by side, on shared colour scales "
	      "(`interbench compare\nA.json B.json --html FILE` judges B "
	      "against A).\n"
	      "A sweep's document (`interbench sweep`) is drawn alone, as "
	      "the sweep's page.\n", f);
	opt_help(f, report_options, opt_help_width(report_options, 18));
	fputs("Exit status: 0, 2 on errors, such as a file that is not a "
	      "result file (nothing\nis left half-written).\n", f);
}

/* Options and file names: 0, 1 for --help, -EINVAL with err. */
static int report_args(int argc, char **argv, struct report_opts *o,
		       const char **files, int *n, char *err, size_t errlen)
{
	const struct opt_table t = { report_options, o };
	bool help = false;
	int i, rest, r;

	r = opt_parse(&t, 1, argc, argv, "interbench report ",
		      opt_seen_action, &help, &rest, err, errlen);
	if (r)
		return r;
	for (i = rest; i < argc; i++)
		files[(*n)++] = argv[i];
	if (!*n || !o->out) {
		snprintf(err, errlen, "need result files and -o FILE.html "
			 "(see interbench report --help)");
		return -EINVAL;
	}
	return 0;
}

/* A directory we may write into: 0 or -errno. */
static int svg_dir_ok(const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

/*
 * A sweep's document among names is drawn alone, as its page: 1 when
 * none is one (result files, drawn as ever), else 0 (drawn) or -errno
 * with err.
 */
static int report_sweep(const struct report_opts *o, const char **names,
			int n, char *err, size_t errlen)
{
	struct jval *doc = NULL;
	int i, r = 1;

	for (i = 0; i < n && !doc; i++)
		sweep_page_read(names[i], &doc);
	if (!doc)
		return 1;
	i--;
	if (n > 1) {
		snprintf(err, errlen, "%s is a sweep document, drawn alone: "
			 "not with result files", names[i]);
		r = -EINVAL;
	} else if (o->svg_dir) {
		snprintf(err, errlen, "--svg is for result files, not the "
			 "sweep document %s", names[i]);
		r = -EINVAL;
	} else {
		r = sweep_page_write(doc, names[i], o->out, err, errlen);
	}
	json_free(doc);
	return r;
}

int report_main(int argc, char **argv)
{
	struct report_opts o = { .figure = -1 };
	struct result_file *rf = NULL;
	const char **names = calloc((size_t)argc + 1, sizeof(*names));
	char err[512] = "out of memory";
	int n = 0, i, loaded = 0, ret = -ENOMEM, sweep = 1;

	if (names)
		ret = report_args(argc, argv, &o, names, &n, err, sizeof(err));
	if (ret == 1) {
		free(names);
		report_usage(stdout);
		return fflush(stdout) ? IB_EXIT_USAGE : IB_EXIT_OK;
	}
	if (!ret) {
		const struct sys_output out = { .opt = "-o", .path = o.out };
		struct sys_output_fault f;

		ret = sys_outputs_check(&out, 1, names, n, &f);
		if (ret)
			sys_output_fault_text(&out, &f, err, sizeof(err));
	}
	if (!ret) {
		sweep = report_sweep(&o, names, n, err, sizeof(err));
		ret = sweep == 1 ? 0 : sweep;
	}
	if (!ret && !sweep) {
		free(names);
		safe_file_said(o.out, "the sweep's page");
		return fflush(stdout) ? IB_EXIT_USAGE : IB_EXIT_OK;
	}
	if (!ret && o.svg_dir && (ret = svg_dir_ok(o.svg_dir)))
		snprintf(err, sizeof(err), "--svg %s: %s", o.svg_dir,
			 strerror(-ret));
	if (!ret && !(rf = calloc((size_t)n, sizeof(*rf))))
		ret = -ENOMEM;
	for (i = 0; !ret && i < n; i++, loaded++)
		ret = rf_load(&rf[i], names[i], err, sizeof(err));
	if (!ret)
		ret = report_files(&o, rf, n, err, sizeof(err));
	/* what confounds each file, as its run's console said */
	for (i = 0; !ret && i < n; i++)
		report_print_marks(&rf[i]);
	for (i = 0; i < loaded; i++)
		rf_free(&rf[i]);	/* one that failed is already empty */
	free(rf);
	/* Side by side is no A/B verdict: say where that is. */
	if (!ret && n > 1)
		printf("The files are drawn side by side, not judged: `interbench"
		       " compare %s %s --html FILE` says whether the second is "
		       "better or worse, cell by cell.\n", names[0], names[1]);
	free(names);
	if (ret) {
		fprintf(stderr, "interbench report: %s\n", err);
		return IB_EXIT_USAGE;
	}
	/* what it wrote, where a script or a person can find it */
	snprintf(err, sizeof(err), "the page of %d file%s", n,
		 n == 1 ? "" : "s");
	safe_file_said(o.out, err);
	if (o.svg_dir)
		safe_file_said(o.svg_dir, "each picture as an SVG file");
	return fflush(stdout) ? IB_EXIT_USAGE : IB_EXIT_OK;
}
