/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/text.h - one way to write text: a string buffer that grows, the one
 * UTF-8 validator, and the escapers of JSON, XML and HTML. Every writer
 * of a file that must be JSON, XML or HTML borrows them (as git's writers
 * borrow strbuf and quote.c); none escapes by hand. Pure: no clocks, no
 * globals; the only files are the ones a caller passes.
 *
 * Text we write may hold any byte (a task's comm, a command line, a
 * path), and each of the three formats must stay valid UTF-8: a byte that
 * is not part of a valid UTF-8 sequence is never copied. What replaces it
 * is each format's own, as its writer always wrote it (so that no file
 * changed when they came here):
 *
 *   format  " \ and controls          not UTF-8   & < > " '
 *   JSON    \" \\ \u00XX              \ufffd      as is
 *   XML     as is, controls '?'       ?           &amp; ... &apos;
 *   HTML    as is, controls ' '       &#xfffd;    &amp; ... &#39;
 *
 * XML and HTML keep tab and newline (XML 1.0 has no other control).
 */
#ifndef INTERBENCH_TEXT_H
#define INTERBENCH_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* A text that grows; out of memory sticks in err and stops writing. */
struct sbuf {
	char *s;		/* NUL-terminated once anything is written */
	size_t len, cap;
	int err;		/* 0, or -ENOMEM */
};

void sb_init(struct sbuf *b);
void sb_free(struct sbuf *b);
/* n bytes of s appended (any bytes: this is no escaper). */
void sb_add(struct sbuf *b, const char *s, size_t n);
void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none:
 * no overlong form, no surrogate (U+D800..U+DFFF), nothing past
 * U+10FFFF (RFC 3629). The JSON reader refuses what is not.
 */
size_t text_utf8_len(const unsigned char *s, size_t n);

enum text_esc { TEXT_JSON, TEXT_XML, TEXT_HTML };

/* The longest replacement of a byte, with its NUL ("&#xfffd;"). */
#define TEXT_REP_MAX	10

/*
 * How escaper how takes s[0..n): the bytes it copies as they are, up to
 * the first it replaces; when that is less than n, rep holds what
 * replaces the one byte after them. A writer to anything but the two
 * below loops over it.
 */
size_t text_run(enum text_esc how, const char *s, size_t n,
		char rep[TEXT_REP_MAX]);

/* s (NULL as "") escaped by how, appended to b. */
void sb_escape(struct sbuf *b, enum text_esc how, const char *s);
/* The same to f: 0, or -errno of the first write that failed. */
int text_fescape(FILE *f, enum text_esc how, const char *s);

/* s as a JSON string, in its quotes. */
void sb_json(struct sbuf *b, const char *s);
/* s as HTML (and SVG) text or attribute value: the pages' escaper. */
void sb_esc(struct sbuf *b, const char *s);
/* s as XML text or attribute value, to f (a JUnit file). */
void text_xml(FILE *f, const char *s);

#endif
