// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c - `interbench compare`: compare result files written by
 * `interbench --json` cell by cell (bench under load), and say which
 * changes are significant and larger than the run-to-run noise.
 *
 * A file's value of a metric is the median over its repeats whose status
 * is "ok". With >= 3 ok repeats in both files the repeats are compared
 * with Welch's t-test; otherwise the latency metrics fall back to a
 * Mann-Whitney U test on the latency distributions rebuilt from the
 * histograms, and the other metrics are not tested at all.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interbench.h"
#include "figures.h"
#include "json.h"
#include "resultfile.h"
#include "stats.h"

#define MIN_WELCH	3	/* repeats per file for the t-test */
#define FLOOR_PCT	1.0	/* smaller relative changes are never marked */
#define MAX_METRICS	16

/* The figures compare tests: those of the table flagged FIG_COMPARE. */
static enum fig_id metrics[MAX_METRICS];
static int n_metrics;

static void find_metrics(void)
{
	int i;

	n_metrics = 0;
	for (i = 0; i < F_COUNT && n_metrics < MAX_METRICS; i++)
		if (figures[i].flags & FIG_COMPARE)
			metrics[n_metrics++] = (enum fig_id)i;
}

/* A metric's row label: "% desired CPU", "p99 latency us". */
static void metric_label(int m, char *buf, size_t n)
{
	const struct figure *f = &figures[metrics[m]];

	snprintf(buf, n, "%s%s", f->label, f->unit == FU_NS ? " us" : "");
}

struct options {
	bool have_threshold;
	double threshold;	/* percent */
	double alpha;
};

struct tally {
	unsigned better, worse, unchanged, invalid;
};

/* One metric of one cell, compared. */
struct metric_cmp {
	double base, cur;	/* medians; NaN when no value */
	double change;		/* percent of base */
	const char *test;	/* "welch", "mann-whitney" or "n/a" */
	double p;		/* NaN when not tested */
	int mark;		/* +1 worse, -1 better, 0 neither */
};

/* A metric marked worse by more than --threshold. */
struct breach {
	char cell[96];
	int m;
	double change;		/* percent, the magnitude */
};

struct breaches {
	struct breach *b;
	size_t n, cap;
};

static const char usage_text[] =
"Usage: interbench compare [--threshold PCT] [--alpha P] BASE.json NEW.json"
" [MORE.json ...]\n"
"Compare result files of `interbench --json` with BASE.json, cell by cell.\n"
"  --threshold PCT  exit 1 when a metric is significantly worse by more\n"
"                   than PCT %, or a cell measured in BASE is not now\n"
"  --alpha P        significance level of the tests (default 0.05)\n"
"A file's value is the median over its repeats whose status is ok. With\n"
"3 or more such repeats in both files the repeats are compared by Welch's\n"
"t-test; otherwise latencies by a Mann-Whitney U test on the histograms.\n"
"A change is marked better or worse when it is significant, larger than\n"
"half the range of the repeats, and at least 1 %.\n"
"Exit status: 0, 1 when --threshold was exceeded, 2 on errors.\n";

/* The metric's non-null values over a cell's ok repeats; returns n. */
static size_t values(const struct file_cell *c, int m, double *v)
{
	size_t i, n = 0;

	for (i = 0; i < c->n_ok; i++)
		if (!isnan(c->ok[i].v[metrics[m]]))
			v[n++] = c->ok[i].v[metrics[m]];
	return n;
}

static double half_range(const double *v, size_t n)
{
	double lo = v[0], hi = v[0];
	size_t i;

	for (i = 1; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	return (hi - lo) / 2;
}

static double median_of(const double *v, size_t n, double *scratch)
{
	memcpy(scratch, v, n * sizeof(*v));
	return stats_median(scratch, n);
}

/*
 * Compare metric m of cells a (base) and b. p_hist is the Mann-Whitney p
 * of the two latency distributions, used when there are too few repeats.
 * work holds 3 * max(n_ok) doubles.
 */
static void compare_metric(const struct file_cell *a, const struct file_cell *b,
			   int m, double p_hist, double effect,
			   double alpha, double *work, struct metric_cmp *r)
{
	size_t na, nb, cap = a->n_ok > b->n_ok ? a->n_ok : b->n_ok;
	double *va = work, *vb = work + cap, *scratch = work + 2 * cap;
	double noise = 0, diff;
	bool worse;

	na = values(a, m, va);
	nb = values(b, m, vb);
	r->base = median_of(va, na, scratch);
	r->cur = median_of(vb, nb, scratch);
	r->p = NAN;
	r->mark = 0;
	r->change = NAN;
	r->test = "n/a";
	if (isnan(r->base) || isnan(r->cur))
		return;
	diff = r->cur - r->base;
	if (r->base != 0)
		r->change = diff / fabs(r->base) * 100;
	else
		r->change = diff == 0 ? 0 : diff > 0 ? INFINITY : -INFINITY;

	if (na >= MIN_WELCH && nb >= MIN_WELCH) {
		double t;

		r->test = "welch";
		r->p = stats_welch(va, na, vb, nb, &t);
		/*
		 * Welch speaks of means, the change shown of medians: a
		 * mark needs both to point the same way (t < 0: b higher).
		 */
		if ((t < 0) != (diff > 0) || t == 0)
			return;
	} else if (figures[metrics[m]].unit == FU_NS &&
		   figures[metrics[m]].arg != FS_MAX) {
		/*
		 * One test of the whole distributions stands for its mean
		 * and p99 only where it points the way they moved (effect <
		 * 0: the new file's latencies tend higher). A maximum is one
		 * value: no test of distributions speaks for it.
		 */
		r->test = "mann-whitney";
		r->p = p_hist;
		if ((effect < 0) != (diff > 0) || effect == 0)
			return;
	} else {
		return;
	}
	/* the noise is what the repeats of either file spread over */
	if (na >= MIN_WELCH)
		noise = half_range(va, na);
	if (nb >= MIN_WELCH && half_range(vb, nb) > noise)
		noise = half_range(vb, nb);
	if (!(r->p < alpha) || !(fabs(diff) > noise) ||
	    !(fabs(r->change) >= FLOOR_PCT))
		return;
	worse = figures[metrics[m]].better == FB_LOWER ? diff > 0 : diff < 0;
	r->mark = worse ? 1 : -1;
}

static void fmt_value(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", v);
}

static void fmt_change(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f %%", v);
}

static void fmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
}

/* One row of the table, in fixed-width columns, without trailing blanks. */
static void print_row(const char *cell, const char *metric, const char *base,
		      const char *cur, const char *change, const char *test,
		      const char *p, const char *mark)
{
	char line[256];
	size_t n;

	snprintf(line, sizeof(line), "%-15s %-16s %10s %10s %10s  %-12s %7s  %s",
		 cell, metric, base, cur, change, test, p, mark);
	n = strlen(line);
	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	puts(line);
}

static void print_notes(const struct result_file *rf, const struct file_cell *c)
{
	size_t i;

	for (i = 0; i < c->n_bad; i++) {
		const struct bad_repeat *br = &c->bad[i];

		if (br->repeat)
			printf("note: %s/%s in %s repeat %g: %s (ignored)\n",
			       c->bench, c->load, rf->path, br->repeat->num,
			       br->status);
		else
			printf("note: %s/%s in %s results[%zu]: %s "
			       "(ignored)\n", c->bench, c->load, rf->path,
			       br->index, br->status);
	}
}

/* Compare one cell present in both files and print its rows. */
static int compare_cell(const struct file_cell *a, const struct file_cell *b,
			const struct options *o, struct lat_stats *ha,
			struct lat_stats *hb, struct breaches *br,
			struct tally *t)
{
	size_t cap = a->n_ok > b->n_ok ? a->n_ok : b->n_ok;
	char name[96], v1[24], v2[24], ch[24], pv[16], label[64];
	const char *mark;
	double p_hist = NAN, effect = NAN, *work;
	bool any_worse = false, any_better = false;
	struct metric_cmp r;
	int m;

	snprintf(name, sizeof(name), "%s/%s", a->bench, a->load);
	work = malloc(3 * cap * sizeof(*work));
	if (!work)
		return -ENOMEM;
	if (a->n_ok < MIN_WELCH || b->n_ok < MIN_WELCH) {
		rf_cell_hist(a, ha);
		rf_cell_hist(b, hb);
		p_hist = stats_mann_whitney_hist(ha, hb, &effect);
	}
	for (m = 0; m < n_metrics; m++) {
		metric_label(m, label, sizeof(label));
		compare_metric(a, b, m, p_hist, effect, o->alpha,
			       work, &r);
		fmt_value(v1, sizeof(v1), r.base);
		fmt_value(v2, sizeof(v2), r.cur);
		fmt_change(ch, sizeof(ch), r.change);
		fmt_p(pv, sizeof(pv), r.p);
		/* "~": tested and unremarkable; blank: not tested */
		mark = r.mark > 0 ? "worse" : r.mark < 0 ? "better" :
		       strcmp(r.test, "n/a") ? "~" : "";
		print_row(m ? "" : name, label, v1, v2, ch, r.test,
			  pv, mark);
		any_worse |= r.mark > 0;
		any_better |= r.mark < 0;
		if (r.mark > 0 && o->have_threshold &&
		    fabs(r.change) > o->threshold) {
			void *p = grow_array(br->b, &br->cap, br->n, sizeof(*br->b));

			if (!p) {
				free(work);
				return -ENOMEM;
			}
			br->b = p;
			snprintf(br->b[br->n].cell, sizeof(br->b[0].cell),
				 "%s", name);
			br->b[br->n].m = m;
			br->b[br->n].change = fabs(r.change);
			br->n++;
		}
	}
	free(work);
	printf("%-15s => %s\n", "", any_worse ? "worse" : any_better ?
	       "better" : "unchanged");
	if (any_worse)
		t->worse++;
	else if (any_better)
		t->better++;
	else
		t->unchanged++;
	return 0;
}

/* Compare cur with base; returns the number of threshold breaches. */
static int compare_files(const struct result_file *base,
			 const struct result_file *cur,
			 const struct options *o, struct tally *t)
{
	struct lat_stats *ha = NULL, *hb = NULL;
	struct breaches br = { NULL, 0, 0 };
	const struct file_cell *a, *b;
	size_t i;
	int ret = 0, lost = 0;

	/* 58 KiB each: not on the stack */
	ha = malloc(sizeof(*ha));
	hb = malloc(sizeof(*hb));
	if (!ha || !hb) {
		ret = -ENOMEM;
		goto out;
	}
	printf("%s against %s (interbench %s)\n", cur->path, base->path,
	       base->version);
	if (base->interrupted)
		printf("note: %s: the run was interrupted (%s): cells may be "
		       "missing\n", base->path, base->interrupted);
	if (cur->interrupted)
		printf("note: %s: the run was interrupted (%s): cells may be "
		       "missing\n", cur->path, cur->interrupted);
	printf("\n");
	print_row("cell", "metric", "base", "new", "change", "test", "p",
		  "mark");

	for (i = 0; i < base->n_cells; i++) {
		a = &base->cells[i];
		b = rf_find_cell(cur, a->bench, a->load);
		if (!b)
			continue;
		if (!a->n_ok || !b->n_ok) {
			char name[96];

			snprintf(name, sizeof(name), "%s/%s", a->bench,
				 a->load);
			printf("%-15s no valid result in %s\n", name,
			       !a->n_ok && !b->n_ok ? "either file" :
			       !a->n_ok ? base->path : cur->path);
			t->invalid++;
			/* Measured before, not now: worse than any figure. */
			if (a->n_ok && o->have_threshold)
				lost++;
			continue;
		}
		ret = compare_cell(a, b, o, ha, hb, &br, t);
		if (ret)
			goto out;
	}

	printf("\n");
	for (i = 0; i < base->n_cells; i++) {
		a = &base->cells[i];
		b = rf_find_cell(cur, a->bench, a->load);
		print_notes(base, a);
		if (b)
			print_notes(cur, b);
		else
			printf("note: %s/%s only in %s\n", a->bench, a->load,
			       base->path);
	}
	for (i = 0; i < cur->n_cells; i++) {
		b = &cur->cells[i];
		if (!rf_find_cell(base, b->bench, b->load)) {
			print_notes(cur, b);
			printf("note: %s/%s only in %s\n", b->bench, b->load,
			       cur->path);
		}
	}
	for (i = 0; i < br.n; i++)
		printf("threshold: %s %s worse by %.1f %% (> %g %%)\n",
		       br.b[i].cell, figures[metrics[br.b[i].m]].label, br.b[i].change,
		       o->threshold);
	for (i = 0; lost && i < base->n_cells; i++) {
		a = &base->cells[i];
		b = rf_find_cell(cur, a->bench, a->load);
		if (b && a->n_ok && !b->n_ok)
			printf("threshold: %s/%s measured in %s, not in %s\n",
			       a->bench, a->load, base->path, cur->path);
	}
	ret = (int)br.n + lost;
out:
	free(br.b);
	free(ha);
	free(hb);
	return ret;
}

/* A whole-string finite number; 0 or -EINVAL. */
static int parse_double(const char *s, double *out)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*out = strtod(s, &end);
	if (*end || errno || !isfinite(*out))
		return -EINVAL;
	return 0;
}

static int set_threshold(void *base, const char *val, char *err, size_t n)
{
	struct options *o = base;

	if (parse_double(val, &o->threshold) || o->threshold < 0) {
		snprintf(err, n, "--threshold: '%s' is not a percentage >= 0",
			 val);
		return -EINVAL;
	}
	o->have_threshold = true;
	return 0;
}

static int set_alpha(void *base, const char *val, char *err, size_t n)
{
	struct options *o = base;

	if (parse_double(val, &o->alpha) || !(o->alpha > 0 && o->alpha < 1)) {
		snprintf(err, n, "--alpha: '%s' is not a probability between "
			 "0 and 1", val);
		return -EINVAL;
	}
	return 0;
}

/* --help has no setter: parse_options() answers it. */
const struct compare_opt compare_opts[] = {
	{ .name = "threshold", .arg = "PCT", .set = set_threshold },
	{ .name = "alpha", .arg = "P", .set = set_alpha },
	{ .name = "help" },
	{ .name = NULL },
};

/*
 * Is argv[*i] option name, as "--name VALUE" or "--name=VALUE"? Then
 * *val is the value (NULL when missing) and *i is past it.
 */
static bool option_value(char **argv, int argc, int *i, const char *name,
			 const char **val)
{
	size_t len = strlen(name);
	const char *arg = argv[*i];

	if (strncmp(arg, "--", 2) || strncmp(arg + 2, name, len) ||
	    (arg[len + 2] && arg[len + 2] != '='))
		return false;
	if (arg[len + 2] == '=')
		*val = arg + len + 3;
	else
		*val = *i + 1 < argc ? argv[++*i] : NULL;
	return true;
}

/*
 * Options and file names. Returns 0, 1 for --help, or -EINVAL with a
 * message in err. Files are left in argv[*first .. argc - 1].
 */
static int parse_options(int argc, char **argv, struct options *o,
			 int *first, char *err, size_t errlen)
{
	const struct compare_opt *c;
	const char *val;
	int i;

	o->have_threshold = false;
	o->threshold = 0;
	o->alpha = 0.05;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
			return 1;
		if (arg[0] != '-' || !arg[1])
			break;
		for (c = compare_opts; c->name; c++)
			if (c->set && option_value(argv, argc, &i, c->name,
						   &val))
				break;
		if (!c->name) {
			snprintf(err, errlen, "unknown option '%s' (see "
				 "interbench compare --help)", arg);
			return -EINVAL;
		}
		if (!val) {
			snprintf(err, errlen, "--%s needs a value", c->name);
			return -EINVAL;
		}
		if (c->set(o, val, err, errlen))
			return -EINVAL;
	}
	if (argc - i < 2) {
		snprintf(err, errlen, "need a base file and at least one file "
			 "to compare (see interbench compare --help)");
		return -EINVAL;
	}
	*first = i;
	return 0;
}

int compare_main(int argc, char **argv)
{
	struct result_file *files = NULL;
	struct tally *tallies = NULL;
	struct options o;
	char err[512];
	int first, nfiles, i, ret, breached = 0, status = 2;

	find_metrics();

	ret = parse_options(argc, argv, &o, &first, err, sizeof(err));
	if (ret == 1) {
		fputs(usage_text, stdout);
		return fflush(stdout) ? 2 : 0;
	}
	if (ret) {
		fprintf(stderr, "interbench compare: %s\n", err);
		return 2;
	}
	nfiles = argc - first;
	files = calloc((size_t)nfiles, sizeof(*files));
	tallies = calloc((size_t)nfiles, sizeof(*tallies));
	if (!files || !tallies) {
		fprintf(stderr, "interbench compare: out of memory\n");
		goto out;
	}
	/* check every file before printing anything */
	for (i = 0; i < nfiles; i++) {
		if (rf_load(&files[i], argv[first + i], err, sizeof(err))) {
			fprintf(stderr, "interbench compare: %s\n", err);
			goto out;
		}
		if (i && strcmp(files[i].version, files[0].version)) {
			fprintf(stderr, "interbench compare: %s: interbench "
				"%s but %s is %s: compare files of the same "
				"version\n", files[i].path, files[i].version,
				files[0].path, files[0].version);
			goto out;
		}
	}
	for (i = 1; i < nfiles; i++) {
		if (i > 1)
			printf("\n");
		ret = compare_files(&files[0], &files[i], &o, &tallies[i]);
		if (ret < 0) {
			fflush(stdout);
			fprintf(stderr, "interbench compare: out of memory\n");
			goto out;
		}
		breached += ret;
	}
	for (i = 1; i < nfiles; i++) {
		const struct tally *t = &tallies[i];

		if (nfiles > 2)
			printf("%s: ", files[i].path);
		printf("Summary: %u cells better, %u worse, %u unchanged",
		       t->better, t->worse, t->unchanged);
		if (t->invalid)
			printf(", %u without a valid result", t->invalid);
		printf("\n");
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "interbench compare: writing the report: %s\n",
			strerror(errno));
		goto out;
	}
	status = breached ? 1 : 0;
out:
	for (i = 0; files && i < nfiles; i++)
		rf_free(&files[i]);
	free(files);
	free(tallies);
	return status;
}
