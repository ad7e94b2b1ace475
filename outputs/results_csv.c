// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/results_csv.c - the CSV result file (--csv): a header from the
 * table of figures (figures.h), then a row a result as each cell ends,
 * its columns named as the JSON's keys (schema.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "outputs/results.h"
#include "core/schema.h"

void results_csv_header(FILE *f)
{
	char name[96];
	int i, k;

	fputs(K_BENCH "," K_LOAD "," K_REPEAT "," K_STATUS, f);
	for (i = 0; i < F_COUNT; i++) {
		if (!(figures[i].flags & FIG_CSV))
			continue;
		figure_csv_name(&figures[i], name, sizeof(name));
		fprintf(f, ",%s", name);
	}
	for (k = 0; k < WORK_KINDS; k++)
		fprintf(f, ",%s" K_PER_S_SUFFIX, work_units[k].key);
	fputc('\n', f);
}

/* A field quoted as RFC 4180 asks, when it needs to be. */
static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A number, or nothing when unknown; times in us. */
static void csv_value(FILE *f, const struct figure *fig, double v, bool ok)
{
	if (!ok || !isfinite(v))
		fputc(',', f);
	else if (fig && fig->unit == FU_COUNT)
		fprintf(f, ",%llu", (unsigned long long)v);
	else
		fprintf(f, ",%.6g", fig ? figure_out(fig, v) : v);
}

void results_csv_row(FILE *f, const struct result *r)
{
	bool ok = r->status == RES_OK;
	int i, k;

	csv_str(f, r->sim->name);
	fputc(',', f);
	csv_str(f, r->load->name);
	fprintf(f, ",%d,", r->repeat);
	csv_str(f, result_status_text(r));
	for (i = 0; i < F_COUNT; i++)
		if (figures[i].flags & FIG_CSV)
			csv_value(f, &figures[i], r->v[i], ok);
	for (k = 0; k < WORK_KINDS; k++)
		csv_value(f, NULL, r->work_rate[k], ok);
	fputc('\n', f);
	fflush(f);
}
