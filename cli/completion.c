// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/completion.c - `interbench --completion bash`: the bash completion
 * script, made from the option tables (cli_opts, each simulator's opts,
 * and each subcommand's, from main()'s table in interbench.c) and the
 * lists of simulators, loads and the figures compare tests, so that it
 * can never fall behind them.
 * `make` writes it to interbench.bash and `make install` installs it.
 */
#include <ctype.h>
#include <stdio.h>
#include "cli/cli.h"
#include "lib/base.h"
#include "lib/opt.h"
#include "core/figures.h"
#include "simulators/simulators.h"
#include "loads/loads.h"

/* The option tables of one command, NULL-ended. */
#define MAX_TABLES	(MAX_ITEMS + 2)

#define for_each_opt(o, t, i)						\
	for (i = 0; t[i]; i++)						\
		for (o = t[i]; o && o->name; o++)

static void lower(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(tolower((unsigned char)*s), f);
}

/* "-w|--load" as a case pattern. */
static void pattern(FILE *f, const struct opt *o)
{
	if (o->letter)
		fprintf(f, "-%c|", o->letter);
	fprintf(f, "--%s", o->name);
}

/* The case arms of options whose values complete alike. */
static void arm(FILE *f, const struct opt *const *t, const char *indent,
		enum opt_complete c, int type, const char *what)
{
	const struct opt *o;
	bool any = false;
	int i;

	for_each_opt(o, t, i) {
		if (o->complete != c || (type >= 0 && (int)o->type != type) ||
		    (c == OC_NONE && type < 0 && (!o->arg || o->names ||
						  o->type == OT_PATH)))
			continue;
		fputs(any ? "|" : indent, f);
		pattern(f, o);
		any = true;
	}
	if (any)
		fprintf(f, ")\n%s\t%s\n%s\treturn ;;\n", indent, what, indent);
}

/* case $prev: what follows each option that takes a value. */
static void value_arms(FILE *f, const struct opt *const *t,
		       const char *indent)
{
	char figs[256], cmd[320];
	const struct opt *o;
	int i, k;

	fprintf(f, "%scase $prev in\n", indent);
	arm(f, t, indent, OC_LOAD, -1,
	    "COMPREPLY=($(compgen -W \"$loads\" -- \"$cur\"))");
	arm(f, t, indent, OC_BENCH, -1,
	    "COMPREPLY=($(compgen -W \"$benches\" -- \"$cur\"))");
	figure_compare_names(" ", figs, sizeof(figs));
	snprintf(cmd, sizeof(cmd), "COMPREPLY=($(compgen -W '%s' -- \"$cur\"))",
		 figs);
	arm(f, t, indent, OC_FIGURE, -1, cmd);
	arm(f, t, indent, OC_DIR, -1, "compopt -o filenames 2>/dev/null;"
	    " COMPREPLY=($(compgen -d -- \"$cur\"))");
	arm(f, t, indent, OC_NONE, OT_PATH, "compopt -o filenames 2>/dev/null;"
	    " COMPREPLY=($(compgen -f -- \"$cur\"))");
	/* Options with a list of values: each its own arm. */
	for_each_opt(o, t, i) {
		if (!o->names)
			continue;
		fputs(indent, f);
		pattern(f, o);
		fprintf(f, ")\n%s\tCOMPREPLY=($(compgen -W '", indent);
		for (k = 0; o->names[k]; k++)
			fprintf(f, "%s%s", k ? " " : "", o->names[k]);
		fprintf(f, "' -- \"$cur\"))\n%s\treturn ;;\n", indent);
	}
	/* A number or a text: nothing to offer, but not an option either. */
	arm(f, t, indent, OC_NONE, -1, ":");
	fprintf(f, "%sesac\n", indent);
}

/* Every option of the tables, as compgen's word list. */
static void words(FILE *f, const struct opt *const *t)
{
	const struct opt *o;
	int i, k = 0;

	for_each_opt(o, t, i) {
		if (o->letter)
			fprintf(f, "%s-%c", k++ ? " " : "", o->letter);
		fprintf(f, "%s--%s", k++ ? " " : "", o->name);
	}
}

/* A subcommand: its options' values, its options, else result files. */
static void subcommand(FILE *f, const struct opt_cmd *c)
{
	const struct opt *t[2] = { c->opts, NULL };

	fprintf(f, "\tif [ \"${COMP_WORDS[1]}\" = %s ] && "
		"[ \"$COMP_CWORD\" -gt 1 ]; then\n", c->name);
	value_arms(f, t, "\t\t");
	fputs("\t\tcase $cur in\n\t\t-*) COMPREPLY=($(compgen -W '", f);
	words(f, t);
	fputs("' -- \"$cur\")) ;;\n"
	      "\t\t*) compopt -o filenames 2>/dev/null\n"
	      "\t\t\tCOMPREPLY=($(compgen -f -X '!*.json' -- \"$cur\") "
	      "$(compgen -d -- \"$cur\")) ;;\n"
	      "\t\tesac\n\t\treturn\n\tfi\n", f);
}

void completion_bash(FILE *f, const struct opt_cmd *cmds, int ncmds)
{
	const struct opt *t[MAX_TABLES];
	int i, n = 0;

	t[n++] = cli_opts;
	for (i = 0; simulators[i] && n < MAX_TABLES - 1; i++)
		if (simulators[i]->opts)
			t[n++] = simulators[i]->opts;
	t[n] = NULL;
	fprintf(f,
"# bash completion for interbench %s, made by `interbench --completion bash`\n"
"# from its option tables.\n"
"_interbench()\n"
"{\n"
"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=\n"
"\tlocal benches='", IB_VERSION);
	for (i = 0; simulators[i]; i++) {
		fputs(i ? " " : "", f);
		lower(f, simulators[i]->name);
	}
	for (i = 0; cli_set(i); i++)
		fprintf(f, " %s", cli_set(i));
	fputs("'\n\tlocal loads='", f);
	for (i = 0; loads[i]; i++) {
		fputs(i ? " " : "", f);
		lower(f, loads[i]->name);
	}
	for (i = 0; cli_set(i); i++)
		fprintf(f, " %s", cli_set(i));
	fputs("'\n\n\tCOMPREPLY=()\n"
	      "\t[ \"$COMP_CWORD\" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}\n",
	      f);
	for (i = 0; i < ncmds; i++)
		subcommand(f, &cmds[i]);
	value_arms(f, t, "\t");
	fputs("\tcase $cur in\n\t-*) COMPREPLY=($(compgen -W '", f);
	words(f, t);
	fputs("' -- \"$cur\")) ;;\n"
	      "\t*) [ \"$COMP_CWORD\" -eq 1 ] &&\n"
	      "\t\tCOMPREPLY=($(compgen -W '", f);
	for (i = 0; i < ncmds; i++)
		fprintf(f, "%s%s", i ? " " : "", cmds[i].name);
	fputs("' -- \"$cur\")) ;;\n"
	      "\tesac\n}\ncomplete -F _interbench interbench\n", f);
}
