// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Server: its options, figures and detail, and its place in the table of
 * simulators (sim_server). What a request is and how the Server runs
 * them, as schbench does: server_run.c.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>
#include "core/figures.h"
#include "lib/base.h"
#include "lib/opt.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/sim.h"
#include "simulators/engine.h"
#include "simulators/server_priv.h"

/* ---- options -------------------------------------------------------- */

#define SO(field)	offsetof(struct server_opts, field)

static const struct opt server_opts_list[] = {
	{ .name = "server-threads", .type = OT_INT, .arg = "N",
	  .help = "message threads (default 1, 1-64)", .off = SO(threads),
	  .min = 1, .max = SERVER_MAX_THREADS },
	{ .name = "server-workers", .type = OT_INT, .arg = "N",
	  .help = "workers per message thread (default: the\n"
		  "CPUs shared out, rounded up; 1-1024)",
	  .off = SO(workers), .min = 1, .max = SERVER_MAX_WORKERS },
	{ .name = "server-footprint", .type = OT_INT, .arg = "KB",
	  .help = "cache footprint of a worker's matrices\n"
		  "(default 256, 4-65536)", .off = SO(footprint_kb), .min = 4, .max = 65536 },
	{ .name = "server-ops", .type = OT_INT, .arg = "N",
	  .help = "matrix multiplications per request (default 5,\n"
		  "1-1000)",
	  .off = SO(ops), .min = 1, .max = 1000 },
	{ .name = "server-lock", .type = OT_FLAG,
	  .help = "spin on a per-CPU lock during a request's\n"
		  "matrix work (the default, as schbench's)",
	  .off = SO(lock) },
	{ .name = "server-no-lock", .type = OT_FLAG,
	  .help = "no lock (schbench -L)", .off = SO(no_lock) },
	{ .name = "server-rps", .type = OT_INT, .arg = "N",
	  .help = "N requests a second, handed out at the start\n"
		  "of each (schbench -R; default: as fast as served)",
	  .off = SO(rps), .min = 1, .max = 1000000 },
	{ .name = "server-sleep", .type = OT_INT, .arg = "US",
	  .help = "the sleep at each request's start (default\n"
		  "100, 0-1000000)",
	  .off = SO(sleep_us), .min = 0, .max = 1000000 },
	{ .name = "server-budget", .type = OT_INT, .arg = "US",
	  .help = "request deadline (default 20000, 1-60000000)",
	  .off = SO(budget_us), .min = 1, .max = 60000000 },
	{ .name = NULL },
};

static void server_opts_init(void *opts, const struct run_cfg *cfg)
{
	struct server_opts *o = opts;

	o->threads = 1;
	o->workers = 0;
	o->cpus = cfg->cpus < 1 ? 1 : cfg->cpus;
	o->footprint_kb = 256;
	o->ops = 5;
	o->lock = true;
	o->no_lock = false;
	o->rps = 0;
	o->sleep_us = 100;
	o->budget_us = 20000;
}

/* Memory one worker takes: its matrices, its figures and its stack. */
static unsigned long long worker_bytes(const struct server_opts *o)
{
	size_t d = server_matrix_dim(o->footprint_kb);

	return 3ULL * d * d * sizeof(unsigned long) +
	       2ULL * sizeof(struct lat_stats) + SERVER_STACK;
}

static int server_opts_check(const void *opts, char *err, size_t n)
{
	const struct server_opts *o = opts;
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	unsigned long long need, ram;
	int total = o->threads * server_workers(o);

	if (total > SERVER_MAX_TOTAL) {
		snprintf(err, n, "%d message threads x %d workers is %d "
			 "workers, more than %d", o->threads, server_workers(o),
			 total, SERVER_MAX_TOTAL);
		return -EINVAL;
	}
	/* The sleep alone would miss every deadline. */
	if (o->budget_us <= o->sleep_us) {
		snprintf(err, n, "--server-budget %d us is not more than the "
			 "--server-sleep of %d us", o->budget_us, o->sleep_us);
		return -EINVAL;
	}
	if (pages <= 0 || page <= 0)
		return 0;
	need = (unsigned long long)total * worker_bytes(o);
	ram = (unsigned long long)pages * (unsigned long long)page;
	if (need > ram / 2) {
		snprintf(err, n, "%d workers with --server-footprint %d need "
			 "%llu MiB, more than half the RAM (%llu MiB)", total,
			 o->footprint_kb, need >> 20, ram >> 20);
		return -EINVAL;
	}
	return 0;
}

/* ---- figures and details ------------------------------------------- */

/* Requests per second: known when the run had a whole second. */
static double server_rate(const struct figure *f, const struct sim_result *r)
{
	return r->per_sec.count ? fig_stat(f, r) : NAN;
}

#define RATE(k, a)							\
	{ "rate_per_s", k, NULL, "requests per second " k, FU_COUNT,	\
	  FB_HIGHER, FIG_OMIT, server_rate, SR(per_sec), a, NULL }

/* The order of server_figures[]. */
enum { SF_NOTE, SF_PCTS, SF_MODE = SF_PCTS + IB_FIG_MORE_PCTS_N, SF_SECS,
       SF_MIN, SF_P20, SF_P50, SF_P90, SF_MAX };

static const struct figure server_figures[] = {
	IB_FIG_NOTE,
	IB_FIG_MORE_PCTS,
	IB_FIG_MODE,
	RATE("samples", FS_COUNT),
	RATE("min", FS_MIN),
	RATE("p20", 20),
	RATE("p50", 50),
	RATE("p90", 90),
	RATE("max", FS_MAX),
};

/* One latency distribution of the table of figures, from its count. */
static void print_lat(out_fn out, void *ctx, const char *what,
		      const struct result *r, enum fig_id count,
		      const char *unit)
{
	const double *v = &r->v[count], us = NSEC_PER_USEC;

	/* The distribution's figures follow its count in the table. */
	if (!v[0]) {
		out(ctx, "          %s latency (us): none\n", what);
		return;
	}
	out(ctx, "          %s latency (us): p50 %.1f, p90 %.1f, p99 %.1f, "
	    "p99.9 %.1f, min %.1f, max %.1f; %llu %s\n", what,
	    v[F_LAT_P50 - F_LAT_COUNT] / us, v[F_LAT_P90 - F_LAT_COUNT] / us,
	    v[F_LAT_P99 - F_LAT_COUNT] / us,
	    v[F_LAT_P99_9 - F_LAT_COUNT] / us,
	    v[F_LAT_MIN - F_LAT_COUNT] / us, v[F_LAT_MAX - F_LAT_COUNT] / us,
	    (unsigned long long)v[0], unit);
}

static void server_detail(const struct result *r, const void *opts,
			  out_fn out, void *ctx)
{
	const struct server_opts *o = opts;
	const double *x = r->sim_v;
	uint64_t dropped = (uint64_t)r->v[F_FRAMES_DROPPED];
	size_t d;

	if (!x || !o)
		return;
	print_lat(out, ctx, "wakeup", r, F_WAKEUP_COUNT, "wakeups");
	print_lat(out, ctx, "request", r, F_LAT_COUNT, "requests");
	if (dropped)
		out(ctx, "          %llu request%s given up at the end, past "
		    "the deadline\n", (unsigned long long)dropped,
		    dropped == 1 ? "" : "s");
	if (!isnan(x[SF_SECS]))
		out(ctx, "          requests per second: p20 %.0f, p50 %.0f, "
		    "p90 %.0f, min %.0f, max %.0f; %.0f second%s\n",
		    x[SF_P20], x[SF_P50], x[SF_P90], x[SF_MIN], x[SF_MAX],
		    x[SF_SECS], x[SF_SECS] == 1 ? "" : "s");
	else
		out(ctx, "          requests per second: none (the run was "
		    "shorter than a second)\n");
	d = server_matrix_dim(o->footprint_kb);
	out(ctx, "          settings: %d message thread%s x %d workers, "
	    "%d KB footprint (%zu x %zu matrices), %d ops, %s, %d us "
	    "sleep, %d us budget", o->threads, o->threads == 1 ? "" : "s",
	    server_workers(o), o->footprint_kb, d, d, o->ops,
	    o->no_lock ? "no lock" : "per-CPU lock", o->sleep_us,
	    o->budget_us);
	if (o->rps)
		out(ctx, ", %d requests a second", o->rps);
	out(ctx, "\n");
}

/* The last requests may finish a budget after the run. */
static uint64_t server_grace(const struct run_cfg *cfg, const void *opts)
{
	(void)cfg;
	/* Setting up the workers comes before the run's clock starts. */
	return (uint64_t)((const struct server_opts *)opts)->budget_us *
	       NSEC_PER_USEC + SERVER_START_NS;
}

const struct sim_desc sim_server = {
	.name = "Server",
	.summary = "schbench-like requests: wakeup and request latency, RPS",
	.flags = SIM_DEADLINES | SIM_NAMED,
	.run = server_run,
	.opts = server_opts_list,
	.opts_size = sizeof(struct server_opts),
	.opts_init = server_opts_init,
	.opts_check = server_opts_check,
	.figures = server_figures,
	.nfigures = sizeof(server_figures) / sizeof(server_figures[0]),
	.detail = server_detail,
	.grace_ns = server_grace,
};
