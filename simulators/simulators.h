/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/simulators.h - the list of simulators, in the order the
 * matrix shows them: it declares each one's descriptor here and makes the
 * table (simulators.c). One file a simulator: see core/sim.h.
 *
 * simulators/ holds the simulators and the engines they run on
 * (engine.h: the periodic engine with its timing thread, the greedy one).
 */
#ifndef INTERBENCH_SIMULATORS_H
#define INTERBENCH_SIMULATORS_H

#include "core/sim.h"

/*
 * X(name) for simulators/name.c's const struct sim_desc sim_name, in the
 * matrix's order (and --list's).
 */
#define SIMULATORS(X)							\
	X(audio) X(video) X(x) X(gaming) X(server) X(custom) X(cyclic)	\
	X(audiograph) X(compositor) X(gameframe) X(rtapp)

#define SIM_DECLARE(name) extern const struct sim_desc sim_##name;
SIMULATORS(SIM_DECLARE)
#undef SIM_DECLARE

extern const struct sim_desc *const simulators[];	/* NULL-ended */

#endif
