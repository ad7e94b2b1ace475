// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-json.c - unit tests for lib/json_write.c and lib/json_read.c: writer
 * output and layout, writer to reader round trips of every type, escape
 * and number, and the reader's rejection (with line and column) of
 * malformed and truncated documents.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "check.h"

/* Run fn on a writer into memory; returns the text (malloc'd). */
static char *write_doc(void (*fn)(struct jw *), int *ret)
{
	char *text = NULL;
	size_t len = 0;
	struct jw w;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	jw_init(&w, f);
	fn(&w);
	*ret = jw_finish(&w);
	fclose(f);
	return text;
}

static struct jval *parse_str(const char *s, char *err, size_t errlen,
			      int *ret)
{
	struct jval *v = NULL;

	*ret = json_parse(s, strlen(s), &v, err, errlen);
	return v;
}

static const char all_controls[] =
	"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
	"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f";
static const char utf8_text[] = "\xc2\xb5s \xc3\xbc \xe2\x82\xac "
				"\xf0\x9d\x84\x9e \x7f";
static const char tricky[] = "say \"hi\" \\ back\\slash / and\ttab\n";

static const double numbers[] = {
	0, -0.5, 1e300, 9007199254740992.0, 1.0000000000000002, 0.1,
	-1e-300, 5e-324, DBL_MAX, -DBL_MAX, 123456789.125, 1e21, 3.0,
	-17, 2.5e-7, 9007199254740991.0, 9007199254740993.0,
};
#define N_NUMBERS (sizeof(numbers) / sizeof(numbers[0]))

static void doc_all_types(struct jw *w)
{
	size_t i;

	jw_obj_begin(w, NULL);
	jw_str(w, "tricky", tricky);
	jw_str(w, "controls", all_controls);
	jw_str(w, "utf8", utf8_text);
	jw_str(w, "empty", "");
	jw_str(w, "nullstr", NULL);
	jw_str(w, "key \"with\" \\ escapes\n", "v");
	jw_arr_begin(w, "numbers");
	for (i = 0; i < N_NUMBERS; i++)
		jw_num(w, NULL, numbers[i]);
	jw_arr_end(w);
	jw_num(w, "nan", NAN);
	jw_num(w, "inf", INFINITY);
	jw_num(w, "-inf", -INFINITY);
	jw_int(w, "int_min", INT64_MIN);
	jw_int(w, "int_max", INT64_MAX);
	jw_int(w, "minus_one", -1);
	jw_uint(w, "uint_max", UINT64_MAX);
	jw_bool(w, "yes", true);
	jw_bool(w, "no", false);
	jw_null(w, "nothing");
	jw_arr_begin(w, "empty_arr");
	jw_arr_end(w);
	jw_obj_begin(w, "empty_obj");
	jw_obj_end(w);
	jw_arr_begin(w, "mixed");
	jw_num(w, NULL, 1);
	jw_str(w, NULL, "two");
	jw_obj_begin(w, NULL);
	jw_arr_begin(w, "buckets");
	jw_arr_begin(w, NULL);
	jw_uint(w, NULL, 1024);
	jw_uint(w, NULL, 1031);
	jw_uint(w, NULL, 5);
	jw_arr_end(w);
	jw_arr_begin(w, NULL);
	jw_arr_end(w);
	jw_arr_end(w);
	jw_obj_end(w);
	jw_null(w, NULL);
	jw_bool(w, NULL, true);
	jw_arr_end(w);
	jw_obj_end(w);
}

static void test_round_trip(void)
{
	const struct jval *v, *a;
	struct jval *doc;
	char err[200];
	char *text;
	int ret;
	size_t i;

	text = write_doc(doc_all_types, &ret);
	check(text && ret == 0, "writer finishes a document with every type");
	if (!text)
		return;
	doc = parse_str(text, err, sizeof(err), &ret);
	check(ret == 0 && doc && doc->type == J_OBJ,
	      "reader reads the writer's document back (%s)", ret ? err : "");
	if (!doc) {
		printf("%s", text);
		free(text);
		return;
	}
	v = json_get_type(doc, "tricky", J_STR);
	check(v && !strcmp(v->str, tricky), "quotes, backslashes, tab, "
	      "newline round trip");
	v = json_get_type(doc, "controls", J_STR);
	check(v && !strcmp(v->str, all_controls),
	      "every control character round trips");
	v = json_get_type(doc, "utf8", J_STR);
	check(v && !strcmp(v->str, utf8_text), "UTF-8 round trips");
	check(strstr(text, utf8_text) != NULL, "UTF-8 is written as is");
	v = json_get_type(doc, "empty", J_STR);
	check(v && !strcmp(v->str, ""), "the empty string round trips");
	check(json_get_type(doc, "nullstr", J_NULL) != NULL,
	      "a NULL string is written as null");
	v = json_get_type(doc, "key \"with\" \\ escapes\n", J_STR);
	check(v && !strcmp(v->str, "v"), "keys are escaped too");

	a = json_get_type(doc, "numbers", J_ARR);
	check(a && a->n == N_NUMBERS, "the number array has every number");
	for (i = 0; a && i < N_NUMBERS && i < a->n; i++)
		check(a->items[i].type == J_NUM &&
		      a->items[i].num == numbers[i] &&
		      signbit(a->items[i].num) == signbit(numbers[i]),
		      "number %.17g round trips exactly (got %.17g)",
		      numbers[i], a->items[i].num);
	check(json_get_type(doc, "nan", J_NULL) &&
	      json_get_type(doc, "inf", J_NULL) &&
	      json_get_type(doc, "-inf", J_NULL),
	      "NaN and the infinities are written as null");
	v = json_get_type(doc, "int_min", J_NUM);
	check(v && v->num == (double)INT64_MIN, "INT64_MIN reads back");
	check(strstr(text, "\"int_min\": -9223372036854775808,") &&
	      strstr(text, "\"int_max\": 9223372036854775807,") &&
	      strstr(text, "\"uint_max\": 18446744073709551615,"),
	      "64-bit integers are written exactly");
	v = json_get_type(doc, "minus_one", J_NUM);
	check(v && v->num == -1, "a negative integer reads back");
	v = json_get_type(doc, "yes", J_BOOL);
	check(v && v->b, "true round trips");
	v = json_get_type(doc, "no", J_BOOL);
	check(v && !v->b, "false round trips");
	check(json_get_type(doc, "nothing", J_NULL) != NULL,
	      "null round trips");
	v = json_get_type(doc, "empty_arr", J_ARR);
	check(v && v->n == 0, "an empty array round trips");
	v = json_get_type(doc, "empty_obj", J_OBJ);
	check(v && v->n == 0, "an empty object round trips");
	a = json_get_type(doc, "mixed", J_ARR);
	check(a && a->n == 5 && a->items[0].type == J_NUM &&
	      a->items[1].type == J_STR && a->items[2].type == J_OBJ &&
	      a->items[3].type == J_NULL && a->items[4].type == J_BOOL,
	      "a mixed array keeps its order and types");
	if (a && a->n == 5) {
		v = json_get_type(&a->items[2], "buckets", J_ARR);
		check(v && v->n == 2 && v->items[0].n == 3 &&
		      v->items[0].items[1].num == 1031 && v->items[1].n == 0,
		      "nested arrays round trip");
	}
	/* the layout is for people: a member a line, small arrays inline */
	check(strstr(text, "\n  \"yes\": true,\n") != NULL,
	      "one member per line, indented by two spaces");
	check(strstr(text, "\n        [1024, 1031, 5],\n        []\n") != NULL,
	      "arrays of numbers stay on one line");
	check(strstr(text, "\"empty_arr\": [],") &&
	      strstr(text, "\"empty_obj\": {},"), "empty containers are [] and {}");
	check(strstr(text, "\"nan\": null,") != NULL, "NaN is null in the text");
	check(strstr(text, "\\u0001\\u0002") && strstr(text, "\\u001f") &&
	      strstr(text, "\\\"hi\\\" \\\\ back"),
	      "controls are \\u00XX, quotes and backslashes escaped");
	check(text[strlen(text) - 1] == '\n' && text[strlen(text) - 2] == '}',
	      "the document ends with a newline");
	json_free(doc);
	free(text);
}

static void doc_numbers_text(struct jw *w)
{
	jw_arr_begin(w, NULL);
	jw_num(w, NULL, 3.0);
	jw_num(w, NULL, 1e15);
	jw_num(w, NULL, -0.5);
	jw_num(w, NULL, 0.1);
	jw_num(w, NULL, 9007199254740991.0);
	jw_num(w, NULL, 1.0000000000000002);
	jw_num(w, NULL, 12.5);
	jw_arr_end(w);
}

static void test_number_text(void)
{
	char *text;
	int ret;

	text = write_doc(doc_numbers_text, &ret);
	check(text && !strcmp(text, "[3, 1000000000000000, -0.5, 0.1, "
			      "9007199254740991, 1.0000000000000002, 12.5]\n"),
	      "integral doubles have no exponent or decimals, others the "
	      "shortest exact digits");
	if (text)
		printf("# %s", text);
	free(text);
}

static void doc_bad_utf8(struct jw *w)
{
	jw_str(w, NULL, "a\xff" "b\xc3(\xed\xa0\x80z");
}

static void doc_unclosed(struct jw *w)
{
	jw_obj_begin(w, NULL);
	jw_arr_begin(w, "a");
}

static void doc_overclosed(struct jw *w)
{
	jw_arr_begin(w, NULL);
	jw_arr_end(w);
	jw_arr_end(w);
}

static void doc_too_deep(struct jw *w)
{
	int i;

	for (i = 0; i < JW_MAX_DEPTH + 1; i++)
		jw_arr_begin(w, NULL);
	for (i = 0; i < JW_MAX_DEPTH + 1; i++)
		jw_arr_end(w);
}

static void doc_max_depth(struct jw *w)
{
	int i;

	for (i = 0; i < JW_MAX_DEPTH; i++)
		jw_arr_begin(w, NULL);
	jw_int(w, NULL, 7);
	for (i = 0; i < JW_MAX_DEPTH; i++)
		jw_arr_end(w);
}

static void test_writer_errors(void)
{
	struct jval *doc;
	char *text, err[200];
	struct jw w;
	FILE *f;
	int ret;

	text = write_doc(doc_bad_utf8, &ret);
	check(text && ret == 0 &&
	      !strcmp(text, "\"a\\ufffdb\\ufffd(\\ufffd\\ufffd\\ufffdz\"\n"),
	      "bytes that are not UTF-8 are written as \\ufffd");
	if (text)
		printf("# %s", text);
	free(text);
	text = write_doc(doc_unclosed, &ret);
	check(ret == -EIO, "an unclosed container fails jw_finish");
	free(text);
	text = write_doc(doc_overclosed, &ret);
	check(ret == -EIO, "closing too much fails jw_finish");
	free(text);
	text = write_doc(doc_too_deep, &ret);
	check(ret == -EIO, "nesting past JW_MAX_DEPTH fails jw_finish");
	free(text);
	text = write_doc(doc_max_depth, &ret);
	doc = text ? parse_str(text, err, sizeof(err), &ret) : NULL;
	check(doc && ret == 0, "JW_MAX_DEPTH levels are written and read");
	json_free(doc);
	free(text);

	f = fopen("/dev/full", "w");
	if (f) {
		jw_init(&w, f);
		jw_obj_begin(&w, NULL);
		jw_str(&w, "k", "v");
		jw_obj_end(&w);
		check(jw_finish(&w) == -ENOSPC,
		      "a failed write gives its errno (ENOSPC, not EIO)");
		fclose(f);
	} else {
		check(1, "# skip: no /dev/full");
	}
}

static void test_reader_escapes(void)
{
	struct jval *doc;
	char err[200];
	int ret;

	doc = parse_str("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC"
			"\\ud834\\uDD1E\\u0041\"", err, sizeof(err), &ret);
	check(doc && doc->type == J_STR &&
	      !strcmp(doc->str, "\"\\/\b\f\n\r\t\xc3\xa9\xe2\x82\xac"
		      "\xf0\x9d\x84\x9e" "A"),
	      "every escape decodes, surrogate pairs to 4-byte UTF-8");
	json_free(doc);
	doc = parse_str(" \t\r\n[ 1 , -0 , 2.5E+2 , 1e-400 , true ,"
			"false,null ] \n", err, sizeof(err), &ret);
	check(doc && doc->type == J_ARR && doc->n == 7 &&
	      doc->items[0].num == 1 && signbit(doc->items[1].num) &&
	      doc->items[2].num == 250 && doc->items[3].num == 0 &&
	      doc->items[4].b && !doc->items[5].b &&
	      doc->items[6].type == J_NULL,
	      "whitespace, numbers and literals (%s)", ret ? err : "ok");
	json_free(doc);
	/* the text need not end in NUL: only len bytes are read */
	doc = NULL;
	ret = json_parse("12345", 3, &doc, err, sizeof(err));
	check(ret == 0 && doc && doc->num == 123,
	      "only len bytes are parsed");
	json_free(doc);
	doc = parse_str("{\"a\": 1, \"a\": 2, \"b\": \"x\"}", err,
			sizeof(err), &ret);
	check(doc && json_get(doc, "a") && json_get(doc, "a")->num == 1,
	      "json_get returns the first of duplicate keys");
	check(doc && !json_get(doc, "c") && !json_get_type(doc, "b", J_NUM) &&
	      json_get_type(doc, "b", J_STR),
	      "json_get_type checks the type, absent keys are NULL");
	check(doc && !json_get(&doc->items[0], "a") && !json_get(NULL, "a"),
	      "json_get on a non-object is NULL");
	json_free(doc);
	json_free(NULL);
}

struct bad_doc {
	const char *text;
	const char *where;	/* "line L, column C" */
	const char *what;	/* part of the message */
};

static const struct bad_doc bad_docs[] = {
	{ "", "line 1, column 1", "unexpected end of input" },
	{ "   \n  ", "line 2, column 3", "unexpected end of input" },
	{ "{\"a\" 1}", "line 1, column 6", "expected ':'" },
	{ "{\"a\": 1 \"b\": 2}", "line 1, column 9", "expected ',' or '}'" },
	{ "[1 2]", "line 1, column 4", "expected ',' or ']'" },
	{ "{\"a\": 1,}", "line 1, column 9", "expected a string key" },
	{ "[1,]", "line 1, column 4", "expected a value" },
	{ "{a: 1}", "line 1, column 2", "expected a string key" },
	{ "{\"a\":\n  1}\nx", "line 3, column 1", "end of the document" },
	{ "{} {}", "line 1, column 4", "end of the document" },
	{ "01", "line 1, column 1", "leading zeros" },
	{ "-012", "line 1, column 1", "leading zeros" },
	{ "1.", "line 1, column 3", "unexpected end of input" },
	{ "1.e5", "line 1, column 3", "digit after '.'" },
	{ ".5", "line 1, column 1", "expected a value" },
	{ "+1", "line 1, column 1", "expected a value" },
	{ "1e", "line 1, column 3", "unexpected end of input" },
	{ "1e+x", "line 1, column 4", "digit in the exponent" },
	{ "-", "line 1, column 2", "unexpected end of input" },
	{ "- 1", "line 1, column 2", "expected a digit" },
	{ "0x10", "line 1, column 2", "end of the document" },
	{ "1e400", "line 1, column 1", "out of range" },
	{ "NaN", "line 1, column 1", "expected a value" },
	{ "Infinity", "line 1, column 1", "expected a value" },
	{ "tru", "line 1, column 4", "unexpected end of input" },
	{ "trUe", "line 1, column 1", "expected a value" },
	{ "nul", "line 1, column 4", "unexpected end of input" },
	{ "\"abc", "line 1, column 1", "unterminated string" },
	{ "[\"a\tb\"]", "line 1, column 4", "control character 0x09" },
	{ "\"a\nb\"", "line 1, column 3", "control character 0x0a" },
	{ "\"\\x\"", "line 1, column 2", "bad escape" },
	{ "\"\\u12G4\"", "line 1, column 2", "bad \\u escape" },
	{ "\"\\u12\"", "line 1, column 2", "bad \\u escape" },
	{ "\"\\ud800\"", "line 1, column 2", "high surrogate" },
	{ "\"\\ud800\\u0041\"", "line 1, column 2", "high surrogate" },
	{ "\"\\udc00\"", "line 1, column 2", "lone low surrogate" },
	{ "\"\\u0000\"", "line 1, column 2", "\\u0000" },
	{ "\"\xc3\"", "line 1, column 2", "invalid UTF-8" },
	{ "\"\xed\xa0\x80\"", "line 1, column 2", "invalid UTF-8" },
	{ "\"\xc0\xaf\"", "line 1, column 2", "invalid UTF-8" },
	{ "[1, 2", "line 1, column 6", "unexpected end of input" },
	{ "{\"a\": [1, {\"b\": }]}", "line 1, column 17", "expected a value" },
	{ "{\"\xc2\xb5s\": x}", "line 1, column 8", "expected a value" },
	{ "[1]]", "line 1, column 4", "end of the document" },
	{ "\x01", "line 1, column 1", "byte 0x01" },
	{ "]", "line 1, column 1", "expected a value, not ']'" },
};

static void test_malformed(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++) {
		const struct bad_doc *b = &bad_docs[i];
		char err[200] = "", want[200];
		struct jval *doc = (struct jval *)&doc;
		int ret;

		ret = json_parse(b->text, strlen(b->text), &doc, err,
				 sizeof(err));
		snprintf(want, sizeof(want), "%s: ", b->where);
		check(ret == -EINVAL && !doc && !strncmp(err, want,
							  strlen(want)) &&
		      strstr(err, b->what),
		      "bad document %zu is rejected: \"%s\" (want \"%s%s\")",
		      i, err, want, b->what);
	}
}

/* Every proper prefix of a document ending in '}' is incomplete. */
static void test_truncated(void)
{
	size_t len, end, cut, rejected = 0, with_place = 0;
	struct jval *doc;
	char *text, err[200];
	int ret;

	text = write_doc(doc_all_types, &ret);
	if (!text) {
		check(0, "writer made a document to truncate");
		return;
	}
	len = strlen(text);
	end = len;
	while (end > 0 && text[end - 1] != '}')
		end--;
	for (cut = 0; cut < end; cut++) {
		doc = NULL;
		ret = json_parse(text, cut, &doc, err, sizeof(err));
		if (ret == -EINVAL && !doc)
			rejected++;
		else
			printf("# prefix of %zu bytes accepted\n", cut);
		if (!strncmp(err, "line ", 5) && strstr(err, ", column "))
			with_place++;
		json_free(doc);
	}
	check(rejected == end && with_place == end,
	      "each of %zu truncated prefixes is rejected with a place "
	      "(%zu rejected, %zu placed)", end, rejected, with_place);
	ret = json_parse(text, end, &doc, err, sizeof(err));
	check(ret == 0, "the whole document (without its newline) parses");
	json_free(ret == 0 ? doc : NULL);
	free(text);
}

static char *nested(size_t depth)
{
	char *s = malloc(2 * depth + 2);
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < depth; i++) {
		s[i] = '[';
		s[2 * depth - 1 - i] = ']';
	}
	s[2 * depth] = '\0';
	return s;
}

static void test_nesting(void)
{
	struct jval *doc;
	char *s, err[200];
	int ret;

	s = nested(256);
	doc = s ? parse_str(s, err, sizeof(err), &ret) : NULL;
	check(doc && ret == 0, "256 levels of nesting parse");
	json_free(doc);
	free(s);
	s = nested(257);
	doc = s ? parse_str(s, err, sizeof(err), &ret) : NULL;
	check(!doc && ret == -EINVAL && strstr(err, "column 257: nesting"),
	      "257 levels are rejected: %s", err);
	free(s);
	s = nested(1000000);
	doc = s ? parse_str(s, err, sizeof(err), &ret) : NULL;
	check(!doc && ret == -EINVAL && strstr(err, "nesting deeper than 256"),
	      "a million levels are rejected without a crash");
	free(s);
	doc = parse_str("{\"a\":{\"a\":{\"a\":[[{\"a\":1}]]}}}", err,
			sizeof(err), &ret);
	check(doc && json_get(json_get(json_get(doc, "a"), "a"), "a"),
	      "nested objects parse");
	json_free(doc);
}

/*
 * Numbers read by the fast path (15 significant digits, no exponent) are
 * the double strtod gives, bit for bit; so are those it leaves to strtod.
 * Random decimals of every length up to 17 digits and 22 after the point.
 */
static void test_number_fast(void)
{
	uint64_t x = 0x2545f4914f6cdd1dULL;
	char text[80];
	struct jval *v;
	int i, bad = 0, fast = 0;

	for (i = 0; i < 200000 && bad < 3; i++) {
		int ni, nf, k, n = 0;
		double want;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ni = (int)(x % 18);		/* digits before the point */
		nf = (int)((x >> 8) % 23);	/* and after it */
		if ((x >> 16) & 1)
			text[n++] = '-';
		if (!ni)
			text[n++] = '0';
		for (k = 0; k < ni + nf; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			if (k == ni && nf)
				text[n++] = '.';
			/* a leading zero only as "0" itself, as JSON asks */
			text[n++] = (char)('0' + (k == 0 && ni ? 1 + x % 9 :
						  x % 10));
		}
		text[n] = '\0';
		if (json_parse(text, (size_t)n, &v, NULL, 0)) {
			printf("# not parsed: %s\n", text);
			bad++;
			continue;
		}
		want = strtod(text, NULL);
		if (memcmp(&want, &v->num, sizeof(want))) {
			printf("# %s: %.17g, strtod %.17g\n", text, v->num, want);
			bad++;
		}
		fast += ni + nf <= 15;
		json_free(v);
	}
	check(!bad, "200000 random decimals read as strtod reads them, bit "
	      "for bit (%d of them by the fast path's rule)", fast);
}

int main(void)
{
	test_number_fast();
	test_round_trip();
	test_number_text();
	test_writer_errors();
	test_reader_escapes();
	test_malformed();
	test_truncated();
	test_nesting();
	return check_done();
}
