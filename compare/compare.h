/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/compare.h - `interbench compare`, and what its parts share:
 * compare.c (its options, and the command's work as one call,
 * compare_files()), outcome.c (every file judged against BASE once,
 * outcome.h), the renderers that tell that outcome (compare_text.c the
 * table, compare_json.c --json, compare_junit.c --junit, compare_ktap.c
 * --ktap, report_cmp.c --html, drawn with report/), compare_out.c (the
 * output files checked, the renderers called), compare_all.c (every pair
 * of three or more files) and confound.c (the cells' row marks on either
 * side, below). Its statistics, without output, are verdict.h's.
 * compare/ reads result files (core/resultfile.h) and draws with report/;
 * its commands, cmd/compare.c and cmd/ab.c, parse their command lines,
 * call compare_files() and make their exit status of its tally.
 */
#ifndef INTERBENCH_COMPARE_H
#define INTERBENCH_COMPARE_H

#include <limits.h>
#include <stdio.h>
#include "lib/json.h"
#include "lib/safefile.h"
#include "core/schema.h"
#include "lib/opt.h"
#include "compare/verdict.h"
#include "compare/side.h"
#include "core/rowmarks.h"

#define COMPARE_SCHEMA	"interbench-compare/2"

/* What `interbench compare` is asked, however it was asked. */
struct compare_options {
	struct cmp_opts cmp;
	bool have_threshold;
	double threshold;	/* % for ratios, points for percentages */
	const char *json;	/* --json FILE, or NULL */
	const char *html;	/* --html FILE, or NULL */
	const char *junit;	/* --junit FILE, or NULL */
	const char *ktap;	/* --ktap FILE, "-" standard output, or NULL */
	/*
	 * --ktap -'s stream: standard output as it was before it was set
	 * aside (lib/safefile.h), by ab before it printed anything, else by
	 * compare_files(), which writes and closes it.
	 */
	FILE *ktap_std;
	bool any_policy;	/* --allow-policies: compare across classes */
	bool bisect;		/* --bisect: 125 when it cannot decide */
	bool plain;		/* --plain: no moderation */
	bool moderate;		/* --moderate: the default, said again */
	int looks;		/* ab -n auto's looks alpha is shared by */
	int share;		/* ... and a sweep's candidates (1: ab) */
	const char *ab_id;	/* the files are A and B of this ab run */
	const char *components;	/* --components FILE, or NULL */
	struct components comp;	/* ... read */
	struct cmp_replication rep;	/* the sides' levels (side.h) */
};

/* The defaults: compare's without options. */
void compare_options_init(struct compare_options *o);

/* What compare's exit status is made of, over every file against BASE. */
struct cmp_tally {
	int breached;		/* --threshold */
	int worse;		/* cells worse or mixed */
	int undecided;		/* inconclusive or too few repeats */
	int unjudged;		/* files no cell of which could be judged */
	const char *file;	/* the first such file */
	char why[320];		/* ... and why, one line */
};

/*
 * `interbench compare`'s work after its command line: paths[0] is BASE,
 * each other file judged against it once (and every pair of three or
 * more), printed, and written to o's files; what the exit status is made
 * of into *t. Every file is read and checked, and every output checked,
 * before anything is printed; what is wrong is said on stderr
 * ("interbench compare: ..."). 0, or -1 having said why (status 2).
 */
int compare_files(const struct compare_options *o, const char *const *paths,
		  int n, struct cmp_tally *t);
/*
 * compare's exit status of a tally (lib/base.h), the first that applies:
 * IB_EXIT_FAIL a cell worse or mixed, or --threshold breached; with
 * --bisect, IB_EXIT_SKIP a cell undecided; IB_EXIT_UNJUDGED a file no
 * cell of which could be judged; IB_EXIT_OK.
 */
int cmp_status(const struct cmp_tally *t, bool bisect);

/* compare --json: one document, made new and renamed (safefile.h). */
struct cmp_json {
	struct safe_file sf;
	struct jw w;
	bool all;		/* "all_pairs" is open, "comparisons" done */
};

/* 0, or -1 with errno set. */
int cmp_json_begin(struct cmp_json *j, const char *path,
		   const struct compare_options *o, const char *base);
/* From the first all-pairs row on, into "all_pairs". */
void cmp_json_all_begin(struct cmp_json *j);
/* 0, or -errno: the document ended and renamed over its name. */
int cmp_json_end(struct cmp_json *j);
/* Drop a document not ended (an error): its temporary file goes. */
void cmp_json_abort(struct cmp_json *j);

/*
 * Three or more files: every pair, cell by cell (one-way ANOVA, BH over
 * the table, Tukey-Kramer for the pairs), with each file's quantiles.
 * 0 or -ENOMEM.
 */
int compare_all(const struct result_file *files, int n,
		const struct compare_options *o, const struct cmp_metric *m,
		int nm, struct cmp_json *j);

/*
 * Could no cell of c (cur against base) be judged: every cell too few
 * repeats, or in one file only? Then true, and why into why ("no cell
 * could be judged: each file has 1 repeat; a verdict needs 3 or more
 * (-n 3)"). An inconclusive cell was judged: the data could not tell.
 */
bool cmp_unjudged(const struct cmp_pair *c, const char *base,
		  const char *cur, char *why, size_t n);

/*
 * Two files that are A and B of one `interbench ab` run are compared in
 * pairs, and at the share of alpha each of its -n auto looks had: sets
 * o's looks, ab_id and what they change.
 */
void cmp_ab_pair(const struct result_file *f, int n,
		 struct compare_options *o);
/*
 * Refuse files scheduled unlike BASE, unless asked (or they are the two
 * sides of one ab run, which may differ so by design): 0 or -EINVAL,
 * said on stderr.
 */
int cmp_same_policies(const struct result_file *files, int nfiles,
		      const struct compare_options *o);

/*
 * `interbench ab -n auto`, at a look: A's and B's files so far judged as
 * compare_files() would judge them with o. 0, -EIO if a file cannot be
 * read, -ENOMEM. The files are read back, not taken from the run: what
 * a look judges is what the verdict at the end will read.
 */
struct cmp_look {
	int undecided;		/* cells inconclusive, or with too few pairs */
	int worse;		/* cells worse or mixed */
	int most, never;	/* as cmp_help_text() takes them */
	char list[2048];	/* the undecided, each with about how many
				 * pairs would decide it */
};
int compare_look(const char *path_a, const char *path_b,
		 const struct compare_options *o, struct cmp_look *l);
/*
 * About how many pairs (repeats a file) would decide undecided cell cc of
 * c, at the estimates seen: the fewest at which it is decided (a row
 * marked, in BH's family of the table's decision rows, or every bounding
 * row within its bound) with 80 % chance (compare/undecided.c), and with
 * 60 and 90 %, the range it is told as.
 */
struct cmp_need {
	int pairs;		/* at 80 %; 0 unknown; CMP_NEED_NEVER: more
				 * than -n takes (REPEATS_MAX) */
	int from, to;		/* at 60 % and at 90 %; to: CMP_NEED_MORE */
	double longer;		/* a rare event's count decides it likeliest:
				 * how many times the frames (more runs or
				 * longer ones); else 0 */
	char what[96];		/* ... and what was counted; else "" */
};
#define CMP_NEED_NEVER	(-1)
#define CMP_NEED_MORE	(-2)
/*
 * What would decide k undecided cells, into buf: most, the pairs
 * (repeats a file) the neediest that any would decide takes (0
 * unknown), never, how many none would (CMP_NEED_NEVER).
 */
void cmp_help_text(bool paired, int k, int most, int never, char *buf,
		   size_t n);
/* The end of a comparison: its inconclusive cells, what would decide them. */
void cmp_say_undecided(const struct cmp_pair *c, const struct cmp_metric *m,
		       const struct cmp_opts *o);
/* cc's need into nd: returns nd->pairs. */
int cmp_cell_need(const struct cmp_pair *c, const struct cmp_cell *cc,
		  const struct cmp_metric *m, const struct cmp_opts *o,
		  struct cmp_need *nd);
/*
 * The need as words into buf: "about 8 to 20 pairs would decide it",
 * "cannot be decided at this noise: ...", or "" (unknown).
 */
void cmp_need_text(const struct cmp_need *nd, bool paired, char *buf,
		   size_t n);

/*
 * Cell cc's row marks (core/rowmarks.h) in base a's file and new b's, into
 * side[0] and side[1] (none where a side has not got the cell): 0 or
 * -ENOMEM. A mark says the machine shaped the figures; it never changes a
 * verdict, it says how far to trust it.
 */
int cmp_cell_marks(const struct cmp_cell *cc, const struct result_file *a,
		   const struct result_file *b, struct rm_cell side[2]);
/* The marks as the cell carries them: "A busy 40 %, B busy 34 %". */
int cmp_cell_marks_text(const struct rm_cell side[2], char *buf, size_t n);

/* How many of a comparison's cells are marked, and with what. */
struct cmp_marked {
	int compared;			/* cells */
	int cells;			/* ... marked on either side */
	int decided;			/* ... and better, worse, mixed or
					 * unchanged: a verdict they weaken */
	int n[2][RM_KINDS];		/* cells with each mark, A's, B's */
};

/* c's cells' marks counted into mk: 0 or -ENOMEM. */
int cmp_marked_count(const struct cmp_pair *c, const struct result_file *a,
		     const struct result_file *b, struct cmp_marked *mk);
/*
 * What mk means for the verdict, one sentence without its end: "38 of 40
 * cells compared carry row marks (A: busy 38; B: busy 38), 3 of them
 * with a verdict the data gave ...: a marked cell's figures include ...".
 */
void cmp_marked_text(const struct cmp_marked *mk, char *buf, size_t n);
/* ... under compare's summary, folded; nothing when no cell is marked. */
void cmp_marked_print(const struct cmp_marked *mk);

/* compare's options (compare.c), for --help and the completion. */
extern const struct opt compare_opts[];

/*
 * compare's outputs (compare_out.c): checked before anything is printed,
 * an input they would replace or two of them one file refused, and
 * --ktap - given standard output (o->ktap_std); 0, or -1 having said
 * why. Written by their renderers (outcome.h).
 */
int cmp_outputs_check(struct compare_options *o,
		      const struct cmp_side *sides, int n);

#endif
