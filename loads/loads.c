// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/loads.c - the table of background loads, made from their list
 * (loads.h): above every load file, whose shared helpers are common.c.
 */
#include <stddef.h>
#include "loads/loads.h"
#include "core/load.h"
#include "simulators/simulators.h"

#define LOAD_OWN(name) &load_##name,
#define LOAD_SIM(name) &sim_##name.as_load,
const struct load_desc *const loads[] = {
	LOADS(LOAD_OWN, LOAD_SIM)
	NULL
};
