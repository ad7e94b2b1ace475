// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-components - `interbench study`'s statistics on made-up nested data
 * with a known truth: the method of moments' components average to the
 * truth (balanced and unbalanced designs, and a level whose truth is 0,
 * whose estimates must come out below 0 as often as the estimator says,
 * not clamped); one boot gives no boot component; the cheapest design
 * meets the power and no design within the bounds that does is cheaper
 * (by brute force); the components file written and read back.
 * `unit-components load FILE` reads FILE with comp_load (t0220).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "compare/components.h"
#include "compare/nested.h"

#define MAXV	4096
#define DRAWS	2000

static uint64_t seed = 0x9e3779b97f4a7c15ULL;

static double unif(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return ((double)(seed >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

/* A layout: boots, invocations a boot, repeats each (unbalanced if asked). */
struct layout {
	int boots;
	int invs[64];
	int reps[1024];
	int n;
};

static void make_layout(struct layout *l, int boots, int inv, int rep,
			bool unbalanced)
{
	int b, i, k = 0;

	l->boots = boots;
	l->n = 0;
	for (b = 0; b < boots; b++) {
		/* unbalanced: 3 to 5 invocations, 2 to 8 repeats, fixed */
		l->invs[b] = unbalanced ? 3 + b % 3 : inv;
		for (i = 0; i < l->invs[b]; i++, k++) {
			l->reps[k] = unbalanced ? 2 + (k * 5) % 7 : rep;
			l->n += l->reps[k];
		}
	}
}

/* One draw of the layout's values from the truth (vb, vi, vr). */
static void draw(const struct layout *l, const double *truth, double *y)
{
	int b, i, j, k = 0, n = 0;

	for (b = 0; b < l->boots; b++) {
		double eb = sqrt(truth[CL_BOOT]) * gauss();

		for (i = 0; i < l->invs[b]; i++, k++) {
			double ei = sqrt(truth[CL_INVOCATION]) * gauss();

			for (j = 0; j < l->reps[k]; j++)
				y[n++] = 6.0 + eb + ei +
					 sqrt(truth[CL_REPEAT]) * gauss();
		}
	}
}

/* The estimates' means over DRAWS draws against the truth, within 10 %. */
static void known_truth(const char *name, int boots, int inv, int rep,
			bool unbalanced, const double *truth)
{
	static double y[MAXV];
	struct layout l;
	struct nested_data d = { y, l.invs, l.reps, 0 };
	struct nested_fit f;
	double sum[CL_LEVELS] = { 0 };
	int k, lv, neg = 0, bad = 0;

	make_layout(&l, boots, inv, rep, unbalanced);
	d.invs = l.invs;
	d.reps = l.reps;
	d.boots = l.boots;
	for (k = 0; k < DRAWS; k++) {
		draw(&l, truth, y);
		if (nested_fit(&d, &f)) {
			bad++;
			continue;
		}
		for (lv = 0; lv < CL_LEVELS; lv++)
			sum[lv] += f.var[lv];
		neg += f.var[CL_INVOCATION] < 0;
	}
	check(!bad, "%s: every draw fitted (%d not)", name, bad);
	for (lv = 0; lv < CL_LEVELS; lv++) {
		char what[128];
		double tol = truth[lv] > 0 ? 0.1 * truth[lv] : 1e-4;

		snprintf(what, sizeof(what), "%s: the %s component's mean",
			 name, cmp_level_names[lv]);
		check_near(sum[lv] / DRAWS, truth[lv], tol, what);
	}
	/* a zero truth: about half the estimates below 0, kept as they are */
	if (truth[CL_INVOCATION] == 0)
		check(neg > DRAWS / 4 && neg < 3 * DRAWS / 4,
		      "%s: %d of %d invocation estimates below 0, not clamped",
		      name, neg, DRAWS);
}

static void one_boot(void)
{
	static double y[MAXV];
	static const double truth[CL_LEVELS] = { 0.0004, 0.0009, 0.0025 };
	struct layout l;
	struct nested_data d;
	struct nested_fit f;
	int r;

	make_layout(&l, 1, 10, 5, false);
	d = (struct nested_data){ y, l.invs, l.reps, l.boots };
	draw(&l, truth, y);
	r = nested_fit(&d, &f);
	check(!r, "one boot, 10 x 5: fitted (%d)", r);
	check(isnan(f.var[CL_BOOT]) && f.df[CL_BOOT] == 0,
	      "one boot: no boot component (%g, df %g)", f.var[CL_BOOT],
	      f.df[CL_BOOT]);
	check(!isnan(f.var[CL_INVOCATION]) && f.df[CL_INVOCATION] == 9 &&
	      f.df[CL_REPEAT] == 40, "one boot: invocation df 9, repeat 40 "
	      "(%g, %g)", f.df[CL_INVOCATION], f.df[CL_REPEAT]);
	make_layout(&l, 1, 1, 5, false);
	d = (struct nested_data){ y, l.invs, l.reps, l.boots };
	r = nested_fit(&d, &f);
	check(!r && isnan(f.var[CL_INVOCATION]) && isnan(f.var[CL_BOOT]),
	      "one invocation: neither boot nor invocation measured");
	l.reps[0] = 0;
	check(nested_fit(&d, &f) == -EINVAL, "an empty invocation refused");
}

/* By brute force: nothing within the bounds meets the power for less. */
static void design_case(const char *name, const double *var,
			const struct design_cost *c, double delta)
{
	struct design_goal g = { delta, 0.05, 0.8, 12, 12, 30 };
	struct design d;
	int b, i, r, cheaper = 0, b0 = 1;
	int bmax = isnan(var[CL_BOOT]) ? 1 : g.max_b;

	design_cheapest(var, c, &g, &d);
	check(d.found, "%s: a design found (%d x %d x %d)", name, d.b, d.i,
	      d.r);
	check(d.found && design_power(var, d.b, d.i, d.r, delta, 0.05, NULL)
	      >= 0.8, "%s: its power %.3f >= 0.8", name, d.power);
	for (b = b0; b <= bmax; b++)
		for (i = 1; i <= g.max_i; i++)
			for (r = 1; r <= g.max_r; r++) {
				double p = design_power(var, b, i, r, delta,
							0.05, NULL);

				if (p >= 0.8 && design_cost_s(c, b, i, r) <
				    d.cost_s)
					cheaper++;
			}
	check(!cheaper, "%s: no design cheaper than %d x %d x %d (%.0f s) "
	      "meets it (%d do)", name, d.b, d.i, d.r, d.cost_s, cheaper);
}

static void designs(void)
{
	static const double kj[CL_LEVELS] = { 0.0004, 0.0009, 0.0025 };
	static const double noboot[CL_LEVELS] = { 0.0036, 0.0004, NAN };
	static const double inv[CL_LEVELS] = { 0.0004, 0.0016, NAN };
	struct design_cost cheap_boot = { 10, 5, 8 };
	struct design_cost dear_boot = { 600, 2, 8 };
	double p, df;

	design_case("three levels, a boot 10 s", kj, &cheap_boot, log(1.10));
	design_case("three levels, a boot 600 s", kj, &dear_boot, log(1.10));
	design_case("one boot, repeats noisy", noboot, &dear_boot, log(1.05));
	design_case("one boot, invocations noisy", inv, &dear_boot,
		    log(1.05));
	/* 5 % against a boot SD of 5 % needs 17 boots a side: past 12 */
	{
		struct design_goal g = { log(1.05), 0.05, 0.8, 12, 12, 30 };
		struct design d;

		design_cheapest(kj, &cheap_boot, &g, &d);
		check(!d.found, "none within 12 boots for 5 %% (%d x %d x %d)",
		      d.b, d.i, d.r);
		g.max_b = 30;
		design_cheapest(kj, &cheap_boot, &g, &d);
		check(d.found && d.b >= 17, "within 30: %d boots a side",
		      d.b);
	}
	/* no change: the test's power is its size */
	p = design_power(kj, 4, 3, 5, 0, 0.05, &df);
	check_near(p, 0.05, 1e-6, "no change: power = alpha");
	check(df == 6, "4 boots a side: 6 degrees of freedom (%g)", df);
	p = design_power(inv, 1, 1, 50, log(1.05), 0.05, &df);
	check(isnan(p), "one invocation a side in one boot: no test (%g)", p);
	/* more boots cannot lose power */
	check(design_power(kj, 8, 2, 2, log(1.05), 0.05, NULL) >
	      design_power(kj, 4, 2, 2, log(1.05), 0.05, NULL),
	      "8 boots a side find more than 4");
}

static void round_trip(void)
{
	struct comp_entry e[2] = {
		{ "Audio", "None", "p50 latency us",
		  { 0.000412, 0.00123456789, NAN }, { 40, 9, 0 } },
		{ "Video", "Burn", "% deadlines met",
		  { 1.5, 0, NAN }, { 40, 9, 0 } },
	};
	struct components c = { .e = e, .n = 2, .cap = 2 }, back;
	struct comp_study st = { 10, 1, 10 };
	const char *notes[2] = { NULL, "invocation -0.3 %, taken as 0" };
	char path[] = "/tmp/unit-components.XXXXXX", err[512];
	double df, v;
	int fd = mkstemp(path), r;

	snprintf(c.hostname, sizeof(c.hostname), "vm");
	snprintf(c.cpu_model, sizeof(c.cpu_model), "AMD EPYC");
	snprintf(c.measured, sizeof(c.measured), "2026-11-28T17:10:00Z");
	check(fd >= 0, "a temporary file");
	if (fd < 0)
		return;
	close(fd);
	r = comp_save(&c, &st, notes, path);
	check(!r, "comp_save: %d", r);
	r = comp_load(&back, path, err, sizeof(err));
	check(!r, "comp_load: %s", r ? err : "read");
	if (!r) {
		check(back.n == 2 && !strcmp(back.hostname, "vm") &&
		      !strcmp(back.cpu_model, "AMD EPYC") &&
		      !strcmp(back.measured, "2026-11-28T17:10:00Z"),
		      "round trip: 2 entries, the host, the CPU, when");
		v = comp_var(&back, "Audio", "None", "p50 latency us",
			     CL_INVOCATION, &df);
		check(v == 0.00123456789 && df == 9,
		      "round trip: a component exact (%.17g, df %g)", v, df);
		v = comp_var(&back, "Audio", "None", "p50 latency us",
			     CL_BOOT, &df);
		check(isnan(v) && df == 0, "round trip: not measured is NaN");
		v = comp_var(&back, "Video", "Burn", "% deadlines met",
			     CL_REPEAT, &df);
		check(v == 1.5, "round trip: points (%g)", v);
		v = comp_var(&back, "Video", "None", "p50 latency us",
			     CL_REPEAT, &df);
		check(isnan(v) && df == 0, "a cell not in it: NaN");
		comp_free(&back);
	}
	e[0].var[CL_INVOCATION] = -0.0001;
	check(comp_save(&c, &st, NULL, path) == -EINVAL,
	      "a negative component is not saved");
	/* a file not a components file: refused with its name */
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd >= 0) {
		static const char bad[] = "{\"schema\": \"interbench-result/1\"}";

		check(write(fd, bad, sizeof(bad) - 1) > 0, "written");
		close(fd);
		r = comp_load(&back, path, err, sizeof(err));
		check(r == -EINVAL && strstr(err, path) &&
		      strstr(err, "not a components file"),
		      "a result file refused: %s", err);
	}
	unlink(path);
}

/* `unit-components load FILE`: comp_load's verdict on a file (t0220). */
static int load_only(const char *path)
{
	struct components c;
	char err[512];
	size_t i;

	if (comp_load(&c, path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	printf("%zu entries from %s on %s\n", c.n, c.measured, c.hostname);
	for (i = 0; i < c.n; i++)
		printf("%s/%s %s: boot %g invocation %g repeat %g\n",
		       c.e[i].bench, c.e[i].load, c.e[i].metric,
		       c.e[i].var[CL_BOOT], c.e[i].var[CL_INVOCATION],
		       c.e[i].var[CL_REPEAT]);
	comp_free(&c);
	return 0;
}

int main(int argc, char **argv)
{
	static const double kj[CL_LEVELS] = { 0.0004, 0.0009, 0.0025 };
	static const double zero_inv[CL_LEVELS] = { 0.0004, 0, 0.0025 };

	if (argc == 3 && !strcmp(argv[1], "load"))
		return load_only(argv[2]);

	known_truth("5 x 4 x 5", 5, 4, 5, false, kj);
	known_truth("unbalanced, 6 boots", 6, 0, 0, true, kj);
	known_truth("no invocation effect", 5, 4, 5, false, zero_inv);
	one_boot();
	designs();
	round_trip();
	return check_done();
}
