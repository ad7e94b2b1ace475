// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/compare_out.c - compare's output files, --json, --html, --junit
 * and --ktap: each checked before anything is printed (an input it would
 * replace, two of them one file, a file that cannot be made; --ktap -
 * takes standard output then), each written at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "lib/safefile.h"
#include "lib/system.h"

int cmp_outputs_check(struct compare_options *o,
		      const struct cmp_side *sides, int n)
{
	/* --json's document is begun by the caller, which checks it so */
	const struct sys_output out[] = {
		{ .opt = "--json", .path = o->json, .later = true },
		{ .opt = "--html", .path = o->html },
		{ .opt = "--junit", .path = o->junit },
		/* --ktap - is standard output: no file to clash with */
		{ .opt = "--ktap", .path = o->ktap &&
		  strcmp(o->ktap, SAFE_STDOUT) ? o->ktap : NULL },
	};
	struct sys_output_fault f;
	char why[2 * PATH_MAX + 64];
	const char **in;
	int i, k, nin = 0, bad;

	for (i = 0; i < n; i++)
		nin += sides[i].nfiles;
	in = calloc((size_t)nin + 1, sizeof(*in));
	if (!in) {
		fprintf(stderr, "interbench compare: out of memory\n");
		return -1;
	}
	for (i = 0, nin = 0; i < n; i++)
		for (k = 0; k < sides[i].nfiles; k++)
			in[nin++] = sides[i].paths[k];
	bad = sys_outputs_check(out, 4, in, nin, &f);
	free(in);
	if (bad) {
		sys_output_fault_text(out, &f, why, sizeof(why));
		fprintf(stderr, "interbench compare: %s\n", why);
		return -1;
	}
	if (o->ktap && !out[3].path && !o->ktap_std &&
	    !(o->ktap_std = safe_stdout_aside())) {
		fprintf(stderr, "interbench compare: --ktap -: standard "
			"output: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* --ktap's document: into its file, or on standard output, closed. */
static int write_ktap(struct compare_options *o,
		      const struct result_file *files, int n,
		      const struct cmp_metric *m, int nm)
{
	int r;

	r = compare_ktap(o->ktap, o->ktap_std, files, n, &o->cmp, m, nm);
	/* fclose() fails with the first failed write's errno (safefile.h) */
	if (o->ktap_std && fclose(o->ktap_std) && !r)
		r = -errno;
	o->ktap_std = NULL;
	if (r)
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			strcmp(o->ktap, SAFE_STDOUT) ? o->ktap :
			"standard output", strerror(-r));
	return r;
}

int cmp_outputs_write(struct compare_options *o,
		      const struct result_file *files, int n,
		      const struct cmp_metric *m, int nm, struct cmp_json *jc)
{
	int r;

	if (o->html && (r = compare_html(o->html, files, n, &o->cmp, m,
					 nm))) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o->html, strerror(-r));
		return -1;
	}
	if (o->html)
		safe_file_said(o->html, "compare's page");
	if (o->junit && (r = compare_junit(o->junit, files, n, &o->cmp, m,
					   nm))) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o->junit, strerror(-r));
		return -1;
	}
	if (o->junit)
		safe_file_said(o->junit, "the verdicts as JUnit XML");
	if (o->ktap && write_ktap(o, files, n, m, nm))
		return -1;
	if (o->ktap)
		safe_file_said(o->ktap, "the verdicts as KTAP");
	if (o->json && cmp_json_end(jc)) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o->json, strerror(errno));
		return -1;
	}
	if (o->json)
		safe_file_said(o->json, "the verdicts as JSON");
	return 0;
}
