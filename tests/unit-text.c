// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-text.c - lib/text: the UTF-8 validator on each kind of bad
 * sequence, the JSON, XML and HTML escapers on ASCII, controls, valid
 * multi-byte UTF-8, bytes that are not UTF-8, overlong forms and
 * surrogates; every output of every two-byte input valid UTF-8; the
 * buffer's growth.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"
#include "tests/check.h"

static const char *const esc_name[] = { "JSON", "XML", "HTML" };

/* s escaped by how into b (emptied first): b's text */
static const char *esc(struct sbuf *b, enum text_esc how, const char *s)
{
	sb_free(b);
	sb_escape(b, how, s);
	return b->s ? b->s : "(null)";
}

static bool all_utf8(const char *s, size_t n)
{
	size_t i, l;

	for (i = 0; i < n; i += l) {
		l = text_utf8_len((const unsigned char *)s + i, n - i);
		if (!l)
			return false;
	}
	return true;
}

static void utf8(void)
{
	static const struct {
		const char *s;
		size_t want;
		const char *what;
	} c[] = {
		{ "a", 1, "ASCII" },
		{ "\xc2\xb5", 2, "U+00B5, two bytes" },
		{ "\xe2\x82\xac", 3, "U+20AC, three bytes" },
		{ "\xf0\x9f\x98\x80", 4, "U+1F600, four bytes" },
		{ "\xed\x9f\xbf", 3, "U+D7FF, below the surrogates" },
		{ "\xee\x80\x80", 3, "U+E000, above them" },
		{ "\xf4\x8f\xbf\xbf", 4, "U+10FFFF, the last" },
		{ "\xc0\xaf", 0, "overlong '/' in two bytes" },
		{ "\xc1\xbf", 0, "overlong DEL in two bytes" },
		{ "\xe0\x80\xaf", 0, "overlong '/' in three bytes" },
		{ "\xe0\x9f\xbf", 0, "overlong U+07FF in three bytes" },
		{ "\xf0\x80\x80\xaf", 0, "overlong '/' in four bytes" },
		{ "\xf0\x8f\xbf\xbf", 0, "overlong U+FFFF in four bytes" },
		{ "\xed\xa0\x80", 0, "surrogate U+D800" },
		{ "\xed\xbf\xbf", 0, "surrogate U+DFFF" },
		{ "\xf4\x90\x80\x80", 0, "U+110000, past the last" },
		{ "\xf5\x80\x80\x80", 0, "a lead byte past 0xf4" },
		{ "\x80", 0, "a lone continuation byte" },
		{ "\xff", 0, "0xff, never UTF-8" },
		{ "\xe9", 0, "Latin-1 e-acute: a lead byte, then the end" },
		{ "\xe9t\xe9", 0, "Latin-1 e-acute then ASCII" },
		{ "\xe2\x82", 0, "a sequence cut short" },
	};
	size_t i, got;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		got = text_utf8_len((const unsigned char *)c[i].s,
				    strlen(c[i].s));
		check(got == c[i].want, "UTF-8: %s: %zu (got %zu)", c[i].what,
		      c[i].want, got);
	}
	check(text_utf8_len((const unsigned char *)"\xe2\x82\xac", 2) == 0,
	      "UTF-8: a sequence longer than the bytes left is not");
	check(text_utf8_len((const unsigned char *)"a", 0) == 0,
	      "UTF-8: no bytes, no sequence");
}

static void escapes(void)
{
	static const struct {
		enum text_esc how;
		const char *in, *want, *what;
	} c[] = {
		{ TEXT_JSON, "plain ASCII", "plain ASCII", "ASCII as is" },
		{ TEXT_JSON, "a\"b\\c/", "a\\\"b\\\\c/", "quote, backslash" },
		{ TEXT_JSON, "\x01\t\n\x1f\x7f", "\\u0001\\u0009\\u000a"
		  "\\u001f\x7f", "controls as \\u00XX, DEL as is" },
		{ TEXT_JSON, "\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80",
		  "\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80", "UTF-8 as is" },
		{ TEXT_JSON, "caf\xe9", "caf\\ufffd", "Latin-1: \\ufffd" },
		{ TEXT_JSON, "\xff\xfe", "\\ufffd\\ufffd", "each bad byte" },
		{ TEXT_JSON, "\xc0\xaf", "\\ufffd\\ufffd", "overlong" },
		{ TEXT_JSON, "\xed\xa0\x80!", "\\ufffd\\ufffd\\ufffd!",
		  "surrogate" },
		{ TEXT_JSON, "\xe2\x82", "\\ufffd\\ufffd", "cut short" },
		{ TEXT_XML, "plain ASCII", "plain ASCII", "ASCII as is" },
		{ TEXT_XML, "<a href=\"x\">&'", "&lt;a href=&quot;x&quot;&gt;"
		  "&amp;&apos;", "markup" },
		{ TEXT_XML, "\x01\t\n\r\x1f", "?\t\n??", "controls as ?, tab "
		  "and newline kept" },
		{ TEXT_XML, "\xc2\xb5s \xe2\x82\xac", "\xc2\xb5s \xe2\x82\xac",
		  "UTF-8 as is" },
		{ TEXT_XML, "caf\xe9", "caf?", "Latin-1: ?" },
		{ TEXT_XML, "\xc0\xaf", "??", "overlong" },
		{ TEXT_XML, "\xed\xbf\xbf", "???", "surrogate" },
		{ TEXT_HTML, "plain ASCII", "plain ASCII", "ASCII as is" },
		{ TEXT_HTML, "<a href=\"x\">&'", "&lt;a href=&quot;x&quot;&gt;"
		  "&amp;&#39;", "markup" },
		{ TEXT_HTML, "\x01\t\n\r", " \t\n ", "controls as a space, "
		  "tab and newline kept" },
		{ TEXT_HTML, "\xc2\xb5s \xe2\x82\xac", "\xc2\xb5s \xe2\x82\xac",
		  "UTF-8 as is" },
		{ TEXT_HTML, "caf\xe9", "caf&#xfffd;", "Latin-1: &#xfffd;" },
		{ TEXT_HTML, "\xc1\xbf", "&#xfffd;&#xfffd;", "overlong" },
		{ TEXT_HTML, "\xed\xa0\x80", "&#xfffd;&#xfffd;&#xfffd;",
		  "surrogate" },
	};
	struct sbuf b;
	size_t i;

	sb_init(&b);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const char *got = esc(&b, c[i].how, c[i].in);

		bool ok = !strcmp(got, c[i].want);

		/* what went wrong only: a good XML output holds a newline */
		check(ok, "%s: %s%s%s%s", esc_name[c[i].how], c[i].what,
		      ok ? "" : " (got ", ok ? "" : got, ok ? "" : ")");
	}
	check(!strcmp(esc(&b, TEXT_HTML, NULL), ""), "NULL as \"\"");
	sb_free(&b);
	sb_json(&b, "a\"\xff");
	check(b.s && !strcmp(b.s, "\"a\\\"\\ufffd\""), "sb_json: in quotes "
	      "(got %s)", b.s ? b.s : "(null)");
	sb_free(&b);
	sb_json(&b, NULL);
	check(b.s && !strcmp(b.s, "\"\""), "sb_json: NULL as \"\"");
	sb_free(&b);
}

/* text_fescape (the JSON and JUnit files) writes what sb_escape does */
static void to_file(void)
{
	static const char in[] = "a<\"\\\x01\xc2\xb5\xe9\xed\xa0\x80'&z";
	struct sbuf b;
	char *s = NULL;
	size_t n = 0;
	int how, err;
	bool same = true;

	sb_init(&b);
	for (how = TEXT_JSON; how <= TEXT_HTML; how++) {
		FILE *f = open_memstream(&s, &n);

		if (!f)
			exit(1);
		err = text_fescape(f, (enum text_esc)how, in);
		fclose(f);
		esc(&b, (enum text_esc)how, in);
		same = same && !err && b.s && n == b.len &&
		       !memcmp(s, b.s, n);
		free(s);
		s = NULL;
	}
	check(same, "text_fescape writes what sb_escape makes, each format");
	sb_free(&b);
}

/*
 * Every string of one or two bytes through each escaper: the output is
 * always UTF-8, and none longer than the longest replacement a byte.
 */
static void exhaustive(void)
{
	struct sbuf b;
	char in[4];
	int how, x, y;
	long bad = 0, long_ = 0, n = 0;

	sb_init(&b);
	for (how = TEXT_JSON; how <= TEXT_HTML; how++) {
		for (x = 1; x < 256; x++) {
			for (y = 0; y < 256; y++) {
				in[0] = (char)x;
				in[1] = (char)y;
				in[2] = '\0';
				esc(&b, (enum text_esc)how, in);
				n++;
				if (!b.s || !all_utf8(b.s, b.len))
					bad++;
				if (b.len > 2 * (TEXT_REP_MAX - 1))
					long_++;
			}
		}
	}
	check(n == 3 * 255 * 256 && !bad, "%ld strings of 1 or 2 bytes, "
	      "each escaped: all UTF-8 (%ld not)", n, bad);
	check(!long_, "none longer than a replacement a byte (%ld)", long_);
	sb_free(&b);
}

static void buffer(void)
{
	struct sbuf b;
	size_t i, want = 0;
	bool ok = true;

	sb_init(&b);
	check(!b.s && !b.len && !b.cap && !b.err, "a new buffer is empty");
	sb_add(&b, "", 0);
	check(b.s && !strcmp(b.s, "") && b.cap == 4096, "nothing added: \"\", "
	      "a first 4096 bytes");
	for (i = 0; i < 30000; i++) {
		sb_add(&b, "abcdefg", i % 8);
		sb_printf(&b, "%zu;", i);
		want += i % 8 + (size_t)snprintf(NULL, 0, "%zu;", i);
	}
	ok = b.s && b.len == want && strlen(b.s) == want &&
	     !memcmp(b.s, "0;a1;ab2;", 9) &&
	     !strcmp(b.s + want - 9, "efg29999;");
	check(ok, "30000 appends: %zu bytes, in order, NUL-terminated", want);
	check(b.cap > b.len && b.cap / 2 < b.len + 1 &&
	      !(b.cap & (b.cap - 1)), "grown by doubling: 4096 to %zu for "
	      "%zu", b.cap, b.len);
	sb_free(&b);
	check(!b.s && !b.len && !b.cap, "freed: empty again");
	/* out of memory once: nothing after it is written */
	b.err = -ENOMEM;
	sb_add(&b, "x", 1);
	sb_printf(&b, "y");
	sb_escape(&b, TEXT_JSON, "z");
	check(!b.s && !b.len && b.err == -ENOMEM, "an error sticks: nothing "
	      "written after it");
	sb_free(&b);
}

static void run(void)
{
	char rep[TEXT_REP_MAX];
	size_t n;

	n = text_run(TEXT_HTML, "ab\xc2\xb5<c", 6, rep);
	check(n == 4 && !strcmp(rep, "&lt;"), "text_run: the bytes as they "
	      "are, then what replaces the next (%zu, %s)", n, rep);
	n = text_run(TEXT_JSON, "ab", 2, rep);
	check(n == 2, "text_run: all as is");
}

int main(void)
{
	utf8();
	escapes();
	to_file();
	exhaustive();
	buffer();
	run();
	return check_done();
}
