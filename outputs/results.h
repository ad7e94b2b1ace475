/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outputs/results.h - the result files: JSON (the whole run, kept valid after
 * every cell) and CSV (a row per result), both written from the table of
 * figures.
 */
#ifndef INTERBENCH_RESULTS_H
#define INTERBENCH_RESULTS_H

#include <stdio.h>
#include <sys/types.h>
#include "plan/plan.h"
#include "plan/ab.h"
#include "core/figures.h"
#include "lib/json.h"
#include "lib/system.h"
#include "run/machine.h"
#include "lib/cpuwork.h"

/* Everything about the run the JSON header says. */
struct results_info {
	const struct plan *plan;
	const struct sysinfo_ib *sys;
	const struct calibration *cal;
	char started[32], finished[32];	/* ISO 8601 UTC; finished "" */
	const char *interrupted;	/* NULL, or e.g. "signal 2" */
	bool concurrent;		/* another run held the lock at start */
	pid_t concurrent_pid;		/* its pid; 0 when not visible */
	bool other_user;		/* that run is another user's */
	uid_t other_uid;		/* whose */
	const struct tracer *trace;	/* --trace, or NULL */
	const char *breaktrace_file;	/* --breaktrace saved it there */
	const struct onlate_log *late;	/* --on-late: what it did */
	const struct ab_plan *ab;	/* `interbench ab`, or NULL */
	const char *load_where;		/* --load-group, as made */
	int ab_side;			/* which of its sides this file is */
	pid_t pid;			/* the run's, in its KCIDB ids; 0 none */
};

/*
 * The JSON file while a run goes on. Each result is written over the
 * document's closing lines, followed by them again: a write as large as
 * what the result adds, and the file is a whole document after each.
 */
struct results_json {
	const char *path;
	int fd;				/* -1: not open */
	off_t tail_at;			/* where the closing lines start */
	struct jw w;			/* the writer's state in "results" */
	int err;			/* the first failure, -errno */
};

/* Write the document with no results yet: 0 or -errno. */
int results_json_begin(struct results_json *o, const char *path,
		       const struct results_info *ri);
/* Add a result: 0 or -errno. */
int results_json_add(struct results_json *o, const struct result *r);
/*
 * Write the whole document anew (into a new file renamed over path, so
 * the file is always complete), now that the run has ended: 0 or -errno.
 */
int results_json_end(struct results_json *o, const struct results_info *ri,
		     const struct result *res, int n);

/*
 * The whole document as it would be written now, in memory (malloc'd
 * text and its length), for the pictures of a run: 0 or -errno.
 */
int results_json_text(const struct results_info *ri, const struct result *res,
		      int n, char **text, size_t *len);

/* The JSON's system object (results_sys.c). */
struct jw;
void results_system(struct jw *w, const struct results_info *ri);

/* An explained frame's picture, "picture" (results_pic.c). */
struct why_frame;
void results_picture(struct jw *w, const struct why_frame *f);

void results_csv_header(FILE *f);
void results_csv_row(FILE *f, const struct result *r);

#endif
