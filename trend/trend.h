/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trend/trend.h - `interbench trend FILE...`: result files of a series
 * (nightly runs, oldest first) searched for the runs where a cell's
 * decision figure changed, and for single runs that stand out from the
 * others (changepoint.h says how). trend.c builds the
 * series from the files read and prints and writes what was found;
 * trend_html.c draws it. The command is cmd/trend.c.
 */
#ifndef INTERBENCH_TREND_H
#define INTERBENCH_TREND_H

#include "trend/changepoint.h"
#include "compare/verdict.h"
#include "core/resultfile.h"

#define TREND_SCHEMA	"interbench-trend/1"

struct trend_opts {
	double alpha;		/* false discovery rate over the series */
	double min_change;	/* %: a change must clear it to be marked */
	double min_points;	/* the same in points, for % figures */
	double level;		/* of the changes' intervals */
	unsigned seed;		/* of the permutations */
	const char *json;	/* --json FILE */
	const char *html;	/* --html FILE */
};

/* One figure of one cell over the files that measured it. */
struct trend_series {
	const char *bench, *load;
	int metric;		/* in trend.m[] */
	int *file;		/* its k-th file is files[file[k]] */
	double *x;		/* values on the compared scale (cmp_value) */
	size_t *start;		/* nfiles + 1 offsets into x */
	int nfiles;
};

/* A change found, as trend reports it. */
struct trend_change {
	const struct cp_point *pt;
	const struct trend_series *s;
	int file;		/* index in files[]: the first after it */
	double before, after;	/* on the figure's own scale */
	double change, lo, hi;	/* % (ratios) or points */
	int mark;		/* +1 worse, -1 better, 0 within the min */
};

/* An outlying night found, as trend reports it. */
struct trend_outlier {
	const struct cp_outlier *o;
	const struct trend_series *s;
	int file;		/* index in files[] */
	double value, ref;	/* its mean, the others' median: own scale */
	double change, lo, hi;	/* % (ratios) or points */
	int mark;		/* +1 worse, -1 better, 0 within the min */
};

struct trend {
	const struct trend_opts *o;
	const struct result_file *files;
	int nfiles;
	struct cmp_metric m[CMP_MAX_METRICS];
	int nm;
	struct trend_series *s;
	int ns;
	struct cp_point *pt;	/* cp_family's, by series and file */
	int npt;
	struct trend_change *ch;	/* one per point */
	double cut;		/* BH's p threshold; 0: nothing found */
	int perms;		/* the most permutations a p-value took */
	struct cp_outlier *out;	/* cp_outliers', by series and file */
	struct trend_outlier *oc;	/* one per outlier */
	int nout;
	int out_tested;		/* the nights held against the others */
};

/* A file's label: its tag, else its kernel, else its name. */
const char *trend_label(const struct result_file *f);

/*
 * t's series built from t->files (t->o, t->m and t->nm set) and their
 * changes found: 0, or -errno (-ENOMEM). trend_free() frees what was made,
 * either way.
 */
int trend_find(struct trend *t);
void trend_free(struct trend *t);
/*
 * The report on stdout: the files, what they miss, settings that changed,
 * the changes, the outlying nights; *worse is set when one of either is
 * for the worse.
 */
void trend_print(const struct trend *t, int *worse);
/* trend --json: the changes, the outlying nights, the series. 0 or -errno. */
int trend_json(const char *path, const struct trend *t, int worse);
/* trend --html: the series drawn, changes and outliers marked. 0 or -errno. */
int trend_html(const char *path, const struct trend *t);

/* trend's options (trend.c), for --help and the completion. */
extern const struct opt trend_opts[];

#endif
