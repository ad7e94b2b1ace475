/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * synth.h - deterministic made-up measurements for the unit tests: the
 * same seed always gives the same sim_result, on any machine.
 */
#ifndef INTERBENCH_SYNTH_H
#define INTERBENCH_SYNTH_H

#include <math.h>
#include <stdbool.h>
#include "core/raw.h"

static uint64_t synth_next(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 11;
}

/* A value around base_ns with a long tail: base * 2^(u^3 * spread). */
static uint64_t synth_lat(uint64_t *s, uint64_t base_ns, double spread)
{
	double u = (double)(synth_next(s) % 1000000) / 1e6;

	return (uint64_t)((double)base_ns * pow(2.0, u * u * u * spread)) +
	       synth_next(s) % 97;
}

/* Fill r as a simulator would, with n samples; k picks the shape. */
static void synth_fill(struct sim_result *r, uint64_t seed, int k,
		       bool deadlines, uint64_t n)
{
	uint64_t s = seed * 7919 + 17, i;

	r->frames = n + (uint64_t)k;
	r->frames_dropped = (uint64_t)k;
	r->frames_met = n - n / (7 + (uint64_t)k * 3);
	r->has_deadlines = deadlines;
	r->cpu_desired_ns = 1e6 * (double)n;
	r->cpu_got_ns = r->cpu_desired_ns * (1.0 - (double)k / 97.0);
	for (i = 0; i < n; i++) {
		uint64_t t = synth_lat(&s, 2000 + 500 * (uint64_t)k, 6);
		uint64_t w = synth_lat(&s, 9000, 8 + k);

		stats_add(&r->timer, t);
		if (i % 3)
			stats_add(&r->wakeup, w);
		stats_add(&r->latency, t + w);
		/* frames of a 60 Hz display, some late */
		if (i) {
			uint64_t ft = 16666667 + t + w;

			stats_add(&r->frame_time, ft);
			r->stutters += ft > 2 * 16666667;
		}
	}
}

#endif
