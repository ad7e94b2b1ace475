/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - the figures of finished cells and the machine-readable
 * results (JSON, CSV) written from them.
 */
#ifndef INTERBENCH_REPORT_H
#define INTERBENCH_REPORT_H

#include <stdio.h>
#include "interbench.h"

/* What happened to a cell. */
enum cell_status {
	CELL_OK,
	CELL_SKIPPED,		/* the load could not be set up */
	CELL_FAILED,		/* the benchmark reported an error */
	CELL_TIMEOUT,		/* the benchmark did not finish in time */
	CELL_LOAD_DIED,		/* the load died or gave up during the cell */
};

/* A latency distribution summed up, in ns. */
struct lat_summary {
	uint64_t count, min, max;
	double mean, sd;
	uint64_t p50, p90, p99, p999;
};

struct hist_bucket {
	uint32_t bucket;	/* index, see stats.h */
	uint64_t count;
};

/* Latency percentiles cyclictest's and stress-ng's users look for. */
#define EXTRA_PCTS	9
extern const double extra_pcts[EXTRA_PCTS];	/* 25 ... 99.99 */

/* What details-printing simulators show beyond the row, kept compact. */
struct cell_extra {
	char note[96];			/* how it ran, from the simulator */
	uint64_t pct[EXTRA_PCTS];	/* latency at extra_pcts[], ns */
	uint64_t mode;			/* fullest latency bucket, ns */
	uint64_t rate_count, rate_min, rate_p20, rate_p50, rate_p90,
		 rate_max;		/* per-second rates (Server) */
	uint64_t dist_width_ns;		/* 0: no distribution */
	uint64_t *dist;			/* DIST_BINS counts, or NULL */
};

/* One finished cell of one repeat. */
struct cell {
	const struct sim_desc *bench;
	const struct load_desc *load;
	int repeat;			/* 1-based */
	enum cell_status status;
	char why[192];			/* what went wrong, if not CELL_OK */
	struct lat_summary lat, timer, wakeup;
	uint64_t frames, frames_met, frames_dropped;
	double desired_pct;		/* NaN when nothing was asked */
	double met_pct;			/* NaN: no deadlines */
	double work_rate[WORK_KINDS];	/* per second, during the bench */
	struct hist_bucket *hist;	/* latency, non-empty buckets */
	uint32_t nhist;
	/* For simulators that print details (Cyclic, Server); else NULL. */
	struct cell_extra *extra;
};

/* Mode of a latency distribution: the fullest bucket's midpoint (ns). */
uint64_t stats_mode(const struct lat_stats *s);

/* Sum up a benchmark's result into c (allocates c->hist). 0 or -ENOMEM. */
int cell_from_result(struct cell *c, const struct bench_result *res);
void cell_free(struct cell *c);
/* The status as the JSON and CSV say it: "ok" or what went wrong. */
const char *cell_status_text(const struct cell *c);

/* What the JSON says about the machine, read once at start. */
struct sysinfo_ib {
	char sysname[65], release[65], version[129], machine[65];
	char hostname[65];
	char cpu_model[128];		/* "" unknown */
	int cpus_online;
	int smt;			/* 1, 0, or -1 unknown */
	char governor[32];		/* "" unknown */
	char preempt[32];		/* "" unknown */
	char clocksource[32];		/* "" unknown */
	long long mem_total_kb, swap_total_kb;	/* -1 unknown */
};

void sysinfo_read(struct sysinfo_ib *si);

/* Everything about the run the JSON header needs. */
struct run_info {
	const char *command_line;
	char started[32], finished[32];	/* ISO 8601 UTC; finished "" */
	const char *interrupted;	/* NULL, or e.g. "signal 2" */
	const struct sysinfo_ib *sys;
	const struct run_cfg *cfg;
	const struct calibration *cal;
	bool rt_ok;
	int repeats;
	const struct sim_desc *const *bench;
	int nbench;
	const struct load_desc *const *load;
	int nload;
	const char *comment;
	int nsimopts;			/* simulators' own options given */
	const char *simopt_name[32], *simopt_value[32];
};

/*
 * Write the whole document to path via path.tmp and rename(), so that the
 * file on disk is always complete and valid. 0 or -errno.
 */
int json_write_results(const char *path, const struct run_info *ri,
		       const struct cell *cells, int n);

void csv_header(FILE *f);
void csv_row(FILE *f, const struct cell *c);

/* ISO 8601 UTC time of now into buf. */
void iso_now(char *buf, size_t n);

#endif
