// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trend/trend.c - `interbench trend FILE...`: where in a series of runs
 * (oldest first) each cell's decision figures changed, for better or
 * worse, and which single runs stand out from the others around them,
 * with the false discoveries over every cell and figure controlled
 * together (changepoint.h). The command is cmd/trend.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/levels.h"
#include "trend/trend.h"
#include "lib/json.h"
#include "lib/opt.h"
#include "lib/safefile.h"

#define O(field)	offsetof(struct trend_opts, field)

const struct opt trend_opts[] = {
	{ .name = "alpha", OPT_ALPHA, .arg = "P", .off = O(alpha),
	  .help = "the chance that a cell is wrongly found to change,\n"
		  "or a cell's night to stand out (default 0.05)" },
	{ .name = "min-change", OPT_PCT, .arg = "PCT", .off = O(min_change),
	  .help = "mark only changes and outlying nights whose 95 %\n"
		  "interval lies beyond PCT % (default 5)" },
	{ .name = "min-points", OPT_POINTS, .arg = "PTS", .off = O(min_points),
	  .help = "the same for % figures, in points (default 1)" },
	{ .name = "seed", .type = OT_UINT, .arg = "N", .off = O(seed),
	  .min = 0, .max = 0xffffffffLL,
	  .help = "seed of the permutations (default 1)" },
	{ .name = "json", .type = OT_PATH, .arg = "FILE", .off = O(json),
	  .help = "also write the changes, the outlying nights and\n"
		  "the series to FILE" },
	{ .name = "html", .type = OT_PATH, .arg = "FILE", .off = O(html),
	  .help = "also draw each series with its changes and\n"
		  "outlying nights in FILE, a self-contained HTML page" },
	{ .name = "help", .letter = 'h', .type = OT_ACTION,
	  .help = "show this help" },
	{ .name = NULL },
};

const char *trend_label(const struct result_file *f)
{
	return f->tag ? f->tag : f->kernel ? f->kernel : f->path;
}

/* ---- the series ------------------------------------------------------ */

/* The series of figures a task has not got (no value anywhere) dropped. */
static void drop_empty(struct trend *t)
{
	int i, n = 0;

	for (i = 0; i < t->ncells; i++)
		t->cell[i].ns = 0;
	for (i = 0; i < t->ns; i++) {
		struct trend_series *s = &t->s[i];

		if (!s->nfiles) {
			free(s->file);
			free(s->start);
			free(s->x);
			continue;
		}
		if (!t->cell[s->cell].ns++)
			t->cell[s->cell].s0 = n;
		t->s[n++] = *s;
	}
	t->ns = n;
}

/* ---- the changes ----------------------------------------------------- */

static double shown(const struct cmp_metric *m, double d)
{
	return m->log ? expm1(d) * 100 : d;
}

/* A mark as compare's: the interval beyond the min, by the direction. */
static int mark_of(const struct trend *t, const struct cmp_metric *m,
		   double lo, double hi)
{
	int mark = isnan(lo) ? 0 :
		   cmp_beyond(lo, hi, m->log ? t->o->min_change :
			      t->o->min_points);

	return m->higher_better ? -mark : mark;
}

static int find_outliers(struct trend *t)
{
	int i;

	t->oc = calloc((size_t)t->nout + 1, sizeof(*t->oc));
	if (!t->oc)
		return -ENOMEM;
	for (i = 0; i < t->nout; i++) {
		struct trend_outlier *c = &t->oc[i];
		const struct cp_outlier *o = &t->out[i];
		const struct cmp_metric *m;

		c->o = o;
		c->s = &t->s[o->series];
		m = &t->m[c->s->metric];
		c->file = c->s->file[o->file];
		c->value = m->log ? exp(o->mean) : o->mean;
		c->ref = m->log ? exp(o->ref) : o->ref;
		c->change = shown(m, o->d);
		c->lo = shown(m, o->lo);
		c->hi = shown(m, o->hi);
		c->mark = mark_of(t, m, c->lo, c->hi);
	}
	return 0;
}

static int find(struct trend *t)
{
	struct cp_series *cs = calloc((size_t)t->ns + 1, sizeof(*cs));
	struct cp_opts co = {
		.alpha = t->o->alpha, .level = t->o->level, .stop_after = 10,
		.seed = t->o->seed,
	};
	int i;

	if (!cs)
		return -ENOMEM;
	for (i = 0; i < t->ns; i++) {
		cs[i].x = t->s[i].x;
		cs[i].start = t->s[i].start;
		cs[i].nfiles = t->s[i].nfiles;
		cs[i].group = t->s[i].cell;
		cs[i].file = t->s[i].file;
	}
	t->npt = cp_family(cs, t->ns, &co, &t->pt, &t->cut, &t->cells_tested);
	t->nout = t->npt < 0 ? 0 :
		  cp_outliers(cs, t->ns, t->pt, t->npt, t->o->alpha,
			      t->o->level, &t->out, &t->out_tested,
			      &t->out_groups);
	free(cs);
	if (t->npt < 0)
		return t->npt;
	if (t->nout < 0)
		return t->nout;
	t->ch = calloc((size_t)t->npt + 1, sizeof(*t->ch));
	if (!t->ch)
		return -ENOMEM;
	for (i = 0; i < t->npt; i++) {
		struct trend_change *c = &t->ch[i];
		const struct cp_point *p = &t->pt[i];
		const struct cmp_metric *m;

		c->pt = p;
		c->s = &t->s[p->series];
		m = &t->m[c->s->metric];
		c->file = c->s->file[p->file];
		c->before = m->log ? exp(p->before) : p->before;
		c->after = m->log ? exp(p->after) : p->after;
		c->change = shown(m, p->d);
		c->lo = shown(m, p->lo);
		c->hi = shown(m, p->hi);
		c->mark = mark_of(t, m, c->lo, c->hi);
		if (p->perms > t->perms)
			t->perms = p->perms;
	}
	return find_outliers(t);
}

static const char *mark_name(int mark)
{
	return mark > 0 ? "worse" : mark < 0 ? "better" : "within min change";
}

/* ---- the report ------------------------------------------------------ */

static void print_files(const struct trend *t)
{
	struct rf_levels lv;
	char levels[160] = "";
	int k;

	rf_levels(t->files, t->nfiles, &lv);
	if (rf_levels_known(&lv)) {
		strcpy(levels, ", from ");
		rf_levels_text(levels + 7, sizeof(levels) - 7, &lv);
	}
	printf("interbench trend: %d files, oldest first%s\n", t->nfiles,
	       levels);
	for (k = 0; k < t->nfiles; k++) {
		const struct result_file *f = &t->files[k];

		printf("  %2d  %s  kernel %s%s%s%s%.8s\n", k + 1, f->path,
		       f->kernel ? f->kernel : "-", f->tag ? ", tag " : "",
		       f->tag ? f->tag : "", f->boot_id ? ", boot " : "",
		       f->boot_id ? f->boot_id : "");
	}
}

/* Is file k one of those a note lists? */
typedef bool (*file_in_fn)(const struct trend *t, int k, const void *arg);

/* The files in, numbered from 1, as ranges ("1-6, 9"); the count. */
static int file_ranges(const struct trend *t, file_in_fn in,
		       const void *arg, char *list, size_t n)
{
	size_t used = 0;
	int k, from = -1, count = 0;

	list[0] = '\0';
	for (k = 0; k <= t->nfiles; k++) {
		bool is = k < t->nfiles && in(t, k, arg);

		count += is;
		if (is && from < 0)
			from = k;
		if (is || from < 0 || used >= n)
			continue;
		used += (size_t)snprintf(list + used, n - used, "%s%d",
					 used ? ", " : "", from + 1);
		if (k - 1 > from && used < n)
			used += (size_t)snprintf(list + used, n - used, "-%d",
						 k);
		from = -1;
	}
	return count;
}

static bool lacks_cell(const struct trend *t, int k, const void *arg)
{
	const struct trend_series *s = arg;

	return !t->cell[s->cell].in[k];
}

/*
 * Files that differ in matrix: each cell some files lack is searched
 * over the files that have it, and said so, with the files it is not in
 * as ranges ("files 1-6, 9").
 */
static void print_missing(const struct trend *t)
{
	int i, n;

	for (i = 0; i < t->ns; i++) {
		const struct trend_series *s = &t->s[i];
		char list[256];

		if (i && !strcmp(s->bench, t->s[i - 1].bench) &&
		    !strcmp(s->load, t->s[i - 1].load))
			continue;	/* one line a cell */
		n = file_ranges(t, lacks_cell, s, list, sizeof(list));
		if (n)
			printf("note: %s/%s is not in file%s %s: searched over "
			       "the files that have it\n", s->bench, s->load,
			       n > 1 ? "s" : "", list);
	}
}

/* A file's boot id (boot) or invocation: NULL where it has none. */
static const char *level_id(const struct result_file *f, bool boot)
{
	return boot ? f->boot_id : f->invocation;
}

/* One boot's or one invocation's files: the id, and at which level. */
struct level_of {
	const char *id;
	bool boot;
};

static bool of_level(const struct trend *t, int k, const void *arg)
{
	const struct level_of *l = arg;
	const char *id = level_id(&t->files[k], l->boot);

	return id && l->id && !strcmp(id, l->id);
}

/* Is file k the first of its boot's (or invocation's) files? */
static bool first_of(const struct trend *t, int k, bool boot)
{
	struct level_of l = { level_id(&t->files[k], boot), boot };
	int j;

	for (j = 0; l.id && j < k; j++)
		if (of_level(t, j, &l))
			return false;
	return l.id;
}

/*
 * A nightly series is a boot a night: files of one boot are not
 * independent nights (what the boot set up, memory layout or the order
 * devices came up, falls on each alike), nor files of one invocation
 * (one process: ab's A and B, or one file given twice). Each such group
 * said once; a boot whose files are one invocation in one line.
 */
static void print_shared(const struct trend *t)
{
	char list[256], inv[16];
	int k, j, n;

	for (k = 0; k < t->nfiles; k++) {
		const struct result_file *f = &t->files[k];
		struct level_of b = { f->boot_id, true };
		struct level_of p = { f->invocation, false };
		bool same = true;	/* the boot's files are one process */

		for (j = 0; j < t->nfiles; j++)
			if (of_level(t, j, &b) != (p.id && of_level(t, j, &p)))
				same = false;
		snprintf(inv, sizeof(inv), "%.8s", p.id ? p.id : "");
		if (first_of(t, k, true) &&
		    (n = file_ranges(t, of_level, &b, list, sizeof(list))) > 1)
			printf("note: files %s come from one boot%s (boot "
			       "%.8s%s%s): not independent nights\n", list,
			       same ? " and one process" : "", b.id,
			       same ? ", invocation " : "", same ? inv : "");
		if (same && b.id)
			continue;	/* said with its boot */
		if (first_of(t, k, false) &&
		    (n = file_ranges(t, of_level, &p, list, sizeof(list))) > 1)
			printf("note: files %s come from one process "
			       "(invocation %s): ab's A and B, or one file "
			       "given twice; not independent nights\n", list,
			       inv);
	}
}

/* Runs set up unlike the run before: a change there may be that. */
static void print_settings(const struct trend *t)
{
	int k;

	for (k = 1; k < t->nfiles; k++)
		if (t->slim[k].notes)
			fputs(t->slim[k].notes, stdout);
}

static void fmt_value(char *buf, size_t n, const struct cmp_metric *m,
		      double v)
{
	snprintf(buf, n, fabs(v) >= 1e6 ? "%.4g" : "%.1f", v);
	(void)m;
}

static void print_changes(const struct trend *t, int *worse, int *better)
{
	int i, shown_n = 0, within = 0;

	printf("\nChanges (a shift of the mean, permutation p; cells first: "
	       "Holm at %g over %d cells, then their figures, %d series):\n",
	       t->o->alpha, t->cells_tested, t->ns);
	for (i = 0; i < t->npt; i++) {
		const struct trend_change *c = &t->ch[i];
		const struct cmp_metric *m = &t->m[c->s->metric];
		const char *u = m->log ? "%" : "pt";
		char cell[80], a[24], b[24];

		if (!c->mark) {
			within++;
			continue;
		}
		snprintf(cell, sizeof(cell), "%s/%s", c->s->bench, c->s->load);
		fmt_value(a, sizeof(a), m, c->before);
		fmt_value(b, sizeof(b), m, c->after);
		printf("%-15s %-22s at %2d %s (%s): %s -> %s, %+.1f %s "
		       "[%+.1f, %+.1f], p %.2g  %s\n", cell, m->label,
		       c->file + 1, t->files[c->file].path,
		       trend_label(&t->files[c->file]), a, b, c->change, u,
		       c->lo, c->hi, c->pt->p, mark_name(c->mark));
		shown_n++;
		*worse += c->mark > 0;
		*better += c->mark < 0;
	}
	if (!shown_n)
		printf("  none\n");
	if (within)
		printf("(%d more change point%s found, within the min change "
		       "of %g %% or %g points: not marked)\n", within,
		       within == 1 ? "" : "s", t->o->min_change,
		       t->o->min_points);
}

/* The nights that stand out: a section of their own, after the changes. */
static void print_outliers(const struct trend *t, int *worse, int *better)
{
	int i, all = 0, shown_n = 0, within = 0;

	for (i = 0; i < t->ns; i++)
		all += t->s[i].nfiles;
	printf("\nOutlying nights (each against the others between changes:"
	       " their median, the repeats' or the nights' noise; a cell's "
	       "night first: Holm at %g over %d, then its figures, %d "
	       "nights of %d series):\n", t->o->alpha, t->out_groups,
	       t->out_tested, t->ns);
	for (i = 0; i < t->nout; i++) {
		const struct trend_outlier *c = &t->oc[i];
		const struct cmp_metric *m = &t->m[c->s->metric];
		char cell[80], a[24], b[24];

		if (!c->mark) {
			within++;
			continue;
		}
		snprintf(cell, sizeof(cell), "%s/%s", c->s->bench, c->s->load);
		fmt_value(a, sizeof(a), m, c->value);
		fmt_value(b, sizeof(b), m, c->ref);
		printf("%-15s %-22s on %2d %s (%s): %s against the others' "
		       "median %s, %+.1f %s [%+.1f, %+.1f], p %.2g  %s\n",
		       cell, m->label, c->file + 1, t->files[c->file].path,
		       trend_label(&t->files[c->file]), a, b, c->change,
		       m->log ? "%" : "pt", c->lo, c->hi, c->o->p,
		       mark_name(c->mark));
		shown_n++;
		*worse += c->mark > 0;
		*better += c->mark < 0;
	}
	if (!shown_n)
		printf("  none\n");
	if (within)
		printf("(%d more outlying night%s found, within the min change "
		       "of %g %% or %g points: not marked)\n", within,
		       within == 1 ? "" : "s", t->o->min_change,
		       t->o->min_points);
	if (t->out_tested < all)
		printf("(%d night%s not tested: fewer than %d others between "
		       "changes, or one repeat a night)\n",
		       all - t->out_tested, all - t->out_tested == 1 ? "" : "s",
		       CP_OUT_MIN_OTHERS);
}

/* The last line: worse if a change or an outlying night is worse. */
static void print_verdict(int cw, int cb, int ow, int ob)
{
	const char *v = "no change found";

	if (cw && ow)
		v = "worse: a change and an outlying night for the worse";
	else if (cw)
		v = "worse: a change for the worse";
	else if (ow)
		v = "worse: an outlying night for the worse";
	else if (cb && ob)
		v = "better: changes and outlying nights for the better only";
	else if (cb)
		v = "better: changes for the better only";
	else if (ob)
		v = "better: outlying nights for the better only";
	printf("=> %s\n", v);
}

int trend_find(struct trend *t)
{
	drop_empty(t);
	return find(t);
}

void trend_print(const struct trend *t, int *worse)
{
	int cw = 0, cb = 0, ow = 0, ob = 0;

	print_files(t);
	print_shared(t);
	print_missing(t);
	print_settings(t);
	print_changes(t, &cw, &cb);
	print_outliers(t, &ow, &ob);
	print_verdict(cw, cb, ow, ob);
	*worse = cw + ow;
}

/* ---- --json ---------------------------------------------------------- */

static void json_series(struct jw *w, const struct trend *t,
			const struct trend_series *s)
{
	const struct cmp_metric *m = &t->m[s->metric];
	size_t v;
	int k;

	jw_obj_begin(w, NULL);
	jw_str(w, "bench", s->bench);
	jw_str(w, "load", s->load);
	jw_str(w, "figure", m->label);
	jw_arr_begin(w, "files");
	for (k = 0; k < s->nfiles; k++) {
		jw_obj_begin(w, NULL);
		jw_int(w, "file", s->file[k] + 1);
		jw_arr_begin(w, "values");
		for (v = s->start[k]; v < s->start[k + 1]; v++)
			jw_num(w, NULL, m->log ? exp(s->x[v]) : s->x[v]);
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

/*
 * What a change and an outlier both begin with: the series, the file
 * where it is, and the span of files it covers (from, to: series points).
 */
static void json_where(struct jw *w, const struct trend *t,
		       const struct trend_series *s, int file, int from, int to)
{
	const struct result_file *f = &t->files[file];

	jw_obj_begin(w, NULL);
	jw_str(w, "bench", s->bench);
	jw_str(w, "load", s->load);
	jw_str(w, "figure", t->m[s->metric].label);
	jw_int(w, "file", file + 1);
	jw_str(w, "path", f->path);
	jw_str(w, "tag", f->tag);
	jw_str(w, "kernel", f->kernel);
	jw_int(w, "from_file", s->file[from] + 1);
	jw_int(w, "to_file", s->file[to - 1] + 1);
}

static void json_verdict(struct jw *w, int mark)
{
	jw_str(w, "verdict", mark > 0 ? "worse" : mark < 0 ? "better" :
	       "within_min_change");
	jw_obj_end(w);
}

static void json_change(struct jw *w, const struct trend *t,
			const struct trend_change *c)
{
	const struct cmp_metric *m = &t->m[c->s->metric];

	json_where(w, t, c->s, c->file, c->pt->from, c->pt->to);
	jw_num(w, "before", c->before);
	jw_num(w, "after", c->after);
	jw_str(w, "unit", m->log ? "%" : "points");
	jw_num(w, "change", c->change);
	jw_num(w, "lo", c->lo);
	jw_num(w, "hi", c->hi);
	jw_num(w, "p", c->pt->p);
	jw_num(w, "p_adjusted", c->pt->padj);
	jw_int(w, "permutations", c->pt->perms);
	json_verdict(w, c->mark);
}

static void json_outlier(struct jw *w, const struct trend *t,
			 const struct trend_outlier *c)
{
	const struct cmp_metric *m = &t->m[c->s->metric];

	json_where(w, t, c->s, c->file, c->o->from, c->o->to);
	jw_int(w, "others", c->o->others);
	jw_num(w, "value", c->value);
	jw_num(w, "others_median", c->ref);
	jw_str(w, "unit", m->log ? "%" : "points");
	jw_num(w, "change", c->change);
	jw_num(w, "lo", c->lo);
	jw_num(w, "hi", c->hi);
	jw_num(w, "t", c->o->t);
	jw_num(w, "df", c->o->df);
	jw_num(w, "p", c->o->p);
	jw_num(w, "p_adjusted", c->o->padj);
	json_verdict(w, c->mark);
}

int trend_json(const char *path, const struct trend *t, int worse)
{
	struct safe_file sf;
	struct rf_levels lv;
	struct jw w;
	int k, i, err = safe_file_begin(&sf, path);

	if (err)
		return err;
	rf_levels(t->files, t->nfiles, &lv);
	jw_init(&w, sf.f);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", TREND_SCHEMA);
	jw_str(&w, "interbench_version", IB_VERSION);
	jw_str(&w, "method", "shift of the mean, permutation test");
	jw_str(&w, "multiplicity", "cells first: Simes over a cell's figures, "
	       "Holm over the cells, then Benjamini-Hochberg over a found "
	       "cell's figures at alpha times the share of cells found");
	jw_num(&w, "alpha", t->o->alpha);
	jw_num(&w, "min_change_pct", t->o->min_change);
	jw_num(&w, "min_change_points", t->o->min_points);
	jw_num(&w, "level", t->o->level);
	jw_uint(&w, "seed", t->o->seed);
	jw_int(&w, "series_tested", t->ns);
	jw_int(&w, "cells_tested", t->cells_tested);
	jw_num(&w, "p_threshold", t->cut);
	/* distinct among the files that record them */
	jw_int(&w, "boots", lv.boots);
	jw_int(&w, "invocations", lv.invocations);
	jw_arr_begin(&w, "files");
	for (k = 0; k < t->nfiles; k++) {
		jw_obj_begin(&w, NULL);
		jw_str(&w, "path", t->files[k].path);
		jw_str(&w, "tag", t->files[k].tag);
		jw_str(&w, "kernel", t->files[k].kernel);
		jw_str(&w, "started", t->files[k].started);
		jw_str(&w, "boot_id", t->files[k].boot_id);
		jw_str(&w, "invocation", t->files[k].invocation);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_arr_begin(&w, "changes");
	for (i = 0; i < t->npt; i++)
		json_change(&w, t, &t->ch[i]);
	jw_arr_end(&w);
	jw_int(&w, "nights_tested", t->out_tested);
	jw_int(&w, "cell_nights_tested", t->out_groups);
	jw_arr_begin(&w, "outliers");
	for (i = 0; i < t->nout; i++)
		json_outlier(&w, t, &t->oc[i]);
	jw_arr_end(&w);
	jw_arr_begin(&w, "series");
	for (i = 0; i < t->ns; i++)
		json_series(&w, t, &t->s[i]);
	jw_arr_end(&w);
	jw_str(&w, "verdict", worse ? "worse" : "not_worse");
	jw_obj_end(&w);
	err = jw_finish(&w);
	if (err) {
		safe_file_abort(&sf);
		return err;
	}
	return safe_file_commit(&sf);
}

void trend_free(struct trend *t)
{
	int i;

	for (i = 0; i < t->ns; i++) {
		free(t->s[i].file);
		free(t->s[i].start);
		free(t->s[i].x);
	}
	free(t->s);
	for (i = 0; i < t->ncells; i++) {
		free(t->cell[i].bench);
		free(t->cell[i].load);
		free(t->cell[i].in);
	}
	free(t->cell);
	for (i = 0; t->slim && i < t->room; i++) {
		free(t->slim[i].own);
		free(t->slim[i].notes);
	}
	free(t->slim);
	free(t->names);
	free(t->pt);
	free(t->ch);
	free(t->out);
	free(t->oc);
}
