// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/components.c - the components file (components.h): written by
 * `interbench study --save`, read back by compare.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/components.h"
#include "lib/base.h"
#include "lib/json.h"
#include "lib/safefile.h"

/* A components file is a few KB a cell: far above any study's. */
#define COMP_MAX_BYTES	(16L << 20)

const char *const cmp_level_names[CL_LEVELS] = {
	"repeat", "invocation", "boot",
};

void comp_free(struct components *c)
{
	free(c->e);
	c->e = NULL;
	c->n = c->cap = 0;
}

double comp_var(const struct components *c, const char *bench,
		const char *load, const char *metric, enum cmp_level level,
		double *df)
{
	size_t i;

	if (df)
		*df = 0;
	if ((unsigned)level >= CL_LEVELS)
		return NAN;
	for (i = 0; i < c->n; i++) {
		const struct comp_entry *e = &c->e[i];

		if (strcmp(e->bench, bench) || strcmp(e->load, load) ||
		    strcmp(e->metric, metric))
			continue;
		if (df)
			*df = isnan(e->var[level]) ? 0 : e->df[level];
		return e->var[level];
	}
	return NAN;
}

/* ---- writing ---------------------------------------------------------- */

/* The levels of one entry as an object: v[level], NaN as null. */
static void write_levels(struct jw *w, const char *key, const double *v)
{
	int l;

	jw_obj_begin(w, key);
	for (l = 0; l < CL_LEVELS; l++)
		jw_num(w, cmp_level_names[l], v[l]);
	jw_obj_end(w);
}

int comp_save(const struct components *c, const struct comp_study *st,
	      const char *const *note, const char *path)
{
	struct safe_file sf;
	struct jw w;
	size_t i;
	int l, err;

	/* a negative component is the caller's to note and save as 0 */
	for (i = 0; i < c->n; i++)
		for (l = 0; l < CL_LEVELS; l++)
			if (c->e[i].var[l] < 0)
				return -EINVAL;
	err = safe_file_begin(&sf, path);
	if (err)
		return err;
	jw_init(&w, sf.f);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", COMPONENTS_SCHEMA);
	jw_str(&w, "interbench_version", IB_VERSION);
	jw_str_or_null(&w, "hostname", c->hostname);
	jw_str_or_null(&w, "cpu_model", c->cpu_model);
	jw_str_or_null(&w, "measured", c->measured);
	jw_int(&w, "files", st->files);
	jw_int(&w, "boots", st->boots);
	jw_int(&w, "invocations", st->invocations);
	jw_arr_begin(&w, "entries");
	for (i = 0; i < c->n; i++) {
		const struct comp_entry *e = &c->e[i];

		jw_obj_begin(&w, NULL);
		jw_str(&w, "bench", e->bench);
		jw_str(&w, "load", e->load);
		jw_str(&w, "metric", e->metric);
		write_levels(&w, "var", e->var);
		write_levels(&w, "df", e->df);
		if (note && note[i] && note[i][0])
			jw_str(&w, "note", note[i]);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	err = jw_finish(&w);
	if (err) {
		safe_file_abort(&sf);
		return err;
	}
	return safe_file_commit(&sf);
}

/* ---- reading ---------------------------------------------------------- */

/* All of path, NUL-ended, into *text: 0 or -errno with what in err. */
static int slurp(const char *path, char **text, size_t *len, char *err,
		 size_t n)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, got = 0, r;
	char *buf = NULL, *p;

	if (!f) {
		int e = errno;

		snprintf(err, n, "%s: %s", path, strerror(e));
		return -e;
	}
	for (;;) {
		if (got + 1 >= cap || !buf) {
			if (buf)
				cap *= 2;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				fclose(f);
				snprintf(err, n, "%s: out of memory", path);
				return -ENOMEM;
			}
			buf = p;
		}
		r = fread(buf + got, 1, cap - got - 1, f);
		got += r;
		if (got > (size_t)COMP_MAX_BYTES) {
			free(buf);
			fclose(f);
			snprintf(err, n, "%s: larger than %ld MB: not a "
				 "components file", path, COMP_MAX_BYTES >> 20);
			return -EFBIG;
		}
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		free(buf);
		fclose(f);
		snprintf(err, n, "%s: %s", path, strerror(e));
		return -e;
	}
	fclose(f);
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return 0;
}

/* A string member into buf (bufsz): 0, or -EINVAL (absent or too long). */
static int get_str(const struct jval *o, const char *key, char *buf,
		   size_t bufsz, bool need)
{
	const struct jval *v = json_get_type(o, key, J_STR);

	buf[0] = '\0';
	if (!v)
		return need ? -EINVAL : 0;
	if (strlen(v->str) >= bufsz)
		return -EINVAL;
	memcpy(buf, v->str, strlen(v->str) + 1);
	return 0;
}

/* An entry's "var" or "df" object into v: 0, or -EINVAL with what. */
static int get_levels(const struct jval *o, const char *key, double *v,
		      char *what, size_t n)
{
	const struct jval *obj = json_get_type(o, key, J_OBJ);
	int l;

	if (!obj) {
		snprintf(what, n, "an entry has no \"%s\" object", key);
		return -EINVAL;
	}
	for (l = 0; l < CL_LEVELS; l++) {
		const struct jval *x = json_get(obj, cmp_level_names[l]);

		if (!x || x->type == J_NULL) {
			v[l] = NAN;
			continue;
		}
		if (x->type != J_NUM || !isfinite(x->num) || x->num < 0) {
			snprintf(what, n, "an entry's %s.%s is %s", key,
				 cmp_level_names[l], x->type != J_NUM ?
				 "not a number" : "negative");
			return -EINVAL;
		}
		v[l] = x->num;
	}
	return 0;
}

static int read_entry(struct components *c, const struct jval *o,
		      char *what, size_t n)
{
	struct comp_entry e;
	int l, r;

	memset(&e, 0, sizeof(e));
	if (o->type != J_OBJ ||
	    get_str(o, "bench", e.bench, sizeof(e.bench), true) ||
	    get_str(o, "load", e.load, sizeof(e.load), true) ||
	    get_str(o, "metric", e.metric, sizeof(e.metric), true)) {
		snprintf(what, n, "an entry lacks its bench, load or metric "
			 "(or one is too long)");
		return -EINVAL;
	}
	r = get_levels(o, "var", e.var, what, n);
	if (!r)
		r = get_levels(o, "df", e.df, what, n);
	if (r)
		return r;
	for (l = 0; l < CL_LEVELS; l++)
		if (isnan(e.var[l]))
			e.df[l] = 0;
		else if (isnan(e.df[l]))
			e.df[l] = 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct comp_entry *p = realloc(c->e, cap * sizeof(*p));

		if (!p) {
			snprintf(what, n, "out of memory");
			return -ENOMEM;
		}
		c->e = p;
		c->cap = cap;
	}
	c->e[c->n++] = e;
	return 0;
}

static int read_doc(struct components *c, const struct jval *doc,
		    char *what, size_t n)
{
	const struct jval *v, *entries;
	size_t i;
	int r;

	v = json_get_type(doc, "schema", J_STR);
	if (!v || strcmp(v->str, COMPONENTS_SCHEMA)) {
		snprintf(what, n, "not a components file (schema %s%s%s, not "
			 COMPONENTS_SCHEMA "; interbench study --save "
			 "writes those)", v ? "\"" : "", v ? v->str : "absent",
			 v ? "\"" : "");
		return -EINVAL;
	}
	if (get_str(doc, "hostname", c->hostname, sizeof(c->hostname),
		    false) ||
	    get_str(doc, "cpu_model", c->cpu_model, sizeof(c->cpu_model),
		    false) ||
	    get_str(doc, "measured", c->measured, sizeof(c->measured),
		    false)) {
		snprintf(what, n, "its hostname, cpu_model or measured is too "
			 "long");
		return -EINVAL;
	}
	entries = json_get_type(doc, "entries", J_ARR);
	if (!entries) {
		snprintf(what, n, "no \"entries\" array");
		return -EINVAL;
	}
	for (i = 0; i < entries->n; i++) {
		r = read_entry(c, &entries->items[i], what, n);
		if (r)
			return r;
	}
	return 0;
}

int comp_load(struct components *c, const char *path, char *err,
	      size_t errlen)
{
	struct jval *doc = NULL;
	char *text = NULL, what[256];
	size_t len = 0;
	int r;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	r = slurp(path, &text, &len, err, errlen);
	if (r)
		return r;
	r = json_parse(text, len, &doc, what, sizeof(what));
	free(text);
	if (r) {
		snprintf(err, errlen, "%s: not a components file (%s)", path,
			 what);
		return r;
	}
	r = doc->type == J_OBJ ? read_doc(c, doc, what, sizeof(what)) :
		(snprintf(what, sizeof(what), "not a JSON object"), -EINVAL);
	json_free(doc);
	if (r) {
		snprintf(err, errlen, "%s: %s", path, what);
		comp_free(c);
	}
	return r;
}
