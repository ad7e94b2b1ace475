/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/opt.h - command-line options as data (opt.c): one table row per
 * option gives its parsing, its errors, its --help line, its shell
 * completion and the docs test's list, for interbench's own options,
 * each simulator's, compare's and report's.
 */
#ifndef INTERBENCH_OPT_H
#define INTERBENCH_OPT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OT_FLAG,		/* bool, set when given */
	OT_INT,			/* int in [min, max] */
	OT_UINT,		/* unsigned in [min, max] */
	OT_U64,			/* uint64_t: the whole number given x scale */
	OT_SECONDS,		/* uint64_t ns from decimal seconds in [min, max] */
	OT_DOUBLE,		/* double in [dmin, dmax]; what names it */
	OT_PATH,		/* const char *: a non-empty file name */
	OT_ENUM,		/* int: the index of the value in names[] */
	OT_CALL,		/* parse() does it */
	OT_ACTION,		/* --help, --list, --version: what to do instead */
};

/* What a shell may complete an option's value with (completion.c). */
enum opt_complete {
	OC_NONE,		/* names[] if any, files for OT_PATH, else nothing */
	OC_LOAD,		/* a load's name */
	OC_BENCH,		/* a simulator's name */
	OC_DIR,			/* a directory */
	OC_FIGURE,		/* a figure compare tests (--primary) */
};

/*
 * One command-line option: parsing, its error messages, --help, the
 * completion and the docs test all come from these tables (cli/cli.c for
 * interbench's own, a simulator's descriptor for its own, compare's and
 * report's in theirs). off is where the value goes in its table's base:
 * struct plan for interbench's options, the simulator's options block for
 * a simulator's, compare's or report's options struct for theirs.
 */
struct opt {
	const char *name;		/* long name, without "--" */
	int letter;			/* short option, or 0 */
	enum opt_type type;
	const char *arg;		/* e.g. "N"; NULL for a flag or action */
	const char *help;		/* lines after the first start with \n */
	size_t off;
	long long min, max;		/* OT_INT, OT_UINT, OT_U64 range */
	double dmin, dmax;		/* OT_SECONDS, OT_DOUBLE range */
	const char *what;		/* OT_DOUBLE: "a percentage >= 0" */
	uint64_t scale;			/* OT_U64: stored = given x scale (0: 1) */
	const char *const *names;	/* OT_ENUM: NULL-ended */
	/* OT_CALL: 0, or -EINVAL with what is wrong in err. */
	int (*parse)(void *base, const char *val, char *err, size_t n);
	size_t seen;			/* OPT_SEEN(): a bool set when given */
	enum opt_complete complete;	/* for the shell's completion */
	unsigned int flags;		/* OF_* below */
};

/* ab: a side may have it of its own (--a-opts, --b-opts; cli/ab.c). */
#define OF_SIDE		0x1

/*
 * Values several commands' options share, one place for their range and
 * their error: a row is { .name = "alpha", OPT_ALPHA, .off = ... }.
 * OPT_ALPHA a false discovery rate (compare's, trend's and ab's --alpha),
 * OPT_PCT a change in % (--min-change, --threshold), OPT_POINTS one in
 * percentage points (--min-points).
 */
#define OPT_ALPHA	.type = OT_DOUBLE, .dmin = 1e-9, .dmax = 0.5, \
			.what = "a probability above 0, at most 0.5"
#define OPT_PCT		.type = OT_DOUBLE, .dmin = 0, .dmax = HUGE_VAL, \
			.what = "a percentage >= 0"
#define OPT_POINTS	.type = OT_DOUBLE, .dmin = 0, .dmax = 100, \
			.what = "a number of points from 0 to 100"

/* A bool in the options block that says the option was given. */
#define OPT_SEEN(type, field)	(offsetof(type, field) + 1)

/*
 * Parse val as o asks into base + o->off: 0, or -EINVAL with what is
 * wrong in err (without the option's name).
 */
int opt_set(const struct opt *o, void *base, const char *val, char *err,
	    size_t n);

/* One table of a command's options and where its values go. */
struct opt_table {
	const struct opt *opts;		/* ends with a NULL name */
	void *base;
};

/*
 * Told of every option given, after its value is set (OT_ACTION: only
 * told): 0 to go on, 1 to stop parsing, or -EINVAL with what is wrong.
 */
typedef int (*opt_seen_fn)(void *ctx, int table, const struct opt *o,
			   const char *val, char *err, size_t n);

/*
 * Parse argv[1..argc) by the tables with getopt_long: options anywhere,
 * "--" ends them, the other words are left from argv[*rest] on, in order.
 * cmd is how "(see CMD--help)" names the command: "" or "compare ".
 * Returns 0, 1 when seen() stopped it, or -EINVAL with err set.
 */
int opt_parse(const struct opt_table *t, int nt, int argc, char **argv,
	      const char *cmd, opt_seen_fn seen, void *ctx, int *rest,
	      char *err, size_t n);

/* An opt_seen_fn for a command whose only action is --help: sets the
 * bool at ctx and stops. */
int opt_seen_action(void *ctx, int table, const struct opt *o,
		    const char *val, char *err, size_t n);

/* A subcommand: its name, options (for the completion) and main. */
struct opt_cmd {
	const char *name;
	const struct opt *opts;		/* ends with a NULL name */
	int (*main)(int argc, char **argv);	/* argv[0] is its name */
};

/*
 * "Did you mean": the name nearest a word that named nothing. Offer it
 * each candidate in turn (opt_near_try); opt_near_best() is the nearest
 * within a few edits (case ignored; a letter added, dropped, changed, or
 * two next to each other swapped), the first of those as near, or NULL.
 */
struct opt_near {
	const char *word;
	const char *best;
	int dist;
};
void opt_near_init(struct opt_near *nr, const char *word);
void opt_near_try(struct opt_near *nr, const char *name);
const char *opt_near_best(const struct opt_near *nr);
/* The edits between a and b (case ignored; optimal string alignment). */
int opt_distance(const char *a, const char *b);

/* "-l" for an option with a letter, "--json" for one without. */
void opt_display(const struct opt *o, char *buf, size_t n);
/* The width of --help's options column: at least width, or o's longest. */
int opt_help_width(const struct opt *o, int width);
/* --help's lines of a table: "  -l, --loops-per-ms N  use N ...". */
void opt_help(FILE *f, const struct opt *o, int width);

#endif
