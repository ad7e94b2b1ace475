// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resultcheck - read a real `interbench --json` file (and its --csv) back
 * with the project's own JSON reader and check them field by field.
 *
 *	resultcheck RESULT.json [RESULT.csv]
 *
 * Prints TAP: one line per check group, with what was wrong.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/figures.h"
#include "lib/json.h"
#include "core/schema.h"

static const struct jval *get(const struct jval *o, const char *k,
			      enum jtype t)
{
	return json_get_type(o, k, t);
}

static int has_num_or_null(const struct jval *o, const char *k)
{
	const struct jval *v = json_get(o, k);

	return v && (v->type == J_NUM || v->type == J_NULL);
}

static double num(const struct jval *o, const char *k)
{
	const struct jval *v = get(o, k, J_NUM);

	return v ? v->num : NAN;
}

/*
 * The kernel's boot id, as this machine gives it now (the run was this
 * boot's), or null where the kernel has none.
 */
static int boot_ok(const struct jval *v)
{
	char id[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	if (f) {
		if (!fgets(id, sizeof(id), f))
			id[0] = '\0';
		fclose(f);
	}
	id[strcspn(id, "\n")] = '\0';
	if (!v)
		return 0;
	if (!id[0])
		return v->type == J_NULL;
	return v->type == J_STR && !strcmp(v->str, id);
}

/* The object a figure is in: its group, or the result itself. */
static const struct jval *holder(const struct jval *res,
				 const struct figure *f)
{
	return f->group ? get(res, f->group, J_OBJ) : res;
}

/* Every figure of the table is in the result, a number or null. */
static int figures_ok(const struct jval *res, char *why, size_t n)
{
	int i;

	for (i = 0; i < F_COUNT; i++) {
		const struct figure *f = &figures[i];

		if (!has_num_or_null(holder(res, f), f->key)) {
			snprintf(why, n, "%s%s%s missing", f->group ?
				 f->group : "", f->group ? "." : "", f->key);
			return 0;
		}
	}
	return 1;
}

/*
 * The latency distribution whose count is figure c: min <= p50 <= ... <=
 * max, the mean between min and max, the SD not negative.
 */
static int lat_ok(const struct jval *res, enum fig_id c, char *why,
		  size_t n)
{
	static const enum fig_id order[] = { F_LAT_MIN, F_LAT_P50, F_LAT_P90,
					     F_LAT_P99, F_LAT_P99_9,
					     F_LAT_MAX };
	const struct jval *l = holder(res, &figures[c]);
	double v[6], mean, sd;
	size_t i;

	if (num(l, figures[c].key) == 0)
		return 1;	/* no samples: nulls */
	for (i = 0; i < 6; i++)
		v[i] = num(l, figures[c + order[i] - F_LAT_COUNT].key);
	mean = num(l, figures[c + F_LAT_MEAN - F_LAT_COUNT].key);
	sd = num(l, figures[c + F_LAT_SD - F_LAT_COUNT].key);
	for (i = 1; i < 6; i++)
		if (!(v[i - 1] <= v[i]))
			break;
	if (i < 6 || !(v[0] <= mean && mean <= v[5]) || !(sd >= 0)) {
		snprintf(why, n, "%s out of order: min %g p50 %g p90 %g p99 %g "
			 "p99.9 %g max %g mean %g sd %g", figures[c].group,
			 v[0], v[1], v[2], v[3], v[4], v[5], mean, sd);
		return 0;
	}
	return 1;
}

/* The column of a CSV header named name, or -1. */
static int csv_column(const char *header, const char *name)
{
	size_t l = strlen(name);
	const char *p = header;
	int k = 0;

	while (p) {
		if (!strncmp(p, name, l) && (p[l] == ',' || !p[l]))
			return k;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
		k++;
	}
	return -1;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long sz;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (sz = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)sz + 1))) {
		*len = fread(buf, 1, (size_t)sz, f);
		buf[*len] = '\0';
	}
	fclose(f);
	return buf;
}

/* CSV field k (0-based) of line, unquoted simply (our fields have none). */
static double csv_field(const char *line, int k)
{
	const char *p = line;

	if (k < 0)
		return NAN;
	while (k-- > 0) {
		p = strchr(p, ',');
		if (!p)
			return NAN;
		p++;
	}
	if (*p == ',' || *p == '\n' || !*p)
		return NAN;
	return strtod(p, NULL);
}

int main(int argc, char **argv)
{
	const struct jval *sys, *set, *cal, *res;
	struct jval *doc = NULL;
	char err[256], why[256];
	size_t len, i;
	char *text;

	if (argc < 2) {
		fprintf(stderr, "usage: resultcheck RESULT.json [RESULT.csv]\n");
		return 2;
	}
	text = slurp(argv[1], &len);
	check(text != NULL, "%s can be read", argv[1]);
	if (!text)
		return check_done();
	check(!json_parse(text, len, &doc, err, sizeof(err)),
	      "%s parses: %s", argv[1], err);
	if (!doc)
		return check_done();

	check(get(doc, K_SCHEMA, J_STR) &&
	      !strcmp(get(doc, K_SCHEMA, J_STR)->str, SCHEMA_NAME),
	      "schema is " SCHEMA_NAME);
	check(get(doc, "interbench_version", J_STR) &&
	      get(doc, "command_line", J_STR) && get(doc, "started", J_STR) &&
	      json_get(doc, "finished") && json_get(doc, "interrupted"),
	      "version, command line, started, finished, interrupted");

	sys = get(doc, "system", J_OBJ);
	check(sys && get(sys, "sysname", J_STR) && get(sys, "release", J_STR) &&
	      get(sys, "version", J_STR) && get(sys, "machine", J_STR) &&
	      get(sys, "hostname", J_STR) && json_get(sys, "cpu_model") &&
	      num(sys, "cpus_online") >= 1 && json_get(sys, "smt") &&
	      json_get(sys, "governor") && json_get(sys, "preempt") &&
	      json_get(sys, "clocksource") && num(sys, "mem_total_kb") > 0 &&
	      has_num_or_null(sys, "swap_total_kb") &&
	      get(sys, "realtime_ok", J_BOOL),
	      "system has every field");
	check(boot_ok(json_get(sys, K_BOOT_ID)),
	      "system.boot_id is this boot's id: %s",
	      json_get_type(sys, K_BOOT_ID, J_STR) ?
	      json_get_type(sys, K_BOOT_ID, J_STR)->str : "not a string");
	check(json_get_type(sys, K_INVOCATION, J_STR) &&
	      strlen(json_get_type(sys, K_INVOCATION, J_STR)->str) >= 8,
	      "system.invocation is an id");

	set = get(doc, "settings", J_OBJ);
	check(set && num(set, "duration_s") > 0 && num(set, "repeats") >= 1 &&
	      has_num_or_null(set, "load_threads") &&
	      has_num_or_null(set, "bench_nice") &&
	      has_num_or_null(set, "load_nice") && get(set, "rt", J_BOOL) &&
	      get(set, "benches", J_ARR) && get(set, "loads", J_ARR),
	      "settings has duration, repeats, nice levels, rt, lists");

	cal = get(doc, "calibration", J_OBJ);
	check(cal && num(cal, "loops_per_ms") > 0 &&
	      has_num_or_null(cal, "error_pct"),
	      "calibration has loops_per_ms and error_pct");

	res = get(doc, "results", J_ARR);
	check(res && res->n > 0, "results has %zu cells", res ? res->n : 0);
	for (i = 0; res && i < res->n; i++) {
		const struct jval *c = &res->items[i], *h, *b, *st;
		double sum = 0, samples, met;
		size_t k;
		int ok = 1;

		st = get(c, "status", J_STR);
		if (!get(c, "bench", J_STR) || !get(c, "load", J_STR) ||
		    !(num(c, "repeat") >= 1) || !st) {
			check(0, "result %zu: bench, load, repeat, status", i);
			continue;
		}
		if (strcmp(st->str, "ok")) {
			check(1, "result %zu (%s/%s): not measured: %s", i,
			      get(c, "bench", J_STR)->str,
			      get(c, "load", J_STR)->str, st->str);
			continue;
		}
		why[0] = '\0';
		samples = num(c, figures[F_SAMPLES].key);
		ok = figures_ok(c, why, sizeof(why));
		if (ok && !(samples >= 0 &&
			    num(c, "frames") >= num(c, "frames_met") &&
			    num(c, "frames") >= num(c, "frames_dropped"))) {
			ok = 0;
			snprintf(why, sizeof(why), "frame counts");
		}
		if (ok && (!lat_ok(c, F_LAT_COUNT, why, sizeof(why)) ||
			   !lat_ok(c, F_TIMER_COUNT, why, sizeof(why)) ||
			   !lat_ok(c, F_WAKEUP_COUNT, why, sizeof(why))))
			ok = 0;
		met = num(c, "deadlines_met_pct");
		if (ok && (!has_num_or_null(c, "desired_cpu_pct") ||
			   !has_num_or_null(c, "deadlines_met_pct") ||
			   num(c, "desired_cpu_pct") > 100.0001 ||
			   met > 100.0001 || met < 0)) {
			ok = 0;
			snprintf(why, sizeof(why), "percentages");
		}
		h = get(c, "histogram", J_OBJ);
		b = h ? get(h, "buckets", J_ARR) : NULL;
		for (k = 0; ok && b && k < b->n; k++) {
			const struct jval *e = &b->items[k];

			if (e->type != J_ARR || e->n != 3 ||
			    e->items[0].num > e->items[1].num) {
				ok = 0;
				snprintf(why, sizeof(why), "bucket %zu", k);
			} else {
				sum += e->items[2].num;
			}
		}
		if (ok && (!b || sum != samples ||
			   sum != num(get(c, "latency_us", J_OBJ), "count"))) {
			ok = 0;
			snprintf(why, sizeof(why), "histogram holds %g of %g "
				 "samples", sum, samples);
		}
		if (ok && !get(c, "load_work", J_OBJ)) {
			ok = 0;
			snprintf(why, sizeof(why), "no load_work");
		}
		check(ok, "result %zu (%s/%s repeat %g): %s", i,
		      get(c, "bench", J_STR)->str, get(c, "load", J_STR)->str,
		      num(c, "repeat"), ok ? "every field sane" : why);
	}

	/* The CSV holds the same figures, row for row, column by name. */
	if (argc > 2 && res) {
		char *csv = slurp(argv[2], &len), *line, *save = NULL;
		char header[4096] = "", name[96];
		size_t row = 0, same = 0, cols = 0;
		int f;

		check(csv != NULL, "%s can be read", argv[2]);
		line = csv ? strtok_r(csv, "\n", &save) : NULL;
		if (line)
			snprintf(header, sizeof(header), "%s", line);
		for (f = 0; f < F_COUNT; f++)
			if (figures[f].flags & FIG_CSV) {
				figure_csv_name(&figures[f], name,
						sizeof(name));
				cols += csv_column(header, name) >= 0;
			}
		check(!strncmp(header, K_BENCH "," K_LOAD "," K_REPEAT ","
			       K_STATUS ",", 25) && cols > 20,
		      "CSV header has every figure's column (%zu)", cols);
		while (line && (line = strtok_r(NULL, "\n", &save))) {
			const struct jval *c = row < res->n ?
					       &res->items[row] : NULL;
			int ok = 1;

			row++;
			if (!c || !get(c, "latency_us", J_OBJ)) {
				same++;	/* not measured: nothing to match */
				continue;
			}
			for (f = 0; f < F_COUNT; f++) {
				const struct figure *fg = &figures[f];
				double want, got;

				if (!(fg->flags & FIG_CSV))
					continue;
				figure_csv_name(fg, name, sizeof(name));
				got = csv_field(line, csv_column(header, name));
				want = num(holder(c, fg), fg->key);
				if (isnan(want) != isnan(got) ||
				    fabs(got - want) > 1e-5 * fabs(want) + 1e-3)
					ok = 0;
			}
			same += ok;
		}
		check(row == res->n, "CSV has %zu rows for %zu results", row,
		      res->n);
		check(same == row, "CSV rows match the JSON, figure by figure "
		      "(%zu of %zu)", same, row);
		free(csv);
	}
	json_free(doc);
	free(text);
	return check_done();
}
