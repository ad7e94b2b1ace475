// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/rtapp/rtapp_read.c - rt-app's grammar, as text: what workgen
 * (Debian's rt-app 1.0, /usr/bin/workgen) and rt-app's JSON reader
 * (json-c) accept beyond JSON, turned into a plain JSON tree.
 *
 * workgen is a line filter run before rt-app. Where a line holds no ':'
 * but holds "suspend", it adds the thread's name as the value (the thread
 * is the object two levels into "tasks"). Where a key was already used in
 * its object, it appends a number: each object keeps a counter from 1,
 * raised while key + counter is taken, so the repeats of "run" in one
 * object become run1, run2, ... and a "sleep" repeated after them sleep2
 * (workgen's counter is the object's, not the key's). json-c then reads C
 * comments and a comma before a closing bracket.
 *
 * Here the same is done on the tree, not on lines, so it does not depend
 * on how the file is laid out: a bare "suspend" key, in any layout, is
 * given the thread's name; every repeated key is numbered by workgen's
 * rule, including the one workgen misses (the key of an object whose
 * '{' is on the key's line, as spreading-tasks.json's second "heavy1":
 * workgen leaves it, and json-c then keeps one of the two). An empty
 * suspend ("suspend": "") is the thread's name too, as rt-app's tutorial
 * says a suspend may be left empty.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "simulators/rtapp/rtapp.h"
#include "simulators/rtapp/rtapp_read.h"

/* ---- json-c's extensions: comments, trailing commas ------------------ */

/*
 * Blank comments (commas false) or a comma before a closing bracket
 * (commas true) with spaces, newlines kept, so that the reader's line and
 * column stay true.
 */
static void blank_pass(char *s, size_t len, bool commas)
{
	size_t i, j;
	bool str = false;

	for (i = 0; i < len; i++) {
		if (str) {
			if (s[i] == '\\' && i + 1 < len)
				i++;
			else if (s[i] == '"')
				str = false;
			continue;
		}
		if (s[i] == '"') {
			str = true;
		} else if (commas && s[i] == ',') {
			for (j = i + 1; j < len && strchr(" \t\r\n", s[j]); j++)
				;
			if (j < len && (s[j] == '}' || s[j] == ']'))
				s[i] = ' ';
		} else if (!commas && s[i] == '/' && i + 1 < len &&
			   s[i + 1] == '*') {
			/* to the closing star-slash, or the end */
			for (j = i + 2; j < len && !(s[j - 1] == '*' &&
						     s[j] == '/' && j > i + 2);
			     j++)
				;
			for (; i <= j && i < len; i++)
				if (s[i] != '\n')
					s[i] = ' ';
			i--;
		} else if (!commas && s[i] == '/' && i + 1 < len &&
			   s[i + 1] == '/') {
			for (; i < len && s[i] != '\n'; i++)
				s[i] = ' ';
		}
	}
}

/* ---- workgen: a bare "suspend" ---------------------------------------- */

#define READ_DEPTH	256	/* as deep as lib/json_read.c reads */

/* The end of the string that opens at s[i] (its closing quote), or len. */
static size_t string_end(const char *s, size_t len, size_t i)
{
	for (i++; i < len && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i < len ? i : len;
}

static int grow(size_t **at, size_t *cap)
{
	size_t c = *cap ? 2 * *cap : 16;
	size_t *m = realloc(*at, c * sizeof(**at));

	if (!m)
		return -ENOMEM;
	*at = m;
	*cap = c;
	return 0;
}

/*
 * Where a key of an object is a string starting "suspend" followed by ','
 * or '}' (no ':' and no value: workgen's bare suspend), ': ""' is put
 * after it: an empty suspend, filled in with the thread's name below.
 * Anything else is left for the JSON reader to take or refuse. Returns
 * the new text (malloc'd, *len updated), or NULL without memory.
 */
static char *fill_bare(const char *s, size_t *len)
{
	static const char fill[] = ": \"\"";
	char kind[READ_DEPTH], *out;
	size_t i, j, k, *at = NULL, nat = 0, cap = 0, o = 0, a = 0;
	bool want_key = false;
	int depth = 0;

	for (i = 0; i < *len; i++) {
		switch (s[i]) {
		case '"':
			j = string_end(s, *len, i);
			if (depth > 0 && kind[depth - 1] == '{' && want_key) {
				for (k = j + 1; k < *len &&
				     strchr(" \t\r\n", s[k]); k++)
					;
				if (k < *len && (s[k] == ',' || s[k] == '}') &&
				    j - i > 7 &&
				    !strncmp(s + i + 1, "suspend", 7)) {
					if (nat == cap && grow(&at, &cap)) {
						free(at);
						return NULL;
					}
					at[nat++] = j + 1;
				}
				want_key = false;
			}
			i = j;
			break;
		case '{':
		case '[':
			if (depth == READ_DEPTH)
				i = *len;	/* too deep: the reader says so */
			else
				kind[depth++] = s[i];
			want_key = s[i] == '{';
			break;
		case '}':
		case ']':
			depth -= depth > 0;
			want_key = false;
			break;
		case ',':
			want_key = depth > 0 && kind[depth - 1] == '{';
			break;
		case ':':
			want_key = false;
			break;
		}
	}
	out = malloc(*len + nat * (sizeof(fill) - 1) + 1);
	if (!out) {
		free(at);
		return NULL;
	}
	for (i = 0; i < *len; i++) {
		if (a < nat && at[a] == i) {
			memcpy(out + o, fill, sizeof(fill) - 1);
			o += sizeof(fill) - 1;
			a++;
		}
		out[o++] = s[i];
	}
	if (a < nat) {		/* at the very end: the reader will refuse */
		memcpy(out + o, fill, sizeof(fill) - 1);
		o += sizeof(fill) - 1;
	}
	out[o] = '\0';
	*len = o;
	free(at);
	return out;
}

/* ---- workgen: repeated keys, empty suspends -------------------------- */

static bool key_taken(const struct jval *o, size_t upto, const char *k)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (!strcmp(o->keys[i], k))
			return true;
	return false;
}

/*
 * Number the repeated keys of object o, and of every object in it, by
 * workgen's rule: a key already seen in its object becomes key + the
 * object's counter (from 1), the counter raised while that is taken too.
 */
static int number_keys(struct jval *v)
{
	size_t i, len;
	unsigned long id = 1;
	char *k;
	int r;

	for (i = 0; i < v->n; i++) {
		if (v->items[i].type == J_OBJ || v->items[i].type == J_ARR) {
			r = number_keys(&v->items[i]);
			if (r)
				return r;
		}
		if (v->type != J_OBJ || !key_taken(v, i, v->keys[i]))
			continue;
		len = strlen(v->keys[i]) + 24;
		k = malloc(len);
		if (!k)
			return -ENOMEM;
		for (;;) {
			snprintf(k, len, "%s%lu", v->keys[i], id);
			if (!key_taken(v, i, k))
				break;
			id++;
		}
		free(v->keys[i]);
		v->keys[i] = k;
	}
	return 0;
}

/* An empty suspend of object o (a thread or a phase) is thread's name. */
static int fill_suspends(struct jval *o, const char *thread)
{
	size_t i;
	char *s;

	for (i = 0; o->type == J_OBJ && i < o->n; i++) {
		struct jval *v = &o->items[i];

		if (strncmp(o->keys[i], "suspend", 7) || v->type != J_STR ||
		    v->str[0])
			continue;
		s = strdup(thread);
		if (!s)
			return -ENOMEM;
		free(v->str);
		v->str = s;
	}
	return 0;
}

static int fill_threads(struct jval *root)
{
	struct jval *tasks = NULL, *t, *ph;
	size_t i, j;
	int r;

	for (i = 0; root->type == J_OBJ && i < root->n; i++)
		if (!strcmp(root->keys[i], "tasks"))
			tasks = &root->items[i];
	for (i = 0; tasks && tasks->type == J_OBJ && i < tasks->n; i++) {
		t = &tasks->items[i];
		r = fill_suspends(t, tasks->keys[i]);
		for (j = 0; !r && t->type == J_OBJ && j < t->n; j++) {
			if (strcmp(t->keys[j], "phases"))
				continue;
			ph = &t->items[j];
			for (size_t k = 0; !r && ph->type == J_OBJ && k < ph->n;
			     k++)
				r = fill_suspends(&ph->items[k],
						  tasks->keys[i]);
		}
		if (r)
			return r;
	}
	return 0;
}

int rtapp_read(const char *text, size_t len, const char *name,
	       struct jval **root, char *err, size_t n)
{
	char *buf, *full, jerr[160];
	int r;

	*root = NULL;
	if (memchr(text, '\0', len)) {
		snprintf(err, n, "%s: not a text file (a NUL byte)", name);
		return -EINVAL;
	}
	buf = malloc(len + 1);
	if (!buf) {
		snprintf(err, n, "%s: out of memory", name);
		return -ENOMEM;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	blank_pass(buf, len, false);	/* comments first: then the commas */
	blank_pass(buf, len, true);
	full = fill_bare(buf, &len);
	free(buf);
	if (!full) {
		snprintf(err, n, "%s: out of memory", name);
		return -ENOMEM;
	}
	r = json_parse(full, len, root, jerr, sizeof(jerr));
	free(full);
	if (!r)
		r = number_keys(*root);
	if (!r)
		r = fill_threads(*root);
	if (r == -ENOMEM)
		snprintf(err, n, "%s: out of memory", name);
	else if (r)
		snprintf(err, n, "%s: not JSON rt-app can read: %s", name,
			 jerr);
	if (r && *root) {
		json_free(*root);
		*root = NULL;
	}
	return r;
}

int rtapp_read_file(const char *path, char **text, size_t *len, char *err,
		    size_t n)
{
	struct stat st;
	ssize_t got;
	size_t have = 0;
	int fd, r;

	*text = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		r = -errno;
		snprintf(err, n, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > RTAPP_MAX_FILE) {
		snprintf(err, n, "%s: not a regular file of at most %d bytes",
			 path, RTAPP_MAX_FILE);
		close(fd);
		return -EINVAL;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		close(fd);
		snprintf(err, n, "%s: out of memory", path);
		return -ENOMEM;
	}
	while (have < (size_t)st.st_size &&
	       (got = read(fd, *text + have, (size_t)st.st_size - have)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			snprintf(err, n, "%s: %s", path, strerror(errno));
			free(*text);
			*text = NULL;
			close(fd);
			return r;
		}
		have += (size_t)got;
	}
	close(fd);
	(*text)[have] = '\0';
	*len = have;
	return 0;
}
