/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/simulators.h - the table of simulators (simulators.c), in the
 * order the matrix shows them. One file a simulator: see core/sim.h.
 *
 * simulators/ holds the simulators and the engines they run on
 * (engine.h: the periodic engine with its timing thread, the greedy one).
 */
#ifndef INTERBENCH_SIMULATORS_H
#define INTERBENCH_SIMULATORS_H

#include "core/sim.h"

extern const struct sim_desc *const simulators[];	/* NULL-ended */

#endif
