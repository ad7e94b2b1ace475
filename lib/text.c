// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/text.c - the string buffer, the UTF-8 validator and the escapers
 * (see text.h). Pure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"

void sb_init(struct sbuf *b)
{
	memset(b, 0, sizeof(*b));
}

void sb_free(struct sbuf *b)
{
	free(b->s);
	sb_init(b);
}

/* Room for more bytes and a NUL; doubling keeps appends amortized O(1). */
static int sb_room(struct sbuf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *s;

	if (b->err)
		return b->err;
	if (b->len + more + 1 <= b->cap)
		return 0;
	while (cap < b->len + more + 1)
		cap *= 2;
	s = realloc(b->s, cap);
	if (!s)
		return b->err = -ENOMEM;
	b->s = s;
	b->cap = cap;
	return 0;
}

void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (sb_room(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || sb_room(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

size_t text_utf8_len(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len, i;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	/* 0xc0 and 0xc1 could only start an overlong form of ASCII */
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* A format's rules, as the table in text.h says them. */
struct esc_rules {
	const char *special;		/* ASCII bytes replaced ... */
	const char *const *as;		/* ... by these, in that order */
	const char *bad;		/* a byte that is not UTF-8 */
	const char *ctl;		/* a control; NULL: \u00XX */
	bool keep_tab_nl;		/* tab and newline are text */
};

static const char *const json_as[] = { "\\\"", "\\\\" };
static const char *const xml_as[] = {
	"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"
};
/* &#39;, not &apos;: HTML 4 has no &apos; */
static const char *const html_as[] = {
	"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"
};

static const struct esc_rules rules[] = {
	[TEXT_JSON] = { "\"\\", json_as, "\\ufffd", NULL, false },
	[TEXT_XML] = { "&<>\"'", xml_as, "?", "?", true },
	[TEXT_HTML] = { "&<>\"'", html_as, "&#xfffd;", " ", true },
};

static bool is_ctl(const struct esc_rules *r, unsigned char c)
{
	return c < 0x20 && !(r->keep_tab_nl && (c == '\t' || c == '\n'));
}

size_t text_run(enum text_esc how, const char *str, size_t n,
		char rep[TEXT_REP_MAX])
{
	const struct esc_rules *r = &rules[how];
	const unsigned char *s = (const unsigned char *)str;
	const char *sp;
	size_t i = 0, l = 0;

	while (i < n) {
		l = text_utf8_len(s + i, n - i);
		/* a control (NUL too) is tested first: strchr finds a NUL */
		if (!l || is_ctl(r, s[i]) || strchr(r->special, s[i]))
			break;
		i += l;
	}
	if (i == n)
		return i;
	if (!l)
		snprintf(rep, TEXT_REP_MAX, "%s", r->bad);
	else if (is_ctl(r, s[i]) && !r->ctl)
		snprintf(rep, TEXT_REP_MAX, "\\u%04x", s[i]);
	else if (is_ctl(r, s[i]))
		snprintf(rep, TEXT_REP_MAX, "%s", r->ctl);
	else if ((sp = strchr(r->special, s[i])))
		snprintf(rep, TEXT_REP_MAX, "%s", r->as[sp - r->special]);
	return i;
}

/*
 * s escaped as how asks, a piece at a time to put (ctx, bytes, length):
 * the text as it is up to the next byte to replace, then its stand-in.
 * 0, or put's -errno.
 */
static int escape(enum text_esc how, const char *s,
		  int (*put)(void *ctx, const char *p, size_t n), void *ctx)
{
	char rep[TEXT_REP_MAX];
	size_t n, run;
	int err;

	if (!s)
		s = "";
	n = strlen(s);
	for (;;) {
		run = text_run(how, s, n, rep);
		err = run ? put(ctx, s, run) : 0;
		if (err || run == n)
			return err;
		err = put(ctx, rep, strlen(rep));
		if (err)
			return err;
		s += run + 1;
		n -= run + 1;
	}
}

static int put_sb(void *ctx, const char *p, size_t n)
{
	sb_add(ctx, p, n);
	return 0;
}

static int put_file(void *ctx, const char *p, size_t n)
{
	return fwrite(p, 1, n, ctx) == n ? 0 : errno ? -errno : -EIO;
}

void sb_escape(struct sbuf *b, enum text_esc how, const char *s)
{
	sb_add(b, "", 0);	/* the buffer ends in a NUL even for "" */
	escape(how, s, put_sb, b);
}

int text_fescape(FILE *f, enum text_esc how, const char *s)
{
	return escape(how, s, put_file, f);
}

void sb_json(struct sbuf *b, const char *s)
{
	sb_add(b, "\"", 1);
	sb_escape(b, TEXT_JSON, s);
	sb_add(b, "\"", 1);
}

void sb_esc(struct sbuf *b, const char *s)
{
	sb_escape(b, TEXT_HTML, s);
}

void text_xml(FILE *f, const char *s)
{
	/* a JUnit file's writes are checked once, when it is committed */
	(void)text_fescape(f, TEXT_XML, s);
}
