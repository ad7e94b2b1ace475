/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outputs/kcidb.h - the run as a KernelCI KCIDB report (--kcidb), the
 * JSON that KernelCI's database takes from test farms, in its schema 5.3
 * (kcidb-io's latest): a checkout and a build for the running kernel
 * (origin "interbench", ids made from the run), and a test per cell and
 * figure, path interbench.TASK.LOAD.FIGURE, its median over the repeats
 * as the test's number, DONE or, where a --fail-if gate judged the
 * figure, PASS or FAIL; each repeat's value and the host's steal in its
 * misc. doc/farms.txt describes the file field by field.
 */
#ifndef INTERBENCH_KCIDB_H
#define INTERBENCH_KCIDB_H

#include <stddef.h>
#include "outputs/results.h"

/*
 * The whole report for the n results so far, into a new file renamed
 * over path: like the JUnit file, written after every cell and at the
 * end, always a whole document. 0 or -errno.
 */
int kcidb_write(const char *path, const struct results_info *ri,
		const struct result *res, int n);

/*
 * A figure's name in a test path: its CSV column without the unit
 * ("latency_p99", "frame_time_max", "desired_cpu_pct").
 */
void kcidb_figure_name(const struct figure *f, char *buf, size_t n);

#endif
