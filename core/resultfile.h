/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/resultfile.h - a result file of `interbench --json` read back and
 * checked: its results gathered by cell, with the figures of the table of
 * figures. Used by compare, report, trend and study; files of schema
 * interbench-result/1 of any version are read.
 */
#ifndef INTERBENCH_RESULTFILE_H
#define INTERBENCH_RESULTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/figures.h"
#include "lib/json.h"
#include "core/load.h"
#include "core/schema.h"

/* The blocks read key by key (schema.h's lists): see rf_blocks.c. */
#define RF_CTYPE_RK_STR		const char *
#define RF_CTYPE_RK_NUM		double
#define RF_CTYPE_RK_BOOL	signed char
#define RF_CTYPE_RK_ANY		const struct jval *
#define RF_MEMBER(name, kind, flags)	RF_CTYPE_##kind name;
struct rf_settings { RF_SETTINGS(RF_MEMBER) };
struct rf_system { RF_SYSTEM(RF_MEMBER) };
struct rf_cgroup {
	bool read;			/* system.cgroup was an object */
	RF_CGROUP(RF_MEMBER)
};
struct rf_calibration { RF_CALIBRATION(RF_MEMBER) };
#undef RF_MEMBER

/* Each block's keys, in the order the writer writes them. */
extern const struct rf_field rf_settings_fields[RFK_SETTINGS],
	rf_system_fields[RFK_SYSTEM], rf_cgroup_fields[RFK_CGROUP],
	rf_calibration_fields[RFK_CALIBRATION];

/* One bucket of a result's latency histogram, in ns. */
struct rf_bucket {
	double low, high, count;
};

/* A repeat whose status is ok: its figures and its histogram. */
struct ok_repeat {
	int repeat;			/* its number in the run, or 0 */
	double v[F_COUNT];		/* NaN: null or absent in the file */
	double work[WORK_KINDS];	/* the load's rates; NaN: none */
	struct rf_bucket *hist;		/* its latency histogram, in order */
	size_t nhist;
	const struct jval *res;		/* the whole result, for the rest */
};

/* A repeat that was not measured, and why. */
struct bad_repeat {
	size_t index;			/* in results[] */
	const struct jval *repeat;	/* the repeat number, if given */
	const char *status;
};

/* The results of one cell (bench under load) in one file. */
struct file_cell {
	const char *bench;
	const char *load;
	struct ok_repeat *ok;
	size_t n_ok, cap_ok;
	struct bad_repeat *bad;
	size_t n_bad, cap_bad;
};

/*
 * Bounds on what is read, far above any run's (16 tasks x 32 loads, a
 * few KB a result): past them a file is refused with one line, so that
 * compare and report stay linear in their input and bounded in memory.
 */
#define RF_MAX_BYTES	(64L << 20)
#define RF_MAX_CELLS	4096

/* A result file, read and checked. */
struct result_file {
	const char *path;
	char *text;
	struct jval *doc;
	const char *version;
	const char *interrupted;
	const char *tag;		/* --tag, or NULL */
	const char *kernel;		/* system.release, or NULL */
	const char *started;		/* or NULL */
	/* what it was measured in (system.boot_id, .invocation), or NULL */
	const char *boot_id;
	const char *invocation;
	/* `interbench ab`: the run's id, this side ('A', 'B'), its looks */
	const char *ab_id;		/* NULL: not from ab */
	char ab_side;
	int ab_looks;
	int ab_share;			/* a sweep's candidates; 1 for ab */
	int ab_stop_pairs;		/* -n auto stopped after these; or 0 */
	const char *ab_stop_why;	/* ... and why, or NULL */
	struct file_cell *cells;
	size_t n_cells, cap_cells;
	bool figures_only;		/* rf_load_figures: no histograms */
	/* the blocks, key by key; a file without one: all unknown */
	struct rf_settings set;
	struct rf_system sys;
	struct rf_cgroup cg;
	struct rf_calibration cal;
};

/* rf_blocks.c: read rf's blocks from its document (rf_parse does). */
void rf_read_blocks(struct result_file *rf);
/*
 * rf_blocks.c: the "ab" object of `interbench ab` (and of a sweep's
 * states), if any: 0 or -EINVAL with what is wrong in what.
 */
int rf_read_ab(struct result_file *rf, char *what, size_t n);


/*
 * Read and check path: 0, or -errno with "path: what is wrong" in err.
 * The figures flagged FIG_COMPARE must be in every ok result; the others
 * are NaN where a file has not got them.
 */
int rf_load(struct result_file *rf, const char *path, char *err,
	    size_t errlen);
/*
 * The same, for a reader of figures only (trend over a year of nights):
 * each result's histogram is checked, not kept (ok_repeat.hist NULL).
 */
int rf_load_figures(struct result_file *rf, const char *path, char *err,
		    size_t errlen);
/*
 * The same from text of len bytes (malloc'd, rf owns it from now: it is
 * freed once parsed, the document keeping copies of its strings).
 */
int rf_parse(struct result_file *rf, const char *path, char *text,
	     size_t len, char *err, size_t errlen);
void rf_free(struct result_file *rf);
/*
 * Every recorded setting that differs between a and b: each leaf of their
 * "system" and "settings" objects (and their machine state), by dotted
 * key, told to fn with each file's value as text ("absent" where a file
 * has not got it). Keys that differ by nature (a concurrent run's pid,
 * the boot and the invocation) are left out. Returns how many differ.
 */
typedef void (*rf_diff_fn)(void *ctx, const char *key, const char *va,
			   const char *vb);
int rf_settings_diff(const struct result_file *a, const struct result_file *b,
		     rf_diff_fn fn, void *ctx);
struct file_cell *rf_find_cell(const struct result_file *rf,
			       const char *bench, const char *load);
/* The latency distribution of a cell over its ok repeats. */
void rf_cell_hist(const struct file_cell *c, struct lat_stats *s);

/*
 * An explained frame of --trace read back (worst_frames[i] of a result,
 * doc/trace.txt): its parts as marks and its picture's slices, times in
 * us from its release; NaN where the file has none.
 */
#define RF_PIC_SLICES	64		/* read at most (the writer's bound) */

struct rf_slice {
	int cpu, kind, pid;		/* kind: enum slice_kind (schema.h) */
	double from_us, to_us;
	const char *name;		/* in the document */
};

struct rf_picture {
	double from_us, to_us;		/* the picture's window */
	double timer_us, fired_us, latency_us, deadline_us;
	int cpu, timer_cpu;		/* the wait's CPU, the timer's */
	int n;
	struct rf_slice s[RF_PIC_SLICES];
};

/* frame's picture into p: 0, or -ENOENT (none, or not readable). */
int rf_picture(const struct jval *frame, struct rf_picture *p);

/*
 * Room for item n in p, an array of *cap items of size sz: returns p or
 * its reallocation (and updates *cap), NULL when out of memory (p kept).
 */
void *grow_array(void *p, size_t *cap, size_t n, size_t sz);

#endif
