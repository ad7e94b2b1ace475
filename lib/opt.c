// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/opt.c - options as data (opt.h): a value set as its row asks, the
 * command line parsed by a command's tables through getopt_long, and
 * the --help lines. interbench, each simulator, compare and report all
 * parse and describe their options here, so their errors and help read
 * alike and the completion and the docs test see every option.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/base.h"
#include "lib/opt.h"

/* getopt_long's value for a long-only option k of the tables */
#define LONG_BASE	1000
#define MAX_LONGOPTS	128

/* ---- values --------------------------------------------------------- */

/* An optional sign and digits, nothing else: 0, or -EINVAL and why. */
static int whole(const char *s, long long min, long long max,
		 long long *out, char *err, size_t n)
{
	const char *d = s + (*s == '-' || *s == '+');
	char *end;
	long long v;

	if (*d < '0' || *d > '9') {
		snprintf(err, n, "'%s' is not a whole number", s);
		return -EINVAL;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end) {
		snprintf(err, n, "'%s' is not a whole number", s);
		return -EINVAL;
	}
	if (errno == ERANGE || v < min || v > max) {
		snprintf(err, n, "%s is out of range (%lld to %lld)", s, min,
			 max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int decimal(const char *s, double min, double max, double *out,
		   char *err, size_t n)
{
	char *end;
	double v;

	/* Decimal only: strtod would take 0x10 as 16, and inf or nan */
	if (!*s || isspace((unsigned char)*s) ||
	    s[strspn(s, "0123456789.eE+-")]) {
		snprintf(err, n, "'%s' is not a number", s);
		return -EINVAL;
	}
	errno = 0;
	v = strtod(s, &end);
	if (*end || !isfinite(v)) {
		snprintf(err, n, "'%s' is not a number", s);
		return -EINVAL;
	}
	if (errno == ERANGE || v < min || v > max) {
		snprintf(err, n, "%s is out of range (%g to %g)", s, min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* A finite number in [min, max], or "'s' is not what". */
static int real(const char *s, double min, double max, const char *what,
		double *out, char *err, size_t n)
{
	char *end = NULL;
	double v = NAN;

	errno = 0;
	if (*s && !isspace((unsigned char)*s))
		v = strtod(s, &end);
	if (!end || *end || errno || !isfinite(v) || v < min || v > max) {
		snprintf(err, n, "'%s' is not %s", s, what);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static void join_names(const char *const *names, char *buf, size_t n)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; names[i]; i++)
		used += (size_t)snprintf(buf + used, used < n ? n - used : 0,
					 "%s%s", !i ? "" : names[i + 1] ?
					 ", " : " or ", names[i]);
}

int opt_set(const struct opt *o, void *base, const char *val, char *err,
	    size_t n)
{
	char *at = (char *)base + o->off;
	char names[160];
	long long v;
	double d;
	int i, e = 0;

	switch (o->type) {
	case OT_FLAG:
		*(bool *)at = true;
		break;
	case OT_INT:
	case OT_UINT:
	case OT_U64:
		e = whole(val, o->min, o->max, &v, err, n);
		if (e)
			break;
		if (o->type == OT_INT)
			*(int *)at = (int)v;
		else if (o->type == OT_UINT)
			*(unsigned *)at = (unsigned)v;
		else
			*(uint64_t *)at = (uint64_t)v *
					  (o->scale ? o->scale : 1);
		break;
	case OT_SECONDS:
		e = decimal(val, o->dmin, o->dmax, &d, err, n);
		if (!e)
			*(uint64_t *)at = (uint64_t)(d * NSEC_PER_SEC);
		break;
	case OT_DOUBLE:
		e = real(val, o->dmin, o->dmax, o->what, &d, err, n);
		if (!e)
			memcpy(at, &d, sizeof(d));
		break;
	case OT_PATH:
		if (!*val) {
			snprintf(err, n, "empty file name");
			e = -EINVAL;
		} else {
			*(const char **)at = val;
		}
		break;
	case OT_ENUM:
		for (i = 0; o->names[i]; i++)
			if (!strcasecmp(o->names[i], val)) {
				*(int *)at = i;
				break;
			}
		if (o->names[i])
			break;
		join_names(o->names, names, sizeof(names));
		snprintf(err, n, "'%s': expected %s", val, names);
		e = -EINVAL;
		break;
	case OT_CALL:
		e = o->parse(base, val, err, n);
		break;
	case OT_ACTION:
		break;
	}
	if (!e && o->seen)
		*(bool *)((char *)base + o->seen - 1) = true;
	return e;
}

/* ---- parsing -------------------------------------------------------- */

/* What a getopt_long value stands for: an option and its table. */
struct optref {
	const struct opt *o;
	int table;
};

struct optmap {
	struct option lo[MAX_LONGOPTS + 1];
	struct optref ref[MAX_LONGOPTS];
	int n;
	char shorts[128];
};

static void map_add(struct optmap *m, const struct opt *o, int table)
{
	int k = m->n;

	if (k >= MAX_LONGOPTS)
		return;
	m->ref[k].o = o;
	m->ref[k].table = table;
	m->lo[k].name = o->name;
	m->lo[k].has_arg = o->arg ? required_argument : no_argument;
	m->lo[k].flag = NULL;
	m->lo[k].val = o->letter ? o->letter : LONG_BASE + k;
	m->n++;
}

static void build_map(struct optmap *m, const struct opt_table *t, int nt)
{
	const struct opt *o;
	size_t used = 0;
	int i;

	memset(m, 0, sizeof(*m));
	/* ':' first: a missing value is told apart from an unknown option */
	m->shorts[used++] = ':';
	for (i = 0; i < nt; i++)
		for (o = t[i].opts; o && o->name; o++) {
			map_add(m, o, i);
			if (o->letter && used + 3 < sizeof(m->shorts)) {
				m->shorts[used++] = (char)o->letter;
				if (o->arg)
					m->shorts[used++] = ':';
			}
		}
}

/* ---- did you mean --------------------------------------------------- */

#define NEAR_LEN	48	/* longer words are not compared */

int opt_distance(const char *a, const char *b)
{
	int d[NEAR_LEN + 1][NEAR_LEN + 1];
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;

	if (la > NEAR_LEN || lb > NEAR_LEN)
		return NEAR_LEN;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			int v = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			/* two letters swapped is one edit */
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    cb == tolower((unsigned char)a[i - 2]) &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

void opt_near_init(struct opt_near *nr, const char *word)
{
	nr->word = word;
	nr->best = NULL;
	nr->dist = NEAR_LEN;
}

void opt_near_try(struct opt_near *nr, const char *name)
{
	int d = opt_distance(nr->word, name);

	if (d < nr->dist) {
		nr->dist = d;
		nr->best = name;
	}
}

/* A short word has few letters to spare: one edit up to 5, two to 10. */
const char *opt_near_best(const struct opt_near *nr)
{
	size_t len = strlen(nr->word);
	int most = len < 3 ? 0 : len <= 5 ? 1 : len <= 10 ? 2 : 3;

	return nr->best && nr->dist > 0 && nr->dist <= most ? nr->best : NULL;
}

static const struct optref *map_find(const struct optmap *m, int c)
{
	int k;

	if (c >= LONG_BASE && c < LONG_BASE + m->n)
		return &m->ref[c - LONG_BASE];
	for (k = 0; k < m->n; k++)
		if (m->ref[k].o->letter && m->ref[k].o->letter == c)
			return &m->ref[k];
	return NULL;
}

void opt_display(const struct opt *o, char *buf, size_t n)
{
	if (o->letter)
		snprintf(buf, n, "-%c", o->letter);
	else
		snprintf(buf, n, "--%s", o->name);
}

/*
 * The option getopt_long just refused, as the user wrote it: a long one
 * by its word (glibc sets optopt to its letter too), a short one by its
 * letter (it may sit in a cluster such as -cZ).
 */
static void refused(char **argv, bool need_value, char *buf, size_t n)
{
	const char *a = argv[optind - 1];

	if (!strncmp(a, "--", 2))
		snprintf(buf, n, "%.*s", need_value ? (int)strcspn(a, "=") :
			 (int)strlen(a), a);
	else if (optopt > ' ' && optopt < 127)
		snprintf(buf, n, "-%c", optopt);
	else
		snprintf(buf, n, "%s", a);
}

/* Set one option's value and tell the caller: 0, 1 to stop, -EINVAL. */
static int take(const struct opt_table *t, const struct optref *r,
		const char *val, opt_seen_fn seen, void *ctx, char *err,
		size_t n)
{
	char why[448] = "", name[64];

	if (r->o->type != OT_ACTION &&
	    opt_set(r->o, t[r->table].base, val, why, sizeof(why))) {
		opt_display(r->o, name, sizeof(name));
		snprintf(err, n, "option %s: %s", name,
			 why[0] ? why : "bad value");
		return -EINVAL;
	}
	return seen ? seen(ctx, r->table, r->o, val, err, n) : 0;
}

/* "unknown option --fial-if (did you mean --fail-if? see --help)" */
static void unknown(const struct optmap *m, const char *name,
		    const char *cmd, char *err, size_t n)
{
	char word[NEAR_LEN + 1];
	struct opt_near nr;
	const char *best;
	int k;

	if (strncmp(name, "--", 2)) {
		snprintf(err, n, "unknown option %s (see %s--help)", name, cmd);
		return;
	}
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(name + 2, "="),
		 name + 2);
	opt_near_init(&nr, word);
	for (k = 0; k < m->n; k++)
		opt_near_try(&nr, m->lo[k].name);
	best = opt_near_best(&nr);
	if (best)
		snprintf(err, n, "unknown option %s (did you mean --%s? see "
			 "%s--help)", name, best, cmd);
	else
		snprintf(err, n, "unknown option %s (see %s--help)", name, cmd);
}

int opt_parse(const struct opt_table *t, int nt, int argc, char **argv,
	      const char *cmd, opt_seen_fn seen, void *ctx, int *rest,
	      char *err, size_t n)
{
	struct optmap m;
	const struct optref *r;
	char name[256];
	int c, ret;

	build_map(&m, t, nt);
	opterr = 0;
	optind = 0;	/* a fresh scan, also when called again (tests) */
	while ((c = getopt_long(argc, argv, m.shorts, m.lo, NULL)) != -1) {
		if (c == ':') {
			refused(argv, true, name, sizeof(name));
			snprintf(err, n, "option %s needs a value", name);
			return -EINVAL;
		}
		r = c == '?' ? NULL : map_find(&m, c);
		if (!r) {
			refused(argv, false, name, sizeof(name));
			unknown(&m, name, cmd, err, n);
			return -EINVAL;
		}
		ret = take(t, r, optarg, seen, ctx, err, n);
		if (ret)
			return ret;
	}
	*rest = optind;
	return 0;
}

/* ---- help ----------------------------------------------------------- */

int opt_help_width(const struct opt *o, int width)
{
	for (; o && o->name; o++) {
		int l = (int)strlen(o->name) + 2 +
			(o->arg ? (int)strlen(o->arg) + 1 : 0);

		if (l > width)
			width = l;
	}
	return width;
}

void opt_help(FILE *f, const struct opt *o, int width)
{
	for (; o && o->name; o++) {
		char left[64];
		const char *h = o->help ? o->help : "";

		snprintf(left, sizeof(left), "--%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->letter)
			fprintf(f, "  -%c, %-*s ", o->letter, width, left);
		else
			fprintf(f, "      %-*s ", width, left);
		while (*h) {
			size_t l = strcspn(h, "\n");

			fprintf(f, "%.*s\n", (int)l, h);
			h += l;
			if (*h == '\n') {
				h++;
				fprintf(f, "%*s", width + 7, "");
			}
		}
	}
}

int opt_seen_action(void *ctx, int table, const struct opt *o,
		    const char *val, char *err, size_t n)
{
	(void)table;
	(void)val;
	(void)err;
	(void)n;
	if (o->type != OT_ACTION)
		return 0;
	*(bool *)ctx = true;
	return 1;
}
