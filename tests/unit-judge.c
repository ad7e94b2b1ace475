// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-judge.c - compare judges each pair of files once, however many ways
 * it tells the verdicts: the text, --json, --junit, --ktap and --html all
 * read the one judgement (compare/outcome.h). The golden result files
 * (tests/golden) are compared with every output asked, and the pairs
 * cmp_pair_run() judged are counted (cmp_pairs_judged()). And --primary's
 * figures are named by one list, the table's (figure_compare_names()):
 * each taken, and compare's --help names them. Run from tests/ (tests/run
 * does) or from the top.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "compare/compare.h"
#include "core/figures.h"

static char dir[64], out[5][96];
static const char *const kinds[5] = { "json", "junit", "ktap", "html",
				      "text" };

/* golden/NAME from tests/, or tests/golden/NAME from the top */
static const char *golden(const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "golden/%s", name);
	if (access(buf, R_OK))
		snprintf(buf, n, "tests/golden/%s", name);
	return buf;
}

/*
 * compare over paths with every output, the text into a file: how many
 * pairs it judged, or -1 if it could not run.
 */
static long judged_by_compare(const char *const *paths, int n)
{
	struct compare_options o;
	struct cmp_tally t;
	unsigned long before = cmp_pairs_judged();
	int fd, saved, saved_err, ret;

	compare_options_init(&o);
	/* the golden files were scheduled unlike each other on purpose */
	o.any_policy = true;
	o.json = out[0];
	o.junit = out[1];
	o.ktap = out[2];
	o.html = out[3];
	/* its table and its one line on stderr aside: TAP is on stdout */
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	fd = open(out[4], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (saved < 0 || saved_err < 0 || fd < 0 ||
	    dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
		return -1;
	close(fd);
	ret = compare_files(&o, paths, n, &t);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved);
	close(saved_err);
	return ret ? -1 : (long)(cmp_pairs_judged() - before);
}

/* Each output written, and not empty. */
static void outputs_written(const char *what)
{
	struct stat st;
	int k;

	for (k = 0; k < 5; k++)
		check(!stat(out[k], &st) && st.st_size > 0,
		      "%s: the %s written", what, kinds[k]);
}

/* The --primary row of compare's options. */
static const struct opt *primary_row(void)
{
	const struct opt *o;

	for (o = compare_opts; o->name; o++)
		if (!strcmp(o->name, "primary"))
			return o;
	return NULL;
}

/* Each name the table gives is taken, and compare's --help lists them. */
static void primary_names(void)
{
	const struct opt *o = primary_row();
	char names[256], help[512], *p, *tok;
	int n = 0, taken = 0;

	figure_compare_names(", ", names, sizeof(names));
	check(!strcmp(names, "mean, max, p50, p90, p99, cpu, deadlines, fps, "
		      "low_1pct"), "--primary's names from the table: %s",
	      names);
	snprintf(help, sizeof(help), "%s", o ? o->help : "");
	for (p = help; *p; p++)
		if (*p == '\n')
			*p = ' ';
	check(strstr(help, names) != NULL, "compare --help's --primary "
	      "names the table's figures: %s", help);
	check(o && o->complete == OC_FIGURE, "compare's --primary completes "
	      "the figures' names");
	for (tok = strtok(names, ", "); tok; tok = strtok(NULL, ", ")) {
		n++;
		taken += cmp_fig_named(tok) >= 0;
	}
	check(n == 9 && taken == n, "each of the %d names taken by "
	      "--primary (%d)", n, taken);
}

int main(void)
{
	char a[64], b[64], c[64];
	const char *paths[3] = { golden("A.json", a, sizeof(a)),
				 golden("B.json", b, sizeof(b)),
				 golden("C.json", c, sizeof(c)) };
	long n;
	int k;

	snprintf(dir, sizeof(dir), "%s/ib-judge.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	for (k = 0; k < 5; k++)
		snprintf(out[k], sizeof(out[k]), "%s/out.%s", dir, kinds[k]);

	n = judged_by_compare(paths, 2);
	check(n == 1, "BASE and one NEW, five outputs: the pair judged once "
	      "(judged %ld)", n);
	outputs_written("two files");
	n = judged_by_compare(paths, 3);
	check(n == 2, "BASE and two NEW, five outputs: each pair judged once "
	      "(judged %ld)", n);
	outputs_written("three files");

	primary_names();
	for (k = 0; k < 5; k++)
		unlink(out[k]);
	rmdir(dir);
	return check_done();
}
