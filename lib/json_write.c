// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/json_write.c - a small JSON (RFC 8259) writer for interbench's
 * result files. See json.h for the contract; the reader is json_read.c.
 *
 * Layout: one member per line with a 2-space indent, except that
 * numbers, booleans and nulls inside an array stay on the array's line
 * ("[1024, 1031, 5]"), which keeps histograms short and diffs readable.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/text.h"

/*
 * need_comma[d - 1] tells whether the container at depth d has a member
 * yet. While no container is open below it, need_comma[d] is free and
 * records whether the last member was written inline (an array scalar),
 * so the closing bracket knows whether to start a new line.
 */
static bool last_inline(const struct jw *w)
{
	return w->depth < JW_MAX_DEPTH && w->need_comma[w->depth];
}

static void set_last_inline(struct jw *w, bool v)
{
	if (w->depth < JW_MAX_DEPTH)
		w->need_comma[w->depth] = v;
}

/* The first failure's errno is the one worth telling (ENOSPC, EDQUOT) */
static void jw_io_failed(struct jw *w)
{
	if (!w->io_err)
		w->io_err = errno ? errno : EIO;
	w->error = true;
}

static void jw_put(struct jw *w, const char *s)
{
	if (fputs(s, w->f) == EOF)
		jw_io_failed(w);
}

static void jw_indent(struct jw *w)
{
	int i;

	jw_put(w, "\n");
	for (i = 0; i < w->depth; i++)
		jw_put(w, "  ");
}

/* A string in quotes, escaped by lib/text (which never writes bad UTF-8). */
static void jw_string(struct jw *w, const char *str)
{
	jw_put(w, "\"");
	if (text_fescape(w->f, TEXT_JSON, str))
		jw_io_failed(w);
	jw_put(w, "\"");
}

/*
 * Start a value: separator, line break and key as its place needs.
 * inline_ok: a scalar that may share its array's line.
 */
static bool jw_value(struct jw *w, const char *key, bool inline_ok)
{
	bool has_members;

	if (w->depth == 0) {
		if (key)
			w->error = true;	/* a document has no key */
		return false;
	}
	has_members = w->need_comma[w->depth - 1];
	inline_ok = inline_ok && !key && (!has_members || last_inline(w));
	if (has_members)
		jw_put(w, inline_ok ? ", " : ",");
	if (!inline_ok)
		jw_indent(w);
	if (key) {
		jw_string(w, key);
		jw_put(w, ": ");
	}
	w->need_comma[w->depth - 1] = true;
	return inline_ok;
}

void jw_init(struct jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void jw_begin(struct jw *w, const char *key, const char *open)
{
	if (w->depth >= JW_MAX_DEPTH) {
		w->error = true;
		return;
	}
	jw_value(w, key, false);
	jw_put(w, open);
	w->depth++;
	w->need_comma[w->depth - 1] = false;
	set_last_inline(w, false);
}

static void jw_end(struct jw *w, const char *close)
{
	bool had_members, was_inline;

	if (w->depth <= 0) {
		w->error = true;
		return;
	}
	had_members = w->need_comma[w->depth - 1];
	was_inline = last_inline(w);
	w->depth--;
	if (had_members && !was_inline)
		jw_indent(w);
	jw_put(w, close);
	/* the container just closed is a block member of its parent */
	set_last_inline(w, false);
}

void jw_obj_begin(struct jw *w, const char *key)
{
	jw_begin(w, key, "{");
}

void jw_obj_end(struct jw *w)
{
	jw_end(w, "}");
}

void jw_arr_begin(struct jw *w, const char *key)
{
	jw_begin(w, key, "[");
}

void jw_arr_end(struct jw *w)
{
	jw_end(w, "]");
}

/* Write a scalar's text; array members may stay on the array's line. */
static void jw_scalar(struct jw *w, const char *key, const char *text)
{
	bool in_line = jw_value(w, key, true);

	jw_put(w, text);
	set_last_inline(w, in_line);
}

void jw_str(struct jw *w, const char *key, const char *s)
{
	if (!s) {
		jw_null(w, key);
		return;
	}
	jw_value(w, key, false);
	jw_string(w, s);
	set_last_inline(w, false);
}

void jw_num(struct jw *w, const char *key, double v)
{
	char buf[40];
	int prec;

	if (!isfinite(v)) {
		jw_null(w, key);
		return;
	}
	if (v == trunc(v) && fabs(v) < 9007199254740992.0) {
		/* integral and exact: no exponent, no ".0" */
		snprintf(buf, sizeof(buf), "%.0f", v);
	} else {
		/* the shortest of 15..17 digits that reads back exactly */
		for (prec = 15; prec < 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				break;
		}
		if (prec == 17)
			snprintf(buf, sizeof(buf), "%.17g", v);
	}
	jw_scalar(w, key, buf);
}

void jw_int(struct jw *w, const char *key, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	jw_scalar(w, key, buf);
}

void jw_uint(struct jw *w, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	jw_scalar(w, key, buf);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_scalar(w, key, v ? "true" : "false");
}

void jw_null(struct jw *w, const char *key)
{
	jw_scalar(w, key, "null");
}

void jw_str_or_null(struct jw *w, const char *key, const char *s)
{
	jw_str(w, key, s && *s ? s : NULL);
}

void jw_int_or_null(struct jw *w, const char *key, long long v)
{
	if (v < 0)
		jw_null(w, key);
	else
		jw_int(w, key, v);
}

int jw_finish(struct jw *w)
{
	if (w->depth != 0)
		w->error = true;
	jw_put(w, "\n");
	if (fflush(w->f) == EOF || ferror(w->f))
		jw_io_failed(w);
	if (w->io_err)
		return -w->io_err;
	return w->error ? -EIO : 0;
}
