/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/outcome.h - a comparison judged once, told many ways. outcome.c
 * judges every NEW file against BASE into one struct cmp_outcome; each
 * way of telling it is a renderer with one small ops table, as a run's
 * result files are sinks (outputs/sink.h): the text (compare_text.c),
 * --json (compare_json.c), --junit (compare_junit.c), --ktap
 * (compare_ktap.c) and --html (report_cmp.c). compare_out.c holds their
 * table and calls them in order. No renderer judges: each reads the rows,
 * verdicts and summaries the outcome holds, so that every output tells
 * the same verdict the exit status is made of.
 */
#ifndef INTERBENCH_OUTCOME_H
#define INTERBENCH_OUTCOME_H

#include "compare/compare.h"

/* One NEW file judged against BASE. */
struct cmp_judged {
	const struct result_file *base, *cur;
	struct cmp_pair c;		/* its cells, rows and summaries */
	bool unjudged;			/* no cell could be judged ... */
	char why[320];			/* ... and why (cmp_unjudged) */
	int breached;			/* --threshold's breaches */
};

/* Every NEW file judged against BASE: what the renderers tell. */
struct cmp_outcome {
	const struct result_file *files;	/* as the verdict read them */
	int nfiles;
	const struct cmp_side *sides;		/* how they were given */
	const struct cmp_metric *m;		/* the metrics, nm of them */
	int nm;
	struct cmp_judged *pairs;		/* files[i] is pairs[i - 1] */
	int npairs;
	/* ab -n auto's stop, as BASE recorded it: pairs (0: none), why */
	int stop_pairs;
	const char *stop_why;
	struct cmp_tally tally;			/* what the status is made of */
};

/*
 * Judge files[1..n-1] against files[0] with o's options, each pair once,
 * into oc: 0, or -ENOMEM (oc freed). Prints nothing.
 */
int cmp_outcome_judge(struct cmp_outcome *oc, const struct result_file *files,
		      int n, const struct cmp_side *sides,
		      const struct compare_options *o,
		      const struct cmp_metric *m, int nm);
void cmp_outcome_free(struct cmp_outcome *oc);

/* Is cell cc lost, or row r worse by more than --threshold? */
bool cmp_cell_breaches(const struct cmp_cell *cc,
		       const struct compare_options *o);
bool cmp_row_breaches(const struct cmp_row *r,
		      const struct compare_options *o);

/* What a renderer is given beside the outcome. */
struct cmp_render {
	struct compare_options *o;
	struct cmp_json json;		/* --json's document, begun up front */
};

/*
 * A way of telling the outcome. Each op 0 or -errno, a missing op nothing
 * to do there:
 *   pairs  each judged pair, in the order of the files: the text's table,
 *          --json's "comparisons" (before compare_all()'s pairs of three
 *          or more files);
 *   end    after every pair: the file written whole.
 * The caller says what failed ("cannot write FILE"), once.
 */
struct cmp_render_ops {
	const char *name;		/* its option, "--json"; NULL: the text */
	const char *said;		/* "the verdicts as JSON", once written */
	size_t path;			/* offsetof its file in compare_options */
	bool std;			/* "-" is standard output */
	int (*pairs)(struct cmp_render *r, const struct cmp_outcome *oc);
	int (*end)(struct cmp_render *r, const struct cmp_outcome *oc);
};

extern const struct cmp_render_ops cmp_render_text, cmp_render_json,
	cmp_render_junit, cmp_render_ktap, cmp_render_html;

/*
 * Every renderer asked for (compare_out.c), in the table's order: each
 * one's pairs (0, or -ENOMEM), then each one's end (0, or -1 having said
 * which file could not be written and why).
 */
int cmp_render_pairs(struct cmp_render *r, const struct cmp_outcome *oc);
int cmp_render_end(struct cmp_render *r, const struct cmp_outcome *oc);

#endif
