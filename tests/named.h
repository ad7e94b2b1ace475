/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * named.h - a simulator or a load by its name, for the tests that make
 * up a plan (unit-output, unit-schema, pagebench): abort() when there is
 * none, as a test's own typo should.
 */
#ifndef INTERBENCH_NAMED_H
#define INTERBENCH_NAMED_H

#include <stdlib.h>
#include <string.h>
#include "simulators/simulators.h"
#include "loads/loads.h"

static inline const struct sim_desc *sim_named(const char *n)
{
	int i;

	for (i = 0; simulators[i]; i++)
		if (!strcmp(simulators[i]->name, n))
			return simulators[i];
	abort();
}

static inline const struct load_desc *load_named(const char *n)
{
	int i;

	for (i = 0; loads[i]; i++)
		if (!strcmp(loads[i]->name, n))
			return loads[i];
	abort();
}

#endif
