// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/compare_junit.c - `interbench compare --junit FILE` (and ab's):
 * the verdicts as JUnit XML for a CI server, the same verdicts the table,
 * the JSON and the exit status give. A testsuite per NEW file, a testcase
 * per cell: a failure when it is worse or mixed (the figures that made
 * it are the message), skipped when the data cannot decide it (the CI
 * server shows it undecided, not passed), an error when it was measured
 * in BASE and not in NEW, a pass when better or unchanged; and when no
 * cell of a file could be judged (too few repeats), one more testcase,
 * "verdict", an error saying why, so that the suite does not pass. Judging
 * takes no time to speak of: every time is 0. A renderer of the outcome
 * (outcome.h): the verdicts are read, never judged again.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "compare/outcome.h"
#include "compare/compare.h"
#include "lib/text.h"

enum jv { J_PASS, J_FAILURE, J_ERROR, J_SKIPPED };

static enum jv junit_of(enum cmp_verdict v)
{
	switch (v) {
	case CV_WORSE:
	case CV_MIXED:
		return J_FAILURE;
	case CV_LOST:
		return J_ERROR;
	case CV_UNCHANGED:
	case CV_BETTER:
		return J_PASS;
	default:
		return J_SKIPPED;
	}
}

static void testcase(FILE *f, const struct cmp_pair *c,
		     const struct cmp_cell *cc, const struct cmp_metric *m)
{
	const struct file_cell *fc = cc->a ? cc->a : cc->b;
	enum jv v = junit_of(cc->verdict);
	char why[512];

	cmp_cell_why(c, cc, m, why, sizeof(why));
	fputs("    <testcase classname=\"interbench.compare.", f);
	text_xml(f, fc->bench);
	fputs("\" name=\"", f);
	text_xml(f, fc->bench);
	fputc('/', f);
	text_xml(f, fc->load);
	fputs("\" time=\"0\">\n", f);
	if (v == J_FAILURE) {
		fprintf(f, "      <failure type=\"%s\" message=\"",
			cmp_verdict_names[cc->verdict]);
		text_xml(f, why);
		fputs("\"/>\n", f);
	} else if (v == J_ERROR) {
		fputs("      <error type=\"not measured\" message=\"measured in "
		      "BASE, not in NEW\"/>\n", f);
	} else if (v == J_SKIPPED) {
		fputs("      <skipped message=\"", f);
		text_xml(f, cmp_verdict_names[cc->verdict]);
		fputs(": the data cannot decide it\"/>\n", f);
	}
	fputs("      <system-out>verdict: ", f);
	text_xml(f, cmp_verdict_names[cc->verdict]);
	if (*why) {
		fputs("; ", f);
		text_xml(f, why);
	}
	fputs("</system-out>\n    </testcase>\n", f);
}

/*
 * The cells of p by what JUnit calls them, added to n[4]; and when no cell
 * could be judged, the error that says so: a suite of skipped cells alone
 * would pass.
 */
static void tally(const struct cmp_judged *p, int *n)
{
	int i;

	for (i = 0; i < p->c.ncells; i++)
		n[junit_of(p->c.cells[i].verdict)]++;
	if (p->unjudged)
		n[J_ERROR]++;
}

/* The testcase of a comparison no cell of which could be judged. */
static void nothing_judged(FILE *f, const struct cmp_judged *p)
{
	if (!p->unjudged)
		return;
	fputs("    <testcase classname=\"interbench.compare\" "
	      "name=\"verdict\" time=\"0\">\n"
	      "      <error type=\"nothing decidable\" message=\"", f);
	text_xml(f, p->why);
	fputs("\"/>\n    </testcase>\n", f);
}

static void counts(FILE *f, const int *n)
{
	fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"%d\" "
		"skipped=\"%d\" time=\"0\"", n[J_PASS] + n[J_FAILURE] +
		n[J_ERROR] + n[J_SKIPPED], n[J_FAILURE], n[J_ERROR],
		n[J_SKIPPED]);
}

static void suite(FILE *f, const struct cmp_outcome *oc,
		  const struct cmp_judged *p,
		  const struct cmp_replication *rep)
{
	const struct result_file *base = p->base, *cur = p->cur;
	const struct cmp_pair *c = &p->c;
	int n[4] = { 0 }, i;

	tally(p, n);
	fputs("  <testsuite name=\"", f);
	text_xml(f, cur->path);
	fputc('"', f);
	counts(f, n);
	fputs(">\n    <properties>\n", f);
	/* ab's -n auto: when it stopped and why */
	if (oc->stop_pairs) {
		fprintf(f, "      <property name=\"ab_stopped_after_pairs\" "
			"value=\"%d\"/>\n", oc->stop_pairs);
		fputs("      <property name=\"ab_stopped_why\" value=\"", f);
		text_xml(f, oc->stop_why);
		fputs("\"/>\n", f);
	}
	/* a side of one boot (or process): said, as compare says it */
	if (rep && rep->note[0]) {
		fputs("      <property name=\"replication\" value=\"", f);
		text_xml(f, rep->note);
		fputs("\"/>\n", f);
	}
	if (rep)
		fprintf(f, "      <property name=\"unit\" value=\"%s\"/>\n",
			cmp_level_names[rep->unit]);
	fputs("      <property name=\"base\" value=\"", f);
	text_xml(f, base->path);
	fputs("\"/>\n      <property name=\"verdict\" value=\"", f);
	text_xml(f, cmp_group_verdict(c->count));
	fputs("\"/>\n    </properties>\n", f);
	for (i = 0; i < c->ncells; i++)
		testcase(f, c, &c->cells[i], oc->m);
	nothing_judged(f, p);
	fputs("  </testsuite>\n", f);
}

static int junit_end(struct cmp_render *r, const struct cmp_outcome *oc)
{
	struct safe_file sf;
	int i, n[4] = { 0 }, err;

	/* the totals first: they are the document's attributes */
	for (i = 0; i < oc->npairs; i++)
		tally(&oc->pairs[i], n);
	err = safe_file_begin(&sf, r->o->junit);
	if (err)
		return err;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<testsuites name=\"interbench compare\"", sf.f);
	counts(sf.f, n);
	fputs(">\n", sf.f);
	for (i = 0; i < oc->npairs; i++)
		suite(sf.f, oc, &oc->pairs[i], r->o->cmp.rep);
	fputs("</testsuites>\n", sf.f);
	return safe_file_commit(&sf);
}

const struct cmp_render_ops cmp_render_junit = {
	.name = "--junit",
	.said = "the verdicts as JUnit XML",
	.path = offsetof(struct compare_options, junit),
	.end = junit_end,
};
