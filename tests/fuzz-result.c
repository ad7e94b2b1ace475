// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/fuzz-result.c - libFuzzer target: any bytes as a result file,
 * through what compare and report do with one: read and checked
 * (rf_parse), compared with itself (cmp_pair_run, every metric), and
 * drawn (report's page, into memory). A crash, a hang or a sanitizer
 * report is a bug; a file refused with a message is the right answer.
 *
 *   make fuzz            builds tests/fuzz-result and runs it 10 minutes
 *   tests/fuzz-result tests/fuzz-corpus -max_total_time=20   (make check)
 *
 * The seeds in tests/fuzz-corpus/ are real result files (tests/golden).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "compare/verdict.h"
#include "core/resultfile.h"
#include "report/page.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct cmp_opts co = {
		.alpha = 0.05, .min_change = 5, .min_points = 1, .level = 0.95,
	};
	struct cmp_metric m[CMP_MAX_METRICS];
	struct result_file rf;
	struct rep_names nm;
	struct cmp_pair c;
	char err[512];
	char *text = malloc(size + 1);
	int nm_metrics;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* rf_parse owns text from here, whatever it answers */
	if (rf_parse(&rf, "fuzz", text, size, err, sizeof(err))) {
		rf_free(&rf);
		return 0;
	}
	nm_metrics = cmp_metrics(m, CMP_MAX_METRICS);
	if (!cmp_pair_run(&rf, &rf, &co, m, nm_metrics, &c))
		cmp_pair_free(&c);
	if (!rep_names(&rf, &nm) &&
	    (size_t)nm.ntasks * (size_t)nm.nloads <= REP_MAX_MAP) {
		struct report_opts o = { .out = NULL, .figure = -1 };
		struct page pg;

		page_begin(&pg, &o, "fuzz");
		rep_map(&pg, &rf, &nm, nm.tasks, nm.ntasks, NULL, -1, "fuzz",
			"fuzz");
		rep_task_plots(&pg, &rf, &nm);
		rep_sim_maps(&pg, &rf, &nm);
		sb_free(&pg.b);
	}
	rep_names_free(&nm);
	rf_free(&rf);
	return 0;
}
