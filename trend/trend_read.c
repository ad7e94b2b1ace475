// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trend/trend_read.c - the files of `interbench trend`, read one at a
 * time into the series: each cell's decision figures per repeat, the
 * cells each file has, its names and its settings against the file
 * before. The document is then freed by the caller, so that memory grows
 * with the figures kept, not with the files' size (trend.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/schema.h"
#include "trend/trend.h"

/* Value v to series si's file now being added. */
static int add_value(struct trend *t, int si, double v)
{
	struct trend_series *s = &t->s[si];
	size_t n = s->start[s->nfiles + 1];	/* the file's end so far */

	if (n == s->cap_x) {
		size_t c = s->cap_x ? 2 * s->cap_x : 16;
		double *x = realloc(s->x, c * sizeof(*x));

		if (!x)
			return -ENOMEM;
		s->x = x;
		s->cap_x = c;
	}
	s->x[n] = v;
	s->start[s->nfiles + 1]++;
	return 0;
}

/* Room for one more of n things of size each at *v (cap of them). */
static int grow(void *v, int n, int *cap, size_t each)
{
	void *p;
	int c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 32;
	p = realloc(*(void **)v, (size_t)c * each);
	if (!p)
		return -ENOMEM;
	*(void **)v = p;
	*cap = c;
	return 0;
}

/* A new cell, with a series for each decision figure: its index. */
static int new_cell(struct trend *t, const char *bench, const char *load)
{
	struct trend_cell *c;
	int mi;

	if (grow(&t->cell, t->ncells, &t->cap_cells, sizeof(*t->cell)))
		return -ENOMEM;
	c = &t->cell[t->ncells];
	memset(c, 0, sizeof(*c));
	c->bench = strdup(bench);
	c->load = strdup(load);
	c->in = calloc((size_t)t->room + 1, 1);
	c->s0 = t->ns;
	t->ncells++;
	if (!c->bench || !c->load || !c->in)
		return -ENOMEM;
	for (mi = 0; mi < t->nm; mi++) {
		struct trend_series *s;

		if (!t->m[mi].decides)
			continue;
		if (grow(&t->s, t->ns, &t->cap_s, sizeof(*t->s)))
			return -ENOMEM;
		s = &t->s[t->ns++];
		memset(s, 0, sizeof(*s));
		c->ns++;
		s->bench = c->bench;
		s->load = c->load;
		s->cell = t->ncells - 1;
		s->metric = mi;
		s->file = calloc((size_t)t->room + 1, sizeof(*s->file));
		s->start = calloc((size_t)t->room + 2, sizeof(*s->start));
		if (!s->file || !s->start)
			return -ENOMEM;
	}
	return t->ncells - 1;
}

static int find_cell(const struct trend *t, const char *bench,
		     const char *load)
{
	int i;

	for (i = t->ncells - 1; i >= 0; i--)
		if (!strcmp(t->cell[i].bench, bench) &&
		    !strcmp(t->cell[i].load, load))
			return i;
	return -1;
}

int trend_begin(struct trend *t, int nfiles)
{
	t->room = nfiles;
	t->slim = calloc((size_t)nfiles + 1, sizeof(*t->slim));
	t->names = calloc((size_t)nfiles + 1, sizeof(*t->names));
	t->files = t->names;
	return t->slim && t->names ? 0 : -ENOMEM;
}

/* A copy of f's names into rf, its strings in one block, slim->own. */
static int keep_names(struct trend_file *slim, struct result_file *rf,
		      const struct result_file *f)
{
	const char *src[6] = { f->path, f->tag, f->kernel, f->started,
			       f->boot_id, f->invocation };
	const char **dst[6] = { &rf->path, &rf->tag, &rf->kernel,
				&rf->started, &rf->boot_id, &rf->invocation };
	size_t len = 0, at = 0;
	int i;

	for (i = 0; i < 6; i++)
		len += src[i] ? strlen(src[i]) + 1 : 0;
	slim->own = malloc(len + 1);
	if (!slim->own)
		return -ENOMEM;
	for (i = 0; i < 6; i++) {
		*dst[i] = NULL;
		if (!src[i])
			continue;
		*dst[i] = strcpy(slim->own + at, src[i]);
		at += strlen(src[i]) + 1;
	}
	return 0;
}

/* A settings note: appended to the file's, said before the changes. */
struct note_to {
	struct trend_file *slim;
	const char *path;
	int err;
};

static void settings_line(void *ctx, const char *key, const char *va,
			  const char *vb)
{
	struct note_to *n = ctx;
	size_t old = n->slim->notes ? strlen(n->slim->notes) : 0;
	int len;
	char *p;

	if (strncmp(key, K_SETTINGS ".", strlen(K_SETTINGS ".")))
		return;
	len = snprintf(NULL, 0, "note: %s: %s is %s, %s in the file before\n",
		       n->path, key, vb, va);
	p = realloc(n->slim->notes, old + (size_t)len + 1);
	if (!p) {
		n->err = -ENOMEM;
		return;
	}
	n->slim->notes = p;
	snprintf(p + old, (size_t)len + 1, "note: %s: %s is %s, %s in the "
		 "file before\n", n->path, key, vb, va);
}

int trend_add(struct trend *t, const struct result_file *f,
	      const struct result_file *prev)
{
	struct trend_file *slim;
	int k, j, ci;
	size_t i, r;

	if (t->nfiles >= t->room)
		return -EINVAL;
	k = t->nfiles;
	slim = &t->slim[k];
	if (keep_names(slim, &t->names[k], f))
		return -ENOMEM;
	t->nfiles++;
	if (prev) {
		struct note_to n = { slim, t->names[k].path, 0 };

		rf_settings_diff(prev, f, settings_line, &n);
		if (n.err)
			return n.err;
	}
	for (i = 0; i < f->n_cells; i++) {
		const struct file_cell *c = &f->cells[i];

		ci = find_cell(t, c->bench, c->load);
		if (ci < 0 && (ci = new_cell(t, c->bench, c->load)) < 0)
			return ci;
		if (t->cell[ci].in[k])
			continue;	/* twice: rf_find_cell's first */
		t->cell[ci].in[k] = 1;
		for (j = 0; j < t->cell[ci].ns; j++) {
			int si = t->cell[ci].s0 + j;
			struct trend_series *s = &t->s[si];

			for (r = 0; r < c->n_ok; r++) {
				double v = cmp_value(&c->ok[r],
						     &t->m[s->metric]);

				if (!isnan(v) && add_value(t, si, v))
					return -ENOMEM;
			}
			if (s->start[s->nfiles + 1] == s->start[s->nfiles])
				continue;	/* not measured here */
			s->file[s->nfiles++] = k;
			s->start[s->nfiles + 1] = s->start[s->nfiles];
		}
	}
	return 0;
}
