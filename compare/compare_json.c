// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/compare_json.c - `interbench compare --json FILE`: every row of every
 * table and the summaries, for scripts (doc/compare.txt documents the keys);
 * a renderer of the outcome (outcome.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include "compare/compare.h"
#include "compare/outcome.h"
#include "lib/safefile.h"

static const char *const verdict_keys[] = {
	[CV_UNCHANGED] = "unchanged", [CV_BETTER] = "better",
	[CV_WORSE] = "worse", [CV_MIXED] = "mixed",
	[CV_INCONCLUSIVE] = "inconclusive",
	[CV_FEW] = "too_few_repeats",
	[CV_LOST] = "not_measured_in_new", [CV_NEVER] = "measured_in_neither",
	[CV_ADDED] = "only_in_new",
};

static const char *mark_key(int mark, double p)
{
	return mark > 0 ? "worse" : mark < 0 ? "better" : isnan(p) ?
	       "untested" : "unchanged";
}

/*
 * How the sides are replicated: the level they differ at, the unit
 * tested, and the note of a side of one boot (null when none).
 */
static void json_replication(struct jw *w, const struct cmp_replication *r)
{
	int l;

	jw_obj_begin(w, "replication");
	jw_str(w, "differ", cmp_level_names[r->differ]);
	jw_str(w, "unit", cmp_level_names[r->unit]);
	jw_bool(w, "one_a_side", r->one_a_side);
	jw_bool(w, "ids_recorded", !r->unknown);
	jw_str_or_null(w, "note", r->note);
	jw_str(w, "components", r->comp ? r->comp->path : NULL);
	jw_arr_begin(w, "components_added");
	for (l = 0; l < CL_LEVELS; l++)
		if (r->added[l])
			jw_str(w, NULL, cmp_level_names[l]);
	jw_arr_end(w);
	jw_obj_end(w);
}

int cmp_json_begin(struct cmp_json *j, const char *path,
		   const struct compare_options *o, const char *base)
{
	int err;

	memset(j, 0, sizeof(*j));
	/* never through a link or into a file someone planted */
	err = safe_file_begin(&j->sf, path);
	if (err) {
		errno = -err;
		return -1;
	}
	jw_init(&j->w, j->sf.f);
	jw_obj_begin(&j->w, NULL);
	jw_str(&j->w, "schema", COMPARE_SCHEMA);
	jw_num(&j->w, "alpha", o->cmp.alpha);
	jw_num(&j->w, "min_change_pct", o->cmp.min_change);
	jw_num(&j->w, "min_change_points", o->cmp.min_points);
	jw_num(&j->w, "level", o->cmp.level);
	/* what decides a cell: its decision figures, or --primary's one */
	if (o->cmp.primary >= 0)
		jw_str(&j->w, "primary", figures[o->cmp.primary].label);
	else
		jw_str(&j->w, "primary", NULL);
	/* A and B of one `interbench ab`: tested in pairs, alpha per look */
	jw_bool(&j->w, "paired", o->cmp.paired);
	jw_bool(&j->w, "moderated", o->cmp.moderate);
	jw_int(&j->w, "looks", o->looks);
	jw_int(&j->w, "candidates", o->share > 1 ? o->share : 1);
	json_replication(&j->w, &o->rep);
	jw_str(&j->w, "base", base);
	jw_arr_begin(&j->w, "comparisons");
	return 0;
}

static const char *test_name(const struct cmp_row *r,
			     const struct cmp_metric *m, bool paired)
{
	if (isnan(r->p))
		return NULL;
	if (m->count != CMP_NO_COUNT)
		return "counts";
	return paired ? "paired_t" : "welch";
}

static void json_row(struct jw *w, const struct cmp_row *r,
		     const struct cmp_metric *m, bool paired)
{
	jw_obj_begin(w, NULL);
	jw_str(w, "metric", m->label);
	jw_str(w, "unit", m->log ? "%" : "points");
	jw_int(w, "n_base", r->na);
	jw_int(w, "n_new", r->nb);
	jw_num(w, "base", r->base);
	jw_num(w, "new", r->cur);
	jw_num(w, "change", r->change);
	jw_num(w, "low", r->lo);
	jw_num(w, "high", r->hi);
	jw_str(w, "test", test_name(r, m, paired));
	jw_num(w, "df", isnan(r->p) ? NAN : r->df);
	if (m->count != CMP_NO_COUNT) {
		/* what was counted, and the dispersion the test took */
		jw_num(w, "counted_base", r->fit.ya);
		jw_num(w, "counted_new", r->fit.yb);
		jw_num(w, "frames_base", r->fit.na);
		jw_num(w, "frames_new", r->fit.nb);
		jw_num(w, "dispersion", r->phi);
		jw_num(w, "late_past_us", m->count == CMP_LATE ? r->bound_us :
		       NAN);
		/* B's share less A's, points: what "unchanged" reads */
		jw_num(w, "share_diff_low", r->dlo);
		jw_num(w, "share_diff_high", r->dhi);
	}
	jw_num(w, "p", r->p);
	jw_num(w, "p_adj", r->padj);
	jw_str(w, "mark", mark_key(r->mark, r->p));
	jw_bool(w, "decides", r->decides);
	jw_bool(w, "bounds", r->bounds);
	jw_bool(w, "within", r->within);
	/* a side of one boot: the measured components' variance added */
	jw_num(w, "component_var", r->widened > 0 ? r->widened : 0);
	jw_obj_end(w);
}

static void json_differs(void *ctx, const char *key, const char *va,
			 const char *vb)
{
	struct jw *w = ctx;

	jw_obj_begin(w, NULL);
	jw_str(w, "key", key);
	jw_str(w, "base", va);
	jw_str(w, "new", vb);
	jw_obj_end(w);
}

/*
 * A cell's row marks on either side: [{"side": "B", "mark": "busy",
 * "value": 34.2}], the value the mark's figure (% CPU time; the timer's
 * mean lateness in us for "no rt"; repeats for "stalled").
 */
static void json_cell_marks(struct jw *w, const struct rm_cell side[2])
{
	int s, k;

	jw_arr_begin(w, "marks");
	for (s = 0; s < 2; s++)
		for (k = 0; k < RM_KINDS; k++) {
			if (!(side[s].has & 1u << k))
				continue;
			jw_obj_begin(w, NULL);
			jw_str(w, "side", s ? "B" : "A");
			jw_str(w, "mark", rm_keys[k]);
			jw_num(w, "value", side[s].v[k]);
			jw_obj_end(w);
		}
	jw_arr_end(w);
}

/* How many cells are marked, with what, and what it means for trust. */
static int json_marked(struct jw *w, const struct cmp_pair *c,
		       const struct result_file *base,
		       const struct result_file *cur)
{
	struct cmp_marked mk;
	char text[1024];
	int s, k;

	if (cmp_marked_count(c, base, cur, &mk))
		return -ENOMEM;
	jw_obj_begin(w, "row_marks");
	jw_int(w, "cells", mk.cells);
	jw_int(w, "decided", mk.decided);
	for (s = 0; s < 2; s++) {
		jw_obj_begin(w, s ? "new" : "base");
		for (k = 0; k < RM_KINDS; k++)
			jw_int(w, rm_keys[k], mk.n[s][k]);
		jw_obj_end(w);
	}
	cmp_marked_text(&mk, text, sizeof(text));
	jw_str(w, "note", mk.cells ? text : NULL);
	jw_obj_end(w);
	return 0;
}

/* Each task's verdict, from its cells' (as compare prints them). */
static void json_tasks(struct jw *w, const struct cmp_pair *c)
{
	const char *task[64];
	int t, n[CV_ADDED + 1], ntask = cmp_tasks(c, task, 64);

	jw_arr_begin(w, "tasks");
	for (t = 0; t < ntask; t++) {
		cmp_task_count(c, task[t], n);
		jw_obj_begin(w, NULL);
		jw_str(w, "task", task[t]);
		jw_str(w, "verdict", cmp_group_verdict(n));
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/*
 * An undecided cell: about how much more would decide it, at 80 % chance,
 * and the range at 60 to 90 % (null: more than -n takes).
 */
static void json_need(struct jw *w, const struct cmp_pair *c,
		      const struct cmp_cell *cc, const struct cmp_metric *m,
		      const struct cmp_opts *o)
{
	struct cmp_need nd;
	char what[160];

	memset(&nd, 0, sizeof(nd));
	if (cc->verdict == CV_INCONCLUSIVE)
		cmp_cell_need(c, cc, m, o, &nd);
	if (nd.pairs > 0) {
		jw_int(w, "pairs_to_decide", nd.pairs);
		jw_arr_begin(w, "pairs_to_decide_range");
		jw_int(w, NULL, nd.from);
		if (nd.to > 0)
			jw_int(w, NULL, nd.to);
		else
			jw_null(w, NULL);
		jw_arr_end(w);
	} else {
		jw_null(w, "pairs_to_decide");
		jw_null(w, "pairs_to_decide_range");
	}
	jw_num(w, "frames_to_decide_times", nd.pairs > 0 &&
	       nd.longer > 0 ? nd.longer : NAN);
	/* beyond what -n takes: no number, and why */
	cmp_need_text(&nd, o->paired, what, sizeof(what));
	jw_str(w, "undecidable", nd.pairs == CMP_NEED_NEVER ? what : NULL);
}

/* One file against BASE, into "comparisons": 0 or -ENOMEM. */
static int json_pair(struct jw *w, const struct cmp_outcome *oc,
		     const struct cmp_judged *p, const struct cmp_opts *o)
{
	const struct result_file *base = p->base, *cur = p->cur;
	const struct cmp_pair *c = &p->c;
	const struct cmp_metric *m = oc->m;
	char why[512];
	struct rm_cell side[2];
	int i, j;

	jw_obj_begin(w, NULL);
	jw_str(w, "file", cur->path);
	jw_str(w, "interbench_version", cur->version);
	jw_str(w, "interrupted", cur->interrupted);
	/* ab's -n auto: when it stopped, and why */
	if (oc->stop_pairs) {
		jw_obj_begin(w, "ab_stopped");
		jw_int(w, "pairs", oc->stop_pairs);
		jw_str(w, "why", oc->stop_why);
		jw_obj_end(w);
	} else {
		jw_null(w, "ab_stopped");
	}
	/* what was recorded differently, before any figure */
	jw_arr_begin(w, "settings_differ");
	rf_settings_diff(base, cur, json_differs, w);
	jw_arr_end(w);
	jw_arr_begin(w, "cells");
	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];
		const struct file_cell *fc = cc->a ? cc->a : cc->b;

		jw_obj_begin(w, NULL);
		jw_str(w, "bench", fc->bench);
		jw_str(w, "load", fc->load);
		jw_str(w, "verdict", verdict_keys[cc->verdict]);
		cmp_cell_why(c, cc, m, why, sizeof(why));
		jw_str(w, "decided_by", *why ? why : NULL);
		jw_num(w, "period_us", cc->period_us);
		/* the machine's marks: they weaken the verdict, never make it */
		if (cmp_cell_marks(cc, base, cur, side))
			return -ENOMEM;
		json_cell_marks(w, side);
		json_need(w, c, cc, m, o);
		jw_arr_begin(w, "rows");
		for (j = cc->row0; j < cc->row0 + cc->nrows; j++)
			json_row(w, &c->rows[j], &m[c->rows[j].metric],
				 o->paired);
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_arr_begin(w, "summary");
	for (i = 0; i < c->nsums; i++) {
		const struct cmp_sum *s = &c->sums[i];

		jw_obj_begin(w, NULL);
		jw_str(w, "task", s->task);
		jw_str(w, "metric", m[s->metric].label);
		jw_int(w, "cells", s->cells);
		jw_int(w, "runs_base", s->runs_a);
		jw_int(w, "runs_new", s->runs_b);
		jw_num(w, "change_pct", s->change);
		jw_num(w, "low", s->lo);
		jw_num(w, "high", s->hi);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_begin(w, "cells_by_verdict");
	for (i = 0; i <= CV_ADDED; i++)
		jw_int(w, verdict_keys[i], c->count[i]);
	jw_obj_end(w);
	json_tasks(w, c);
	jw_str(w, "verdict", cmp_group_verdict(c->count));
	if (json_marked(w, c, base, cur))
		return -ENOMEM;
	jw_obj_end(w);
	return 0;
}

void cmp_json_all_begin(struct cmp_json *j)
{
	if (j->all)
		return;
	jw_arr_end(&j->w);
	jw_arr_begin(&j->w, "all_pairs");
	j->all = true;
}

int cmp_json_end(struct cmp_json *j)
{
	int err;

	if (!j->sf.f)
		return 0;
	jw_arr_end(&j->w);
	jw_obj_end(&j->w);
	err = jw_finish(&j->w);
	if (err)
		safe_file_abort(&j->sf);
	else
		err = safe_file_commit(&j->sf);
	return err;
}

void cmp_json_abort(struct cmp_json *j)
{
	safe_file_abort(&j->sf);
}

static int json_pairs(struct cmp_render *r, const struct cmp_outcome *oc)
{
	int i, err = 0;

	for (i = 0; i < oc->npairs && !err; i++)
		err = json_pair(&r->json.w, oc, &oc->pairs[i], &r->o->cmp);
	return err;
}

static int json_end(struct cmp_render *r, const struct cmp_outcome *oc)
{
	(void)oc;
	return cmp_json_end(&r->json);
}

const struct cmp_render_ops cmp_render_json = {
	.name = "--json",
	.said = "the verdicts as JSON",
	.path = offsetof(struct compare_options, json),
	.pairs = json_pairs,
	.end = json_end,
};
