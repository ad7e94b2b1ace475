/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/figures.h - the table of figures (core/figtable.h), and the results
 * made of them.
 *
 * A result is one cell (a simulator benchmarked under a load) measured
 * once: one repeat. A row is a cell over its repeats: the medians.
 */
#ifndef INTERBENCH_FIGURES_H
#define INTERBENCH_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/figtable.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"

struct why_frame;

/* ---- results -------------------------------------------------------- */

/* What happened to a cell in one repeat. */
enum result_status {
	RES_OK,
	RES_SKIPPED,		/* the load could not be set up */
	RES_FAILED,		/* the benchmark reported an error */
	RES_TIMEOUT,		/* the benchmark did not finish in time */
	RES_LOAD_DIED,		/* the load died or gave up during the cell */
};

struct hist_bucket {
	uint32_t bucket;	/* index, see stats.h */
	uint64_t count;
};

/* One cell measured once. */
/* --remeasure-if: the most attempts after the first. */
#define REMEASURE_MAX	10

/* One attempt at a cell, as --remeasure-if saw it. */
struct attempt {
	int status;			/* enum result_status */
	double value;			/* the condition's figure */
	double steal_pct;		/* the host's steal, for everyone */
	double lat_mean, lat_p99;	/* ns: what the attempt measured */
};

struct result {
	const struct sim_desc *sim;	/* the simulator benchmarked */
	const struct load_desc *load;
	int repeat;			/* 1-based */
	enum result_status status;
	char why[192];			/* what went wrong, if not RES_OK */
	char note[96];			/* how it ran, from the simulator */
	double v[F_COUNT];		/* the figures; NaN where unknown */
	double *sim_v;			/* sim->figures' values, or NULL */
	double work_rate[WORK_KINDS];	/* per second, during the bench */
	struct {			/* the simulated thread's class, as */
		bool seen;		/* the kernel reported it (periodic */
		int policy;		/* and greedy simulators) */
		uint64_t slice_ns, runtime_ns, period_ns;
	} sched;
	uint64_t win_ns;		/* worst-by-window width; 0: none */
	int nwin;			/* windows up to the last measured */
	uint64_t win[WIN_SLOTS];	/* worst latency, or WIN_EMPTY */
	struct hist_bucket *hist;	/* latency, non-empty buckets */
	uint32_t nhist;
	void *kept;			/* sim->keep()'s, or NULL */
	/* --trace: the worst frames explained (trace.h), worst first */
	bool traced;
	struct why_frame *explained;
	int nexplained;
	int why_err;			/* -errno: the trace could not be read */
	uint64_t trace_lost;		/* events the trace lost in the cell */
	char throttled_by[160];		/* the quota that throttled; "" */
	/* --remeasure-if: every attempt; v is attempt[chosen]'s. 0: off */
	int nattempts, chosen;
	struct attempt attempt[1 + REMEASURE_MAX];
};

/* Read the figures of res into r (allocates). 0 or -ENOMEM. */
int result_from_sim(struct result *r, const struct sim_result *res);
void result_free(struct result *r);
/* The status as the JSON and CSV say it: "ok" or what went wrong. */
const char *result_status_text(const struct result *r);

/* Did the host steal more than STEAL_MARK_PCT of the CPU time (v)? */
static inline bool steal_marked(double v)
{
	return v > STEAL_MARK_PCT;
}

/* Did other tasks use more than BUSY_MARK_PCT of the run's CPU time? */
static inline bool busy_marked(double v)
{
	return v > BUSY_MARK_PCT;
}

/* Did the run's cgroup's quota take more than THROTTLE_MARK_PCT? */
static inline bool throttle_marked(double v)
{
	return v > THROTTLE_MARK_PCT;
}

/* ---- rows: a cell over its repeats ----------------------------------- */

struct row {
	const struct sim_desc *sim;
	const struct load_desc *load;
	int n, ok;			/* repeats run, and measured */
	const struct result *bad;	/* the first that was not */
	double v[F_COUNT];		/* medians over the ok repeats */
	double mean_lo, mean_hi;	/* range of the mean over repeats */
	int remeasured;			/* repeats measured more than once */
	double work_rate[WORK_KINDS];	/* medians */
	int marked;			/* ok repeats its sim marked */
	char mark[160];			/* the first one's mark (sim->mark) */
};

/* The row of (sim, load) from n results. 0 or -ENOMEM. */
int make_row(struct row *w, const struct result *res, int n,
	     const struct sim_desc *sim, const struct load_desc *load);

/*
 * How figure f of (sim, load) spreads over its measured repeats, as
 * compare sees it: the mean and SD of its logarithms. Returns how many
 * repeats had it (SD is NaN below 2).
 */
int row_spread(const struct result *res, int n, const struct sim_desc *sim,
	       const struct load_desc *load, enum fig_id f, double *mean,
	       double *sd);

#endif
