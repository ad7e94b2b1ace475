/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/sweep.h - a sweep judged: each candidate's result file against
 * the base's, as compare judges ab's two files (paired by pass), alpha
 * shared over the K candidates the sweep measured (Bonferroni: each at
 * alpha / K, which its files record, so that compare of one candidate's
 * files judges it alike); each candidate's verdict per task; the
 * sweep's document (PREFIX.sweep.json, "interbench-sweep/1"), its table
 * and closing line, its JUnit file, each candidate's comparison page and
 * the sweep's page. cmd/sweep.c measures and calls sweep_judge().
 */
#ifndef INTERBENCH_COMPARE_SWEEP_H
#define INTERBENCH_COMPARE_SWEEP_H

#include <stdbool.h>
#include "compare/compare.h"
#include "compare/sweep_page.h"

#define SWEEP_SCHEMA	SWEEP_PAGE_SCHEMA

/* A state as the judge is told it: the base, or a candidate. */
struct sweep_in_state {
	const char *name;
	const char *path;		/* its result file */
	const char *page;		/* its comparison page, or NULL */
	const char *enter, *leave, *opts;
	const char *status;		/* "measured", "skipped", "failed" */
	const char *why;		/* skipped, failed: why; or NULL */
	int pairs;			/* passes it was measured in */
	int stop_pairs;			/* -n auto decided it then; or 0 */
	const char *stop_why;
};

/* The sweep as measured: what its document says besides the verdicts. */
struct sweep_in {
	const char *doc;		/* PREFIX.sweep.json */
	const char *html, *junit;	/* the sweep's page, JUnit; or NULL */
	const char *id, *command_line, *version;
	const char *started, *finished;	/* finished NULL: not (yet) */
	const char *interrupted;	/* "signal 15", or NULL */
	bool judge;			/* false: the plan only, no verdict */
	int judged;			/* K: candidates alpha is shared by */
	const char *order;		/* the design, in words */
	unsigned seed;
	int passes;			/* the most any state was measured */
	long measured, base_measured;	/* cells */
	long ab_equivalent;		/* cells K ab runs of as many pairs */
	double machine_s;		/* the sweep's wall time */
	const struct sweep_in_state *st;	/* st[0] the base */
	int n;
};

/* The sweep's verdict, of which its exit status is made. */
struct sweep_tally {
	int worse;			/* candidates worse or mixed somewhere */
	int undecided;			/* ... some cell of which undecided */
	int judged;			/* candidates judged */
	int unjudged;			/* measured, but no cell judged */
	int failed;			/* a command failed */
};

/*
 * Judge (unless in->judge is false), print the table and the closing
 * line, write the document and, asked, the pages and JUnit: 0, or -1
 * having said which file could not be written and why.
 */
int sweep_judge(const struct sweep_in *in, const struct compare_options *o,
		struct sweep_tally *t);

#endif
