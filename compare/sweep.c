// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/sweep.c - a sweep's candidates judged against its base, each
 * pair of files as compare judges ab's, told in one table, one document,
 * one JUnit file and one page (see sweep.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/sweep.h"
#include "compare/sweep_page.h"
#include "compare/outcome.h"
#include "core/figures.h"
#include "lib/infer.h"
#include "lib/json.h"
#include "lib/safefile.h"
#include "lib/text.h"

#define TASKS_MAX	32

/* A candidate's verdict on one task: its cells' verdicts combined. */
struct task_v {
	const char *task;
	enum cmp_verdict v;
	int sum;			/* its first decision figure's sum, or -1 */
};

/* One candidate judged. */
struct judged {
	bool ok;			/* judged: oc holds its outcome */
	struct cmp_side side[2];
	struct result_file files[2];
	struct compare_options o;
	struct cmp_outcome oc;
	enum cmp_verdict v;		/* over every cell */
	struct task_v task[TASKS_MAX];
	int ntasks;
	char why[680];			/* not judged: why */
};

/*
 * Verdicts combined, cell into task and task into candidate: worse and
 * better together are mixed; a worse or better one beats the undecided;
 * unchanged only when every one is.
 */
static enum cmp_verdict combine(enum cmp_verdict acc, enum cmp_verdict v,
				bool first)
{
	if (v == CV_LOST)
		v = CV_WORSE;		/* a cell the candidate lost */
	if (v == CV_NEVER || v == CV_ADDED)
		return first ? CV_INCONCLUSIVE : acc;
	if (first)
		return v == CV_FEW ? CV_INCONCLUSIVE : v;
	if (acc == CV_MIXED || v == CV_MIXED)
		return CV_MIXED;
	if ((acc == CV_WORSE && v == CV_BETTER) ||
	    (acc == CV_BETTER && v == CV_WORSE))
		return CV_MIXED;
	if (acc == CV_WORSE || v == CV_WORSE)
		return CV_WORSE;
	if (acc == CV_BETTER || v == CV_BETTER)
		return CV_BETTER;
	if (acc == CV_UNCHANGED && v == CV_UNCHANGED)
		return CV_UNCHANGED;
	return CV_INCONCLUSIVE;
}

static const char *cell_task(const struct cmp_cell *cc)
{
	return cc->a ? cc->a->bench : cc->b->bench;
}

static const char *cell_load(const struct cmp_cell *cc)
{
	return cc->a ? cc->a->load : cc->b->load;
}

/* The task verdicts of j's outcome, in the order of its cells. */
static void tasks_of(struct judged *j)
{
	const struct cmp_pair *c = &j->oc.pairs[0].c;
	int i, k, s;

	j->ntasks = 0;
	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];
		const char *t = cell_task(cc);
		bool first = false;

		for (k = 0; k < j->ntasks && strcmp(j->task[k].task, t); k++)
			;
		if (k == TASKS_MAX)
			continue;
		if (k == j->ntasks) {
			j->task[k].task = t;
			j->ntasks++;
			first = true;
		}
		j->task[k].v = combine(j->task[k].v, cc->verdict, first);
	}
	/* the table's figure for a task: its decision figure that moved
	 * most (the page draws every one) */
	for (k = 0; k < j->ntasks; k++) {
		j->task[k].sum = -1;
		for (s = 0; s < c->nsums; s++)
			if (!strcmp(c->sums[s].task, j->task[k].task) &&
			    j->oc.m[c->sums[s].metric].decides &&
			    !isnan(c->sums[s].change) &&
			    (j->task[k].sum < 0 ||
			     fabs(c->sums[s].change) >
			     fabs(c->sums[j->task[k].sum].change)))
				j->task[k].sum = s;
	}
	for (k = 0; k < j->ntasks; k++)
		j->v = combine(j->v, j->task[k].v, !k);
}

/* Candidate st's files judged as compare judges ab's: 0, or -1 (why). */
static int judge_one(struct judged *j, const struct sweep_in *in,
		     const struct sweep_in_state *st,
		     const struct compare_options *o)
{
	struct cmp_metric *m = calloc(CMP_MAX_METRICS, sizeof(*m));
	char err[640];
	int nm, i;

	j->o = *o;
	memset(&j->o.comp, 0, sizeof(j->o.comp));
	if (!m) {
		snprintf(j->why, sizeof(j->why), "out of memory");
		return -1;
	}
	nm = cmp_metrics(m, CMP_MAX_METRICS);
	for (i = 0; i < 2; i++)
		if (cmp_side_open(&j->side[i], i ? st->path : in->st[0].path,
				  err, sizeof(err))) {
			snprintf(j->why, sizeof(j->why), "%s", err);
			goto fail;
		}
	if (cmp_sides_replicate(j->side, 2, &j->o.rep)) {
		snprintf(j->why, sizeof(j->why), "out of memory");
		goto fail;
	}
	j->o.cmp.rep = &j->o.rep;
	for (i = 0; i < 2; i++)
		j->files[i] = *j->side[i].use;
	/* paired, alpha shared by the looks and the candidates the files
	 * record: what compare of the two files does */
	cmp_ab_pair(j->files, 2, &j->o);
	if (cmp_outcome_judge(&j->oc, j->files, 2, j->side, &j->o, m, nm)) {
		snprintf(j->why, sizeof(j->why), "out of memory");
		goto fail;
	}
	if (j->oc.pairs[0].unjudged) {
		snprintf(j->why, sizeof(j->why), "%s", j->oc.pairs[0].why);
		cmp_outcome_free(&j->oc);
		goto fail;
	}
	j->ok = true;
	tasks_of(j);
	return 0;
fail:
	free(m);
	return -1;
}

static void judged_free(struct judged *j)
{
	int i;

	if (j->ok) {
		free((void *)j->oc.m);
		cmp_outcome_free(&j->oc);
	}
	for (i = 0; i < 2; i++)
		cmp_side_free(&j->side[i]);
}

/* ---- the document -------------------------------------------------------- */

/* The row that decided cell cc, for the forest: its largest marked
 * change, else its first decision row. */
static const struct cmp_row *deciding_row(const struct cmp_pair *c,
					  const struct cmp_cell *cc)
{
	const struct cmp_row *best = NULL;
	int r;

	for (r = cc->row0; r < cc->row0 + cc->nrows; r++) {
		const struct cmp_row *x = &c->rows[r];

		if (!x->decides)
			continue;
		if (!best || (x->mark && (!best->mark ||
					  fabs(x->change) > fabs(best->change))))
			best = x;
	}
	return best;
}

static void json_cells(struct jw *w, const struct judged *j, const char *t)
{
	const struct cmp_pair *c = &j->oc.pairs[0].c;
	int i;

	jw_arr_begin(w, "cells");
	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];
		const struct cmp_row *r = deciding_row(c, cc);

		if (strcmp(cell_task(cc), t))
			continue;
		jw_obj_begin(w, NULL);
		jw_str(w, "load", cell_load(cc));
		jw_str(w, "verdict", cmp_verdict_names[cc->verdict]);
		jw_str(w, "figure", r ? j->oc.m[r->metric].label : NULL);
		jw_num(w, "change", r ? r->change : NAN);
		jw_num(w, "lo", r ? r->lo : NAN);
		jw_num(w, "hi", r ? r->hi : NAN);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void json_tasks(struct jw *w, const struct judged *j)
{
	const struct cmp_pair *c = &j->oc.pairs[0].c;
	int k, s, i;

	jw_arr_begin(w, "tasks");
	for (k = 0; k < j->ntasks; k++) {
		jw_obj_begin(w, NULL);
		jw_str(w, "task", j->task[k].task);
		jw_str(w, "verdict", cmp_verdict_names[j->task[k].v]);
		/*
		 * the geometric mean over its cells, of each decision figure;
		 * first the one that moved most, which the table shows
		 */
		jw_arr_begin(w, "figures");
		for (i = -1; i < c->nsums; i++) {
			const struct cmp_sum *sm;

			s = i < 0 ? j->task[k].sum : i;
			if (s < 0 || (i >= 0 && s == j->task[k].sum))
				continue;
			sm = &c->sums[s];
			if (strcmp(sm->task, j->task[k].task) ||
			    !j->oc.m[sm->metric].decides)
				continue;
			jw_obj_begin(w, NULL);
			jw_str(w, "figure", j->oc.m[sm->metric].label);
			jw_num(w, "change", sm->change);
			jw_num(w, "lo", sm->lo);
			jw_num(w, "hi", sm->hi);
			jw_obj_end(w);
		}
		jw_arr_end(w);
		json_cells(w, j, j->task[k].task);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void json_state(struct jw *w, const struct sweep_in_state *st)
{
	jw_str(w, "name", st->name);
	/* a candidate skipped has none */
	jw_str(w, "file", st->status && !strcmp(st->status, "skipped") ?
	       NULL : st->path);
	jw_str(w, "enter", st->enter);
	jw_str(w, "leave", st->leave);
	jw_str(w, "options", st->opts);
}

static void json_candidate(struct jw *w, const struct sweep_in *in,
			   const struct sweep_in_state *st,
			   const struct judged *j)
{
	jw_obj_begin(w, NULL);
	json_state(w, st);
	jw_str(w, "status", !in->judge || strcmp(st->status, "measured") ?
	       st->status : j->ok ? "judged" : "unjudged");
	jw_str(w, "why", st->why ? st->why : in->judge && !j->ok &&
	       !strcmp(st->status, "measured") ? j->why : NULL);
	jw_int(w, "pairs", st->pairs);
	if (st->stop_pairs) {
		jw_obj_begin(w, "stopped");
		jw_int(w, "pairs", st->stop_pairs);
		jw_str(w, "why", st->stop_why);
		jw_obj_end(w);
	} else {
		jw_null(w, "stopped");
	}
	jw_str(w, "page", j->ok && st->page ? st->page : NULL);
	jw_str(w, "verdict", j->ok ? cmp_verdict_names[j->v] : NULL);
	if (j->ok)
		json_tasks(w, j);
	else
		jw_null(w, "tasks");
	jw_obj_end(w);
}

/*
 * The base's run-to-run noise in each cell, on the figure the forest
 * draws first: the SD over its repeats of the log of the figure, as %.
 */
static void json_noise(struct jw *w, const struct judged *j, int nj)
{
	const struct judged *any = NULL;
	const struct cmp_pair *c;
	int i, r, k;

	for (i = 0; i < nj && !any; i++)
		any = j[i].ok ? &j[i] : NULL;
	jw_arr_begin(w, "noise");
	for (i = 0; any && i < any->oc.pairs[0].c.ncells; i++) {
		const struct cmp_row *row;
		const struct cmp_metric *m;
		double *vals, mean, v;
		size_t n = 0;

		c = &any->oc.pairs[0].c;
		row = deciding_row(c, &c->cells[i]);
		if (!row || !c->cells[i].a)
			continue;
		m = &any->oc.m[row->metric];
		vals = malloc((c->cells[i].a->n_ok + 1) * sizeof(*vals));
		for (r = 0; vals && r < (int)c->cells[i].a->n_ok; r++) {
			v = cmp_value(&c->cells[i].a->ok[r], m);
			if (!isnan(v))
				vals[n++] = v;
		}
		if (n >= 2)
			inf_mean_sd(vals, n, &mean, &v);
		free(vals);
		if (n < 2)
			continue;
		jw_obj_begin(w, NULL);
		jw_str(w, "task", cell_task(&c->cells[i]));
		jw_str(w, "load", cell_load(&c->cells[i]));
		jw_str(w, "figure", m->label);
		/* a log's SD is the relative SD; a % figure's is in points */
		k = m->log ? 100 : 1;
		jw_num(w, "sd_pct", v * k);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static int write_doc(const struct sweep_in *in, const struct compare_options *o,
		     const struct judged *j)
{
	struct safe_file sf;
	struct jw w;
	int i, err;

	err = safe_file_begin(&sf, in->doc);
	if (err)
		return err;
	jw_init(&w, sf.f);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", SWEEP_SCHEMA);
	jw_str(&w, "version", in->version);
	jw_str(&w, "command_line", in->command_line);
	jw_str(&w, "id", in->id);
	jw_str(&w, "started", in->started);
	jw_str(&w, "finished", in->finished);
	jw_str(&w, "interrupted", in->interrupted);
	jw_num(&w, "alpha", o->cmp.alpha);
	jw_int(&w, "candidates_judged", in->judged);
	jw_str(&w, "rule", "each candidate judged against the base of its "
	       "blocks as ab judges its pairs (a paired test per cell), at "
	       "alpha / K for the K candidates measured (Bonferroni over "
	       "candidates) and at its share of -n auto's looks; within a "
	       "candidate, compare's false discovery rate over its cells");
	jw_num(&w, "min_change_pct", o->cmp.min_change);
	jw_num(&w, "min_points", o->cmp.min_points);
	jw_obj_begin(&w, "design");
	jw_str(&w, "order", in->order);
	jw_uint(&w, "seed", in->seed);
	jw_int(&w, "states", in->judged + 1);	/* measured */
	jw_int(&w, "passes", in->passes);
	jw_int(&w, "measured", in->measured);
	jw_int(&w, "base_measured", in->base_measured);
	jw_int(&w, "ab_equivalent", in->ab_equivalent);
	jw_num(&w, "ratio", in->ab_equivalent ?
	       (double)in->measured / (double)in->ab_equivalent : NAN);
	jw_num(&w, "machine_s", in->machine_s);
	jw_obj_end(&w);
	jw_obj_begin(&w, "base");
	json_state(&w, &in->st[0]);
	jw_obj_end(&w);
	jw_arr_begin(&w, "candidates");
	for (i = 1; i < in->n; i++)
		json_candidate(&w, in, &in->st[i], &j[i]);
	jw_arr_end(&w);
	json_noise(&w, j + 1, in->n - 1);
	jw_obj_end(&w);
	err = jw_finish(&w);
	if (err) {
		safe_file_abort(&sf);
		return err;
	}
	return safe_file_commit(&sf);
}

/* ---- the console, JUnit and the pages ------------------------------------- */

/* "-31 % [-40, -22]": a task's first decision figure's change */
static void task_text(const struct judged *j, int k, char *buf, size_t n)
{
	const struct cmp_sum *s;

	buf[0] = '\0';
	if (j->task[k].sum < 0)
		return;
	s = &j->oc.pairs[0].c.sums[j->task[k].sum];
	if (isnan(s->lo))
		snprintf(buf, n, " (%s %+.0f %%)",
			 j->oc.m[s->metric].label, s->change);
	else
		snprintf(buf, n, " (%s %+.0f %% [%+.0f, %+.0f])",
			 j->oc.m[s->metric].label, s->change, s->lo, s->hi);
}

/*
 * A candidate's place in the table: better first, then unchanged,
 * inconclusive, mixed, worse, and those not judged last; among equals,
 * more tasks better first, then fewer worse, then the sweep's order.
 */
static int rank_key(const struct judged *j)
{
	static const int place[CV_ADDED + 1] = {
		[CV_BETTER] = 0, [CV_UNCHANGED] = 1, [CV_INCONCLUSIVE] = 2,
		[CV_FEW] = 2, [CV_MIXED] = 3, [CV_WORSE] = 4, [CV_LOST] = 4,
		[CV_NEVER] = 2, [CV_ADDED] = 2,
	};
	int k, better = 0, worse = 0;

	if (!j->ok)
		return 5 * 10000;
	for (k = 0; k < j->ntasks; k++) {
		better += j->task[k].v == CV_BETTER;
		worse += j->task[k].v == CV_WORSE || j->task[k].v == CV_MIXED;
	}
	return place[j->v] * 10000 + (99 - better) * 100 + worse;
}

static void print_table(const struct sweep_in *in, const struct judged *j)
{
	int order[64], i, k, n = 0, w = 8;
	char fig[128];

	for (i = 1; i < in->n && n < 64; i++) {
		/* insertion, stable: a later equal goes after */
		for (k = n; k > 0 && rank_key(&j[order[k - 1]]) >
				      rank_key(&j[i]); k--)
			order[k] = order[k - 1];
		order[k] = i;
		n++;
		if ((int)strlen(in->st[i].name) > w)
			w = (int)strlen(in->st[i].name);
	}
	printf("\nThe sweep: each candidate against the base, best first, by "
	       "task: its verdict,\nand the decision figure that moved most "
	       "(the geometric mean of its change\nover the task's cells, its "
	       "interval at the candidates' share of alpha)\n");
	for (k = 0; k < n; k++) {
		const struct sweep_in_state *st = &in->st[order[k]];
		const struct judged *c = &j[order[k]];

		printf("  %-*s  ", w, st->name);
		if (!c->ok) {
			printf("%s: %s\n", strcmp(st->status, "measured") ?
			       st->status : "not judged",
			       st->why ? st->why : c->why);
			continue;
		}
		printf("%-12s", cmp_verdict_names[c->v]);
		for (i = 0; i < c->ntasks; i++) {
			task_text(c, i, fig, sizeof(fig));
			printf("%s %s %s%s", i ? ";" : "", c->task[i].task,
			       cmp_verdict_names[c->task[i].v], fig);
		}
		printf("\n");
	}
}

/* "nice19 helps Audio, Video; spin hurts Audio, Video." */
static void print_closing(const struct sweep_in *in, const struct judged *j)
{
	static const enum cmp_verdict says[] = { CV_BETTER, CV_WORSE,
						 CV_MIXED };
	static const char *const word[] = { "helps", "hurts", "trades off" };
	int i, k, n, said = 0;
	size_t w;

	printf("\n");
	for (i = 1; i < in->n; i++)
		for (w = 0; j[i].ok && w < 3; w++)
			for (k = 0, n = 0; k < j[i].ntasks; k++) {
				if (j[i].task[k].v != says[w])
					continue;
				if (!n++)
					printf("%s%s %s ", said++ ? "; " : "",
					       in->st[i].name, word[w]);
				else
					printf(", ");
				printf("%s", j[i].task[k].task);
			}
	printf("%s\n", said ? "; no other candidate changed a task in a "
	       "way the data could decide." : "No candidate helped or hurt "
	       "a task in a way the data could decide.");
}

/* A candidate's JUnit outcome: pass, failure, error or skipped. */
enum junit_kind { JK_PASS, JK_FAILURE, JK_ERROR, JK_SKIPPED };

static enum junit_kind junit_kind(const struct sweep_in_state *st,
				  const struct judged *j)
{
	if (!strcmp(st->status, "skipped"))
		return JK_SKIPPED;
	if (!j->ok)
		return JK_ERROR;	/* its command failed; nothing judged */
	return j->v == CV_WORSE || j->v == CV_MIXED ? JK_FAILURE : JK_PASS;
}

/*
 * One suite, a testcase per candidate: a failure when it is worse or
 * mixed, an error when its command failed or nothing of it could be
 * judged, skipped when its need failed.
 */
static int write_junit(const struct sweep_in *in, const struct judged *j)
{
	struct safe_file sf;
	int i, err, n[4] = { 0 };
	char counts[128];

	for (i = 1; i < in->n; i++)
		n[junit_kind(&in->st[i], &j[i])]++;
	snprintf(counts, sizeof(counts), " tests=\"%d\" failures=\"%d\" "
		 "errors=\"%d\" skipped=\"%d\" time=\"%.3f\"", in->n - 1,
		 n[JK_FAILURE], n[JK_ERROR], n[JK_SKIPPED], in->machine_s);
	err = safe_file_begin(&sf, in->junit);
	if (err)
		return err;
	fprintf(sf.f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"interbench sweep\"%s>\n"
		"  <testsuite name=\"", counts);
	text_xml(sf.f, in->doc);
	fprintf(sf.f, "\"%s>\n", counts);
	for (i = 1; i < in->n; i++) {
		const struct sweep_in_state *st = &in->st[i];
		const char *why = st->why ? st->why : j[i].why;

		fputs("    <testcase classname=\"interbench.sweep\" name=\"",
		      sf.f);
		text_xml(sf.f, st->name);
		fputs("\" time=\"0\">", sf.f);
		switch (junit_kind(st, &j[i])) {
		case JK_SKIPPED:
			fputs("<skipped message=\"", sf.f);
			text_xml(sf.f, why);
			fputs("\"/>", sf.f);
			break;
		case JK_ERROR:
			fprintf(sf.f, "<error type=\"%s\" message=\"",
				strcmp(st->status, "failed") ?
				"nothing decidable" : "command failed");
			text_xml(sf.f, why);
			fputs("\"/>", sf.f);
			break;
		case JK_FAILURE:
			fprintf(sf.f, "<failure type=\"%s\" message=\"%s "
				"against the base\"/>",
				cmp_verdict_names[j[i].v],
				cmp_verdict_names[j[i].v]);
			break;
		case JK_PASS:
			break;
		}
		fputs("</testcase>\n", sf.f);
	}
	fputs("  </testsuite>\n</testsuites>\n", sf.f);
	return safe_file_commit(&sf);
}

/* The sweep's page, drawn from its document as written. */
static int sweep_page_file(const char *doc, const char *html, char *why,
			   size_t n)
{
	struct jval *v;
	int err;

	if (sweep_page_read(doc, &v) != 1) {
		snprintf(why, n, "%s: cannot read it back", doc);
		return -1;
	}
	err = sweep_page_write(v, doc, html, why, n);
	json_free(v);
	return err ? -1 : 0;
}

/* Candidate i's comparison page, as compare A B --html would draw it. */
static int write_page(struct judged *j, const char *page)
{
	struct cmp_render r = { .o = &j->o };
	int err;

	j->o.html = page;
	err = cmp_render_html.pairs ? cmp_render_html.pairs(&r, &j->oc) : 0;
	if (!err)
		err = cmp_render_html.end(&r, &j->oc);
	return err;
}

static int say_fault(const char *path, int err)
{
	fprintf(stderr, "interbench sweep: cannot write %s: %s\n", path,
		strerror(-err));
	return -1;
}

static void tally(const struct sweep_in *in, const struct judged *j,
		  struct sweep_tally *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 1; i < in->n; i++) {
		t->failed += !strcmp(in->st[i].status, "failed");
		if (!j[i].ok) {
			t->unjudged += !strcmp(in->st[i].status, "measured");
			continue;
		}
		t->judged++;
		t->worse += j[i].v == CV_WORSE || j[i].v == CV_MIXED;
		t->undecided += j[i].oc.tally.undecided > 0;
	}
}

int sweep_judge(const struct sweep_in *in, const struct compare_options *o,
		struct sweep_tally *t)
{
	struct judged *j = calloc((size_t)in->n, sizeof(*j));
	char why[320];
	int i, err, ret = -1;

	if (!j) {
		fprintf(stderr, "interbench sweep: out of memory\n");
		return -1;
	}
	for (i = 1; in->judge && i < in->n; i++)
		if (!strcmp(in->st[i].status, "measured"))
			judge_one(&j[i], in, &in->st[i], o);
	err = write_doc(in, o, j);
	if (err) {
		say_fault(in->doc, err);
		goto out;
	}
	tally(in, j, t);
	if (!in->judge) {
		ret = 0;
		goto out;
	}
	print_table(in, j);
	print_closing(in, j);
	safe_file_said(in->doc, "the sweep's verdicts as JSON");
	for (i = 1; i < in->n; i++)
		if (j[i].ok && in->st[i].page) {
			err = write_page(&j[i], in->st[i].page);
			if (err) {
				say_fault(in->st[i].page, err);
				goto out;
			}
		}
	if (in->junit) {
		err = write_junit(in, j);
		if (err) {
			say_fault(in->junit, err);
			goto out;
		}
		safe_file_said(in->junit, "a failure per candidate worse or "
			       "mixed, as JUnit XML");
	}
	if (in->html) {
		if (sweep_page_file(in->doc, in->html, why, sizeof(why))) {
			fprintf(stderr, "interbench sweep: cannot write %s: "
				"%s\n", in->html, why);
			goto out;
		}
		safe_file_said(in->html, "the sweep's page");
	}
	ret = 0;
out:
	for (i = 1; i < in->n; i++)
		judged_free(&j[i]);
	free(j);
	return ret;
}
