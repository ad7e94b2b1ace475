/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/levels.h - the levels of replication a set of result files holds:
 * how many boots (system.boot_id) and invocations (system.invocation)
 * they were measured in. Files of one boot are not independent of each
 * other as files of two are: whatever a boot sets (memory layout, the
 * order devices came up, a clock's calibration) falls on them alike.
 * report and trend say it. Pure: no globals, no output.
 */
#ifndef INTERBENCH_LEVELS_H
#define INTERBENCH_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include "core/resultfile.h"

/* How many boots and invocations n files come from. */
struct rf_levels {
	int boots, invocations;		/* distinct, among files that say */
	int no_boot, no_invocation;	/* files that do not say (older) */
};

void rf_levels(const struct result_file *rf, int n, struct rf_levels *lv);

/* Does any file record its boot or invocation (older files: none)? */
static inline bool rf_levels_known(const struct rf_levels *lv)
{
	return lv->boots + lv->invocations > 0;
}

/*
 * "2 boots and 3 invocations", then "(1 file records neither)" or "(1
 * file records no boot, 2 no invocation)" where some do not say.
 */
void rf_levels_text(char *buf, size_t n, const struct rf_levels *lv);

#endif
