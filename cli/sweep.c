// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/sweep.c - `interbench sweep`'s command line and sweep file: its
 * states, each state's plan, the files it writes (see sweep.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include "cli/sweep.h"
#include "cli/ab.h"
#include "cli/cli.h"
#include "lib/base.h"

#define O(field)	offsetof(struct sweep_plan, field)

/*
 * The states are taken from argv once, on the first parse; the parses of
 * each state's plan that follow see the same options and skip them.
 */
static bool collecting;

/* Is name a state's name: a file name's part, not "sweep", not taken? */
static int check_name(const struct sweep_plan *sw, const char *name,
		      size_t len, char *err, size_t n)
{
	size_t i;
	int s;

	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i]))
			break;
	if (!len || len > SWEEP_NAME_MAX || i < len || name[0] == '.' ||
	    name[0] == '-') {
		snprintf(err, n, "'%.*s' is not a candidate's name: 1 to %d "
			 "letters, digits, '.', '_' or '-', not first '.' or "
			 "'-'", (int)(len > 64 ? 64 : len), name,
			 SWEEP_NAME_MAX);
		return -EINVAL;
	}
	for (s = 0; s < sw->n; s++)
		if (strlen(sw->st[s].name) == len &&
		    !strncmp(sw->st[s].name, name, len)) {
			snprintf(err, n, "'%s' is named twice%s", sw->st[s].name,
				 s ? "" : " (the base is \"base\")");
			return -EINVAL;
		}
	if (len == 5 && !strncmp(name, "sweep", 5)) {
		snprintf(err, n, "'sweep' is not a candidate's name: "
			 "PREFIX.sweep.json is the sweep's own file");
		return -EINVAL;
	}
	return 0;
}

static int add_state(struct sweep_plan *sw, const char *name, size_t len,
		     char *err, size_t n)
{
	struct sweep_state *st;

	if (check_name(sw, name, len, err, n))
		return -EINVAL;
	if (sw->n > SWEEP_MAX) {
		snprintf(err, n, "more than %d candidates: a sweep of more "
			 "shares alpha too thinly", SWEEP_MAX);
		return -EINVAL;
	}
	st = &sw->st[sw->n++];
	memcpy(st->name, name, len);
	st->name[len] = '\0';
	return 0;
}

static int set_candidate(void *base, const char *val, char *err, size_t n)
{
	if (!collecting)
		return 0;
	return add_state(base, val, strlen(val), err, n);
}

/* A state's field by its offset: the last candidate's, or the base's. */
static int set_field(struct sweep_plan *sw, bool base, size_t off,
		     const char *val, const char *what, char *err, size_t n)
{
	struct sweep_state *st = &sw->st[base ? 0 : sw->n - 1];

	if (!collecting)
		return 0;
	if (!base && sw->n < 2) {
		snprintf(err, n, "give --candidate NAME before its %s", what);
		return -EINVAL;
	}
	if (!*val) {
		snprintf(err, n, "empty %s", what);
		return -EINVAL;
	}
	if (*(const char **)((char *)st + off)) {
		snprintf(err, n, "%s's %s given twice", st->name, what);
		return -EINVAL;
	}
	*(const char **)((char *)st + off) = val;
	return 0;
}

#define SETTER(fn, base, field, what)					\
static int fn(void *sw, const char *val, char *err, size_t n)		\
{									\
	return set_field(sw, base, offsetof(struct sweep_state, field),	\
			 val, what, err, n);				\
}
SETTER(set_enter, false, enter, "command")
SETTER(set_leave, false, leave, "undo command")
SETTER(set_opts, false, opts, "options")
SETTER(set_needs, false, needs, "needs command")
SETTER(set_base_enter, true, enter, "command")
SETTER(set_base_leave, true, leave, "undo command")
SETTER(set_base_opts, true, opts, "options")

const struct opt sweep_opts[] = {
	{ .name = "candidate", .type = OT_CALL, .arg = "NAME",
	  .parse = set_candidate,
	  .help = "a candidate state; the --enter, --leave, --opts\n"
		  "and --needs after it are its own" },
	{ .name = "enter", .type = OT_CALL, .arg = "CMD", .parse = set_enter,
	  .help = "shell command that puts the machine in it" },
	{ .name = "leave", .type = OT_CALL, .arg = "CMD", .parse = set_leave,
	  .help = "shell command that takes it out again" },
	{ .name = "opts", .type = OT_CALL, .arg = "OPTIONS",
	  .parse = set_opts,
	  .help = "interbench options for its cells only (those a\n"
		  "side of ab may have, below)" },
	{ .name = "needs", .type = OT_CALL, .arg = "CMD", .parse = set_needs,
	  .help = "a command that must succeed for it to be tried:\n"
		  "else it is skipped and said so" },
	{ .name = "base-enter", .type = OT_CALL, .arg = "CMD",
	  .parse = set_base_enter,
	  .help = "shell command that puts the machine in the base\n"
		  "state (default: none, the machine as it is)" },
	{ .name = "base-leave", .type = OT_CALL, .arg = "CMD",
	  .parse = set_base_leave,
	  .help = "shell command that takes it out of the base" },
	{ .name = "base-opts", .type = OT_CALL, .arg = "OPTIONS",
	  .parse = set_base_opts,
	  .help = "interbench options for the base's cells only" },
	{ .name = "file", .type = OT_PATH, .arg = "FILE", .off = O(file),
	  .help = "the candidates (and the base) from a sweep file\n"
		  "(doc/sweep.txt; contrib/sweeps/desktop)" },
	{ .name = "output", .letter = 'o', .type = OT_PATH, .arg = "PREFIX",
	  .off = O(prefix),
	  .help = "write PREFIX.NAME.json per state and\n"
		  "PREFIX.sweep.json (default: sweep-RELEASE-\n"
		  "YYYYMMDD-HHMMSS)" },
	{ .name = "cmd-timeout", .type = OT_SECONDS, .arg = "SECONDS",
	  .off = O(cmd_timeout_ns), .dmin = 0.1, .dmax = 3600,
	  .help = "a command still running after SECONDS has failed\n"
		  "(default: 60)" },
	{ .name = "primary", .type = OT_PATH, .arg = "FIG",
	  .off = O(primary), .complete = OC_FIGURE,
	  .help = "judge every cell on FIG alone, as compare\n"
		  "--primary" },
	{ .name = "alpha", OPT_ALPHA, .arg = "P", .off = O(alpha),
	  .help = "false discovery rate of the whole sweep's marks,\n"
		  "shared by its candidates (default 0.05)" },
	{ .name = "plain", .type = OT_FLAG, .off = O(plain),
	  .help = "test each cell on its own spread (compare --plain)" },
	{ .name = "moderate", .type = OT_FLAG, .off = O(moderate),
	  .help = "moderated tests, as compare's (the default)" },
	{ .name = NULL },
};

/* ---- the sweep file ---------------------------------------------------- */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* The keys of a state's section, in sweep_state. */
static const struct {
	const char *key;
	size_t off;
} file_keys[] = {
	{ "enter", offsetof(struct sweep_state, enter) },
	{ "leave", offsetof(struct sweep_state, leave) },
	{ "opts", offsetof(struct sweep_state, opts) },
	{ "needs", offsetof(struct sweep_state, needs) },
	{ "why", offsetof(struct sweep_state, needs_why) },
};

/* "key = value" of section s: 0 or -EINVAL with what is wrong. */
static int file_key(struct sweep_plan *sw, int s, char *line, char *err,
		    size_t n)
{
	char *eq = strchr(line, '='), *key, *val;
	const char **at;
	size_t k;

	if (!eq) {
		snprintf(err, n, "'%.60s' is neither [NAME] nor KEY = VALUE",
			 line);
		return -EINVAL;
	}
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	for (k = 0; k < sizeof(file_keys) / sizeof(file_keys[0]); k++)
		if (!strcmp(key, file_keys[k].key))
			break;
	if (k == sizeof(file_keys) / sizeof(file_keys[0])) {
		snprintf(err, n, "'%.40s' is not a key (enter, leave, opts, "
			 "needs, why)", key);
		return -EINVAL;
	}
	if (s < 0) {
		snprintf(err, n, "'%s' before any [NAME]", key);
		return -EINVAL;
	}
	if (!*val) {
		snprintf(err, n, "%s has no value", key);
		return -EINVAL;
	}
	if (!s && file_keys[k].off >= offsetof(struct sweep_state, needs)) {
		snprintf(err, n, "the base has no \"%s\": it is always "
			 "measured", key);
		return -EINVAL;
	}
	at = (const char **)((char *)&sw->st[s] + file_keys[k].off);
	if (*at) {
		snprintf(err, n, "%s's %s given twice", sw->st[s].name, key);
		return -EINVAL;
	}
	*at = val;
	return 0;
}

int sweep_file_parse(struct sweep_plan *sw, const char *path, char *text,
		     char *err, size_t n)
{
	char *line = text, *next, why[256];
	int no = 0, s = -1;

	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		no++;
		line = trim(line);
		if (!*line || *line == '#')
			continue;
		why[0] = '\0';
		if (*line == '[') {
			char *end = strchr(line, ']');

			if (!end || end[1]) {
				snprintf(why, sizeof(why), "'%.60s' is not "
					 "[NAME]", line);
			} else if (end - line == 5 &&
				   !strncmp(line + 1, "base", 4)) {
				if (s >= 0)
					snprintf(why, sizeof(why), "[base] "
						 "comes before the candidates");
				s = 0;
			} else if (!add_state(sw, line + 1,
					      (size_t)(end - line - 1), why,
					      sizeof(why))) {
				s = sw->n - 1;
			}
		} else {
			file_key(sw, s, line, why, sizeof(why));
		}
		if (why[0]) {
			snprintf(err, n, "%s:%d: %s", path, no, why);
			return -EINVAL;
		}
	}
	return 0;
}

/* The file read whole (at most 64 KiB): 0 or -EINVAL, said. */
static int read_file(struct sweep_plan *sw, char *err, size_t n)
{
	FILE *f = fopen(sw->file, "r");
	size_t got;

	if (!f) {
		snprintf(err, n, "option --file: %s: %s", sw->file,
			 strerror(errno));
		return -EINVAL;
	}
	sw->file_text = malloc(65537);
	got = sw->file_text ? fread(sw->file_text, 1, 65537, f) : 0;
	if (!sw->file_text || ferror(f) || got > 65536 ||
	    memchr(sw->file_text, '\0', got)) {
		snprintf(err, n, "option --file: %s: %s", sw->file,
			 !sw->file_text ? "out of memory" : ferror(f) ?
			 strerror(errno) : got > 65536 ?
			 "larger than 64 KiB" : "not text (a NUL byte)");
		fclose(f);
		return -EINVAL;
	}
	fclose(f);
	sw->file_text[got] = '\0';
	return sweep_file_parse(sw, sw->file, sw->file_text, err, n);
}

/* ---- each state's plan -------------------------------------------------- */

/* What the sweep writes and decides itself, refused in its options. */
static int check_plan(const struct plan *p, char *err, size_t n)
{
	const char *bad = p->json_path ? "--json" : p->csv_path ? "--csv" :
			  p->ktap_path ? "--ktap" : NULL;

	if (bad) {
		snprintf(err, n, "option %s: a sweep writes a result file per "
			 "state, PREFIX.NAME.json, and PREFIX.sweep.json (-o "
			 "PREFIX)", bad);
		return -EINVAL;
	}
	bad = p->breaktrace_ns ? "--breaktrace" : p->nlate ? "--on-late" :
	      p->remeasure_on ? "--remeasure-if" : p->ngates ? "--fail-if" :
	      p->trace || p->trace_timer ? "--trace" : NULL;
	if (bad) {
		snprintf(err, n, "option %s is not for sweep: a state measured "
			 "again, stopped, gated or traced alone would break "
			 "its blocks (trace a candidate with ab)", bad);
		return -EINVAL;
	}
	if (p->repeats_given && !p->auto_repeats &&
	    p->repeats < AUTO_REPEATS_MIN) {
		snprintf(err, n, "option -n %d: a paired verdict needs %d "
			 "passes at least (-n %d or more, or -n auto, the "
			 "default)", p->repeats, AUTO_REPEATS_MIN,
			 AUTO_REPEATS_MIN);
		return -EINVAL;
	}
	return 0;
}

/* argv with state s's words after it, parsed into a fresh plan. */
static int parse_state(struct sweep_plan *sw, struct plan *p, int s,
		       int argc, char **argv, char *err, size_t n)
{
	struct opt_table more = { sweep_opts, sw };
	char what[64];
	int r;

	snprintf(what, sizeof(what), "%s's options", sw->st[s].name);
	r = ab_parse_words(p, argc, argv, sw->st[s].opts, &more, "sweep ",
			   what, err, n);
	if (!r && p->action == PLAN_RUN)
		r = check_plan(p, err, n);
	return r;
}

/* The file names: PREFIX.NAME.json, KCIDB's, the comparison pages. */
static int name_files(struct sweep_plan *sw, struct plan *const *p,
		      char *err, size_t n)
{
	size_t hl = sw->html ? strlen(sw->html) : 0;
	int s, r = 0;

	if (hl > 5 && !strcmp(sw->html + hl - 5, ".html"))
		hl -= 5;
	r |= snprintf(sw->doc, sizeof(sw->doc), "%s.sweep.json",
		      sw->prefix) >= (int)sizeof(sw->doc);
	for (s = 0; s < sw->n; s++) {
		struct sweep_state *st = &sw->st[s];
		const char *k = p[s]->kcidb_path;
		size_t kl = k ? strlen(k) : 0;
		char name[SWEEP_NAME_MAX + 1];

		/* a copy: the name and the paths are one object's */
		memcpy(name, st->name, sizeof(name));

		r |= snprintf(st->path, sizeof(st->path), "%s.%s.json",
			      sw->prefix, name) >= (int)sizeof(st->path);
		p[s]->json_path = st->path;
		if (k && kl > 5 && !strcmp(k + kl - 5, ".json"))
			kl -= 5;
		if (k)
			r |= snprintf(st->kcidb, sizeof(st->kcidb),
				      "%.*s.%s.json", (int)kl, k, name) >=
			     (int)sizeof(st->kcidb);
		p[s]->kcidb_path = k ? st->kcidb : NULL;
		if (s && sw->html)
			r |= snprintf(st->page, sizeof(st->page),
				      "%.*s.%s.html", (int)hl, sw->html,
				      name) >= (int)sizeof(st->page);
	}
	if (r)
		snprintf(err, n, "option -o, --html or --kcidb: a name is "
			 "too long");
	return r ? -EINVAL : 0;
}

int sweep_parse(struct sweep_plan *sw, struct plan *const *p, int argc,
		char **argv, char *err, size_t n)
{
	static char prefix[128];
	int s, r;

	memset(sw, 0, sizeof(*sw));
	strcpy(sw->st[0].name, "base");
	sw->n = 1;
	sw->cmd_timeout_ns = 60 * NSEC_PER_SEC;
	sw->alpha = 0.05;
	collecting = true;
	r = parse_state(sw, p[0], 0, argc, argv, err, n);
	collecting = false;
	if (r)
		return r;
	if (p[0]->action == PLAN_HELP)
		return 1;
	if (p[0]->action != PLAN_RUN) {
		snprintf(err, n, "sweep runs the matrix: --list, --version "
			 "and --completion are interbench's own");
		return -EINVAL;
	}
	if (sw->file && read_file(sw, err, n))
		return -EINVAL;
	if (sw->n < 2) {
		snprintf(err, n, "no candidates: give --candidate NAME (with "
			 "--enter, --leave, --opts) or --file FILE");
		return -EINVAL;
	}
	if (sw->plain && sw->moderate) {
		snprintf(err, n, "--plain and --moderate ask for opposite "
			 "tests: give one");
		return -EINVAL;
	}
	/* the base again with its words, then each candidate with its own */
	for (s = 0; s < sw->n; s++) {
		if (s || sw->st[0].opts) {
			if (!s)
				plan_free(p[0]);
			r = parse_state(sw, p[s], s, argc, argv, err, n);
			if (r)
				return r;
		}
		if (!p[s]->repeats_given) {
			p[s]->auto_repeats = true;
			p[s]->repeats = AUTO_REPEATS_MAX;
		}
		p[s]->cells = p[s]->repeats * p[s]->per_pass;
	}
	/* the page and the JUnit file are the sweep's */
	sw->junit = p[0]->junit_path;
	sw->html = p[0]->html_path;
	for (s = 0; s < sw->n; s++)
		p[s]->junit_path = p[s]->html_path = NULL;
	if (!sw->prefix) {
		struct utsname u;
		time_t now = time(NULL);
		char stamp[32];

		uname(&u);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S",
			 localtime(&now));
		snprintf(prefix, sizeof(prefix), "sweep-%s-%s", u.release,
			 stamp);
		sw->prefix = prefix;
	}
	if (name_files(sw, p, err, n))
		return -EINVAL;
	sw->looks = plan_nlooks(p[0]);
	ab_new_id(sw->id, sizeof(sw->id), &sw->seed);
	return 0;
}

/* The options a state may have (ab's sides') but tracing, wrapped. */
static void state_names(FILE *f)
{
	const struct opt *o;
	size_t col = 72, len;
	bool first = true;
	char name[40];

	fputs("\nA state may have of its own (--opts, opts =):", f);
	for (o = cli_opts; o->name; o++) {
		if (!ab_side_may(o) || !strcmp(o->name, "trace") ||
		    !strcmp(o->name, "trace-timer"))
			continue;
		if (o->letter)
			snprintf(name, sizeof(name), "-%c", o->letter);
		else
			snprintf(name, sizeof(name), "--%s", o->name);
		len = strlen(name);
		if (!first)
			fputc(',', f);
		first = false;
		if (col + len + 2 > 72) {
			fputs("\n ", f);
			col = 1;
		}
		fprintf(f, " %s", name);
		col += len + 2;
	}
	fputs(".\n", f);
}

void sweep_usage(FILE *f)
{

	fputs(
"Usage: interbench sweep [interbench options] [sweep options]\n"
"Measure the matrix in a base state and K candidate states of the\n"
"machine in one run: each cell of each pass is a block measured once in\n"
"every state still measured, in the order of a row of a Williams square\n"
"(each state as often in each place, after each other state), so that\n"
"order and drift cancel. Each candidate is judged against the base of\n"
"its blocks as ab judges B against A (paired), alpha shared over the K\n"
"candidates (Bonferroni: each at alpha/K; within one, compare's control\n"
"over its cells).\n"
"\n", f);
	opt_help(f, sweep_opts, opt_help_width(sweep_opts, 22));
	state_names(f);
	fputs(
"\n"
"Every other option is interbench's and common to all states; -n N\n"
"measures N passes, -n auto[:MAX] (the default, MAX 10) drops each\n"
"candidate once its verdict is decided and stops when none is left.\n"
"A sweep file has a [NAME] line per candidate (and [base] first, if it\n"
"has commands), then KEY = VALUE lines: enter, leave, opts, needs (a\n"
"command that must succeed, else the candidate is skipped) and why\n"
"(what a failed need means); # starts a comment. The commands run with\n"
"/bin/sh -c, IB_SWEEP_DIR naming a directory of the sweep's own for what\n"
"a command saves to undo. A candidate whose command fails or times out\n"
"is undone (its leave command), named and dropped; the sweep goes on.\n"
"Every sweep ends in the base state.\n"
"--html FILE draws the sweep's page (a forest plot of every candidate's\n"
"change per task, their verdicts) and each candidate's comparison page\n"
"beside it (FILE.NAME.html); --junit FILE a failure per candidate worse;\n"
"--kcidb FILE a KCIDB report per state (FILE.NAME.json).\n"
"Exit status, the first that applies: 2 bad command line; 3 cannot set\n"
"up or write a file; 6 the base's command failed; 128+N stopped by\n"
"signal N; 9 a candidate's command failed (the rest were judged); 1 a\n"
"candidate worse or mixed in a cell; 4 some cells were not measured; 8\n"
"no candidate could be judged; 0 otherwise.\n", f);
}
