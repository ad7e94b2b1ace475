// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * interbench - the Linux interactivity benchmark.
 *
 * main() and the table of subcommands, as git.c: each command is a file
 * of cmd/ (cmd/cmd.h), with its orchestration and its exit statuses; a
 * command line without one is a run (cmd/run.c). HACKING says more.
 */
#include <string.h>
#include "cli/ab.h"
#include "cli/sweep.h"
#include "cmd/cmd.h"
#include "compare/compare.h"
#include "compare/study.h"
#include "trend/trend.h"
#include "lib/opt.h"
#include "report/report.h"

/* interbench's subcommands, for main() and the shell's completion. */
static const struct opt_cmd subcommands[] = {
	{ "ab", ab_opts, ab_main },
	{ "compare", compare_opts, compare_main },
	{ "report", report_options, report_main },
	{ "trend", trend_opts, trend_main },
	{ "study", study_opts, study_main },
	{ "sweep", sweep_opts, sweep_main },
};
#define NSUBCOMMANDS	(int)(sizeof(subcommands) / sizeof(subcommands[0]))

int main(int argc, char **argv)
{
	int i;

	for (i = 0; argc > 1 && i < NSUBCOMMANDS; i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].main(argc - 1, argv + 1);
	return run_main(argc, argv, subcommands, NSUBCOMMANDS);
}
