// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/levels.c - the boots and invocations of a set of result files
 * (see levels.h).
 */
#include <stdio.h>
#include <string.h>
#include "core/levels.h"

/* The boot's id, or the invocation's: NULL where the file has none. */
static const char *level_id(const struct result_file *f, int boot)
{
	return boot ? f->boot_id : f->invocation;
}

/*
 * How many distinct ids the files hold at one level, and how many files
 * hold none. Quadratic in the files: a series is tens or hundreds.
 */
static int distinct(const struct result_file *rf, int n, int boot,
		    int *none)
{
	int i, j, count = 0;

	*none = 0;
	for (i = 0; i < n; i++) {
		const char *id = level_id(&rf[i], boot);

		if (!id) {
			(*none)++;
			continue;
		}
		for (j = 0; j < i; j++)
			if (level_id(&rf[j], boot) &&
			    !strcmp(level_id(&rf[j], boot), id))
				break;
		count += j == i;
	}
	return count;
}

void rf_levels(const struct result_file *rf, int n, struct rf_levels *lv)
{
	lv->boots = distinct(rf, n, 1, &lv->no_boot);
	lv->invocations = distinct(rf, n, 0, &lv->no_invocation);
}

void rf_levels_text(char *buf, size_t n, const struct rf_levels *lv)
{
	int k = snprintf(buf, n, "%d boot%s and %d invocation%s", lv->boots,
			 lv->boots == 1 ? "" : "s", lv->invocations,
			 lv->invocations == 1 ? "" : "s");

	if (k < 0 || (size_t)k >= n || (!lv->no_boot && !lv->no_invocation))
		return;
	if (lv->no_boot == lv->no_invocation)
		snprintf(buf + k, n - (size_t)k, " (%d file%s record%s "
			 "neither)", lv->no_boot, lv->no_boot == 1 ? "" : "s",
			 lv->no_boot == 1 ? "s" : "");
	else
		snprintf(buf + k, n - (size_t)k, " (%d file%s record%s no "
			 "boot, %d no invocation)", lv->no_boot,
			 lv->no_boot == 1 ? "" : "s",
			 lv->no_boot == 1 ? "s" : "", lv->no_invocation);
}
