// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/compare_text.c - compare's table on standard output, one of the
 * outcome's renderers (outcome.h): how the sides are replicated, then for
 * each NEW file what was recorded differently, how it was tested, every
 * cell's rows and verdict, the notes, the summaries and each task's
 * verdict, and what would decide the cells undecided.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "compare/outcome.h"

/* ---- formatting ------------------------------------------------------ */

static void fmt_num(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1e6)
		snprintf(buf, n, "%.4g", v);
	else
		snprintf(buf, n, "%.1f", v);
}

/* "+12.3 %" for ratios, "-1.5 pt" for percentages. */
static void fmt_change(char *buf, size_t n, double v, bool log)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%+.1f %s", v, log ? "%" : "pt");
}

/* An end of an interval: past +/-99999 as "+inf"-like "+1.2e+09". */
static void fmt_end(char *buf, size_t n, double v)
{
	if (fabs(v) < 99999.5)
		snprintf(buf, n, "%+.1f", v);
	else
		snprintf(buf, n, "%+.2g", v);
}

static void fmt_interval(char *buf, size_t n, double lo, double hi)
{
	char a[16], b[16];

	if (isnan(lo) || isnan(hi)) {
		snprintf(buf, n, "-");
		return;
	}
	fmt_end(a, sizeof(a), lo);
	fmt_end(b, sizeof(b), hi);
	snprintf(buf, n, "[%s, %s]", a, b);
}

static void fmt_p(char *buf, size_t n, double p)
{
	if (isnan(p))
		snprintf(buf, n, "-");
	else if (p < 0.0001)
		snprintf(buf, n, "<0.0001");
	else
		snprintf(buf, n, "%.4f", p);
}

static const char *mark_text(int mark, double p)
{
	return mark > 0 ? "worse" : mark < 0 ? "better" : isnan(p) ? "" : "~";
}

/* A figure that does not decide marks its row, never the cell. */
static const char *row_mark_text(const struct cmp_row *r)
{
	if (r->decides || !r->mark)
		return mark_text(r->mark, r->p);
	return r->mark > 0 ? "(worse)" : "(better)";
}

/* One row of the table, in fixed-width columns, without trailing blanks. */
static void print_line(const char *cell, const char *metric, const char *a,
		       const char *b, const char *ch, const char *ci,
		       const char *p, const char *padj, const char *mark)
{
	char line[320];
	size_t n;

	snprintf(line, sizeof(line), "%-15s %-24s %10s %10s %9s  %-16s %7s "
		 "%7s  %s", cell, metric, a, b, ch, ci, p, padj, mark);
	n = strlen(line);
	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	puts(line);
}

static void print_row(const char *cell, const struct cmp_row *r,
		      const struct cmp_metric *m)
{
	char a[24], b[24], ch[24], ci[40], p[16], pa[16], label[64];

	snprintf(label, sizeof(label), "%s%s", m->label, r->decides ? " *" :
		 r->bounds ? " =" : "");
	fmt_num(a, sizeof(a), r->base);
	fmt_num(b, sizeof(b), r->cur);
	fmt_change(ch, sizeof(ch), r->change, m->log);
	fmt_interval(ci, sizeof(ci), r->lo, r->hi);
	fmt_p(p, sizeof(p), r->p);
	fmt_p(pa, sizeof(pa), r->padj);
	print_line(cell, label, a, b, ch, ci, p, pa, row_mark_text(r));
}

/* ---- one file against BASE ------------------------------------------ */

static const struct file_cell *cell_of(const struct cmp_cell *cc)
{
	return cc->a ? cc->a : cc->b;
}

static void differs_line(void *ctx, const char *key, const char *va,
			 const char *vb)
{
	(void)ctx;
	printf("  %-34s %s -> %s\n", key, va, vb);
}

/* First, every recorded setting that differs: what else changed. */
static void print_differs(const struct result_file *base,
			  const struct result_file *cur)
{
	printf("Settings recorded differently in %s and %s:\n", base->path,
	       cur->path);
	if (!rf_settings_diff(base, cur, differs_line, NULL))
		printf("  none: the machine and interbench's settings were "
		       "recorded the same\n");
	printf("\n");
}

static void print_header(const struct result_file *base,
			 const struct result_file *cur,
			 const struct cmp_outcome *oc,
			 const struct cmp_opts *o, int looks, int share)
{
	printf("%s against %s (interbench %s", cur->path, base->path,
	       base->version);
	if (strcmp(base->version, cur->version))
		printf(" and %s", cur->version);
	printf(")\n");
	if (strcmp(base->version, cur->version))
		printf("note: the files were written by different versions of "
		       "interbench (schema %s both): their figures are compared "
		       "as they are\n", SCHEMA_NAME);
	if (base->interrupted)
		printf("note: %s: the run was interrupted (%s): cells may be "
		       "missing\n", base->path, base->interrupted);
	if (cur->interrupted)
		printf("note: %s: the run was interrupted (%s): cells may be "
		       "missing\n", cur->path, cur->interrupted);
	if (o->paired)
		printf("A and B of one `interbench ab` run (id %s),\nmeasured "
		       "cell by cell side by side: each figure is tested on "
		       "its pairs of\nrepeats (a paired t-test; latencies and "
		       "rates as ratios, percentages in\npoints), ",
		       base->ab_id);
	else
		printf("Each figure is tested on its values per repeat "
		       "(Welch's t-test; latencies and rates as\nratios, "
		       "percentages in points), ");
	printf("the frames late and the deadlines missed on\ntheir counts in "
	       "every %s, with the spread between %ss estimated (the run is\n"
	       "the unit). %s", o->paired ? "pair" : "run",
	       o->paired ? "pair" : "run", o->moderate ?
	       "Each test's variance is shrunk towards what the table's cells "
	       "share\n(moderated, as limma; --plain: each on its own). " :
	       "Each test on its own cell's spread (--plain).\n");
	printf("A change is marked when its p, adjusted within its\n"
	       "family and direction (Benjamini-Hochberg, worse and better "
	       "apart: true\nbetters cannot let a false worse through), is at "
	       "most %g and its %g %%\ninterval lies beyond %g %% (%g point%s "
	       "for percentages).\n",
	       o->alpha, o->level * 100, o->min_change, o->min_points,
	       o->min_points == 1 ? "" : "s");
	if (o->primary >= 0)
		printf("Every cell is judged on one figure, marked * (%s, "
		       "--primary).", figures[o->primary].label);
	else
		printf("A cell is judged on its decision figures, marked *: the "
		       "typical (p50\nlatency), the tail (%% of frames late, "
		       "past %d times the median of both sides'\nframes, and "
		       "max latency), the misses (%% deadlines missed), the lows "
		       "(1 %% low\nFPS) and %% desired CPU: every cell's are one "
		       "family.", CMP_LATE_TIMES);
	printf(" The\nother figures are a family of their own and mark only "
	       "their row, in brackets.\nA cell is worse when a decision "
	       "figure is worse, better when one is better and\nnone worse, "
	       "mixed when some are better and some worse (a trade-off);\n"
	       "unchanged only when every figure marked * or = lies within "
	       "its bound: %g %%\n(%g point%s), or for a latency %g %% of "
	       "the task's period, if wider; else\ninconclusive: the data "
	       "cannot tell.\n\n", o->min_change, o->min_points,
	       o->min_points == 1 ? "" : "s", CMP_EQUIV_PERIOD_PCT);
	if (oc->stop_pairs)
		printf("ab's -n auto stopped after %d pairs: %s.\n",
		       oc->stop_pairs, oc->stop_why);
	if (share > 1)
		printf("A sweep's candidate: its %d candidates share alpha %g "
		       "and the %g %% intervals'\nerror (Bonferroni over "
		       "the candidates), each judged at 1/%d of them.\n",
		       share, o->alpha * looks * share,
		       100 - (1 - o->level) * looks * share * 100, share);
	if (looks > 1)
		printf("-n auto could have stopped at any of %d looks: each "
		       "has 1/%d of alpha %g and of\nthe %g %% intervals' "
		       "error (Bonferroni over the looks), so that stopping "
		       "when\ndecided marks nothing falsely more often.\n\n",
		       looks, looks, o->alpha * looks * share,
		       100 - (1 - o->level) * looks * share * 100);
	print_line("cell", "metric", "base", "new", "change", "interval", "p",
		   "p adj", "mark");
}

/* An inconclusive cell: about how much more would decide it, or that
 * nothing -n takes would. */
static void print_need(const struct cmp_pair *c, const struct cmp_cell *cc,
		       const struct cmp_metric *m, const struct cmp_opts *o)
{
	struct cmp_need nd;
	char text[160];

	if (!cmp_cell_need(c, cc, m, o, &nd))
		return;
	cmp_need_text(&nd, o->paired, text, sizeof(text));
	printf("%-15s    %s", "", text);
	/* a rare event: how much more of the same would count enough */
	if (nd.pairs > 0 && nd.longer > 0)
		printf(";\n%-15s    %s: at this rate %.1f times the frames "
		       "would (%.1f times the %s, or a -t %.1f times as long)",
		       "", nd.what, nd.longer, nd.longer, o->paired ? "pairs" :
		       "repeats", nd.longer);
	printf("\n");
}

/* The machine's marks on either side, under the cell, as the runs said. */
static void print_marks(const struct cmp_cell *cc, const struct result_file *a,
			const struct result_file *b)
{
	struct rm_cell side[2];
	char text[256];

	if (!cmp_cell_marks(cc, a, b, side) &&
	    cmp_cell_marks_text(side, text, sizeof(text)))
		printf("%-15s    [%s]\n", "", text);
}

static void print_cells(const struct cmp_pair *c, const struct cmp_metric *m,
			const struct cmp_opts *o, const struct result_file *a,
			const struct result_file *b)
{
	int i, j;

	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];
		char name[96], why[512];

		snprintf(name, sizeof(name), "%s/%s", cell_of(cc)->bench,
			 cell_of(cc)->load);
		for (j = 0; j < cc->nrows; j++)
			print_row(j ? "" : name, &c->rows[cc->row0 + j],
				  &m[c->rows[cc->row0 + j].metric]);
		/* worse, better, mixed: with the figures that made it */
		cmp_cell_why(c, cc, m, why, sizeof(why));
		if (!cc->nrows)
			printf("%-15s %s\n", name,
			       cmp_verdict_names[cc->verdict]);
		else
			printf("%-15s => %s%s\n", "", cc->verdict == CV_MIXED ?
			       "mixed (a trade-off): " : *why && cc->verdict ==
			       CV_INCONCLUSIVE ? "inconclusive: " : "",
			       *why ? why : cmp_verdict_names[cc->verdict]);
		if (cc->verdict == CV_INCONCLUSIVE)
			print_need(c, cc, m, o);
		print_marks(cc, a, b);
	}
}

static void print_ignored(const struct result_file *rf)
{
	size_t i, k;

	for (i = 0; i < rf->n_cells; i++)
		for (k = 0; k < rf->cells[i].n_bad; k++) {
			const struct bad_repeat *br = &rf->cells[i].bad[k];

			if (br->repeat)
				printf("note: %s/%s in %s repeat %g: %s "
				       "(ignored)\n", rf->cells[i].bench,
				       rf->cells[i].load, rf->path,
				       br->repeat->num, br->status);
			else
				printf("note: %s/%s in %s results[%zu]: %s "
				       "(ignored)\n", rf->cells[i].bench,
				       rf->cells[i].load, rf->path, br->index,
				       br->status);
		}
}

/*
 * Each task's verdict, from its cells' (the cells decide; nothing below
 * them is a verdict of its own): worse if a cell is worse, mixed if one is
 * mixed or some better and some worse, better if one is better, unchanged
 * if every cell is, else undecided.
 */
static void print_tasks(const struct cmp_pair *c)
{
	const char *task[64];
	int i, t, ntask = cmp_tasks(c, task, 64);

	printf("\nEach task, from its cells' verdicts:\n");
	for (t = 0; t < ntask; t++) {
		int n[CV_ADDED + 1];
		const char *sep = "(";

		cmp_task_count(c, task[t], n);
		printf("  %-12s %-14s ", task[t], cmp_group_verdict(n));
		for (i = 0; i <= CV_ADDED; i++)
			if (n[i]) {
				printf("%s%d %s", sep, n[i], cmp_verdict_names[i]);
				sep = ", ";
			}
		printf(")\n");
	}
}

static void print_summary(const struct cmp_pair *c,
			  const struct cmp_metric *m,
			  const struct result_file *cur,
			  const struct cmp_opts *o)
{
	enum cmp_level unit = o->rep ? o->rep->unit : CL_REPEAT;
	int i, nc;

	if (c->nsums)
		printf("\nGeometric mean of new/base over the cells measured in "
		       "both (%g %% interval, runs\nas the unit; it describes "
		       "the cells, the cells' verdicts decide):\n",
		       o->level * 100);
	for (i = 0; i < c->nsums; i++) {
		const struct cmp_sum *s = &c->sums[i];
		char ch[24], ci[40], who[48];

		snprintf(who, sizeof(who), "%s (%d cell%s)", s->task,
			 s->cells, s->cells == 1 ? "" : "s");
		fmt_change(ch, sizeof(ch), s->change, true);
		fmt_interval(ci, sizeof(ci), s->lo, s->hi);
		printf("  %-22s %-16s %9s  %s\n", who, m[s->metric].label, ch,
		       isnan(s->lo) ? "(fewer than 2 whole runs a side)" : ci);
	}
	print_tasks(c);
	nc = c->count[CV_FEW] + c->count[CV_LOST] + c->count[CV_NEVER] +
	     c->count[CV_ADDED];
	printf("\nSummary: %d cells better, %d worse, %d mixed, ",
	       c->count[CV_BETTER], c->count[CV_WORSE], c->count[CV_MIXED]);
	printf("%d unchanged, %d inconclusive, %d not comparable",
	       c->count[CV_UNCHANGED], c->count[CV_INCONCLUSIVE], nc);
	if (nc) {
		const char *sep = " (";

		for (i = CV_FEW; i <= CV_ADDED; i++)
			if (c->count[i]) {
				printf("%s%d %s", sep, c->count[i],
				       cmp_verdict_names[i]);
				sep = ", ";
			}
		printf(")");
	}
	if (cur->interrupted)
		printf("; %s was interrupted", cur->path);
	printf("\n");
	if (c->count[CV_FEW] && unit == CL_REPEAT)
		printf("A verdict on a cell needs %d measured repeats in each "
		       "file (-n %d or more; 10 find smaller changes).\n",
		       CMP_MIN_REPEATS, CMP_MIN_REPEATS);
	else if (c->count[CV_FEW])
		printf("A verdict on a cell needs %d %s a side that measured "
		       "it (the unit of replication).\n", CMP_MIN_REPEATS,
		       cmp_level_plural(unit));
	cmp_say_undecided(c, m, o);
}

/*
 * How the sides are replicated, said once: what each side holds when one
 * holds several files, the unit the verdict tests, and a side of one boot.
 */
static void print_replication(const struct compare_options *o,
			      const struct cmp_side *s, int n)
{
	const struct cmp_replication *r = &o->rep;
	bool several = false;
	int i, k;

	for (i = 0; i < n; i++)
		several |= s[i].nfiles > 1;
	if (several) {
		printf("Sides:");
		for (i = 0; i < n; i++)
			printf("%s %s %d file%s (%d boot%s, %d invocation%s)",
			       i ? ";" : "", s[i].arg, s[i].nfiles,
			       s[i].nfiles == 1 ? "" : "s",
			       s[i].units[CL_BOOT],
			       s[i].units[CL_BOOT] == 1 ? "" : "s",
			       s[i].units[CL_INVOCATION],
			       s[i].units[CL_INVOCATION] == 1 ? "" : "s");
		printf(".\nThey differ by %s; the unit of replication is the "
		       "%s.\n%s\n", cmp_level_names[r->differ],
		       cmp_level_names[r->unit], r->unit == CL_REPEAT ?
		       "Each repeat is one value." : "Each unit's values of a "
		       "cell are pooled into one (the mean of their logs or\n"
		       "points, their frames counted together), and the units "
		       "are tested.");
		if (r->unknown)
			printf("(A file does not record its boot or process: "
			       "it is a unit of its own.)\n");
	}
	if (r->note[0])
		printf("note: %s\n", r->note);
	if (several || r->note[0])
		printf("\n");
	/* the repeats the pooled sides' files could not use */
	for (i = 0; i < n; i++)
		for (k = 0; s[i].use == &s[i].merged && k < s[i].nfiles; k++)
			print_ignored(&s[i].files[k]);
}


/* --threshold's breaches, each a line (outcome.c counted them). */
static void print_breaches(const struct cmp_pair *c, const struct cmp_metric *m,
			   const struct compare_options *o, const char *bpath,
			   const char *cpath)
{
	int i, j;

	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];

		if (cmp_cell_breaches(cc, o))
			printf("threshold: %s/%s measured in %s, not in %s\n",
			       cc->a->bench, cc->a->load, bpath, cpath);
		for (j = cc->row0; j < cc->row0 + cc->nrows; j++) {
			const struct cmp_row *r = &c->rows[j];

			if (!cmp_row_breaches(r, o))
				continue;
			printf("threshold: %s/%s %s worse by %.1f %s (> %g %s)\n",
			       cc->a->bench, cc->a->load, m[r->metric].label,
			       fabs(r->change), m[r->metric].log ? "%" : "pt",
			       o->threshold, m[r->metric].log ? "%" : "pt");
		}
	}
}

/* One NEW file against BASE, as judged: 0, or -ENOMEM. */
static int text_pair(const struct cmp_outcome *oc, const struct cmp_judged *p,
		     const struct compare_options *o)
{
	const struct cmp_metric *m = oc->m;
	struct cmp_marked mk;
	int err;

	print_differs(p->base, p->cur);
	print_header(p->base, p->cur, oc, &o->cmp, o->looks,
		     o->share > 1 ? o->share : 1);
	print_cells(&p->c, m, &o->cmp, p->base, p->cur);
	printf("\n");
	print_ignored(p->base);
	print_ignored(p->cur);
	print_breaches(&p->c, m, o, p->base->path, p->cur->path);
	print_summary(&p->c, m, p->cur, &o->cmp);
	err = cmp_marked_count(&p->c, p->base, p->cur, &mk);
	if (!err)
		cmp_marked_print(&mk);
	return err;
}

static int text_pairs(struct cmp_render *r, const struct cmp_outcome *oc)
{
	int i, err = 0;

	print_replication(r->o, oc->sides, oc->nfiles);
	for (i = 0; i < oc->npairs && !err; i++) {
		if (i)
			printf("\n");
		err = text_pair(oc, &oc->pairs[i], r->o);
	}
	return err;
}

const struct cmp_render_ops cmp_render_text = {
	.pairs = text_pairs,
};
