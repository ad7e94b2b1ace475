// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/compare_ktap.c - `interbench compare --ktap FILE` (and ab's):
 * the verdicts as KTAP version 1 (outputs/ktap.h), the same verdicts the
 * table, the JSON, JUnit and the exit status give. A test per cell (with
 * several NEW files, per file and cell): not ok when worse or mixed, or
 * measured in BASE and not in NEW (compare's --threshold fails it too);
 * ok when better, unchanged or inconclusive, its diagnostic data saying
 * which; skipped where not compared (too few repeats, in one file only).
 * A judged cell's decision figures are its subtests, not ok when marked
 * worse, so that a runner shows which figure failed it. A comparison no
 * cell of which could be judged is one test more, not ok, as compare's
 * exit status 8 is no pass. A renderer of the outcome (outcome.h): the
 * verdicts are read, never judged again.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "compare/outcome.h"
#include "lib/base.h"
#include "lib/ktap.h"

/* Is cell cc judged (its figures tested), so that it has subtests? */
static bool judged(const struct cmp_cell *cc)
{
	return cc->verdict <= CV_INCONCLUSIVE && cc->nrows;
}

/* The rows a runner is shown: those that decide or bound the cell. */
static int shown(const struct cmp_pair *c, const struct cmp_cell *cc)
{
	int j, k = 0;

	for (j = cc->row0; j < cc->row0 + cc->nrows; j++)
		k += c->rows[j].decides || c->rows[j].bounds;
	return k;
}

/* One decision figure of a cell, a subtest. */
static void row_test(FILE *f, int num, const struct cmp_row *r,
		     const struct cmp_metric *mm)
{
	const char *name = mm->fig >= 0 ? figures[mm->fig].label : mm->label;
	const char *u = mm->log ? "%" : "pt";
	bool worse = r->decides && r->mark > 0;
	char what[160];

	ktap_indent(f, 1);
	fputs("# ", f);
	ktap_text(f, mm->label, false);
	if (isnan(r->lo))
		fprintf(f, ": %.4g -> %.4g, not tested\n", r->base, r->cur);
	else if (mm->count != CMP_NO_COUNT)
		/* a count's margin is read on B's rate less A's */
		fprintf(f, ": %.4g -> %.4g, %+.2f pt [%+.2f, %+.2f]\n",
			r->base, r->cur, r->cur - r->base, r->dlo, r->dhi);
	else
		fprintf(f, ": %.4g -> %.4g, %+.1f %s [%+.1f, %+.1f]\n",
			r->base, r->cur, r->change, u, r->lo, r->hi);
	if (r->mark)
		snprintf(what, sizeof(what), "%s%s", r->mark > 0 ? "worse" :
			 "better", r->decides ? "" : ", not deciding the cell");
	else if (r->within)
		snprintf(what, sizeof(what), "unchanged: within its margin");
	else
		snprintf(what, sizeof(what), "inconclusive");
	ktap_result(f, 1, !worse, num, name, what);
}

/* "# marks: A busy 72 %, B steal 2.1 %": what confounds the verdict */
static void cell_marks(FILE *f, const struct cmp_cell *cc,
		       const struct result_file *base,
		       const struct result_file *cur)
{
	struct rm_cell side[2];
	char text[512];

	if (cmp_cell_marks(cc, base, cur, side) ||
	    !cmp_cell_marks_text(side, text, sizeof(text)))
		return;
	fputs("# marks: ", f);
	ktap_text(f, text, false);
	fputc('\n', f);
}

static void cell_test(FILE *f, int num, const char *prefix,
		      const struct cmp_pair *c, const struct cmp_cell *cc,
		      const struct cmp_metric *m, const struct result_file *base,
		      const struct result_file *cur)
{
	const struct file_cell *fc = cc->a ? cc->a : cc->b;
	const char *v = cmp_verdict_names[cc->verdict];
	char name[640], why[512], dir[600];
	bool ok = true;
	int j, k = 0;

	snprintf(name, sizeof(name), "%s%s/%s", prefix, fc->bench, fc->load);
	if (judged(cc) && shown(c, cc)) {
		ktap_head(f, 1, shown(c, cc));
		for (j = cc->row0; j < cc->row0 + cc->nrows; j++)
			if (c->rows[j].decides || c->rows[j].bounds)
				row_test(f, ++k, &c->rows[j],
					 &m[c->rows[j].metric]);
	}
	cmp_cell_why(c, cc, m, why, sizeof(why));
	if (*why) {
		fputs("# ", f);
		ktap_text(f, why, false);
		fputc('\n', f);
	}
	cell_marks(f, cc, base, cur);
	switch (cc->verdict) {
	case CV_WORSE:
	case CV_MIXED:
		ok = false;
		snprintf(dir, sizeof(dir), "%s", v);
		break;
	case CV_LOST:
		ok = false;
		snprintf(dir, sizeof(dir), "ERROR measured in BASE, not in "
			 "NEW");
		break;
	case CV_UNCHANGED:
	case CV_BETTER:
	case CV_INCONCLUSIVE:
		snprintf(dir, sizeof(dir), "%s", v);
		break;
	default:
		snprintf(dir, sizeof(dir), "SKIP %s", v);
		break;
	}
	ktap_result(f, 0, ok, num, name, dir);
}

/* Tests of a pair: its cells, and "verdict" if none judged. */
static int tests_of(const struct cmp_judged *p)
{
	return p->c.ncells + p->unjudged;
}

static void pair_tests(FILE *f, int *num, const char *prefix,
		       const struct cmp_outcome *oc, const struct cmp_judged *p,
		       const struct cmp_replication *rep)
{
	const struct result_file *base = p->base, *cur = p->cur;
	const struct cmp_pair *c = &p->c;
	char name[320];
	int i;

	fputs("# ", f);
	ktap_text(f, cur->path, false);
	fputs(" against ", f);
	ktap_text(f, base->path, false);
	fprintf(f, ": %s\n", cmp_group_verdict(c->count));
	if (oc->stop_pairs) {
		fprintf(f, "# ab -n auto stopped after %d pairs: ",
			oc->stop_pairs);
		ktap_text(f, oc->stop_why ? oc->stop_why : "", false);
		fputc('\n', f);
	}
	if (rep && rep->note[0]) {
		fputs("# ", f);
		ktap_text(f, rep->note, false);
		fputc('\n', f);
	}
	for (i = 0; i < c->ncells; i++)
		cell_test(f, ++*num, prefix, c, &c->cells[i], oc->m, base, cur);
	if (!p->unjudged)
		return;
	fputs("# ", f);
	ktap_text(f, p->why, false);
	fputc('\n', f);
	snprintf(name, sizeof(name), "%sverdict", prefix);
	ktap_result(f, 0, false, ++*num, name, "ERROR nothing decidable");
}

/* Every NEW file against BASE into f: 0 or -EIO. */
static int document(FILE *f, const struct cmp_outcome *oc,
		    const struct cmp_opts *co)
{
	char prefix[300];
	int i, n = 0, num = 0;

	/* the plan first: every pair's tests counted */
	for (i = 0; i < oc->npairs; i++)
		n += tests_of(&oc->pairs[i]);
	ktap_head(f, 0, n);
	fprintf(f, "# interbench compare %s\n", IB_VERSION);
	for (i = 0; i < oc->npairs; i++) {
		/* one NEW file: the cells' names are the table's */
		prefix[0] = '\0';
		if (oc->nfiles > 2)
			snprintf(prefix, sizeof(prefix), "%s: ",
				 oc->pairs[i].cur->path);
		pair_tests(f, &num, prefix, oc, &oc->pairs[i], co->rep);
	}
	return ferror(f) ? -EIO : 0;
}

/*
 * Into o's standard output stream (--ktap -, closed here: fclose() fails
 * with the first failed write's errno, safefile.h), else a new file
 * renamed over its name. 0 or -errno.
 */
static int ktap_end(struct cmp_render *r, const struct cmp_outcome *oc)
{
	struct compare_options *o = r->o;
	struct safe_file sf;
	int err;

	if (o->ktap_std) {
		err = document(o->ktap_std, oc, &o->cmp);
		if (fclose(o->ktap_std) && !err)
			err = -errno;
		o->ktap_std = NULL;
		return err;
	}
	err = safe_file_begin(&sf, o->ktap);
	if (err)
		return err;
	err = document(sf.f, oc, &o->cmp);
	if (err) {
		safe_file_abort(&sf);
		return err;
	}
	return safe_file_commit(&sf);
}

const struct cmp_render_ops cmp_render_ktap = {
	.name = "--ktap",
	.said = "the verdicts as KTAP",
	.path = offsetof(struct compare_options, ktap),
	.std = true,
	.end = ktap_end,
};
