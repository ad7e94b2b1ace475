/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/noise.h - how a cell's run-to-run noise falls with its length,
 * from the repeats of a run: the advice after a run (output.c) on the
 * -t and -n that decide a change soonest. Pure (tests/unit-figures.c).
 */
#ifndef INTERBENCH_NOISE_H
#define INTERBENCH_NOISE_H

#include <stddef.h>
#include "core/figures.h"

/*
 * How the run-to-run noise of figure f of a cell falls with the cell's
 * length. Its log-SD over the repeats (total) is split in two: what
 * differs between runs, which a longer cell keeps, and what the cell's
 * own sampling adds (within), which a cell m times as long shrinks:
 * for a percentile, its order-statistic interval among the frames'
 * latencies; for the mean, the frames' SD over their root; for the max,
 * the spread of the worst of as many of the windows' worst latencies
 * (core/raw.h), drawn from those of every repeat. Frames are taken as
 * independent, so within is if anything too small and the advice errs
 * towards repeats rather than length.
 */
struct fig_noise {
	int k;			/* repeats measured */
	double total;		/* log-SD over the repeats; NaN below 2 */
	double within;		/* the sampling part, at this length */
	double between;		/* sqrt(total^2 - within^2), at least 0 */
	/* max: the windows' worst latencies of every repeat, sorted */
	double *wins;
	size_t nwins;
	double win_per_cell;	/* windows in one cell */
	enum fig_id f;
};

/* 0, or -ENOMEM; fig_noise_free() after. */
int fig_noise_of(const struct result *res, int n, const struct sim_desc *sim,
		 const struct load_desc *load, enum fig_id f,
		 struct fig_noise *nz);
/* The log-SD of f over runs of a cell m times as long (m >= 1). */
double fig_noise_at(const struct fig_noise *nz, double m);
void fig_noise_free(struct fig_noise *nz);

#endif
