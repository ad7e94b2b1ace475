// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/json_read.c - a small JSON (RFC 8259) reader for interbench's
 * result files: the whole document into a tree. See json.h for the
 * contract; the writer is json_write.c.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/text.h"

#define JSON_MAX_NESTING	256

struct parser {
	const char *s;
	size_t len;
	size_t pos;
	int depth;
	char *err;
	size_t errlen;
	int ret;		/* first error: -EINVAL or -ENOMEM */
	const char *const *skip;	/* keys checked, not kept; or NULL */
};

/* Fail at byte offset at; the first failure wins. Returns p->ret. */
static int __attribute__((format(printf, 3, 4)))
fail_at(struct parser *p, size_t at, const char *fmt, ...)
{
	size_t i, line = 1, col = 1;
	char what[160];
	va_list ap;

	if (p->ret)
		return p->ret;
	p->ret = -EINVAL;
	/* columns count characters, not the bytes of their UTF-8 */
	for (i = 0; i < at && i < p->len; i++) {
		if (p->s[i] == '\n')
			line++, col = 1;
		else if (((unsigned char)p->s[i] & 0xc0) != 0x80)
			col++;
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->err && p->errlen)
		snprintf(p->err, p->errlen, "line %zu, column %zu: %s",
			 line, col, what);
	return p->ret;
}

static int no_memory(struct parser *p)
{
	if (!p->ret) {
		p->ret = -ENOMEM;
		if (p->err && p->errlen)
			snprintf(p->err, p->errlen, "out of memory");
	}
	return p->ret;
}

/* Say what was found where something else was expected. */
static int unexpected(struct parser *p, const char *expected)
{
	unsigned char c;

	if (p->pos >= p->len)
		return fail_at(p, p->pos, "unexpected end of input");
	c = (unsigned char)p->s[p->pos];
	if (c >= 0x21 && c < 0x7f)
		return fail_at(p, p->pos, "%s, not '%c'", expected, c);
	return fail_at(p, p->pos, "%s, not byte 0x%02x", expected, c);
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

struct buf {
	char *d;
	size_t n, cap;
};

static int buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 32;
		char *d;

		while (cap < b->n + n + 1)
			cap *= 2;
		d = realloc(b->d, cap);
		if (!d)
			return -ENOMEM;
		b->d = d;
		b->cap = cap;
	}
	memcpy(b->d + b->n, s, n);
	b->n += n;
	b->d[b->n] = '\0';
	return 0;
}

static int hex4(const char *s, uint32_t *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = s[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (uint32_t)(c - 'A' + 10);
		else
			return -EINVAL;
	}
	return 0;
}

static size_t utf8_put(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \uXXXX escape at p->pos (on the 'u'), and its low half if any. */
static int parse_u_escape(struct parser *p, size_t esc, uint32_t *cp)
{
	uint32_t lo;

	if (p->len - p->pos < 5 || hex4(p->s + p->pos + 1, cp))
		return fail_at(p, esc, "bad \\u escape: want 4 hex digits");
	p->pos += 5;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return fail_at(p, esc, "lone low surrogate \\u%04X", *cp);
	if (*cp >= 0xd800 && *cp <= 0xdbff) {
		if (p->len - p->pos < 6 || p->s[p->pos] != '\\' ||
		    p->s[p->pos + 1] != 'u' ||
		    hex4(p->s + p->pos + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return fail_at(p, esc, "high surrogate \\u%04X without "
				       "a low one after it", *cp);
		p->pos += 6;
		*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (*cp == 0)
		/* our strings end at NUL: refuse rather than truncate */
		return fail_at(p, esc, "\\u0000 in a string is not supported");
	return 0;
}

/*
 * A string at p->pos (on the quote); *out is malloc'd. out NULL: checked
 * only, nothing kept.
 */
static int parse_string(struct parser *p, char **out)
{
	size_t start = p->pos, esc, l;
	struct buf b = { NULL, 0, 0 };
	bool keep = out != NULL;
	char tmp[4];
	uint32_t cp;
	int ret = 0;

	p->pos++;
	if (keep && buf_add(&b, "", 0))
		return no_memory(p);
	for (;;) {
		const unsigned char *s = (const unsigned char *)p->s;
		size_t run = p->pos;

		/* take plain characters a run at a time */
		while (run < p->len && s[run] >= 0x20 && s[run] != '"' &&
		       s[run] != '\\' && s[run] < 0x80)
			run++;
		if (keep && run > p->pos &&
		    buf_add(&b, p->s + p->pos, run - p->pos)) {
			ret = no_memory(p);
			break;
		}
		p->pos = run;
		if (p->pos >= p->len) {
			ret = fail_at(p, start, "unterminated string");
			break;
		}
		if (s[p->pos] == '"') {
			p->pos++;
			break;
		}
		if (s[p->pos] < 0x20) {
			ret = fail_at(p, p->pos, "control character 0x%02x in "
				      "a string (escape it)", s[p->pos]);
			break;
		}
		if (s[p->pos] >= 0x80) {
			l = text_utf8_len(s + p->pos, p->len - p->pos);
			if (!l) {
				ret = fail_at(p, p->pos, "invalid UTF-8 in a "
					      "string");
				break;
			}
			if (keep && buf_add(&b, p->s + p->pos, l)) {
				ret = no_memory(p);
				break;
			}
			p->pos += l;
			continue;
		}
		/* a backslash */
		esc = p->pos++;
		if (p->pos >= p->len) {
			ret = fail_at(p, start, "unterminated string");
			break;
		}
		switch (p->s[p->pos]) {
		case '"':  tmp[0] = '"';  l = 1; p->pos++; break;
		case '\\': tmp[0] = '\\'; l = 1; p->pos++; break;
		case '/':  tmp[0] = '/';  l = 1; p->pos++; break;
		case 'b':  tmp[0] = '\b'; l = 1; p->pos++; break;
		case 'f':  tmp[0] = '\f'; l = 1; p->pos++; break;
		case 'n':  tmp[0] = '\n'; l = 1; p->pos++; break;
		case 'r':  tmp[0] = '\r'; l = 1; p->pos++; break;
		case 't':  tmp[0] = '\t'; l = 1; p->pos++; break;
		case 'u':
			ret = parse_u_escape(p, esc, &cp);
			l = ret ? 0 : utf8_put(tmp, cp);
			break;
		default:
			ret = fail_at(p, esc, "bad escape in a string");
			l = 0;
			break;
		}
		if (ret)
			break;
		if (keep && buf_add(&b, tmp, l)) {
			ret = no_memory(p);
			break;
		}
	}
	if (ret || !keep) {
		free(b.d);
		return ret;
	}
	*out = b.d;
	return 0;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Powers of ten that a double holds exactly. */
static const double exact10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * Check the RFC 8259 number grammar first: strtod accepts far more. A
 * number of at most 15 significant digits and no exponent is its digits
 * (exact) times or over an exact power of ten: one rounding, so the
 * nearest double, as strtod gives (Clinger 1990); and some twenty times
 * faster, which a year of nightly files with histograms needs. The rest
 * go to strtod. out NULL: checked only.
 */
static int parse_number(struct parser *p, double *out)
{
	size_t start = p->pos, n;
	char small[64], *text = small;
	const char *s = p->s;
	uint64_t m = 0;
	int saved, digits = 0, frac = 0;
	bool neg = false, expo = false;

	if (p->pos < p->len && s[p->pos] == '-') {
		neg = true;
		p->pos++;
	}
	if (p->pos >= p->len || !is_digit(s[p->pos]))
		return unexpected(p, "expected a digit");
	if (s[p->pos] == '0') {
		p->pos++;
		if (p->pos < p->len && is_digit(s[p->pos]))
			return fail_at(p, start, "leading zeros are not allowed");
	} else {
		while (p->pos < p->len && is_digit(s[p->pos])) {
			if (++digits <= 15)
				m = m * 10 + (uint64_t)(s[p->pos] - '0');
			p->pos++;
		}
	}
	if (p->pos < p->len && s[p->pos] == '.') {
		p->pos++;
		if (p->pos >= p->len || !is_digit(s[p->pos]))
			return unexpected(p, "expected a digit after '.'");
		while (p->pos < p->len && is_digit(s[p->pos])) {
			/* leading zeros of 0.00x are no significant digits */
			if (digits || s[p->pos] != '0')
				digits++;
			if (digits <= 15)
				m = m * 10 + (uint64_t)(s[p->pos] - '0');
			frac++;
			p->pos++;
		}
	}
	if (p->pos < p->len && (s[p->pos] == 'e' || s[p->pos] == 'E')) {
		expo = true;
		p->pos++;
		if (p->pos < p->len && (s[p->pos] == '+' || s[p->pos] == '-'))
			p->pos++;
		if (p->pos >= p->len || !is_digit(s[p->pos]))
			return unexpected(p, "expected a digit in the exponent");
		while (p->pos < p->len && is_digit(s[p->pos]))
			p->pos++;
	}
	if (!out)
		return 0;
	if (!expo && digits <= 15 && frac <= 22) {
		double v = (double)m / exact10[frac];

		*out = neg ? -v : v;
		return 0;
	}
	/* the text need not be NUL-terminated: strtod a copy */
	n = p->pos - start;
	if (n >= sizeof(small)) {
		text = malloc(n + 1);
		if (!text)
			return no_memory(p);
	}
	memcpy(text, s + start, n);
	text[n] = '\0';
	saved = errno;
	errno = 0;
	*out = strtod(text, NULL);
	if (errno == ERANGE && isinf(*out)) {
		if (text != small)
			free(text);
		errno = saved;
		return fail_at(p, start, "number out of range");
	}
	errno = saved;
	if (text != small)
		free(text);
	return 0;
}

static int parse_value(struct parser *p, struct jval *v);

/* Append a zeroed item to a container; NULL when out of memory. */
static struct jval *add_item(struct jval *v, size_t *cap)
{
	if (v->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;
		struct jval *items;

		items = realloc(v->items, ncap * sizeof(*items));
		if (!items)
			return NULL;
		v->items = items;
		if (v->type == J_OBJ) {
			char **keys = realloc(v->keys, ncap * sizeof(*keys));

			if (!keys)
				return NULL;
			v->keys = keys;
		}
		*cap = ncap;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	return &v->items[v->n];
}

/*
 * After an array item or object member: 1 if a ',' says more follow, 0
 * at the closing bracket, or the parse error.
 */
static int after_item(struct parser *p, char close)
{
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ',') {
		p->pos++;
		return 1;
	}
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	return unexpected(p, close == ']' ? "expected ',' or ']'" :
					    "expected ',' or '}'");
}

/* v NULL, here and below: checked only, nothing kept. */
static int parse_array(struct parser *p, struct jval *v)
{
	size_t cap = 0;
	struct jval *item = NULL;
	int ret;

	if (v)
		v->type = J_ARR;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ']') {
		p->pos++;
		return 0;
	}
	for (;;) {
		if (v) {
			item = add_item(v, &cap);
			if (!item)
				return no_memory(p);
			v->n++;
		}
		ret = parse_value(p, item);
		if (ret)
			return ret;
		ret = after_item(p, ']');
		if (ret <= 0)
			return ret;
	}
}

/* Is key one of p->skip's? */
static bool skipped(const struct parser *p, const char *key)
{
	const char *const *k;

	for (k = p->skip; k && *k; k++)
		if (!strcmp(*k, key))
			return true;
	return false;
}

static int parse_object(struct parser *p, struct jval *v)
{
	size_t cap = 0;
	struct jval *item;
	char *key;
	int ret;

	if (v)
		v->type = J_OBJ;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == '}') {
		p->pos++;
		return 0;
	}
	for (;;) {
		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != '"')
			return unexpected(p, "expected a string key");
		key = NULL;
		ret = parse_string(p, v ? &key : NULL);
		if (ret)
			return ret;
		item = NULL;
		if (key && skipped(p, key)) {
			free(key);
			key = NULL;
		}
		if (key) {
			item = add_item(v, &cap);
			if (!item) {
				free(key);
				return no_memory(p);
			}
			v->keys[v->n] = key;
			v->n++;
		}
		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != ':')
			return unexpected(p, "expected ':'");
		p->pos++;
		ret = parse_value(p, item);
		if (ret)
			return ret;
		ret = after_item(p, '}');
		if (ret <= 0)
			return ret;
	}
}

static int parse_literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n)) {
		/* a prefix of the word that runs into the end is truncation */
		if (p->len - p->pos < n &&
		    !memcmp(p->s + p->pos, word, p->len - p->pos))
			return fail_at(p, p->len, "unexpected end of input");
		return fail_at(p, p->pos, "expected a value");
	}
	p->pos += n;
	return 0;
}

static int parse_value(struct parser *p, struct jval *v)
{
	int ret;

	skip_ws(p);
	if (p->pos >= p->len)
		return fail_at(p, p->pos, "unexpected end of input");
	switch (p->s[p->pos]) {
	case '{':
	case '[':
		if (p->depth >= JSON_MAX_NESTING)
			return fail_at(p, p->pos, "nesting deeper than %d",
				       JSON_MAX_NESTING);
		p->depth++;
		ret = p->s[p->pos] == '{' ? parse_object(p, v) :
					    parse_array(p, v);
		p->depth--;
		return ret;
	case '"':
		if (!v)
			return parse_string(p, NULL);
		v->type = J_STR;
		return parse_string(p, &v->str);
	case 't':
		if (v) {
			v->type = J_BOOL;
			v->b = true;
		}
		return parse_literal(p, "true");
	case 'f':
		if (v)
			v->type = J_BOOL;
		return parse_literal(p, "false");
	case 'n':
		if (v)
			v->type = J_NULL;
		return parse_literal(p, "null");
	default:
		if (p->s[p->pos] == '-' || is_digit(p->s[p->pos])) {
			if (!v)
				return parse_number(p, NULL);
			v->type = J_NUM;
			return parse_number(p, &v->num);
		}
		return unexpected(p, "expected a value");
	}
}

static void free_contents(struct jval *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		free_contents(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

int json_parse(const char *text, size_t len, struct jval **out, char *err,
	       size_t errlen)
{
	return json_parse_skip(text, len, NULL, out, err, errlen);
}

int json_parse_skip(const char *text, size_t len, const char *const *skip,
		    struct jval **out, char *err, size_t errlen)
{
	struct parser p = { text, len, 0, 0, err, errlen, 0, skip };
	struct jval *v;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	v = calloc(1, sizeof(*v));
	if (!v)
		return no_memory(&p);
	if (!parse_value(&p, v)) {
		skip_ws(&p);
		if (p.pos < p.len)
			unexpected(&p, "expected the end of the document");
	}
	if (p.ret) {
		json_free(v);
		return p.ret;
	}
	*out = v;
	return 0;
}

void json_clear(struct jval *v)
{
	free_contents(v);
	v->n = 0;
	v->items = NULL;
	v->keys = NULL;
	v->str = NULL;
}

void json_free(struct jval *v)
{
	if (!v)
		return;
	free_contents(v);
	free(v);
}

const struct jval *json_get(const struct jval *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != J_OBJ)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}

const struct jval *json_get_type(const struct jval *obj, const char *key,
				 enum jtype type)
{
	const struct jval *v = json_get(obj, key);

	return v && v->type == type ? v : NULL;
}
