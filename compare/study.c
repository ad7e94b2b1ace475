// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/study.c - `interbench study`'s work (study.h): the files taken
 * as a nested design, each figure's components, the cheapest designs,
 * the report and the components file.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "compare/study.h"
#include "compare/components.h"
#include "lib/base.h"
#include "core/cfg.h"

#define O(f)	offsetof(struct study_opts, f)

const struct opt study_opts[] = {
	{ .name = "change", OPT_PCT, .arg = "PCT", .off = O(change),
	  .help = "the change a design must find, in % (default 5,\n"
		  "compare's --min-change)" },
	{ .name = "points", OPT_POINTS, .arg = "PTS", .off = O(points),
	  .help = "the same for % figures, in points (default 1)" },
	{ .name = "power", .type = OT_DOUBLE, .arg = "P", .off = O(power),
	  .dmin = 0.5, .dmax = 0.999, .what = "a probability from 0.5 to "
	  "0.999", .help = "the chance a design must have of finding it\n"
			   "(default 0.8)" },
	{ .name = "alpha", OPT_ALPHA, .arg = "A", .off = O(alpha),
	  .help = "the test's level, two-sided, per figure (default\n"
		  "0.05)" },
	{ .name = "boot-cost", .type = OT_DOUBLE, .arg = "SECONDS",
	  .off = O(boot_cost), .dmin = 0, .dmax = 86400,
	  .what = "seconds from 0 to 86400",
	  .seen = OPT_SEEN(struct study_opts, boot_cost_seen),
	  .help = "what a boot costs, up to the run's start (default\n"
		  "120, assumed)" },
	{ .name = "save", .type = OT_PATH, .arg = "FILE", .off = O(save),
	  .help = "write the components to FILE (interbench-\n"
		  "components/1, for compare)" },
	{ .name = "help", .letter = 'h', .type = OT_ACTION,
	  .help = "show this help" },
	{ .name = NULL },
};

/* ---- the files -------------------------------------------------------- */

static double duration_s(const struct result_file *f)
{
	return f->set.duration_s;
}

/* A stamp of the document ("2026-11-28T17:00:37Z") in s, or NaN. */
static double stamp(const struct result_file *f, const char *key)
{
	const struct jval *v = json_get_type(f->doc, key, J_STR);
	struct tm tm;
	char *end;

	memset(&tm, 0, sizeof(tm));
	if (!v)
		return NAN;
	end = strptime(v->str, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || (*end && strcmp(end, "Z")))
		return NAN;
	return (double)timegm(&tm);
}

/* a and b the same (both NULL too): two files of one kernel, one host */
static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Every file's labels there, its kernel and host the first's: 0 or -1. */
static int check_labels(const struct study *s, char *err, size_t n)
{
	const struct result_file *f0 = &s->files[0];
	int i, k;

	for (i = 0; i < s->nfiles; i++) {
		const struct result_file *f = &s->files[i];

		if (!f->boot_id || !f->invocation) {
			snprintf(err, n, "%s: no system.%s: a study needs "
				 "files that say their boot and invocation "
				 "(interbench 0.41 from commit 661da29 on)",
				 f->path, f->boot_id ? "invocation" :
				 "boot_id");
			return -1;
		}
		if (!f->n_cells) {
			snprintf(err, n, "%s: no cell measured in it",
				 f->path);
			return -1;
		}
		if (!same(f->kernel, f0->kernel) ||
		    !same(f->sys.hostname, f0->sys.hostname)) {
			bool k2 = !same(f->kernel, f0->kernel);

			snprintf(err, n, "%s is %s %s, %s %s: a study measures "
				 "one kernel on one host", f->path,
				 k2 ? "kernel" : "host",
				 k2 ? (f->kernel ? f->kernel : "unknown") :
				 f->sys.hostname, f0->path,
				 k2 ? (f0->kernel ? f0->kernel : "unknown") :
				 f0->sys.hostname);
			return -1;
		}
		if (duration_s(f) != duration_s(f0)) {
			snprintf(err, n, "%s ran its cells for %g s, %s for %g "
				 "s: a study is of one -t", f->path,
				 duration_s(f), f0->path, duration_s(f0));
			return -1;
		}
		for (k = 0; k < i; k++)
			if (!strcmp(f->invocation, s->files[k].invocation)) {
				snprintf(err, n, "%s and %s are one invocation "
					 "(the sides of one ab run?): a study "
					 "takes a file an invocation",
					 s->files[k].path, f->path);
				return -1;
			}
	}
	return 0;
}

/* The files in order of their boots (as first met): 0 or -ENOMEM. */
static int group_boots(struct study *s)
{
	int i, b, k = 0;

	s->order = calloc((size_t)s->nfiles, sizeof(*s->order));
	s->invs = calloc((size_t)s->nfiles, sizeof(*s->invs));
	s->boot_id = calloc((size_t)s->nfiles, sizeof(*s->boot_id));
	if (!s->order || !s->invs || !s->boot_id)
		return -ENOMEM;
	for (i = 0; i < s->nfiles; i++) {
		for (b = 0; b < s->boots; b++)
			if (!strcmp(s->boot_id[b], s->files[i].boot_id))
				break;
		if (b == s->boots)
			s->boot_id[s->boots++] = s->files[i].boot_id;
	}
	for (b = 0; b < s->boots; b++)
		for (i = 0; i < s->nfiles; i++)
			if (!strcmp(s->boot_id[b], s->files[i].boot_id)) {
				s->order[k++] = i;
				s->invs[b]++;
			}
	return 0;
}

/* What a repeat and an invocation cost, from the files. */
static void costs(struct study *s)
{
	double own[4096];
	int i, n = 0, k;

	s->duration_s = duration_s(&s->files[0]);
	s->settle_s = (double)cell_settle_ns((uint64_t)(s->duration_s *
					     NSEC_PER_SEC)) / NSEC_PER_SEC;
	s->ncells = (int)s->files[0].n_cells;
	for (i = 0; i < s->nfiles && n < 4096; i++) {
		const struct result_file *f = &s->files[i];
		double wall = stamp(f, "finished") - stamp(f, "started");
		double cells = 0;

		for (k = 0; k < (int)f->n_cells; k++)
			cells += (double)(f->cells[k].n_ok + f->cells[k].n_bad);
		if (isnan(wall) || wall < 0)
			continue;
		own[n++] = wall - cells * (s->duration_s + s->settle_s);
	}
	/* the median: one slow start (a calibration) moves it little */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && own[k - 1] > own[k]; k--) {
			double t = own[k];

			own[k] = own[k - 1];
			own[k - 1] = t;
		}
	s->inv_n = n;
	s->inv_s = !n ? 0 : n % 2 ? own[n / 2] :
		   (own[n / 2 - 1] + own[n / 2]) / 2;
	if (s->inv_s < 0)
		s->inv_s = 0;
	s->cost.boot_s = s->o->boot_cost;
	s->cost.inv_s = s->inv_s;
	s->cost.rep_s = s->ncells * (s->duration_s + s->settle_s);
}

int study_check(struct study *s, char *err, size_t n)
{
	const char *first = NULL;
	int i;

	if (check_labels(s, err, n))
		return -EINVAL;
	if (s->nfiles < 2) {
		snprintf(err, n, "%s: one invocation: a study needs two or "
			 "more (files of separate runs)", s->files[0].path);
		return -EINVAL;
	}
	if (group_boots(s))
		return -ENOMEM;
	s->kernel = s->files[0].kernel;
	s->hostname = s->files[0].sys.hostname;
	s->cpu_model = s->files[0].sys.cpu_model;
	for (i = 0; i < s->nfiles; i++)
		if (s->files[i].started &&
		    (!first || strcmp(s->files[i].started, first) < 0))
			first = s->files[i].started;
	s->started = first;
	s->nm = cmp_metrics(s->m, CMP_MAX_METRICS);
	costs(s);
	return 0;
}

/* ---- the figures ------------------------------------------------------ */

/* Does the study report metric m: a decision figure with one value a run */
static bool studied(const struct cmp_metric *m)
{
	return (m->decides || m->bounds) && m->count == CMP_NO_COUNT;
}

/*
 * One cell's figure laid out as nested.h wants it, into y, reps (one an
 * invocation with values) and invs (one a boot): the design, with
 * boots or invocations without a value left out.
 */
static void lay_out(const struct study *s, const char *bench,
		    const char *load, const struct cmp_metric *m, double *y,
		    int *reps, int *invs, struct nested_data *d)
{
	int b, i, k = 0, ny = 0, nk = 0, nb = 0;

	for (b = 0; b < s->boots; b++) {
		int had = 0;

		for (i = 0; i < s->invs[b]; i++, k++) {
			const struct file_cell *c;
			size_t r;
			int got = 0;

			c = rf_find_cell(&s->files[s->order[k]], bench, load);
			for (r = 0; c && r < c->n_ok; r++) {
				double v = cmp_value(&c->ok[r], m);

				if (!isnan(v)) {
					y[ny++] = v;
					got++;
				}
			}
			if (got) {
				reps[nk++] = got;
				had++;
			}
		}
		if (had)
			invs[nb++] = had;
	}
	d->y = y;
	d->reps = reps;
	d->invs = invs;
	d->boots = nb;
}

static double delta(const struct study *s, const struct cmp_metric *m)
{
	return m->log ? log1p(s->o->change / 100) : s->o->points;
}

/* The figure's row, if it has values in two invocations: 0 or -ENOMEM. */
static int add_row(struct study *s, const char *bench, const char *load,
		   int mi, double *y, int *reps, int *invs, size_t *cap)
{
	struct design_goal g = {
		delta(s, &s->m[mi]), s->o->alpha, s->o->power,
		STUDY_MAX_B, STUDY_MAX_I, STUDY_MAX_R,
	};
	struct nested_data d;
	struct study_row row, *p;
	double var[CL_LEVELS];
	int l;

	lay_out(s, bench, load, &s->m[mi], y, reps, invs, &d);
	memset(&row, 0, sizeof(row));
	if (!d.boots || nested_fit(&d, &row.fit) ||
	    row.fit.invocations < 2)
		return 0;
	row.bench = bench;
	row.load = load;
	row.metric = mi;
	for (l = 0; l < CL_LEVELS; l++) {
		var[l] = row.fit.var[l] < 0 ? 0 : row.fit.var[l];
		if (!isnan(var[l]))
			row.total += var[l];
	}
	if (row.total > 0)
		design_cheapest(var, &s->cost, &g, &row.d);
	p = grow_array(s->rows, cap, (size_t)s->nrows, sizeof(*p));
	if (!p)
		return -ENOMEM;
	s->rows = p;
	s->rows[s->nrows++] = row;
	return 0;
}

int study_run(struct study *s)
{
	const struct result_file *f0 = &s->files[0];
	size_t nv = 0, cap = 0, c;
	double *y;
	int *reps, *invs, i, mi, r = 0;

	for (i = 0; i < s->nfiles; i++)
		for (c = 0; c < s->files[i].n_cells; c++)
			nv += s->files[i].cells[c].n_ok;
	y = malloc((nv + 1) * sizeof(*y));
	reps = malloc((nv + 1) * sizeof(*reps));
	invs = malloc(((size_t)s->nfiles + 1) * sizeof(*invs));
	if (!y || !reps || !invs)
		r = -ENOMEM;
	/* the first file's cells: a study's files hold one table */
	for (c = 0; !r && c < f0->n_cells; c++)
		for (mi = 0; !r && mi < s->nm; mi++)
			if (studied(&s->m[mi]))
				r = add_row(s, f0->cells[c].bench,
					    f0->cells[c].load, mi, y, reps,
					    invs, &cap);
	free(y);
	free(reps);
	free(invs);
	return r;
}

void study_free(struct study *s)
{
	free(s->order);
	free(s->invs);
	free(s->boot_id);
	free(s->rows);
	s->order = s->invs = NULL;
	s->boot_id = NULL;
	s->rows = NULL;
	s->nrows = 0;
}

/* ---- the report ------------------------------------------------------- */

/* The row's components, a negative one taken as 0 (NaN: not measured). */
static void row_var(const struct study_row *r, double *var)
{
	int l;

	for (l = 0; l < CL_LEVELS; l++)
		var[l] = r->fit.var[l] < 0 ? 0 : r->fit.var[l];
}

/* Level l's share of the row's variance in %, as estimated. */
static double share(const struct study_row *r, int l)
{
	return r->total > 0 ? 100 * r->fit.var[l] / r->total : NAN;
}

/* How many repeats an invocation holds, over every cell and file. */
static void repeats(const struct study *s, int *lo, int *hi, int *all)
{
	int i;
	size_t c;

	*lo = 1 << 30;
	*hi = *all = 0;
	for (i = 0; i < s->nfiles; i++)
		for (c = 0; c < s->files[i].n_cells; c++) {
			int k = (int)s->files[i].cells[c].n_ok;

			*lo = k < *lo ? k : *lo;
			*hi = k > *hi ? k : *hi;
			*all += k;
		}
}

static void print_head(const struct study *s, FILE *f)
{
	int b, lo, hi, all;

	fprintf(f, "interbench study: %d files of kernel %s on %s (%s)\n",
		s->nfiles, s->kernel ? s->kernel : "unknown",
		s->hostname ? s->hostname : "unknown",
		s->cpu_model ? s->cpu_model : "CPU unknown");
	fprintf(f, "  %d boot%s, %d invocations (", s->boots,
		s->boots == 1 ? "" : "s", s->nfiles);
	for (b = 0; b < s->boots && b < 8; b++)
		fprintf(f, "%s%d in boot %.8s", b ? ", " : "", s->invs[b],
			s->boot_id[b]);
	repeats(s, &lo, &hi, &all);
	fprintf(f, "%s), %d cells of -t %g\n", b < s->boots ? ", ..." : "",
		s->ncells, s->duration_s);
	if (lo == hi)
		fprintf(f, "  %d repeats a cell an invocation, %d measured in "
			"all\n", lo, all);
	else
		fprintf(f, "  %d to %d repeats a cell an invocation, %d "
			"measured in all\n", lo, hi, all);
	fprintf(f, "Costs: a repeat of a cell %.1f s (-t, the load's %.1f s "
		"settle), of the table %.1f s;\n", s->duration_s +
		s->settle_s, s->settle_s, s->cost.rep_s);
	if (s->inv_n)
		fprintf(f, "  an invocation's own %.1f s (finished - started "
			"less its cells, median of %d);\n", s->inv_s,
			s->inv_n);
	else
		fprintf(f, "  an invocation's own 0 s (not measured: no file "
			"has both stamps);\n");
	fprintf(f, "  a boot %.0f s (%s)\n", s->o->boot_cost,
		s->o->boot_cost_seen ? "--boot-cost" :
		"assumed: --boot-cost SECONDS");
	fprintf(f, "Goal: a change of %g %% (%g point%s for %% figures) at "
		"power %.2f, alpha %g\n", s->o->change, s->o->points,
		s->o->points == 1 ? "" : "s", s->o->power, s->o->alpha);
	fprintf(f, "  two-sided per figure, not adjusted: compare's BH over "
		"the table's %d figures\n  asks up to alpha/%d of a lone "
		"change (--alpha %.2g for that)\n", s->nrows,
		s->nrows ? s->nrows : 1,
		s->o->alpha / (s->nrows ? s->nrows : 1));
	if (s->boots == 1)
		fprintf(f, "One boot: boots not measured; designs are "
			"invocations x repeats in one boot a\n  side and "
			"assume no boot effect.\n");
}

/* One level's share: "-" not measured, "-0.3*" below 0 as measured. */
static void print_share(const struct study_row *r, int l, FILE *f,
			bool *neg)
{
	double v = share(r, l);

	if (isnan(r->fit.var[l]))
		fprintf(f, " %6s", "-");
	else if (isnan(v))
		fprintf(f, " %6s", "0");
	else if (r->fit.var[l] < 0) {
		fprintf(f, " %5.1f*", v);
		*neg = true;
	} else {
		fprintf(f, " %6.1f", v);
	}
}

static void print_row(const struct study *s, const struct study_row *r,
		      FILE *f, bool *neg)
{
	const struct cmp_metric *m = &s->m[r->metric];
	char cell[80], design[40], sd[16];
	int l;

	snprintf(cell, sizeof(cell), "%s/%s", r->bench, r->load);
	fprintf(f, "%-11s %-16s", cell, m->label);
	for (l = CL_LEVELS - 1; l >= 0; l--)
		print_share(r, l, f, neg);
	if (m->log)
		snprintf(sd, sizeof(sd), "%.1f %%", 100 * sqrt(r->total));
	else
		snprintf(sd, sizeof(sd), "%.2f pt", sqrt(r->total));
	if (!(r->total > 0))
		snprintf(design, sizeof(design), "no spread: any");
	else if (!r->d.found)
		snprintf(design, sizeof(design), "none in bounds");
	else
		snprintf(design, sizeof(design), "%d x %d x %d", r->d.b,
			 r->d.i, r->d.r);
	fprintf(f, " %7s  %-14s", sd, design);
	if (r->d.found)
		fprintf(f, " %5.1f", r->d.cost_s / 60);
	fputc('\n', f);
}

/* The design that finds the goal in most figures (ties: the cheaper). */
static int best_design(const struct study *s, struct design *best)
{
	int i, k, most = 0;

	memset(best, 0, sizeof(*best));
	for (i = 0; i < s->nrows; i++) {
		const struct design *d = &s->rows[i].d;
		int n = 0;

		if (!d->found)
			continue;
		for (k = 0; k < s->nrows; k++) {
			const struct study_row *r = &s->rows[k];
			double var[CL_LEVELS];

			row_var(r, var);
			if (!(r->total > 0) ||
			    design_power(var, d->b, d->i, d->r,
					 delta(s, &s->m[r->metric]),
					 s->o->alpha, NULL) >= s->o->power)
				n++;
		}
		if (n > most || (n == most && d->cost_s < best->cost_s)) {
			most = n;
			*best = *d;
		}
	}
	return most;
}

/* The invocations' median share of the figures' variance, in %. */
static double inv_share(const struct study *s)
{
	double v[512], t;
	int i, k, n = 0;

	for (i = 0; i < s->nrows && n < 512; i++)
		if (s->rows[i].total > 0)
			v[n++] = fmax(0, share(&s->rows[i], CL_INVOCATION));
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && v[k - 1] > v[k]; k--) {
			t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	return !n ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void closing(const struct study *s, FILE *f)
{
	struct design d;
	int n = best_design(s, &d);

	if (!d.found) {
		fprintf(f, "=> no design within %d x %d x %d a side finds a "
			"%g %% change in any figure\n", STUDY_MAX_B,
			STUDY_MAX_I, STUDY_MAX_R, s->o->change);
		return;
	}
	fprintf(f, "=> %d x %d x %d a side finds %g %% in %d of %d figures "
		"(%.0f min): ", d.b, d.i, d.r, s->o->change, n, s->nrows,
		d.cost_s / 60);
	if (s->boots == 1)
		fprintf(f, "a kernel A/B (README) should run each kernel's "
			"table %d times (-n %d) after its boot, not once; "
			"invocations hold a median %.0f %% of the variance "
			"(boots not measured)\n", d.i, d.r, inv_share(s));
	else
		fprintf(f, "a kernel A/B (README) should boot each kernel %d "
			"times and run its table %d times (-n %d) in each "
			"boot\n", d.b, d.i, d.r);
}

void study_print(const struct study *s, FILE *f)
{
	bool neg = false;
	int i;

	print_head(s, f);
	fprintf(f, "\n%-28s %6s %6s %6s %7s  %-14s %5s\n", "% of variance:",
		"boot", "invoc", "repeat", "SD", "B x I x R", "min");
	for (i = 0; i < s->nrows; i++)
		print_row(s, &s->rows[i], f, &neg);
	fprintf(f, "(SD: the total's; B x I x R: boots, invocations a "
		"boot, repeats a side, the\ncheapest within %d x %d x %d; "
		"min: both sides' whole table. The "
		"frames late\nand deadlines missed counted are left out: "
		"they have no one value a run.)\n",
		STUDY_MAX_B, STUDY_MAX_I, STUDY_MAX_R);
	if (neg)
		fprintf(f, "* estimated below 0, as the method of moments "
			"does when a level's share is\n  small beside the "
			"level below: shown as measured, taken as 0 in the SD,"
			"\n  the design and --save\n");
	closing(s, f);
}

/* ---- the components file ---------------------------------------------- */

int study_save(const struct study *s, const char *path)
{
	struct components c;
	struct comp_study st = { s->nfiles, s->boots, s->nfiles };
	char (*note)[128] = calloc((size_t)s->nrows + 1, sizeof(*note));
	const char **notes = calloc((size_t)s->nrows + 1, sizeof(*notes));
	int i, l, r = -ENOMEM;

	memset(&c, 0, sizeof(c));
	c.e = calloc((size_t)s->nrows + 1, sizeof(*c.e));
	if (!c.e || !note || !notes)
		goto out;
	snprintf(c.hostname, sizeof(c.hostname), "%s",
		 s->hostname ? s->hostname : "");
	snprintf(c.cpu_model, sizeof(c.cpu_model), "%s",
		 s->cpu_model ? s->cpu_model : "");
	snprintf(c.measured, sizeof(c.measured), "%s",
		 s->started ? s->started : "");
	for (i = 0; i < s->nrows; i++) {
		const struct study_row *row = &s->rows[i];
		struct comp_entry *e = &c.e[c.n++];

		snprintf(e->bench, sizeof(e->bench), "%s", row->bench);
		snprintf(e->load, sizeof(e->load), "%s", row->load);
		snprintf(e->metric, sizeof(e->metric), "%s",
			 s->m[row->metric].label);
		row_var(row, e->var);
		for (l = 0; l < CL_LEVELS; l++) {
			e->df[l] = isnan(e->var[l]) ? NAN : row->fit.df[l];
			if (row->fit.var[l] < 0 && !note[i][0])
				snprintf(note[i], sizeof(note[i]), "%s "
					 "estimated %.3g (%.1f %% of the "
					 "variance), taken as 0",
					 cmp_level_names[l], row->fit.var[l],
					 share(row, l));
		}
		notes[i] = note[i];
	}
	r = comp_save(&c, &st, notes, path);
out:
	free(c.e);
	free(note);
	free(notes);
	return r;
}
