/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/figtable.h - the table of figures (figures.h, which includes it,
 * adds the results and rows made of them; figures.c implements both).
 *
 * A figure is one number a result has: its mean latency, its p99, its %
 * deadlines met. Each is described once, in IB_FIGURES below (or, for a
 * simulator's own, in its descriptor's figures[]): its JSON key, its name
 * for --fail-if and the -v columns, its unit, which way is better, where
 * it goes, and how it is read from a simulator's raw sim_result. The
 * tables, the JSON, the CSV, the gates, compare and the tests' reader are
 * all driven by it: adding a figure is one row plus the code that
 * measures it.
 */
#ifndef INTERBENCH_FIGTABLE_H
#define INTERBENCH_FIGTABLE_H

#include <stddef.h>
#include "core/raw.h"
#include "core/sim.h"

struct jw;
struct result;

enum fig_unit {
	FU_COUNT,	/* a whole number; the JSON writes it as one */
	FU_NS,		/* a time in ns; JSON and CSV in us, tables ms or us */
	FU_PCT,		/* a percentage */
	FU_NS_MS,	/* a time in ns; JSON and CSV in ms (frame times) */
	FU_HZ,		/* a rate per second (frames per second) */
};

/* A time (kept in ns, gates need a unit)? */
static inline bool figure_is_time(const struct figure *f);
/* The value as the JSON and CSV give it: us or ms for times. */
double figure_out(const struct figure *f, double v);
/* The name of that unit: "us", "ms", "%", "fps" or "". */
const char *figure_out_unit(const struct figure *f);

enum fig_better { FB_NONE, FB_LOWER, FB_HIGHER };

/* Where a figure goes, beyond the JSON every figure is in. */
#define FIG_CSV		0x01	/* a CSV column */
#define FIG_GATE	0x02	/* --fail-if can test it (by name) */
#define FIG_COMPARE	0x04	/* compare tests it */
#define FIG_VERBOSE	0x08	/* a -v column of the tables (by name) */
#define FIG_OMIT	0x10	/* unknown (NaN): left out of the JSON, not null */
#define FIG_DEADLINES	0x20	/* tables show it for SIM_DEADLINES tasks only */
#define FIG_OPTIONAL	0x40	/* newer than the first result files: may lack it */
/*
 * compare decides a cell on it (with FIG_COMPARE): what a user perceives,
 * the typical latency, the tail, the misses, the frames' lows and the CPU
 * a task got (doc/compare.txt says why these).
 */
#define FIG_DECIDE	0x80
/*
 * Its question is tested on counted frames instead (compare/verdict.c:
 * the misses on the deadlines missed in each run): with FIG_DECIDE, its
 * interval still says whether a cell is unchanged, but it is no test of
 * the cell's verdict.
 */
#define FIG_COUNTED	0x100

struct figure {
	const char *group;	/* the JSON object it is in; NULL: the result */
	const char *key;	/* JSON key; the CSV column is made from both */
	/*
	 * Short name: the -v column header and the --fail-if metric;
	 * alternatives after '|' (e.g. "p99.9|p999"); NULL for none.
	 */
	const char *name;
	const char *label;	/* says what it is, e.g. "p99 latency" */
	enum fig_unit unit;
	enum fig_better better;
	unsigned flags;
	/* How it is read from a simulator's raw result: NaN when unknown. */
	double (*get)(const struct figure *f, const struct sim_result *r);
	size_t off;		/* e.g. offsetof(struct sim_result, latency) */
	double arg;		/* e.g. the percentile, or a FS_ statistic */
	/* Optional: written as JSON of its own (not a number), e.g. text. */
	void (*json)(struct jw *w, const struct figure *f,
		     const struct result *r);
};

static inline bool figure_is_time(const struct figure *f)
{
	return f->unit == FU_NS || f->unit == FU_NS_MS;
}

/* Getters for the table: a statistic of the lat_stats at off, ... */
double fig_stat(const struct figure *f, const struct sim_result *r);
/* ... a uint64_t at off, ... */
double fig_u64(const struct figure *f, const struct sim_result *r);
/* the same, NaN where it is 0 (not known) */
double fig_u64_nonzero(const struct figure *f, const struct sim_result *r);
/* ... a double at off (NaN: unknown), ... */
double fig_double(const struct figure *f, const struct sim_result *r);
double fig_desired_pct(const struct figure *f, const struct sim_result *r);
double fig_met_pct(const struct figure *f, const struct sim_result *r);
/* ... the midpoint of the fullest bucket of the lat_stats at off, ... */
double fig_mode(const struct figure *f, const struct sim_result *r);
/*
 * ... frames per second from the frame times at off: arg 0 their mean,
 * else 1000 / the mean of the slowest arg % of frame times in ms.
 */
double fig_fps(const struct figure *f, const struct sim_result *r);
/* ... the stutters, where frame times were measured. */
double fig_stutters(const struct figure *f, const struct sim_result *r);
/* JSON of its own: the result's note, a string or null. */
void fig_json_note(struct jw *w, const struct figure *f,
		   const struct result *r);

/* fig_stat's arg: a percentile in [0, 100], or one of these. */
#define FS_COUNT	(-1)
#define FS_MEAN		(-2)
#define FS_SD		(-3)
#define FS_MIN		(-4)
#define FS_MAX		(-5)

#define SR(field)	offsetof(struct sim_result, field)

/*
 * A latency distribution's figures (group G, the lat_stats field F of
 * sim_result). Unknown when it has no samples, but for its count. X adds
 * flags to the figures that gates and compare use.
 */
#define IB_LAT_FIGURES(FIG, P, G, F, L, X)				\
	FIG(P##_COUNT, G, "count", NULL, L " samples", FU_COUNT, FB_NONE, \
	    0, fig_stat, SR(F), FS_COUNT)				\
	FIG(P##_MEAN, G, "mean", "mean|latency", "mean " L, FU_NS,	\
	    FB_LOWER, FIG_CSV | ((X) & (FIG_GATE | FIG_COMPARE)), fig_stat, \
	    SR(F), FS_MEAN)						\
	FIG(P##_SD, G, "sd", "sd", L " SD", FU_NS, FB_LOWER,		\
	    FIG_CSV | ((X) & FIG_GATE), fig_stat, SR(F), FS_SD)		\
	FIG(P##_MIN, G, "min", NULL, "min " L, FU_NS, FB_LOWER, FIG_CSV, \
	    fig_stat, SR(F), FS_MIN)					\
	FIG(P##_MAX, G, "max", "max", "max " L, FU_NS, FB_LOWER,	\
	    FIG_CSV | ((X) & (FIG_GATE | FIG_COMPARE | FIG_DECIDE)),	\
	    fig_stat, SR(F), FS_MAX)							\
	FIG(P##_P50, G, "p50", "p50", "p50 " L, FU_NS, FB_LOWER,	\
	    FIG_CSV | (X), fig_stat, SR(F), 50)				\
	FIG(P##_P90, G, "p90", "p90", "p90 " L, FU_NS, FB_LOWER,	\
	    FIG_CSV | ((X) & ~FIG_DECIDE), fig_stat, SR(F), 90)	\
	FIG(P##_P99, G, "p99", "p99", "p99 " L, FU_NS, FB_LOWER,	\
	    FIG_CSV | (X), fig_stat, SR(F), 99)				\
	FIG(P##_P99_9, G, "p99_9", "p99.9|p999", "p99.9 " L, FU_NS,	\
	    FB_LOWER, FIG_CSV | ((X) & (FIG_GATE | FIG_VERBOSE)), fig_stat,	\
	    SR(F), 99.9)

/*
 * The table of figures every result has, in the order of the JSON and the
 * CSV. FIG(id, group, key, name, label, unit, better, flags, get, off, arg)
 */
#define IB_FIGURES(FIG)							\
	FIG(SAMPLES, NULL, "samples", NULL, "latency samples", FU_COUNT, \
	    FB_NONE, FIG_CSV, fig_stat, SR(latency), FS_COUNT)		\
	FIG(FRAMES, NULL, "frames", NULL, "frames due", FU_COUNT,	\
	    FB_NONE, FIG_CSV, fig_u64, SR(frames), 0)			\
	FIG(FRAMES_MET, NULL, "frames_met", NULL, "frames met", FU_COUNT, \
	    FB_NONE, FIG_CSV, fig_u64, SR(frames_met), 0)		\
	FIG(FRAMES_DROPPED, NULL, "frames_dropped", NULL,		\
	    "frames dropped", FU_COUNT, FB_LOWER, FIG_CSV, fig_u64,	\
	    SR(frames_dropped), 0)					\
	FIG(PERIOD, NULL, "period_us", NULL, "period", FU_NS, FB_NONE,	\
	    FIG_OPTIONAL | FIG_OMIT, fig_u64_nonzero, SR(period_ns), 0)	\
	IB_LAT_FIGURES(FIG, LAT, "latency_us", latency, "latency",	\
		       FIG_GATE | FIG_COMPARE | FIG_VERBOSE | FIG_DECIDE) \
	IB_LAT_FIGURES(FIG, TIMER, "timer_latency_us", timer,		\
		       "timer latency", 0)				\
	IB_LAT_FIGURES(FIG, WAKEUP, "wakeup_latency_us", wakeup,	\
		       "wakeup latency", 0)				\
	FIG(DESIRED, NULL, "desired_cpu_pct", "cpu|desired",		\
	    "% desired CPU", FU_PCT, FB_HIGHER,				\
	    FIG_CSV | FIG_GATE | FIG_COMPARE | FIG_DECIDE,		\
	    fig_desired_pct, 0, 0)					\
	FIG(MET, NULL, "deadlines_met_pct", "deadlines|met",		\
	    "% deadlines met", FU_PCT, FB_HIGHER,			\
	    FIG_CSV | FIG_GATE | FIG_COMPARE | FIG_DEADLINES | FIG_DECIDE | \
	    FIG_COUNTED, fig_met_pct, 0, 0)				\
	IB_FRAME_FIGURES(FIG)						\
	IB_INTF_FIGURES(FIG)

/* Frame pacing: frame times, FPS and its lows, stutters (doc/methods.txt). */
#define IB_FT(FIG, P, K, A)						\
	FIG(FT_##P, "frame_time_ms", K, "ft_" K, K " frame time",	\
	    FU_NS_MS, FB_LOWER, FIG_CSV | FIG_GATE | FIG_OPTIONAL,	\
	    fig_stat, SR(frame_time), A)
#define IB_FRAME_FIGURES(FIG)						\
	IB_FT(FIG, P50, "p50", 50)					\
	IB_FT(FIG, P90, "p90", 90)					\
	IB_FT(FIG, P99, "p99", 99)					\
	IB_FT(FIG, P99_9, "p99_9", 99.9)				\
	IB_FT(FIG, MAX, "max", FS_MAX)					\
	FIG(FPS, "fps", "mean", "fps", "FPS", FU_HZ, FB_HIGHER,		\
	    FIG_CSV | FIG_GATE | FIG_COMPARE | FIG_OPTIONAL, fig_fps,	\
	    SR(frame_time), 0)						\
	FIG(FPS_LOW1, "fps", "low_1pct", "low_1pct", "1 % low FPS",	\
	    FU_HZ, FB_HIGHER, FIG_CSV | FIG_GATE | FIG_COMPARE |	\
	    FIG_VERBOSE | FIG_OPTIONAL | FIG_DECIDE, fig_fps,		\
	    SR(frame_time), 1)	\
	FIG(FPS_LOW01, "fps", "low_0_1pct", "low_0_1pct",		\
	    "0.1 % low FPS", FU_HZ, FB_HIGHER,				\
	    FIG_CSV | FIG_GATE | FIG_OPTIONAL, fig_fps, SR(frame_time),	\
	    0.1)							\
	FIG(STUTTERS, NULL, "stutters", "stutters",			\
	    "frames over two periods", FU_COUNT, FB_LOWER,		\
	    FIG_CSV | FIG_GATE | FIG_VERBOSE | FIG_OPTIONAL, fig_stutters, \
	    SR(stutters), 0)

#include "core/figintf.h"

#define IB_FIG_ENUM(id, ...)	F_##id,
enum fig_id { IB_FIGURES(IB_FIG_ENUM) F_COUNT };
#undef IB_FIG_ENUM

extern const struct figure figures[F_COUNT];

/*
 * Figures that Cyclic and Server both publish: the note, more latency
 * percentiles, the mode. Rows for a simulator's figures[].
 */
#define IB_FIG_NOTE							\
	{ NULL, "note", NULL, "how it ran", FU_COUNT, FB_NONE, FIG_OMIT, \
	  NULL, 0, 0, fig_json_note }
#define IB_FIG_PCT(k, p)						\
	{ "latency_percentiles_us", k, NULL, "p" k " latency", FU_NS,	\
	  FB_LOWER, FIG_OMIT, fig_stat, SR(latency), p, NULL }
#define IB_FIG_MORE_PCTS						\
	IB_FIG_PCT("25", 25), IB_FIG_PCT("50", 50), IB_FIG_PCT("75", 75), \
	IB_FIG_PCT("90", 90), IB_FIG_PCT("95.4", 95.4),			\
	IB_FIG_PCT("99", 99), IB_FIG_PCT("99.5", 99.5),			\
	IB_FIG_PCT("99.9", 99.9), IB_FIG_PCT("99.99", 99.99)
#define IB_FIG_MODE							\
	{ NULL, "latency_mode_us", NULL, "latency mode", FU_NS,		\
	  FB_NONE, FIG_OMIT, fig_mode, SR(latency), 0, NULL }
#define IB_FIG_MORE_PCTS_N	9

/* The gate names of group's figures, ", " between: "steal, irq, ..." */
void figure_group_names(const char *group, char *buf, size_t n);
/*
 * The names compare's --primary takes, the one list of them: each figure
 * compare tests (FIG_COMPARE), by its first name, sep between ("mean,
 * max, p50, ..."), into buf.
 */
void figure_compare_names(const char *sep, char *buf, size_t n);
/* Does name (to its end, or to len) name figure f? */
bool figure_named(const struct figure *f, const char *name, size_t len);
/* The CSV column of f into buf ("latency_p99_us", "latency_count"). */
void figure_csv_name(const struct figure *f, char *buf, size_t n);

/* Does compare decide a cell on figure f (FIG_DECIDE, FIG_COMPARE)? */
static inline bool fig_decides(const struct figure *f)
{
	return (f->flags & (FIG_DECIDE | FIG_COMPARE)) ==
	       (FIG_DECIDE | FIG_COMPARE);
}

#endif
