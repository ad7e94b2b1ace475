// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/metric.c - the things compare looks at (struct cmp_metric,
 * verdict.h): the figures of the table it tests, the frames counted, the
 * loads' work rates; a metric's value in a repeat, on the scale it is
 * compared on; whether it decides a cell; a figure by its --primary name.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "compare/verdict.h"
#include "core/load.h"

/* A latency or rate this small is taken as this (its log must exist). */
#define LOG_FLOOR	1e-3

int cmp_metrics(struct cmp_metric *m, int max)
{
	int i, n = 0;

	for (i = 0; i < F_COUNT && n < max; i++) {
		const struct figure *f = &figures[i];

		if (!(f->flags & FIG_COMPARE))
			continue;
		snprintf(m[n].label, sizeof(m[n].label), "%s%s", f->label,
			 f->unit == FU_NS ? " us" : "");
		m[n].optional = f->flags & FIG_OPTIONAL;
		m[n].fig = i;
		m[n].work = -1;
		m[n].count = CMP_NO_COUNT;
		m[n].log = f->unit != FU_PCT;
		m[n].higher_better = f->better == FB_HIGHER;
		m[n].decides = fig_decides(f) && !(f->flags & FIG_COUNTED);
		m[n].bounds = fig_decides(f);
		n++;
	}
	/* The tail and the misses asked of every frame (lib/count.h). */
	for (i = CMP_LATE; i <= CMP_MISSED && n < max; i++) {
		snprintf(m[n].label, sizeof(m[n].label), i == CMP_LATE ?
			 "%% frames late >%dx p50" : "%% deadlines missed",
			 CMP_LATE_TIMES);
		m[n].fig = m[n].work = -1;
		m[n].count = i;
		m[n].log = true;
		m[n].optional = true;
		m[n].higher_better = false;
		m[n].decides = m[n].bounds = true;
		n++;
	}
	/* What the load got done: a kernel may buy latency with it. */
	for (i = 0; i < WORK_KINDS && n < max; i++) {
		snprintf(m[n].label, sizeof(m[n].label), "load %s/s",
			 work_units[i].key);
		m[n].fig = -1;
		m[n].work = i;
		m[n].count = CMP_NO_COUNT;
		m[n].log = m[n].higher_better = true;
		m[n].optional = m[n].decides = m[n].bounds = false;
		n++;
	}
	return n;
}

double cmp_value(const struct ok_repeat *r, const struct cmp_metric *m)
{
	double v;

	/* counted rows have no one value a repeat: cmp_count_fill() */
	if (m->count != CMP_NO_COUNT)
		return NAN;
	v = m->fig >= 0 ? r->v[m->fig] : r->work[m->work];

	if (isnan(v) || !m->log)
		return v;
	return log(v > LOG_FLOOR ? v : LOG_FLOOR);
}

bool cmp_decides(const struct cmp_metric *m, const struct cmp_opts *o)
{
	return o->primary >= 0 ? m->fig == o->primary : m->decides;
}

int cmp_fig_named(const char *name)
{
	int i;

	for (i = 0; i < F_COUNT; i++)
		if ((figures[i].flags & FIG_COMPARE) &&
		    figure_named(&figures[i], name, strlen(name)))
			return i;
	return -1;
}
