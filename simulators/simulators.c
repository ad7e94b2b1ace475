// SPDX-License-Identifier: GPL-2.0-or-later
/* The simulators' table, made from their list (simulators.h). */
#include <stddef.h>
#include "simulators/simulators.h"

#define SIM_ENTRY(name) &sim_##name,
const struct sim_desc *const simulators[] = {
	SIMULATORS(SIM_ENTRY)
	NULL
};
