// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * completion.c - `interbench --completion bash`: the bash completion
 * script, made from the option tables (cli_opts, each simulator's opts,
 * compare_opts) and the lists of simulators and loads, so that it can
 * never fall behind them. `make` writes it to interbench.bash and `make
 * install` installs it.
 */
#include <ctype.h>
#include <stdio.h>
#include "cli/cli.h"
#include "lib/base.h"
#include "lib/opt.h"
#include "simulators/simulators.h"
#include "loads/loads.h"
#include "compare/compare.h"

/* Every option of interbench and of its simulators, in table order. */
#define for_each_opt(o, i)						\
	for (i = -1; i < 0 || simulators[i]; i++)			\
		for (o = i < 0 ? cli_opts : simulators[i]->opts;	\
		     o && o->name; o++)

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
static void arm(FILE *f, enum opt_complete c, int type, const char *what)
{
	const struct opt *o;
	bool any = false;
	int i;

	for_each_opt(o, i) {
		if (o->complete != c || (type >= 0 && (int)o->type != type) ||
		    (c == OC_NONE && type < 0 && (!o->arg || o->names ||
						  o->type == OT_PATH)))
			continue;
		fputs(any ? "|" : "\t", f);
		pattern(f, o);
		any = true;
	}
	if (any)
		fprintf(f, ")\n\t\t%s\n\t\treturn ;;\n", what);
}

void completion_bash(FILE *f)
{
	const struct compare_opt *c;
	const struct opt *o;
	int i, k;

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
	fputs("'\n\tlocal loads='", f);
	for (i = 0; loads[i]; i++) {
		fputs(i ? " " : "", f);
		lower(f, loads[i]->name);
	}
	fputs("'\n\n\tCOMPREPLY=()\n"
	      "\t[ \"$COMP_CWORD\" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tif [ \"${COMP_WORDS[1]}\" = compare ] && [ \"$COMP_CWORD\" -gt 1 ]; then\n"
	      "\t\tcase $prev in\n", f);
	for (k = 0, c = compare_opts; c->name; c++)
		if (c->arg)
			fprintf(f, "%s--%s", k++ ? "|" : "\t\t", c->name);
	if (k)
		fputs(") return ;;\n", f);
	fputs("\t\tesac\n\t\tcase $cur in\n\t\t-*) COMPREPLY=($(compgen -W '", f);
	for (k = 0, c = compare_opts; c->name; c++)
		fprintf(f, "%s--%s", k++ ? " " : "", c->name);
	fputs("' -- \"$cur\")) ;;\n"
	      "\t\t*) compopt -o filenames 2>/dev/null\n"
	      "\t\t\tCOMPREPLY=($(compgen -f -X '!*.json' -- \"$cur\") "
	      "$(compgen -d -- \"$cur\")) ;;\n"
	      "\t\tesac\n\t\treturn\n\tfi\n\tcase $prev in\n", f);
	arm(f, OC_LOAD, -1,
	    "COMPREPLY=($(compgen -W \"$loads\" -- \"$cur\"))");
	arm(f, OC_BENCH, -1,
	    "COMPREPLY=($(compgen -W \"$benches\" -- \"$cur\"))");
	arm(f, OC_DIR, -1, "compopt -o filenames 2>/dev/null\n"
	    "\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))");
	arm(f, OC_NONE, OT_PATH, "compopt -o filenames 2>/dev/null\n"
	    "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))");
	/* Options with a list of values: each its own arm. */
	for_each_opt(o, i) {
		if (!o->names)
			continue;
		fputc('\t', f);
		pattern(f, o);
		fputs(")\n\t\tCOMPREPLY=($(compgen -W '", f);
		for (k = 0; o->names[k]; k++)
			fprintf(f, "%s%s", k ? " " : "", o->names[k]);
		fputs("' -- \"$cur\"))\n\t\treturn ;;\n", f);
	}
	/* A number or a text: nothing to offer, but not an option either. */
	arm(f, OC_NONE, -1, ":");
	fputs("\tesac\n\tcase $cur in\n\t-*) COMPREPLY=($(compgen -W '", f);
	k = 0;
	for_each_opt(o, i) {
		if (o->letter)
			fprintf(f, "%s-%c", k++ ? " " : "", o->letter);
		fprintf(f, "%s--%s", k++ ? " " : "", o->name);
	}
	fputs("' -- \"$cur\")) ;;\n"
	      "\t*) [ \"$COMP_CWORD\" -eq 1 ] &&\n"
	      "\t\tCOMPREPLY=($(compgen -W 'compare' -- \"$cur\")) ;;\n"
	      "\tesac\n}\ncomplete -F _interbench interbench\n", f);
}
