// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/rf_blocks.c - a result file's settings, system, cgroup and
 * calibration blocks read key by key into their structs (resultfile.h),
 * from the lists in schema.h that the writer writes by: every reader
 * takes a field of rf->set, rf->sys, rf->cg or rf->cal, none looks a
 * key up itself, and a renamed key fails to compile on both sides.
 */
#include <math.h>
#include <string.h>
#include "core/resultfile.h"

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
