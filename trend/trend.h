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
	double alpha;		/* Holm's over the cells (then BH within) */
	double min_change;	/* %: a change must clear it to be marked */
	double min_points;	/* the same in points, for % figures */
	double level;		/* of the changes' intervals */
	unsigned seed;		/* of the permutations */
	const char *json;	/* --json FILE */
	const char *html;	/* --html FILE */
};

/*
 * What trend keeps of a file once its figures are taken, beside its
 * names (trend.files[k]: no document, no cells): the block its strings
 * are in, and the notes on its settings against the file before it.
 */
struct trend_file {
	char *own;
	char *notes;		/* "note: ..." lines, or NULL */
};

/* A cell seen: its names, its series, the files that have it. */
struct trend_cell {
	char *bench, *load;
	int s0, ns;		/* its series: s[s0] .. s[s0 + ns - 1] */
	unsigned char *in;	/* in[k]: file k has the cell */
};

/* One figure of one cell over the files that measured it. */
struct trend_series {
	const char *bench, *load;
	int cell;		/* in trend.cell[] */
	int metric;		/* in trend.m[] */
	int *file;		/* its k-th file is files[file[k]] */
	double *x;		/* values on the compared scale (cmp_value) */
	size_t cap_x;		/* room in x */
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
	const struct result_file *files;	/* names only */
	int nfiles, room;	/* files added, and room for */
	struct result_file *names;		/* files, writable */
	struct trend_file *slim;
	struct cmp_metric m[CMP_MAX_METRICS];
	int nm;
	struct trend_cell *cell;
	int ncells, cap_cells;
	struct trend_series *s;
	int ns, cap_s;
	struct cp_point *pt;	/* cp_family's, by series and file */
	int npt;
	struct trend_change *ch;	/* one per point */
	double cut;		/* the largest p found; 0: nothing found */
	int cells_tested;	/* cells with a p: Holm's family */
	int perms;		/* the most permutations a p-value took */
	struct cp_outlier *out;	/* cp_outliers', by series and file */
	struct trend_outlier *oc;	/* one per outlier */
	int nout;
	int out_tested;		/* the nights held against the others */
	int out_groups;		/* ... as a cell's nights: Holm's family */
};

/* A file's label: its tag, else its kernel, else its name. */
const char *trend_label(const struct result_file *f);

/*
 * Files are read one at a time and given to trend, so that it keeps only
 * the figures it tests, not the documents (t->o, t->m and t->nm set
 * first): trend_begin() makes room for nfiles, trend_add() takes file f's
 * names and decision figures and its settings against prev (the file
 * before, or NULL), and f may then be freed. trend_find() finds the
 * changes and the outlying nights. Each: 0, or -errno (-ENOMEM).
 * trend_free() frees what was made, either way.
 */
int trend_begin(struct trend *t, int nfiles);
int trend_add(struct trend *t, const struct result_file *f,
	      const struct result_file *prev);
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
