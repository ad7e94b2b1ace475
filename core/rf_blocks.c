// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/rf_blocks.c - a result file's settings, system, cgroup and
 * calibration blocks read key by key into their structs (resultfile.h),
 * from the lists in schema.h that the writer writes by: every reader
 * takes a field of rf->set, rf->sys, rf->cg or rf->cal, none looks a
 * key up itself, and a renamed key fails to compile on both sides; and
 * the "ab" object that pairs a file with another (ab's, a sweep's).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/resultfile.h"
#include "core/schema.h"

#define ROW(S, name, kind, flags) \
	{ #name, kind, flags, offsetof(struct S, name) },
#define SETTINGS_ROW(n, k, f)	ROW(rf_settings, n, k, f)
#define SYSTEM_ROW(n, k, f)	ROW(rf_system, n, k, f)
#define CGROUP_ROW(n, k, f)	ROW(rf_cgroup, n, k, f)
#define CALIBRATION_ROW(n, k, f) ROW(rf_calibration, n, k, f)

const struct rf_field rf_settings_fields[RFK_SETTINGS] = {
	RF_SETTINGS(SETTINGS_ROW)
};
const struct rf_field rf_system_fields[RFK_SYSTEM] = {
	RF_SYSTEM(SYSTEM_ROW)
};
const struct rf_field rf_cgroup_fields[RFK_CGROUP] = {
	RF_CGROUP(CGROUP_ROW)
};
const struct rf_field rf_calibration_fields[RFK_CALIBRATION] = {
	RF_CALIBRATION(CALIBRATION_ROW)
};

/*
 * Each key of fields[0..n-1] from the object o (NULL: none) into the
 * struct at base: a value of another type than listed reads as unknown,
 * as a null or a missing key does.
 */
static void read_block(const struct jval *o, const struct rf_field *fields,
		       int n, void *base)
{
	const struct jval *v;
	int i;

	for (i = 0; i < n; i++) {
		char *at = (char *)base + fields[i].off;
		const char *str;
		double num;
		signed char b;

		v = o ? json_get(o, fields[i].key) : NULL;
		/* by memcpy: the field's type is the list's, not char's */
		switch (fields[i].kind) {
		case RK_STR:
			str = v && v->type == J_STR ? v->str : NULL;
			memcpy(at, &str, sizeof(str));
			break;
		case RK_NUM:
			num = v && v->type == J_NUM ? v->num : NAN;
			memcpy(at, &num, sizeof(num));
			break;
		case RK_BOOL:
			b = v && v->type == J_BOOL ? (signed char)v->b : -1;
			memcpy(at, &b, sizeof(b));
			break;
		case RK_ANY:
			if (v && v->type == J_NULL)
				v = NULL;
			memcpy(at, &v, sizeof(v));
			break;
		}
	}
}

void rf_read_blocks(struct result_file *rf)
{
	const struct jval *sys = json_get_type(rf->doc, K_SYSTEM, J_OBJ);

	read_block(json_get_type(rf->doc, K_SETTINGS, J_OBJ),
		   rf_settings_fields, RFK_SETTINGS, &rf->set);
	read_block(sys, rf_system_fields, RFK_SYSTEM, &rf->sys);
	rf->cg.read = rf->sys.cgroup && rf->sys.cgroup->type == J_OBJ;
	read_block(rf->cg.read ? rf->sys.cgroup : NULL, rf_cgroup_fields,
		   RFK_CGROUP, &rf->cg);
	read_block(json_get_type(rf->doc, K_CALIBRATION, J_OBJ),
		   rf_calibration_fields, RFK_CALIBRATION, &rf->cal);
}

/*
 * The "ab" object of `interbench ab`, if any: it pairs this file with
 * another, so a malformed one is refused rather than ignored. 0 or
 * -EINVAL with what is wrong.
 */
int rf_read_ab(struct result_file *rf, char *what, size_t n)
{
	const struct jval *ab = json_get(rf->doc, K_AB), *id, *side, *looks;
	const struct jval *stop, *pairs, *why, *share;

	if (!ab || ab->type == J_NULL)
		return 0;
	/* none of them in what is not an object (json_get) */
	id = json_get_type(ab, K_AB_ID, J_STR);
	side = json_get_type(ab, K_AB_SIDE, J_STR);
	looks = json_get_type(ab, K_AB_LOOKS, J_NUM);
	if (!id || !*id->str || !side || (strcmp(side->str, "A") &&
					  strcmp(side->str, "B")) ||
	    !looks || !(looks->num >= 1 && looks->num <= 1000) ||
	    looks->num != (int)looks->num) {
		snprintf(what, n, "\"ab\" is not {\"id\": text, \"side\": "
			 "\"A\" or \"B\", \"looks\": 1 to 1000}");
		return -EINVAL;
	}
	rf->ab_id = id->str;
	rf->ab_side = side->str[0];
	rf->ab_looks = (int)looks->num;
	share = json_get_type(ab, K_AB_SHARE, J_NUM);	/* a sweep's K */
	rf->ab_share = share && share->num >= 1 && share->num <= 1000 ?
		       (int)share->num : 1;
	/* optional: files from before it, and runs of a fixed -n, lack it */
	stop = json_get_type(ab, K_AB_STOPPED, J_OBJ);
	pairs = stop ? json_get_type(stop, K_AB_PAIRS, J_NUM) : NULL;
	why = stop ? json_get_type(stop, K_AB_WHY, J_STR) : NULL;
	if (pairs && why && pairs->num >= 1 && pairs->num <= 100000) {
		rf->ab_stop_pairs = (int)pairs->num;
		rf->ab_stop_why = why->str;
	}
	return 0;
}
