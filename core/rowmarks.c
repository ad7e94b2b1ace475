// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/rowmarks.c - a result file's cells' row marks (rowmarks.h), by the
 * rules the console's rows are marked by (outputs/output.c): the same
 * predicates on the medians over the measured repeats.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/rowmarks.h"
#include "core/schema.h"
#include "stats.h"

const char *const rm_names[RM_KINDS] = {
	[RM_STEAL] = "steal", [RM_BUSY] = "busy",
	[RM_THROTTLED] = "throttled", [RM_NO_RT] = "no rt",
	[RM_STALLED] = "stalled",
};

const char *const rm_keys[RM_KINDS] = {
	[RM_STEAL] = "steal", [RM_BUSY] = "busy",
	[RM_THROTTLED] = "throttled", [RM_NO_RT] = "no_rt",
	[RM_STALLED] = "stalled",
};

const char rm_verdict_caveat[] =
	"a marked cell's figures include what the machine did besides the "
	"kernel under test (the host, other tasks, a quota, no real-time "
	"rights), so a change there, or none, may be the machine's: its "
	"verdict is less to be trusted than an unmarked cell's; measure "
	"again on a quiet machine";

bool rm_file_no_rt(const struct result_file *rf)
{
	/* files that do not say are not marked: nothing is known */
	return rf->sys.realtime_ok == 0;
}

/* The median of figure f over c's measured repeats, NaN where none. */
static double cell_median(const struct file_cell *c, int f, double *tmp)
{
	size_t i, k = 0;

	for (i = 0; i < c->n_ok; i++)
		if (isfinite(c->ok[i].v[f]))
			tmp[k++] = c->ok[i].v[f];
	return stats_median(tmp, k);
}

int rm_cell_marks(const struct file_cell *c, bool no_rt, struct rm_cell *m)
{
	double *tmp = malloc((c->n_ok + 1) * sizeof(*tmp));
	size_t i;

	memset(m, 0, sizeof(*m));
	if (!tmp)
		return -ENOMEM;
	m->n_ok = (int)c->n_ok;
	m->v[RM_STEAL] = cell_median(c, F_INTF_STEAL, tmp);
	m->v[RM_BUSY] = cell_median(c, F_INTF_OTHERS, tmp);
	m->v[RM_THROTTLED] = cell_median(c, F_INTF_THROTTLED, tmp);
	m->v[RM_NO_RT] = cell_median(c, F_TIMER_MEAN, tmp);
	free(tmp);
	for (i = 0; i < c->n_ok; i++) {
		const struct jval *s = json_get_type(c->ok[i].res, "stalled",
						     J_BOOL);

		m->v[RM_STALLED] += s && s->b;
	}
	m->has = steal_marked(m->v[RM_STEAL]) << RM_STEAL |
		 busy_marked(m->v[RM_BUSY]) << RM_BUSY |
		 throttle_marked(m->v[RM_THROTTLED]) << RM_THROTTLED |
		 (no_rt && c->n_ok && isfinite(m->v[RM_NO_RT])) << RM_NO_RT |
		 (m->v[RM_STALLED] > 0) << RM_STALLED;
	return 0;
}

/* One mark as the console's row says it: "busy 34 %". */
static void mark_text(const struct rm_cell *m, int k, char *buf, size_t n)
{
	if (k == RM_NO_RT)
		snprintf(buf, n, "no rt: timer +%.3g us", m->v[k]);
	else if (k == RM_STALLED)
		snprintf(buf, n, "stalled in %.0f of %d", m->v[k], m->n_ok);
	else
		snprintf(buf, n, "%s %.2g %%", rm_names[k], m->v[k]);
}

int rm_cell_text(const struct rm_cell *m, const char *prefix, char *buf,
		 size_t n)
{
	size_t at = 0;
	int k, count = 0;
	char one[64];

	if (n)
		buf[0] = '\0';
	for (k = 0; k < RM_KINDS; k++) {
		int w;

		if (!(m->has & 1u << k))
			continue;
		mark_text(m, k, one, sizeof(one));
		w = snprintf(buf + at, at < n ? n - at : 0, "%s%s%s",
			     count ? ", " : "", prefix, one);
		if (w > 0 && at + (size_t)w < n)
			at += (size_t)w;
		count++;
	}
	return count;
}

int rm_file_marks(const struct result_file *rf, struct rm_file *s)
{
	bool no_rt = rm_file_no_rt(rf);
	struct rm_cell m;
	size_t i, at[RM_KINDS] = { 0 };
	int k;

	memset(s, 0, sizeof(*s));
	for (k = 0; k < RM_KINDS; k++) {
		s->lo[k] = INFINITY;
		s->hi[k] = -INFINITY;
	}
	for (i = 0; i < rf->n_cells; i++) {
		const struct file_cell *c = &rf->cells[i];

		if (!c->n_ok)
			continue;
		if (rm_cell_marks(c, no_rt, &m))
			return -ENOMEM;
		s->cells++;
		s->marked += m.has != 0;
		for (k = 0; k < RM_KINDS; k++) {
			size_t room = sizeof(s->names[k]);
			int w;

			if (!(m.has & 1u << k))
				continue;
			s->n[k]++;
			s->lo[k] = fmin(s->lo[k], m.v[k]);
			s->hi[k] = fmax(s->hi[k], m.v[k]);
			w = snprintf(s->names[k] + at[k], room - at[k],
				     "%s%s/%s", at[k] ? ", " : "", c->bench,
				     c->load);
			if (w > 0 && at[k] + (size_t)w < room)
				at[k] += (size_t)w;
		}
	}
	return 0;
}

void rm_file_text(const struct rm_file *s, int k, char *buf, size_t n)
{
	char range[48];

	if (!s->n[k]) {
		if (n)
			buf[0] = '\0';
		return;
	}
	if (s->lo[k] == s->hi[k])
		snprintf(range, sizeof(range), "%.3g", s->lo[k]);
	else
		snprintf(range, sizeof(range), "%.3g to %.3g", s->lo[k],
			 s->hi[k]);
	switch (k) {
	case RM_STEAL:
		snprintf(buf, n, "the host stole more than %g %% of the CPU "
			 "time (%s %%) in %d of %d cells, marked [steal]: "
			 "their figures include the hypervisor's doing",
			 STEAL_MARK_PCT, range, s->n[k], s->cells);
		break;
	case RM_BUSY:
		snprintf(buf, n, "other tasks used more than %g %% of the "
			 "run's CPU time (%s %%) in %d of %d cells, marked "
			 "[busy]: their figures include that work's doing",
			 BUSY_MARK_PCT, range, s->n[k], s->cells);
		break;
	case RM_THROTTLED:
		snprintf(buf, n, "the run's cgroup's CPU quota throttled "
			 "more than %g %% of the CPU time (%s %%) in %d of %d "
			 "cells, marked [throttled]: their figures include "
			 "the quota's doing", THROTTLE_MARK_PCT, range,
			 s->n[k], s->cells);
		break;
	case RM_NO_RT:
		snprintf(buf, n, "without real-time rights the timing threads"
			 " ran SCHED_OTHER: their own lateness (+%s us a frame"
			 " on average) is in the figures of %d of %d cells, "
			 "marked [no rt]", range, s->n[k], s->cells);
		break;
	default:
		snprintf(buf, n, "a thread stalled (waiting on another at "
			 "the end, missing its deadlines meanwhile) in %d of "
			 "%d cells, marked [stalled]", s->n[k], s->cells);
		break;
	}
}
