// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/compare_out.c - compare's output files, --json, --html, --junit
 * and --ktap: each checked before anything is printed (an input it would
 * replace, two of them one file, a file that cannot be made; --ktap -
 * takes standard output then), each written at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "compare/compare.h"
#include "lib/safefile.h"
#include "lib/system.h"

#define OUTS	4

static const char *const opt[OUTS] = { "json", "html", "junit", "ktap" };

static void outs(const struct compare_options *o, const char **out)
{
	out[0] = o->json;
	out[1] = o->html;
	out[2] = o->junit;
	/* --ktap - is standard output: no file to clash with */
	out[3] = o->ktap && strcmp(o->ktap, SAFE_STDOUT) ? o->ktap : NULL;
}

/* An output that is an input, or two outputs one file: refused. */
static bool outputs_clash(const struct compare_options *o,
			  const char *const *names, int n)
{
	const char *out[OUTS];
	int i, k;

	outs(o, out);
	for (k = 0; k < OUTS; k++)
		for (i = k + 1; out[k] && i < OUTS; i++)
			if (out[i] && sys_same_file(out[k], out[i])) {
				fprintf(stderr, "interbench compare: --%s and "
					"--%s name one file, %s\n", opt[k],
					opt[i], out[k]);
				return true;
			}
	for (k = 0; k < OUTS; k++)
		for (i = 0; out[k] && i < n; i++)
			if (sys_same_file(names[i], out[k])) {
				fprintf(stderr, "interbench compare: %s is a "
					"result file to read: --%s would "
					"replace it\n", out[k], opt[k]);
				return true;
			}
	return false;
}

int cmp_outputs_check(struct compare_options *o,
		      const struct cmp_side *sides, int n)
{
	const char *out[OUTS];
	int i, k, r;

	for (i = 0; i < n; i++)
		for (k = 0; k < sides[i].nfiles; k++)
			if (outputs_clash(o, (const char *const *)
					  &sides[i].paths[k], 1))
				return -1;
	if (outputs_clash(o, NULL, 0))
		return -1;
	outs(o, out);
	/* --json's document is begun by the caller, which checks it so */
	for (i = 1; i < OUTS; i++)
		if (out[i] && (r = sys_can_replace(out[i]))) {
			fprintf(stderr, "interbench compare: cannot write "
				"%s: %s\n", out[i], sys_file_why(r));
			return -1;
		}
	if (o->ktap && !out[3] && !o->ktap_std &&
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
