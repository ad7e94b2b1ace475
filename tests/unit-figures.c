// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-figures - the table of figures is whole and consistent, figures
 * read from a sim_result of known values are those values, rows take the
 * median of the measured repeats, and gates parse and judge as documented.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/figures.h"
#include "core/gate.h"
#include "lib/base.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"
#include "core/noise.h"

static struct sim_result res;

/* The table itself: names, keys and columns unique, every row whole. */
static void table(void)
{
	char a[96], b[96];
	int i, j, bad = 0, dup = 0, csv = 0;

	for (i = 0; i < F_COUNT; i++) {
		const struct figure *f = &figures[i];

		bad += !f->key || !f->label || !f->get;
		bad += (f->flags & (FIG_GATE | FIG_VERBOSE)) && !f->name;
		bad += (f->flags & FIG_COMPARE) && f->better == FB_NONE;
		csv += !!(f->flags & FIG_CSV);
		for (j = 0; j < i; j++) {
			const struct figure *g = &figures[j];
			bool same_group = (!f->group && !g->group) ||
				(f->group && g->group &&
				 !strcmp(f->group, g->group));

			dup += same_group && !strcmp(f->key, g->key);
			figure_csv_name(f, a, sizeof(a));
			figure_csv_name(g, b, sizeof(b));
			dup += (f->flags & g->flags & FIG_CSV) && !strcmp(a, b);
			dup += f->name && g->name &&
			       (f->flags & g->flags & FIG_GATE) &&
			       !strcmp(f->name, g->name);
		}
	}
	check(F_COUNT == 64, "64 figures every result has (%d)", F_COUNT);
	check(!bad, "every figure has a key, a label, a getter, and a name "
	      "and a direction where its uses need them (%d missing)", bad);
	check(!dup, "JSON keys, CSV columns and gate names are unique (%d)",
	      dup);
	check(csv == 60, "60 of them are CSV columns (%d)", csv);
	figure_csv_name(&figures[F_WAKEUP_P99_9], a, sizeof(a));
	check(!strcmp(a, "wakeup_latency_p99_9_us"), "CSV name %s", a);
	figure_csv_name(&figures[F_DESIRED], a, sizeof(a));
	check(!strcmp(a, "desired_cpu_pct"), "CSV name %s", a);
	check(figure_named(&figures[F_LAT_P99_9], "p999", 4) &&
	      figure_named(&figures[F_LAT_P99_9], "P99.9", 5) &&
	      !figure_named(&figures[F_LAT_P99], "p99.9", 5),
	      "figures answer to their names and aliases only");
}

/* Latencies 1 ms .. 100 ms, one each; 90 of 100 frames met. */
static void known(void)
{
	struct sim_desc sim = { .name = "Test", .flags = SIM_DEADLINES };
	struct result r = { .sim = &sim };
	uint64_t i;

	memset(&res, 0, sizeof(res));
	stats_init(&res.latency);
	stats_init(&res.timer);
	stats_init(&res.wakeup);
	stats_init(&res.per_sec);
	for (i = 1; i <= 100; i++)
		stats_add(&res.latency, i * NSEC_PER_MSEC);
	res.frames = 100;
	res.frames_met = 90;
	res.has_deadlines = true;
	res.cpu_desired_ns = 4e9;
	res.cpu_got_ns = 3e9;
	check(!result_from_sim(&r, &res), "a result is read");
	check(r.v[F_SAMPLES] == 100 && r.v[F_LAT_COUNT] == 100,
	      "100 samples");
	check_near(r.v[F_LAT_MEAN], 50.5e6, 1e-3, "mean is 50.5 ms");
	check_near(r.v[F_LAT_SD], 29011491.975882, 1, "SD of 1..100 ms");
	check(r.v[F_LAT_MIN] == 1e6 && r.v[F_LAT_MAX] == 100e6,
	      "min 1 ms, max 100 ms, exact");
	check_near(r.v[F_LAT_P50], 50e6, 50e6 * 0.004, "p50 is 50 ms");
	check_near(r.v[F_LAT_P99], 99e6, 99e6 * 0.004, "p99 is 99 ms");
	check_near(r.v[F_DESIRED], 75, 1e-9, "75 %% of the CPU asked");
	check_near(r.v[F_MET], 90, 1e-9, "90 %% of deadlines met");
	check(r.v[F_TIMER_COUNT] == 0 && isnan(r.v[F_TIMER_MEAN]) &&
	      isnan(r.v[F_WAKEUP_P99]), "no samples: counts 0, figures NaN");
	check(r.nhist == 100 && !r.sim_v && !r.kept,
	      "100 buckets kept; no simulator figures");
	result_free(&r);
	res.has_deadlines = false;
	res.cpu_desired_ns = 0;
	check(!result_from_sim(&r, &res) && isnan(r.v[F_MET]) &&
	      isnan(r.v[F_DESIRED]), "no deadlines, no CPU asked: NaN");
	result_free(&r);
}

static void rows(void)
{
	static const struct sim_desc sim = { .name = "Test" };
	static const struct load_desc load = { .name = "L" }, other = {
		.name = "M" };
	struct result rs[5];
	struct row w;
	int i;

	memset(rs, 0, sizeof(rs));
	for (i = 0; i < 5; i++) {
		int k;

		rs[i].sim = &sim;
		rs[i].load = i == 4 ? &other : &load;
		rs[i].repeat = i + 1;
		for (k = 0; k < F_COUNT; k++)
			rs[i].v[k] = NAN;
	}
	rs[0].v[F_LAT_MEAN] = 1;
	rs[1].v[F_LAT_MEAN] = 10;
	rs[2].v[F_LAT_MEAN] = 2;
	rs[3].status = RES_TIMEOUT;
	rs[3].v[F_LAT_MEAN] = 1000;
	rs[4].v[F_LAT_MEAN] = 500;
	rs[0].v[F_MET] = 90;
	rs[2].v[F_MET] = 80;
	rs[0].work_rate[0] = 3;
	rs[1].work_rate[0] = 5;
	rs[2].work_rate[0] = 4;
	check(!make_row(&w, rs, 5, &sim, &load), "a row is made");
	check(w.n == 4 && w.ok == 3 && w.bad == &rs[3],
	      "4 repeats of the cell, 3 measured, the timeout named");
	check(w.v[F_LAT_MEAN] == 2, "median of 1, 10, 2 is 2 (%g)",
	      w.v[F_LAT_MEAN]);
	check(w.mean_lo == 1 && w.mean_hi == 10, "mean ranges 1 to 10");
	check(w.v[F_MET] == 85, "unknown figures are left out: 90, 80 -> 85");
	check(isnan(w.v[F_LAT_P99]), "no known value: NaN");
	check(w.work_rate[0] == 4, "work rates are medians too");
	check(!make_row(&w, rs, 3, &sim, &other) && w.n == 0 && w.ok == 0,
	      "results beyond n are not looked at");
}

static void gates(void)
{
	struct gate g;
	char err[256];

	check(!gate_parse(&g, "p99>20ms", err, sizeof(err)) &&
	      g.fig == F_LAT_P99 && g.op == '>' && g.value == 20e6,
	      "p99>20ms: p99 latency above 20e6 ns");
	check(!gate_parse(&g, " P999 >= 1.5us", err, sizeof(err)) &&
	      g.fig == F_LAT_P99_9 && g.op == 'g' && g.value == 1500,
	      "aliases, case and spaces: p999 >= 1500 ns");
	check(!gate_parse(&g, "deadlines<95", err, sizeof(err)) &&
	      g.fig == F_MET && g.op == '<' && g.value == 95,
	      "deadlines<95: a percentage");
	check(!gate_parse(&g, "desired<=99.5%", err, sizeof(err)) &&
	      g.fig == F_DESIRED && g.op == 'l' && g.value == 99.5,
	      "desired<=99.5%%");
	check(!gate_parse(&g, "latency>1s", err, sizeof(err)) &&
	      g.fig == F_LAT_MEAN && g.value == 1e9, "latency is the mean");
	check(gate_parse(&g, "p99>20", err, sizeof(err)) == -EINVAL &&
	      strstr(err, "a latency needs a unit"), "a latency needs a unit");
	check(gate_parse(&g, "cpu<5ms", err, sizeof(err)) == -EINVAL &&
	      strstr(err, "a percentage takes no unit"),
	      "a percentage takes no unit");
	check(gate_parse(&g, "min>1ms", err, sizeof(err)) == -EINVAL &&
	      strstr(err, "unknown metric"), "min is not a gate");
	check(gate_parse(&g, "p99=5ms", err, sizeof(err)) == -EINVAL &&
	      gate_parse(&g, "p99>-1ms", err, sizeof(err)) == -EINVAL,
	      "= and negative values are refused");
	gate_parse(&g, "p99>20ms", err, sizeof(err));
	check(gate_broken(&g, 20e6 + 1) && !gate_broken(&g, 20e6) &&
	      !gate_broken(&g, NAN), "> breaks above, not at, never on NaN");
	gate_parse(&g, "met<=95", err, sizeof(err));
	check(gate_broken(&g, 95) && !gate_broken(&g, 95.01), "<= breaks at");
	check(!gate_parse(&g, "p99>20ms@3", err, sizeof(err)) && g.k == 3 &&
	      g.fig == F_LAT_P99 && g.value == 20e6,
	      "p99>20ms@3: broken in 3 repeats or more");
	check(!gate_parse(&g, "p99>20ms", err, sizeof(err)) && g.k == 0,
	      "without @: on the median");
	check(gate_parse(&g, "p99>20ms@0", err, sizeof(err)) == -EINVAL &&
	      strstr(err, "@K wants K") &&
	      gate_parse(&g, "p99>20ms@x", err, sizeof(err)) == -EINVAL &&
	      gate_parse(&g, "p99>20ms@", err, sizeof(err)) == -EINVAL &&
	      gate_parse(&g, "p99>20ms@101", err, sizeof(err)) == -EINVAL,
	      "@K: K from 1 to 100, nothing else");
}

/* Gates judged over repeats, and percentiles of too few samples. */
static void gates_repeats(void)
{
	struct sim_desc sim = { .name = "Test" };
	struct load_desc load = { .name = "None" };
	struct result r[5];
	struct row w = { .sim = &sim, .load = &load, .ok = 5 };
	struct gate g;
	char err[256];
	int k, nb, need;

	memset(r, 0, sizeof(r));
	for (k = 0; k < 5; k++) {
		r[k].sim = &sim;
		r[k].load = &load;
		r[k].status = RES_OK;
		/* p99 of 10, 10, 30, 30, 30 ms */
		r[k].v[F_LAT_P99] = (k < 2 ? 10 : 30) * 1e6;
	}
	w.v[F_LAT_P99] = 30e6;
	w.v[F_LAT_COUNT] = 20;
	w.v[F_LAT_P50] = 1e6;
	gate_parse(&g, "p99>20ms@4", err, sizeof(err));
	k = gate_judge(&g, &w, r, 5, &nb);
	check(!k && nb == 3, "@4: 3 of 5 repeats past it is not broken (%d)",
	      nb);
	gate_parse(&g, "p99>20ms@3", err, sizeof(err));
	check(gate_judge(&g, &w, r, 5, &nb) && nb == 3, "@3: broken");
	gate_parse(&g, "p99>20ms", err, sizeof(err));
	check(gate_judge(&g, &w, r, 5, &nb), "no @: the median, 30 ms");
	check(gate_thin(&g, &w, &need) == 20 && need == 100,
	      "p99 of 20 samples is their maximum: it needs 100");
	gate_parse(&g, "p50>20ms", err, sizeof(err));
	check(!gate_thin(&g, &w, &need), "p50 of 20 samples means p50");
	gate_parse(&g, "mean>20ms", err, sizeof(err));
	check(!gate_thin(&g, &w, &need), "a mean is not a percentile");
	w.v[F_LAT_COUNT] = 100;
	gate_parse(&g, "p99>20ms", err, sizeof(err));
	check(!gate_thin(&g, &w, &need), "p99 of 100 samples means p99");
}

static uint64_t seed = 88172645463325252ULL;

static double gauss(void)
{
	double u[2];
	int i;

	for (i = 0; i < 2; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		u[i] = ((double)(seed >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

#define NOISE_RUNS	40
#define NOISE_FRAMES	400
#define NOISE_WINS	20

/*
 * Runs of one cell: NOISE_FRAMES lognormal latencies (log-SD 0.5) times
 * a run factor of log-SD between; windows of 20 frames keep their worst.
 */
static void noise_runs(struct result *r, const struct sim_desc *sim,
		       double between)
{
	int k, i;

	for (k = 0; k < NOISE_RUNS; k++) {
		double run = exp(between * gauss()), worst = 0;
		uint64_t win[NOISE_WINS] = { 0 };

		memset(&res, 0, sizeof(res));
		stats_init(&res.latency);
		stats_init(&res.timer);
		stats_init(&res.wakeup);
		stats_init(&res.per_sec);
		memset(&r[k], 0, sizeof(r[k]));
		r[k].sim = sim;
		r[k].repeat = k + 1;
		for (i = 0; i < NOISE_FRAMES; i++) {
			double v = 1e6 * run * exp(0.5 * gauss());

			stats_add(&res.latency, (uint64_t)v);
			worst = fmax(worst, v);
			if ((i + 1) % (NOISE_FRAMES / NOISE_WINS) == 0) {
				win[i / (NOISE_FRAMES / NOISE_WINS)] =
					(uint64_t)worst;
				worst = 0;
			}
		}
		result_from_sim(&r[k], &res);
		r[k].status = RES_OK;
		r[k].nwin = NOISE_WINS;
		memcpy(r[k].win, win, sizeof(win));
	}
}

/*
 * The noise of a figure split into between runs and within the cell,
 * on runs of a known truth: without a run factor it is all sampling;
 * with one of 0.3, that is what is left between runs; and a longer
 * cell's noise falls towards it.
 */
static void noise(void)
{
	static struct result r[NOISE_RUNS];
	struct sim_desc sim = { .name = "Test" };
	/* the median of 400 lognormal(0.5): SE 1.2533 x 0.5 / 20 */
	double se50 = 1.2533 * 0.5 / sqrt(NOISE_FRAMES);
	struct fig_noise nz;
	int k;

	noise_runs(r, &sim, 0);
	/* each call before its check reads nz: arguments have no order */
	k = fig_noise_of(r, NOISE_RUNS, &sim, NULL, F_LAT_P50, &nz);
	check(!k && nz.k == NOISE_RUNS, "p50's noise over 40 runs");
	check(nz.within > se50 * 0.7 && nz.within < se50 * 1.4 &&
	      nz.total > se50 * 0.7 && nz.total < se50 * 1.4,
	      "no run factor: p50's sampling part %.4f and total %.4f are "
	      "its SE, %.4f", nz.within, nz.total, se50);
	check(nz.between < 0.6 * nz.total, "... and little is left between "
	      "runs (%.4f)", nz.between);
	fig_noise_free(&nz);
	k = fig_noise_of(r, NOISE_RUNS, &sim, NULL, F_LAT_MAX, &nz);
	check(!k && nz.nwins == NOISE_RUNS * NOISE_WINS &&
	      nz.within > nz.total * 0.6 && nz.within < nz.total * 1.6,
	      "max from the windows: sampling part %.3f near the total %.3f",
	      nz.within, nz.total);
	/*
	 * How the max's noise goes on with length depends on the sample's
	 * top windows (a few far-out ones keep it up): only the split is
	 * asserted, that it adds back up to what was measured.
	 */
	check(fabs(fig_noise_at(&nz, 1) - nz.total) < 1e-9 * nz.total,
	      "... between runs and in the cell add back up to the total "
	      "(%.4f, %.4f)", fig_noise_at(&nz, 1), nz.total);
	fig_noise_free(&nz);
	for (k = 0; k < NOISE_RUNS; k++)
		result_free(&r[k]);

	noise_runs(r, &sim, 0.3);
	k = fig_noise_of(r, NOISE_RUNS, &sim, NULL, F_LAT_P50, &nz);
	check(!k && nz.between > 0.2 && nz.between < 0.42,
	      "a run factor of 0.3: %.3f between runs", nz.between);
	check(nz.within > se50 * 0.7 && nz.within < se50 * 1.4,
	      "... the same sampling part (%.4f)", nz.within);
	check(fig_noise_at(&nz, 8) < nz.total &&
	      fig_noise_at(&nz, 8) >= nz.between,
	      "8 times as long: %.4f, between %.4f and the total %.4f",
	      fig_noise_at(&nz, 8), nz.between, nz.total);
	fig_noise_free(&nz);
	k = fig_noise_of(r, NOISE_RUNS, &sim, NULL, F_LAT_MEAN, &nz);
	check(!k && nz.within > 0 && !isnan(nz.within),
	      "the mean's sampling part from the frames' SD (%.4f)",
	      nz.within);
	fig_noise_free(&nz);
	for (k = 0; k < NOISE_RUNS; k++)
		result_free(&r[k]);
	{
		/* what a user perceives decides: typical, tail, misses */
		static const enum fig_id want[] = { F_LAT_P50, F_LAT_P99,
			F_LAT_MAX, F_DESIRED, F_MET, F_FPS_LOW1 };
		int n = 0, ok = 0;
		size_t i;

		for (k = 0; k < F_COUNT; k++)
			n += fig_decides(&figures[k]);
		for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			ok += fig_decides(&figures[want[i]]);
		check(n == 6 && ok == 6 && !fig_decides(&figures[F_LAT_MEAN]) &&
		      !fig_decides(&figures[F_LAT_P90]) &&
		      !fig_decides(&figures[F_TIMER_P99]),
		      "decision figures: p50, p99, max latency, %% desired "
		      "CPU, %% deadlines met, 1 %% low FPS (%d, %d of 6)", n,
		      ok);
	}
}

int main(void)
{
	table();
	known();
	rows();
	gates();
	gates_repeats();
	noise();
	return check_done();
}
