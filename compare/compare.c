// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/compare.c - `interbench compare` as a library: its options, and
 * compare_files(), which reads the sides (side.c), judges each NEW file
 * cell by cell against BASE once (outcome.c), with verdicts whose false
 * marks are controlled over the whole table (verdict.h says how), and has
 * every renderer asked for tell that outcome (compare_out.c): the text,
 * --json, --junit, --ktap, --html. Three or more files are also compared
 * pair by pair (compare_all.c). The command, its options parsed and its
 * exit status made of the tally, is cmd/compare.c; ab calls
 * compare_files() too.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/outcome.h"
#include "core/figures.h"
#include "lib/safefile.h"
#include "lib/system.h"

#define O(field)	offsetof(struct compare_options, field)

/* ---- options --------------------------------------------------------- */

static int set_primary(void *base, const char *val, char *err, size_t n)
{
	struct compare_options *o = base;
	char names[256];

	o->cmp.primary = cmp_fig_named(val);
	if (o->cmp.primary < 0) {
		figure_compare_names(", ", names, sizeof(names));
		snprintf(err, n, "'%s' is not a figure compare tests (%s)",
			 val, names);
		return -EINVAL;
	}
	return 0;
}

/* compare's options: parsing, --help and the shell completion. */
const struct opt compare_opts[] = {
	{ .name = "alpha", OPT_ALPHA, .arg = "P", .off = O(cmp.alpha),
	  .help = "false discovery rate of the marks (default 0.05)" },
	{ .name = "min-change", OPT_PCT, .arg = "PCT",
	  .off = O(cmp.min_change),
	  .help = "mark only changes whose 95 % interval lies beyond\n"
		  "PCT % (default 5)" },
	{ .name = "min-points", OPT_POINTS, .arg = "PTS",
	  .off = O(cmp.min_points),
	  .help = "the same for % figures, in points (default 1)" },
	{ .name = "threshold", OPT_PCT, .arg = "PCT",
	  .off = O(threshold),
	  .seen = OPT_SEEN(struct compare_options, have_threshold),
	  .help = "exit 1 when a cell is marked worse by more than\n"
		  "PCT %, or was measured in BASE and not in a NEW" },
	{ .name = "primary", .type = OT_CALL, .arg = "FIG",
	  .parse = set_primary, .complete = OC_FIGURE,
	  .help = "judge every cell on FIG alone (mean, max, p50,\n"
		  "p90, p99, cpu, deadlines, fps, low_1pct) instead\n"
		  "of its decision figures" },
	{ .name = "plain", .type = OT_FLAG, .off = O(plain),
	  .help = "test each cell on its own spread, not moderated\n"
		  "towards what the table's cells share" },
	{ .name = "moderate", .type = OT_FLAG, .off = O(moderate),
	  .help = "each test's variance shrunk to what its cells\n"
		  "share (empirical Bayes, as limma; the default)" },
	{ .name = "bisect", .type = OT_FLAG, .off = O(bisect),
	  .help = "exit 125 (git bisect run's skip) when no cell is\n"
		  "worse and some cannot be decided" },
	{ .name = "components", .type = OT_PATH, .arg = "FILE",
	  .off = O(components),
	  .help = "this machine's variance per level (interbench\n"
		  "study --save FILE): a side of one boot is widened\n"
		  "by its measured boot component" },
	{ .name = "json", .type = OT_PATH, .arg = "FILE", .off = O(json),
	  .help = "also write every row and the summary to FILE" },
	{ .name = "html", .type = OT_PATH, .arg = "FILE", .off = O(html),
	  .help = "also draw them in FILE, a self-contained HTML page" },
	{ .name = "junit", .type = OT_PATH, .arg = "FILE", .off = O(junit),
	  .help = "also write the verdicts to FILE as JUnit XML: a\n"
		  "failure per cell worse or mixed" },
	{ .name = "ktap", .type = OT_PATH, .arg = "FILE", .off = O(ktap),
	  .help = "also write them to FILE (-: standard output) as\n"
		  "KTAP: not ok per cell worse or mixed" },
	{ .name = "allow-policies", .type = OT_FLAG, .off = O(any_policy),
	  .help = "compare runs whose tasks or loads were scheduled\n"
		  "differently (--bench-policy, --bench-slice, -r,\n"
		  "--load-policy, --load-group): refused without it" },
	{ .name = "help", .letter = 'h', .type = OT_ACTION,
	  .help = "show this help" },
	{ .name = NULL },
};

/* ---- the command's work ---------------------------------------------- */

void compare_options_init(struct compare_options *o)
{
	memset(o, 0, sizeof(*o));
	o->cmp.alpha = 0.05;
	o->cmp.min_change = 5;
	/* A point of deadlines is a frame in a hundred missed. */
	o->cmp.min_points = 1;
	o->cmp.level = 0.95;
	o->cmp.primary = -1;
	o->cmp.moderate = true;
}

/*
 * Before anything is printed: every side's files read, the sides
 * comparable and pooled to their unit of replication, the outputs
 * writable, --json's document begun. files[] are the sides as the verdict
 * reads them. 0, or -1 having said why.
 */
static int compare_setup(struct compare_options *o, struct cmp_side *sides,
			 struct result_file *files, const char *const *paths,
			 int n, struct cmp_json *jc)
{
	char err[640];
	int i;

	if (o->components && comp_load(&o->comp, o->components, err,
				       sizeof(err))) {
		fprintf(stderr, "interbench compare: --components %s\n", err);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (cmp_side_open(&sides[i], paths[i], err, sizeof(err))) {
			fprintf(stderr, "interbench compare: %s\n", err);
			return -1;
		}
	for (i = 0; i < n; i++)
		if (cmp_same_policies(sides[i].files, sides[i].nfiles, o))
			return -1;
	o->rep.comp = o->components ? &o->comp : NULL;
	if (cmp_sides_replicate(sides, n, &o->rep)) {
		fprintf(stderr, "interbench compare: out of memory\n");
		return -1;
	}
	o->cmp.rep = &o->rep;
	for (i = 0; i < n; i++)
		files[i] = *sides[i].use;
	cmp_ab_pair(files, n, o);
	if (cmp_same_policies(files, n, o))
		return -1;
	if (cmp_outputs_check(o, sides, n))
		return -1;
	if (o->json && cmp_json_begin(jc, o->json, o, files[0].path)) {
		fprintf(stderr, "interbench compare: cannot write %s: %s\n",
			o->json, sys_file_why(-errno));
		return -1;
	}
	return 0;
}

/*
 * After the setup: every pair judged once, then told by every renderer
 * asked for, with every pair of three or more files between their pairs
 * and their ends (its rows follow the pairs' in --json). 0, or -1 said.
 */
static int judge_and_tell(struct cmp_render *r, const struct cmp_side *sides,
			  const struct result_file *files, int n,
			  struct cmp_tally *t)
{
	struct compare_options *o = r->o;
	struct cmp_metric m[CMP_MAX_METRICS];
	int nm = cmp_metrics(m, CMP_MAX_METRICS), ret = -1;
	struct cmp_outcome oc;

	if (cmp_outcome_judge(&oc, files, n, sides, o, m, nm)) {
		fprintf(stderr, "interbench compare: out of memory\n");
		return -1;
	}
	if (cmp_render_pairs(r, &oc) ||
	    (n > 2 && compare_all(files, n, o, m, nm, o->json ? &r->json :
				  NULL))) {
		fflush(stdout);
		fprintf(stderr, "interbench compare: out of memory\n");
		goto out;
	}
	if (cmp_render_end(r, &oc))
		goto out;
	*t = oc.tally;
	ret = 0;
out:
	cmp_outcome_free(&oc);
	return ret;
}

int compare_files(const struct compare_options *opts,
		  const char *const *paths, int n, struct cmp_tally *t)
{
	struct compare_options o = *opts;
	struct cmp_side *sides = calloc((size_t)n, sizeof(*sides));
	struct result_file *files = calloc((size_t)n, sizeof(*files));
	struct cmp_render r = { .o = &o };
	int i, ret = -1;

	memset(&o.comp, 0, sizeof(o.comp));
	memset(t, 0, sizeof(*t));
	if (!files || !sides) {
		fprintf(stderr, "interbench compare: out of memory\n");
		goto out;
	}
	if (compare_setup(&o, sides, files, paths, n, &r.json) ||
	    judge_and_tell(&r, sides, files, n, t))
		goto out;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "interbench compare: writing the report: %s\n",
			strerror(errno));
		goto out;
	}
	/* a gate that judged nothing must not pass: said, and its own status */
	if (t->unjudged && n > 2)
		fprintf(stderr, "interbench compare: %s against %s: %s\n",
			t->file, paths[0], t->why);
	else if (t->unjudged)
		fprintf(stderr, "interbench compare: %s\n", t->why);
	ret = 0;
out:
	cmp_json_abort(&r.json);
	if (o.ktap_std)
		fclose(o.ktap_std);
	/* files[] are views of the sides' */
	for (i = 0; sides && i < n; i++)
		cmp_side_free(&sides[i]);
	comp_free(&o.comp);
	free(sides);
	free(files);
	return ret;
}
