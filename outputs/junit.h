/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outputs/junit.h - the JUnit XML file (--junit) that CI servers (Jenkins,
 * GitLab, ...) read: a testsuite per benchmarked task, a testcase per
 * cell with its figures (medians over its repeats, from the table of
 * figures) as properties, --fail-if breaches as failures, cells not
 * measured as errors or skipped.
 */
#ifndef INTERBENCH_JUNIT_H
#define INTERBENCH_JUNIT_H

#include "outputs/results.h"

/*
 * The whole file for the n results so far, into a new file renamed over
 * path: written after every cell and at the end, it is always whole and
 * says what the run has measured so far. 0 or -errno.
 *
 * Why whole every time and not added to in place like the JSON: a
 * testcase is a cell over its repeats and each suite and the document
 * carry counts, so a result changes what came before it; and the file's
 * size is bound by the matrix (a few kB a cell), not by the repeats or
 * the histograms.
 */
int junit_write(const char *path, const struct results_info *ri,
		const struct result *res, int n);

#endif
