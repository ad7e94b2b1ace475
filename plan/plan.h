/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan/plan.h - the run's model: the settings, the simulators and loads,
 * the cells in the order they run (plan.c), the outputs and the gates.
 * The command line makes it (cli.h); the run, the outputs and the
 * commands (cmd/) read it, without knowing how it was parsed.
 */
#ifndef INTERBENCH_PLAN_H
#define INTERBENCH_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include "core/cfg.h"
#include "core/figures.h"
#include "core/gate.h"
#include "core/load.h"
#include "core/sim.h"
#include "plan/late.h"

#define MAX_ITEMS	32	/* simulators, loads, simulator options given */
#define MAX_GATES	16

enum plan_action {
	PLAN_RUN, PLAN_HELP, PLAN_LIST, PLAN_VERSION, PLAN_COMPLETION
};

/* -n: at most REPEATS_MAX repeats (core/cfg.h). */
/* -n auto: at least this many passes (a verdict needs 3), 10 at most. */
#define AUTO_REPEATS_MIN	3
#define AUTO_REPEATS_MAX	10
/* -n auto stops when every cell's mean latency is known to this (%). */
#define AUTO_HALF_WIDTH_PCT	2.5

/* Names given to -w, -x, -W, -X, checked together at the end. */
struct picks {
	const struct sim_desc *want_sim[MAX_ITEMS], *skip_sim[MAX_ITEMS];
	const struct load_desc *want_load[MAX_ITEMS], *skip_load[MAX_ITEMS];
	int nws, nxs, nwl, nxl;
};

struct plan {
	enum plan_action action;
	struct run_cfg cfg;
	bool calibrate;			/* -b */
	bool loops_given;		/* -l */
	bool console_only;		/* -c */
	bool keep_files;		/* --keep-files */
	bool verbose;			/* -v */
	bool have_cpu, have_interval;	/* -C, -I */
	bool custom;			/* -C and -I given */
	bool dry_run;			/* --dry-run */
	const char *comment;		/* -m */
	const char *tag;		/* --tag */
	char args[1024];		/* the command line, for the log */
	const struct sim_desc *sims[MAX_ITEMS];	/* benchmarked, in order */
	int nsims;
	const struct load_desc *loads[MAX_ITEMS];
	int nloads;
	void *sim_opts[MAX_ITEMS];	/* by index in simulators[] */
	bool sim_opts_given[MAX_ITEMS];
	struct { const char *name, *value; } given[MAX_ITEMS];
	int ngiven;			/* simulators' options given */
	int repeats;			/* -n; with auto, the most */
	bool auto_repeats;		/* -n auto[:MAX] */
	bool repeats_given;		/* -n */
	const char *json_path;		/* --json */
	const char *csv_path;		/* --csv */
	const char *junit_path;		/* --junit */
	const char *html_path;		/* --html */
	const char *kcidb_path;		/* --kcidb */
	const char *ktap_path;		/* --ktap: "-" standard output */
	const char *trace_out_path;	/* --trace-out: implies --trace */
	bool allow_concurrent;		/* --allow-concurrent */
	bool trace;			/* --trace */
	bool trace_timer;		/* --trace-timer: its events too */
	bool trace_alternate;		/* --trace-alternate: half the repeats */
	bool bench_policy_given;	/* --bench-policy */
	bool dma_given;			/* --dma-latency */
	int dma_latency_us;
	int trace_frames;		/* --trace-frames */
	uint64_t breaktrace_ns;		/* --breaktrace; 0: none */
	struct late_rule late[LATE_RULES];	/* --on-late */
	int nlate;
	int late_max;			/* --on-late-max; 0: the default */
	struct gate gates[MAX_GATES];	/* --fail-if */
	bool remeasure_on;		/* --remeasure-if given */
	struct gate remeasure_if;	/* measure a cell again while so */
	int remeasure_max;		/* --remeasure: more attempts at most */
	bool remeasure_given;
	int ngates;
	int per_pass;			/* cells in one pass of the matrix */
	int cells;			/* in all: per_pass x repeats */
	struct picks picks;
};

/* Defaults, and every simulator's option block. 0 or -ENOMEM. */
int plan_init(struct plan *p);
void plan_free(struct plan *p);
/* The simulator options block of s in p, or NULL. */
const void *plan_sim_opts(const struct plan *p, const struct sim_desc *s);
/*
 * Is repeat traced? Every one, but with --trace-alternate half: in pairs
 * of passes, traced first in the even pairs and last in the odd ones
 * (T U U T T U ...), so that neither is always first and neighbouring
 * passes of the same kind (U U, T T) give an A/A of the same spacing.
 */
bool plan_traced(const struct plan *p, int repeat);
/* Cell i (0-based, in run order) of the matrix: its pass and what runs. */
void plan_cell(const struct plan *p, int i, int *repeat,
	       const struct sim_desc **sim, const struct load_desc **load);
/*
 * After the options: the simulators and loads to run from -W/-X/-w/-x,
 * the simulators' options checked together, the cells counted. plan.c.
 * 0, or -EINVAL with a one-line message in err.
 */
int plan_build(struct plan *p, char *err, size_t n);
/* Is p among v[0..n-1]? */
bool ptr_in(const void *const *v, int n, const void *p);
/*
 * Does the matrix have the cell (sim, load)? A task never loads itself,
 * but under a LOAD_UNDER_SELF load (RtApp: each its own file).
 */
bool plan_has(const struct sim_desc *sim, const struct load_desc *load);
/*
 * Each simulator's own notes on the run (sim_desc.notes), in the table's
 * order: as it starts (start), or in --dry-run's plan.
 */
void plan_notes(const struct plan *p, bool start, out_fn out, void *ctx);

/*
 * -W/-w name:ARG, a simulator whose descriptor has take (RtApp's
 * rtapp:FILE): NULL when val names none such; else it, with ARG read
 * into p's option block for it (*e 0) or *e -errno and one line in err.
 */
const struct sim_desc *plan_take_arg(struct plan *p, const char *val,
				     bool load, int *e, char *err, size_t n);

/*
 * -n auto's test (auto.c), on any run's results so far: every cell's
 * latency decision figures (compare's p50, p99, max) known to
 * AUTO_HALF_WIDTH_PCT, a 95 % interval's half width on the log scale.
 */
struct result;
struct plan_auto_cell {
	const struct sim_desc *sim;
	const struct load_desc *load;
	int fig;		/* enum fig_id */
	int k;			/* its measured repeats */
	double half;		/* the half width (log scale); NAN below 2 */
};
/* The latency decision figures into f (at most max): how many. */
int plan_lat_decisions(int *f, int max);
/* AUTO_HALF_WIDTH_PCT on the log scale. */
double plan_auto_limit(void);
/*
 * fn on each cell's latency decision figures in the plan's order; it
 * returns 0 for the cell's next figure, 1 for the next cell, < 0 to stop
 * (the walk's return).
 */
int plan_auto_walk(const struct plan *p, const struct result *res, int n,
		   int (*fn)(const struct plan_auto_cell *c, void *ctx),
		   void *ctx);
/*
 * Is every cell known well enough, with at least AUTO_REPEATS_MIN
 * measured repeats? A cell none of whose repeats measured is passed
 * over once there were AUTO_REPEATS_MIN passes: it cannot narrow.
 */
bool plan_auto_settled(const struct plan *p, const struct result *res,
		       int n);

#endif
