/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outputs/sink.h - the one contract every result file of a run keeps, as
 * fio's I/O engines share one ops table: --json, --csv, --junit, --kcidb
 * and --ktap here (sink.c), --html in html.c, --trace-out in tef.c. The
 * run's outputs are a loop over a table of them (session/outputs.c).
 *
 * A sink hears of the run in this order, each op 0 or -errno, a missing
 * op nothing to do there:
 *   open   at the end of the checks, before anything is measured: the
 *          file made (the CSV, which grows in place); a failure stops
 *          the run before it starts;
 *   begin  the run has started, its calibration known: the head;
 *   add    a result is in: res[n - 1], after the n - 1 before it;
 *   end    the run is over or was stopped: the file whole, closed.
 * Whatever fails after open is the caller's to say, once a sink, and
 * makes the run's exit status 3 at the end.
 */
#ifndef INTERBENCH_SINK_H
#define INTERBENCH_SINK_H

#include <stdbool.h>
#include <stdio.h>
#include "outputs/results.h"

struct out_tef;
struct result_file;

/*
 * --html's drawer: the page of a run's result file into path, 0 or
 * -errno. It is the judge tower's (report/), handed down by cmd/, so
 * that this tower does not include it.
 */
typedef int (*out_page_fn)(const char *path, const struct result_file *rf);

/* One sink's state in a run: zeroed before its first op. */
struct output_sink {
	const char *path;		/* the file; NULL: not asked for */
	bool warned;			/* a failure said: not said again */
	out_page_fn draw;		/* --html's drawer, set with path */
	union {
		struct results_json json; /* --json's, from begin */
		FILE *f;		/* --csv's stream, from open; --ktap -'s */
		struct out_tef *tef;	/* --trace-out's events, from open */
		struct {		/* --html's, from open: */
			uint64_t began;	/* when the run began, and the */
			uint64_t spent;	/* time its pages took, in ns */
		} page;
	};
};

struct output_sink_ops {
	const char *name;		/* its option, "--json" */
	bool std;			/* "-" is standard output: its state's
					 * f, set before the run prints */
	int (*open)(struct output_sink *s);
	int (*begin)(struct output_sink *s, const struct results_info *ri,
		     const struct result *res, int n);
	int (*add)(struct output_sink *s, const struct results_info *ri,
		   const struct result *res, int n);
	int (*end)(struct output_sink *s, const struct results_info *ri,
		   const struct result *res, int n);
};

extern const struct output_sink_ops output_sink_json, output_sink_csv,
	output_sink_junit, output_sink_kcidb, output_sink_ktap;
/* --trace-out's Trace Event Format file (outputs/tef.c) */
extern const struct output_sink_ops output_sink_tef;
/* --html's page (outputs/html.c), drawn by the sink's draw */
extern const struct output_sink_ops output_sink_html;

/*
 * A run's page from its results, as --html draws it, by draw: 0 or
 * -errno (-ENOTSUP: no drawer).
 */
int out_page(const char *path, out_page_fn draw,
	     const struct results_info *ri, const struct result *res, int n);

#endif
