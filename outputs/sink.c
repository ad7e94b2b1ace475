// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/sink.c - outputs/' result files as sinks (sink.h): the JSON,
 * added to in place; the CSV, a row a result; the JUnit file and the
 * KCIDB report and the KTAP file, each written whole again after every
 * result (KTAP on standard output once, at the end).
 */
#include <errno.h>
#include <string.h>
#include "outputs/sink.h"
#include "outputs/junit.h"
#include "outputs/kcidb.h"
#include "outputs/ktap.h"
#include "lib/safefile.h"

static int json_begin(struct output_sink *s, const struct results_info *ri,
		      const struct result *res, int n)
{
	(void)res;
	(void)n;
	return results_json_begin(&s->json, s->path, ri);
}

static int json_add(struct output_sink *s, const struct results_info *ri,
		    const struct result *res, int n)
{
	(void)ri;
	return results_json_add(&s->json, &res[n - 1]);
}

static int json_end(struct output_sink *s, const struct results_info *ri,
		    const struct result *res, int n)
{
	return results_json_end(&s->json, ri, res, n);
}

const struct output_sink_ops output_sink_json = {
	.name = "--json",
	.begin = json_begin,
	.add = json_add,
	.end = json_end,
};

/* In place at once: the CSV grows row by row where it is. */
static int csv_open(struct output_sink *s)
{
	struct safe_file sf;
	int err;

	err = safe_file_begin(&sf, s->path);
	if (!err)
		err = safe_file_publish(&sf);
	if (err)
		return err;
	s->f = sf.f;
	results_csv_header(s->f);
	fflush(s->f);
	return 0;
}

static int csv_add(struct output_sink *s, const struct results_info *ri,
		   const struct result *res, int n)
{
	(void)ri;
	if (s->f)
		results_csv_row(s->f, &res[n - 1]);
	return 0;
}

/* fclose() fails with the first failed write's errno (safefile.h) */
static int csv_end(struct output_sink *s, const struct results_info *ri,
		   const struct result *res, int n)
{
	int err = 0;

	(void)ri;
	(void)res;
	(void)n;
	if (s->f && fclose(s->f))
		err = -errno;
	s->f = NULL;
	return err;
}

const struct output_sink_ops output_sink_csv = {
	.name = "--csv",
	.open = csv_open,
	.add = csv_add,
	.end = csv_end,
};

static int junit_whole(struct output_sink *s, const struct results_info *ri,
		       const struct result *res, int n)
{
	return junit_write(s->path, ri, res, n);
}

const struct output_sink_ops output_sink_junit = {
	.name = "--junit",
	.begin = junit_whole,
	.add = junit_whole,
	.end = junit_whole,
};

static int kcidb_whole(struct output_sink *s, const struct results_info *ri,
		       const struct result *res, int n)
{
	return kcidb_write(s->path, ri, res, n);
}

const struct output_sink_ops output_sink_kcidb = {
	.name = "--kcidb",
	.begin = kcidb_whole,
	.add = kcidb_whole,
	.end = kcidb_whole,
};

static bool ktap_std(const struct output_sink *s)
{
	return !strcmp(s->path, SAFE_STDOUT);
}

/* Standard output cannot be written over: it waits for the end. */
static int ktap_whole(struct output_sink *s, const struct results_info *ri,
		      const struct result *res, int n)
{
	return ktap_std(s) ? 0 : ktap_write(s->path, ri, res, n);
}

static int ktap_end(struct output_sink *s, const struct results_info *ri,
		    const struct result *res, int n)
{
	int err;

	if (!ktap_std(s))
		return ktap_write(s->path, ri, res, n);
	if (!s->f)
		return -EBADF;
	err = ktap_print(s->f, ri, res, n);
	/* fclose() fails with the first failed write's errno (safefile.h) */
	if (fclose(s->f) && !err)
		err = -errno;
	s->f = NULL;
	return err;
}

const struct output_sink_ops output_sink_ktap = {
	.name = "--ktap",
	.std = true,
	.begin = ktap_whole,
	.add = ktap_whole,
	.end = ktap_end,
};
