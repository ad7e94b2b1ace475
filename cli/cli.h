/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli/cli.h - the command line, turned into a plan (plan/plan.h): the
 * option tables, their parsing, --help, --list and the completion.
 * cli/ neither prints (but --help and --list, when asked) nor exits: the
 * command does (cmd/run.c). What the run is made of, once parsed, is plan.h's.
 */
#ifndef INTERBENCH_CLI_H
#define INTERBENCH_CLI_H

#include <stdio.h>
#include "plan/plan.h"
#include "lib/opt.h"

/* interbench's own options, ending with a NULL name. */
extern const struct opt cli_opts[];

/*
 * argv -> plan. 0, or -EINVAL with a one-line message in err (without
 * "interbench: "). p->action says whether to run.
 */
int cli_parse(struct plan *p, int argc, char **argv, char *err, size_t n);

/*
 * The same for a subcommand that takes interbench's options and its own
 * (more; its OT_ACTION options set p->action to their min). cmd is how
 * errors name it: "ab ".
 */
int cli_parse_with(struct plan *p, int argc, char **argv,
		   const struct opt_table *more, const char *cmd, char *err,
		   size_t n);
/* One of interbench's own options by its name or letter, or NULL. */
const struct opt *cli_opt_named(const char *name, int letter);

void cli_usage(FILE *f);
/* The i-th named set of tasks and loads (-W modern), or NULL past them. */
const char *cli_set(int i);
void cli_list(FILE *f);
/* --completion bash: the bash completion script, from the tables. */
void completion_bash(FILE *f, const struct opt_cmd *cmds, int ncmds);

#endif
