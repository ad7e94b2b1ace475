// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/sweep_check.c - a sweep's document found and its shape checked
 * (sweep_page.h), before a word of it is drawn: each key the page reads
 * of the type it reads it as, or null where it may be.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "compare/sweep_page.h"

/* Far above any sweep's document; a bound on what is read. */
#define SWEEP_MAX_BYTES	(64L << 20)

/* ---- reading ---------------------------------------------------------- */

/* A regular file's whole text, NUL-ended: 0 or -errno. */
static int read_text(const char *path, char **text, size_t *len)
{
	struct stat st;
	ssize_t r;
	size_t got = 0;
	char *buf;
	int fd, e = 0;

	/* O_NONBLOCK: a FIFO is never waited on, nor read */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > SWEEP_MAX_BYTES) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? -errno : 0;
			break;
		}
		got += (size_t)r;
	}
	close(fd);
	if (e) {
		free(buf);
		return e;
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return 0;
}

int sweep_page_read(const char *path, struct jval **doc)
{
	const struct jval *s;
	char *text = NULL, jerr[160];
	size_t len = 0;
	int r;

	*doc = NULL;
	if (read_text(path, &text, &len))
		return 0;
	/* A result file is parsed by its own reader, not twice. */
	if (!memmem(text, len, SWEEP_PAGE_SCHEMA, strlen(SWEEP_PAGE_SCHEMA))) {
		free(text);
		return 0;
	}
	r = json_parse(text, len, doc, jerr, sizeof(jerr));
	free(text);
	if (r)
		return 0;
	s = json_get_type(*doc, "schema", J_STR);
	if (s && !strcmp(s->str, SWEEP_PAGE_SCHEMA))
		return 1;
	json_free(*doc);
	*doc = NULL;
	return 0;
}

/* ---- the document's shape ----------------------------------------------- */

static const char *type_name(enum jtype t)
{
	static const char *const names[] = {
		[J_NULL] = "null", [J_BOOL] = "true or false",
		[J_NUM] = "a number", [J_STR] = "text", [J_ARR] = "an array",
		[J_OBJ] = "an object",
	};

	return names[t];
}

/*
 * o's key is of type t, or null or absent unless need: 0, or -EINVAL
 * with what is wrong, at where.
 */
static int want(const struct jval *o, const char *key, enum jtype t,
		bool need, const char *where, char *what, size_t n)
{
	const struct jval *v = json_get(o, key);

	if (v && v->type == t)
		return 0;
	if (!need && (!v || v->type == J_NULL))
		return 0;
	snprintf(what, n, "%s\"%s\" is %s, not %s", where, key,
		 v ? type_name(v->type) : "missing", type_name(t));
	return -EINVAL;
}

/* Each item of o's array key (if any) an object: checked by each(). */
static int want_items(const struct jval *o, const char *key,
		      const char *where,
		      int (*each)(const struct jval *, const char *, char *,
				  size_t),
		      char *what, size_t n)
{
	const struct jval *a = json_get_type(o, key, J_ARR);
	char at[160];
	size_t i;
	int r;

	for (i = 0; a && i < a->n; i++) {
		snprintf(at, sizeof(at), "%s%s[%zu]", where, key, i);
		if (a->items[i].type != J_OBJ) {
			snprintf(what, n, "%s is %s, not an object", at,
				 type_name(a->items[i].type));
			return -EINVAL;
		}
		strncat(at, ".", sizeof(at) - strlen(at) - 1);
		r = each(&a->items[i], at, what, n);
		if (r)
			return r;
	}
	return 0;
}

/* A forest's row: a task's figure (load NULL) or a cell. */
static int check_row(const struct jval *o, const char *w, char *what,
		     size_t n, bool cell)
{
	return want(o, "figure", J_STR, !cell, w, what, n) ||
	       want(o, "change", J_NUM, false, w, what, n) ||
	       want(o, "lo", J_NUM, false, w, what, n) ||
	       want(o, "hi", J_NUM, false, w, what, n) ||
	       (cell && (want(o, "load", J_STR, true, w, what, n) ||
			 want(o, "verdict", J_STR, false, w, what, n))) ?
	       -EINVAL : 0;
}

static int check_fig(const struct jval *o, const char *w, char *what,
		     size_t n)
{
	return check_row(o, w, what, n, false);
}

static int check_cell(const struct jval *o, const char *w, char *what,
		      size_t n)
{
	return check_row(o, w, what, n, true);
}

static int check_task(const struct jval *o, const char *w, char *what,
		      size_t n)
{
	return want(o, "task", J_STR, true, w, what, n) ||
	       want(o, "verdict", J_STR, false, w, what, n) ||
	       want(o, "figures", J_ARR, false, w, what, n) ||
	       want(o, "cells", J_ARR, false, w, what, n) ||
	       want_items(o, "figures", w, check_fig, what, n) ||
	       want_items(o, "cells", w, check_cell, what, n) ? -EINVAL : 0;
}

static int check_cand(const struct jval *o, const char *w, char *what,
		      size_t n)
{
	static const char *const texts[] = {
		"file", "enter", "leave", "options", "why", "page", "verdict",
	};
	size_t i;

	if (want(o, "name", J_STR, true, w, what, n) ||
	    want(o, "status", J_STR, true, w, what, n) ||
	    want(o, "pairs", J_NUM, false, w, what, n) ||
	    want(o, "stopped", J_OBJ, false, w, what, n) ||
	    want(o, "tasks", J_ARR, false, w, what, n))
		return -EINVAL;
	for (i = 0; i < sizeof(texts) / sizeof(*texts); i++)
		if (want(o, texts[i], J_STR, false, w, what, n))
			return -EINVAL;
	return want_items(o, "tasks", w, check_task, what, n);
}

static int check_noise(const struct jval *o, const char *w, char *what,
		       size_t n)
{
	return want(o, "task", J_STR, true, w, what, n) ||
	       want(o, "load", J_STR, false, w, what, n) ||
	       want(o, "sd_pct", J_NUM, false, w, what, n) ? -EINVAL : 0;
}

int sweep_page_check(const struct jval *doc, char *what, size_t n)
{
	static const char *const texts[] = {
		"version", "command_line", "id", "started", "finished",
		"interrupted", "rule",
	};
	static const char *const nums[] = {
		"alpha", "candidates_judged", "min_change_pct", "min_points",
	};
	const struct jval *s = json_get_type(doc, "schema", J_STR);
	size_t i;

	if (doc->type != J_OBJ || !s || strcmp(s->str, SWEEP_PAGE_SCHEMA)) {
		snprintf(what, n, "its \"schema\" is not \"%s\"",
			 SWEEP_PAGE_SCHEMA);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(texts) / sizeof(*texts); i++)
		if (want(doc, texts[i], J_STR, false, "", what, n))
			return -EINVAL;
	for (i = 0; i < sizeof(nums) / sizeof(*nums); i++)
		if (want(doc, nums[i], J_NUM, false, "", what, n))
			return -EINVAL;
	if (want(doc, "design", J_OBJ, false, "", what, n) ||
	    want(doc, "base", J_OBJ, false, "", what, n) ||
	    want(doc, "candidates", J_ARR, true, "", what, n) ||
	    want(doc, "noise", J_ARR, false, "", what, n))
		return -EINVAL;
	return want_items(doc, "candidates", "", check_cand, what, n) ||
	       want_items(doc, "noise", "", check_noise, what, n) ?
	       -EINVAL : 0;
}

/* ---- the document's paths, from the page ---------------------------------- */

/*
 * path (as the document gives it: from where the sweep ran) as seen from
 * the page's directory dir, into buf: "../d.base.json" for a page drawn
 * into a folder of its own. As given when either cannot be resolved.
 */
const char *sweep_page_href(const char *dir, const char *path, char *buf,
			    size_t n)
{
	char real[PATH_MAX];
	size_t i, common = 0, dl = strlen(dir);
	int up = 0;

	if (!*dir || !realpath(path, real))
		return path;
	for (i = 0; dir[i] && dir[i] == real[i]; i++)
		if (dir[i] == '/')
			common = i + 1;
	if (!dir[i] && real[i] == '/') {
		common = i + 1;		/* below the page's directory */
	} else {
		/* up from the page's directory to what they share */
		for (i = common; i < dl; i++)
			up += dir[i] == '/';
		up += common < dl;
	}
	buf[0] = '\0';
	while (up-- > 0 && strlen(buf) + 4 < n)
		strcat(buf, "../");
	if (strlen(buf) + strlen(real + common) >= n)
		return path;
	strcat(buf, real + common);
	return buf;
}

/* The real directory html_path is in, into dir; "" when unknown. */
void sweep_page_dir(const char *html_path, char *dir, size_t n)
{
	const char *slash = strrchr(html_path, '/');
	char d[PATH_MAX], real[PATH_MAX];

	snprintf(d, sizeof(d), "%.*s", slash ? (int)(slash - html_path) : 1,
		 slash ? html_path : ".");
	if (slash == html_path)
		strcpy(d, "/");
	if (realpath(d, real) && strlen(real) < n)
		strcpy(dir, real);
	else
		dir[0] = '\0';
}
