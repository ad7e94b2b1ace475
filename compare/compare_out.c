// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/compare_out.c - compare's output files, --json, --html, --junit
 * and --ktap: each checked before anything is printed (an input it would
 * replace, two of them one file, a file that cannot be made; --ktap -
 * takes standard output then); and the table of the renderers that tell
 * the outcome (outcome.h), the text and those files, called in order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "compare/outcome.h"
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

/*
 * The renderers, in the order they are called: the text first (the pairs
 * on standard output as they are told), then the files in the order their
 * "Wrote" lines are said, --json last (compare_all() adds its pairs to
 * the document after the pairs).
 */
static const struct cmp_render_ops *const renderers[] = {
	&cmp_render_text, &cmp_render_html, &cmp_render_junit,
	&cmp_render_ktap, &cmp_render_json,
};
#define RENDERERS	(sizeof(renderers) / sizeof(renderers[0]))

/* Where the renderer's file is (its option's value), or NULL: not asked. */
static const char *path_of(const struct cmp_render_ops *ops,
			   const struct compare_options *o)
{
	return ops->name ? *(const char *const *)((const char *)o + ops->path) :
	       "";
}

int cmp_render_pairs(struct cmp_render *r, const struct cmp_outcome *oc)
{
	size_t k;
	int err;

	for (k = 0; k < RENDERERS; k++)
		if (renderers[k]->pairs && path_of(renderers[k], r->o) &&
		    (err = renderers[k]->pairs(r, oc)))
			return err;
	return 0;
}

int cmp_render_end(struct cmp_render *r, const struct cmp_outcome *oc)
{
	size_t k;
	int err;

	for (k = 0; k < RENDERERS; k++) {
		const struct cmp_render_ops *ops = renderers[k];
		const char *path = path_of(ops, r->o);

		if (!ops->end || !path)
			continue;
		err = ops->end(r, oc);
		if (err) {
			fprintf(stderr, "interbench compare: cannot write "
				"%s: %s\n", ops->std && !strcmp(path,
				SAFE_STDOUT) ? "standard output" : path,
				strerror(-err));
			return -1;
		}
		safe_file_said(path, ops->said);
	}
	return 0;
}
