/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/json.h - a small JSON writer and reader of our own (no dependencies).
 *
 * Writer: streams to a FILE, escapes every string, writes NaN and
 * infinities as null (JSON has no such numbers), numbers with enough
 * digits to round-trip a double. Keys are NULL inside arrays.
 *
 * Reader: parses a whole document into a tree; on malformed input it
 * fails with a message naming the line and column and what was wrong.
 */
#ifndef INTERBENCH_JSON_H
#define INTERBENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH	32

struct jw {
	FILE *f;
	int depth;
	bool need_comma[JW_MAX_DEPTH];
	bool error;		/* a write failed or nesting was wrong */
	int io_err;		/* errno of the first failed write, or 0 */
};

void jw_init(struct jw *w, FILE *f);
void jw_obj_begin(struct jw *w, const char *key);	/* key NULL: value */
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w, const char *key);
void jw_arr_end(struct jw *w);
void jw_str(struct jw *w, const char *key, const char *s); /* NULL: null */
void jw_num(struct jw *w, const char *key, double v);	/* NaN/inf: null */
void jw_int(struct jw *w, const char *key, int64_t v);
void jw_uint(struct jw *w, const char *key, uint64_t v);
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);
/* "" or NULL as null */
void jw_str_or_null(struct jw *w, const char *key, const char *s);
/* a negative number (unknown, no limit) as null */
void jw_int_or_null(struct jw *w, const char *key, long long v);
/*
 * Ends the document with a newline: 0, -errno of the first write that
 * failed, or -EIO if nesting was wrong.
 */
int jw_finish(struct jw *w);

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	bool b;
	double num;
	char *str;		/* J_STR: NUL-terminated, \u escapes decoded */
	size_t n;		/* J_ARR, J_OBJ: number of items */
	struct jval *items;	/* J_ARR, J_OBJ: the values */
	char **keys;		/* J_OBJ: the keys, same order */
};

/*
 * Parse len bytes of text. 0 and *out set, or -EINVAL with a message in
 * err such as "line 3, column 14: expected ',' or '}'" (also for trailing
 * garbage, bad escapes, bad numbers, nesting deeper than 256, and
 * unterminated strings), or -ENOMEM.
 */
int json_parse(const char *text, size_t len, struct jval **out, char *err,
	       size_t errlen);
/*
 * The same, but the members of any object whose key is in skip (a list
 * ended by NULL) are checked as JSON and not kept: a reader that wants a
 * file's figures and not its histograms (trend over a year of nights)
 * saves the time and memory of building them.
 */
int json_parse_skip(const char *text, size_t len, const char *const *skip,
		    struct jval **out, char *err, size_t errlen);
/*
 * An array or object of a document emptied, its contents freed: what a
 * reader has taken out (a result file's histogram buckets) need not be
 * held twice.
 */
void json_clear(struct jval *v);
void json_free(struct jval *v);

/* Member of an object by key (first match), NULL if absent or not an object. */
const struct jval *json_get(const struct jval *obj, const char *key);
/* Typed look-ups: NULL unless present and of that type. */
const struct jval *json_get_type(const struct jval *obj, const char *key,
				 enum jtype type);

#endif
