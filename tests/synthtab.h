/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * synthtab.h - made-up result files with a known truth, for compare's
 * calibrations (tests/unit-verdict.c, tests/unit-sweep.c): a 52-cell
 * matrix whose runs are a run-to-run factor times 200 lognormal frames,
 * and the cases of a change (unit-verdict.c's opening comment says how
 * they are made). One generator, xorshift from a fixed seed, so that the
 * same calls give the same files on any machine.
 *
 * make_file() makes one side's file: b is the changed side (the case's
 * change applies to it alone). What the runs of one pass share (drift,
 * a new draw by tab_drift()) and the order effect (second[]) are added
 * to each run's own factor.
 */
#ifndef INTERBENCH_SYNTHTAB_H
#define INTERBENCH_SYNTHTAB_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/verdict.h"
#include "stats.h"

#define TASKS	4
#define LOADS	13
#define CELLS	(TASKS * LOADS)
#define FRAMES	200
#define MAXREP	10

static const char *const task_names[TASKS] = { "Audio", "Video", "X",
					       "Gaming" };
static char load_names[LOADS][8];

enum truth { AA, CELL25, ALL10, TAIL, MET, MEDIAN, TRADE, BETTER,
	     ST1_1, ST1_10, ST5_1, ST5_10, BURST, NCASES };
static const char *const case_names[NCASES] = { "aa", "cell25", "all10",
						"tail", "met", "median",
						"trade", "better",
						"st1%1ms", "st1%10ms",
						"st5%1ms", "st5%10ms",
						"burst" };
/* The stalls: the share of cell 5's frames they hit, and by how much. */
static const double stall_share[NCASES] = { [ST1_1] = 0.01, [ST1_10] = 0.01,
					    [ST5_1] = 0.05, [ST5_10] = 0.05 };
static const double stall_us[NCASES] = { [ST1_1] = 1000, [ST1_10] = 10000,
					 [ST5_1] = 1000, [ST5_10] = 10000 };

static uint64_t rng = 88172645463325252ULL;
/*
 * CELL25: how much slower cell 5's frames are (1.25; unit-sweep also
 * tries a smaller change).
 */
static double cell25_slow = 1.25;
/*
 * Cells unlike each other, as real ones are (Audio alone against Video
 * under Burn): each cell's run-to-run SD times 0.3 to 4.6, by cell, and
 * its frames' spread times 0.5 to 1.6, which a moderated t must not take
 * for one common variance.
 */
static bool hetero;
/* cells=N: the first N cells only (a table as small as an ab run's) */
static int ncells = CELLS;
/* what the runs of a pass share (log SD), per cell and pass (tab_drift) */
static double drift_sd;
static double drift[CELLS][MAXREP];
/* ab's order within a pair: the second run's log factor, if any */
static double second[2][CELLS][MAXREP];	/* side, cell, pass: its log */

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The latencies lat[0..FRAMES-1] (us, sorted) as a histogram into r. */
static void histogram(struct ok_repeat *r, const double *lat)
{
	int i;

	r->nhist = 0;
	for (i = 0; i < FRAMES; i++) {
		unsigned bk = stats_bucket((uint64_t)(lat[i] * 1000));

		if (r->nhist && stats_bucket((uint64_t)r->hist[r->nhist - 1].low)
		    == bk) {
			r->hist[r->nhist - 1].count++;
			continue;
		}
		r->hist[r->nhist].low = (double)stats_bucket_low(bk);
		r->hist[r->nhist].high = (double)stats_bucket_high(bk);
		r->hist[r->nhist++].count = 1;
	}
}

/* One run of one cell: its figures into r. */
static void run_cell(struct ok_repeat *r, int cell, enum truth t, bool b,
		     double sd)
{
	double lat[FRAMES], base = 200 + 50 * (cell % 7), run, z, sum = 0;
	double slow = 1, deadline = base * 6, stall = 0;
	double spread = hetero ? 0.55 * pow(10, (cell % 5) / 8.0 - 0.3) : 0.55;
	int i, late = 0, extra_late = 0;

	int burst = 15 + (int)(uniform() * 26);

	/* a stall meets each run a little differently: its share varies */
	if (b && cell == 5 && stall_share[t] > 0)
		stall = stall_share[t] * exp(0.4 * gauss() - 0.08);

	if (hetero)
		sd *= pow(10, (cell % 7) / 3.0 - 0.5);
	run = exp(sd * gauss() + drift[cell][r->repeat - 1] +
		  second[b][cell][r->repeat - 1]);
	if (b && ((t == CELL25 && cell == 5) || t == ALL10))
		slow = t == ALL10 ? 1.10 : cell25_slow;
	if (b && t == TRADE && cell == 5)
		slow = 0.8;
	if (b && t == BETTER && cell % LOADS >= 7)
		slow = 0.6;
	for (i = 0; i < FRAMES; i++) {
		z = gauss();
		lat[i] = base * run * slow * exp(spread * z);
		if (b && (t == TAIL || t == TRADE) && cell == 5 &&
		    uniform() < 0.02)
			lat[i] += 2000;
		if (b && t == MEDIAN && cell == 5)
			lat[i] += base / 4;
		if (stall > 0 && uniform() < stall)
			lat[i] += stall_us[t];
		if (b && t == MET && cell == 5 && uniform() < 0.03)
			extra_late++;
		/* a clustered burst: the host stalls one run of B, nothing
		 * else differs (15 to 40 of its frames 2 ms late) */
		if (b && t == BURST && cell == 5 && r->repeat == 1 &&
		    i < burst)
			lat[i] += 2000;
		sum += lat[i];
		late += lat[i] > deadline;
	}
	for (i = 0; i < F_COUNT; i++)
		r->v[i] = NAN;
	for (i = 0; i < WORK_KINDS; i++)
		r->work[i] = NAN;
	r->v[F_LAT_MEAN] = sum / FRAMES;
	qsort(lat, FRAMES, sizeof(lat[0]), cmp_d);
	r->v[F_LAT_P50] = lat[(int)ceil(0.50 * FRAMES) - 1];
	r->v[F_LAT_P90] = lat[(int)ceil(0.90 * FRAMES) - 1];
	r->v[F_LAT_P99] = lat[(int)ceil(0.99 * FRAMES) - 1];
	r->v[F_LAT_MAX] = lat[FRAMES - 1];
	r->v[F_DESIRED] = 100 - 0.2 * fabs(gauss());
	r->v[F_MET] = 100.0 * (FRAMES - late - extra_late) / FRAMES;
	r->v[F_FRAMES] = FRAMES;
	r->v[F_FRAMES_MET] = FRAMES - late - extra_late;
	/* Video's period is about 150 times its typical latency here */
	r->v[F_PERIOD] = 150 * base;
	histogram(r, lat);
	if (cell % LOADS == 3)
		r->work[WORK_BURN_LOOPS] = 1e9 * run * (1 + 0.01 * gauss());
}

struct made {
	struct result_file rf;
	struct file_cell cells[CELLS];
	struct ok_repeat rep[CELLS][MAXREP];
	struct rf_bucket hist[CELLS][MAXREP][FRAMES];
};

static void make_file(struct made *m, int repeats, enum truth t, bool b,
		      double sd)
{
	int c, k;

	memset(&m->rf, 0, sizeof(m->rf));
	m->rf.path = b ? "new" : "base";
	m->rf.version = "0.40";
	m->rf.cells = m->cells;
	m->rf.n_cells = (size_t)ncells;
	for (c = 0; c < ncells; c++) {
		struct file_cell *fc = &m->cells[c];

		memset(fc, 0, sizeof(*fc));
		fc->bench = task_names[c / LOADS];
		fc->load = load_names[c % LOADS];
		fc->ok = m->rep[c];
		fc->n_ok = (size_t)repeats;
	}
	/* A run measures every cell; runs differ from each other. */
	for (k = 0; k < repeats; k++)
		for (c = 0; c < ncells; c++) {
			m->rep[c][k].repeat = k + 1;
			m->rep[c][k].hist = m->hist[c][k];
			run_cell(&m->rep[c][k], c, t, b, sd);
		}
}

/* What drifts between passes: a new draw, for every run of the pass. */
static void tab_drift(void)
{
	int c, k;

	for (c = 0; c < CELLS; c++)
		for (k = 0; k < MAXREP; k++)
			drift[c][k] = drift_sd ? drift_sd * gauss() : 0;
}

/* The loads' names, L0 to L12: once, before any file is made. */
static void tab_init(void)
{
	int i;

	for (i = 0; i < LOADS; i++)
		snprintf(load_names[i], sizeof(load_names[i]), "L%d", i);
}

#endif
