/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outputs/ktap.h - the run's result as KTAP version 1, the kernel's test
 * output (Documentation/dev-tools/ktap.rst), for kernel test runners
 * (--ktap): a test per cell of the matrix, a subtest per --fail-if gate,
 * the figures and marks as diagnostic lines, a cell not measured skipped
 * with why. compare and ab write their verdicts with the same lines
 * (lib/ktap.h). "-" is standard output (lib/system.h).
 */
#ifndef INTERBENCH_KTAP_H
#define INTERBENCH_KTAP_H

#include <stdbool.h>
#include <stdio.h>
#include "outputs/results.h"
#include "lib/ktap.h"

/*
 * The whole document for the n results so far into f: every cell of the
 * matrix, those with no result yet skipped ("not measured yet", or "the
 * run was stopped" once it ended early). 0, or -EIO when f failed.
 */
int ktap_print(FILE *f, const struct results_info *ri,
	       const struct result *res, int n);
/*
 * The same into a new file renamed over path (lib/safefile.h): written
 * after every cell and at the end, as JUnit's, so that it is always
 * whole. 0 or -errno.
 */
int ktap_write(const char *path, const struct results_info *ri,
	       const struct result *res, int n);

#endif
