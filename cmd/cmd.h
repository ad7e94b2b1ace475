/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/cmd.h - interbench's commands, one file each in cmd/ (as git's
 * builtin/): what main() in interbench.c dispatches to. A command's file
 * holds its orchestration: the order of its steps, its messages and its
 * exit status; it is the only kind of file that exits. What the commands
 * do is below them, in the library's folders.
 */
#ifndef INTERBENCH_CMD_H
#define INTERBENCH_CMD_H

#include "lib/opt.h"

/*
 * A run (cmd/run.c), the command without a name: cmds are interbench's
 * subcommands, for --completion.
 */
int run_main(int argc, char **argv, const struct opt_cmd *cmds, int ncmds);
/* `interbench ab` (cmd/ab.c): two states of the machine, interleaved. */
int ab_main(int argc, char **argv);
/* `interbench compare` (cmd/compare.c): result files against BASE. */
int compare_main(int argc, char **argv);
/* `interbench report` (cmd/report.c): result files as an HTML page. */
int report_main(int argc, char **argv);
/* `interbench trend` (cmd/trend.c): where a series of runs changed. */
int trend_main(int argc, char **argv);
/* `interbench study` (cmd/study.c): the variance at each level, designs. */
int study_main(int argc, char **argv);
/* `interbench sweep` (cmd/sweep.c): a base and K candidate states. */
int sweep_main(int argc, char **argv);

#endif
