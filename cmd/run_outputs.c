// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/run_outputs.c - a run's outputs: each result handed to every one
 * as it comes in (the table, CSV, JSON, JUnit, KCIDB, the page), and all
 * of them written whole at the end, an output that cannot be making the
 * exit status 3.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd/run.h"
#include "core/load.h"
#include "lib/base.h"
#include "loads/loads.h"
#include "outputs/junit.h"
#include "outputs/kcidb.h"
#include "outputs/output.h"
#include "outputs/results.h"
#include "report/report.h"

/* ---- outputs -------------------------------------------------------- */

void json_failed(struct run *r, int err)
{
	if (!err || r->json_warned)
		return;
	fprintf(stderr, "interbench: cannot write %s: %s\n",
		r->plan.json_path, strerror(-err));
	r->json_warned = true;
}

/* The JUnit file, whole again: 0 or -errno (said once). */
int junit_out(struct run *r)
{
	int err;

	if (!r->plan.junit_path)
		return 0;
	err = junit_write(r->plan.junit_path, &r->info, r->res, r->nres);
	if (err && !r->junit_warned) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->plan.junit_path, strerror(-err));
		r->junit_warned = true;
	}
	return err;
}

/* The KCIDB report, whole again: 0 or -errno (said once). */
int kcidb_out(struct run *r)
{
	int err;

	if (!r->plan.kcidb_path)
		return 0;
	err = kcidb_write(r->plan.kcidb_path, &r->info, r->res, r->nres);
	if (err && !r->kcidb_warned) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->plan.kcidb_path, strerror(-err));
		r->kcidb_warned = true;
	}
	return err;
}

/* The page, drawn anew from every result so far: 0 or -errno (said
 * once). */
static int html_out(struct run *r)
{
	int err;

	if (!r->plan.html_path)
		return 0;
	err = report_run_html(r->plan.html_path, &r->info, r->res, r->nres);
	if (err && !r->html_warned) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->plan.html_path, strerror(-err));
		r->html_warned = true;
	}
	return err;
}

/* The run has ended (or was stopped): the JSON whole, files closed. */
int close_outputs(struct run *r)
{
	int ret = 0;

	iso_now(r->info.finished, sizeof(r->info.finished));
	/*
	 * An output that could not be written whole at the end: said (once)
	 * and exit 3. What was valid before is left so (doc/files.txt).
	 */
	if (r->plan.json_path) {
		int err = json_out_end(&r->json, &r->info, r->res, r->nres);

		json_failed(r, err);
		if (err)
			ret = IB_EXIT_SETUP;
	}
	if (junit_out(r))
		ret = IB_EXIT_SETUP;
	if (kcidb_out(r))
		ret = IB_EXIT_SETUP;
	if (html_out(r))
		ret = IB_EXIT_SETUP;
	/* fclose() fails with the first failed write's errno (safefile.h) */
	if (r->con.log && fclose(r->con.log)) {
		fprintf(stderr, "interbench: cannot write the logfile %s: %s\n",
			r->log_name, strerror(errno));
		ret = IB_EXIT_SETUP;
	}
	r->con.log = NULL;
	if (r->csv && fclose(r->csv)) {
		fprintf(stderr, "interbench: cannot write %s: %s\n",
			r->plan.csv_path, strerror(errno));
		ret = IB_EXIT_SETUP;
	}
	r->csv = NULL;
	return ret;
}

/* A result is in: every output hears of it. */
void result_done(struct run *r)
{
	const struct result *res = &r->res[r->nres - 1];

	if (res->status != RES_OK)
		r->nbad++;
	if (r->plan.repeats == 1)
		print_result(&r->con, r->res, r->nres);
	print_remeasured(&r->con, res);
	print_why(&r->con, res);
	/* The run's cgroup went away (or its files) mid-run: said once. */
	if (res->status == RES_OK && r->sys.cg.at[CG_CPU].version &&
	    isnan(res->v[F_INTF_THROTTLED]) && !r->cg_warned) {
		r->cg_warned = true;
		out(&r->con, "Note: the cgroup's counters (%s) could not be "
		    "read from %s/%s on (was it removed?): its throttling is "
		    "unknown (null) there\n", r->sys.cg.at[CG_CPU].path,
		    res->sim->name, res->load->name);
	}
	if (r->csv)
		csv_row(r->csv, res);
	if (r->plan.json_path)
		json_failed(r, json_out_add(&r->json, res));
	junit_out(r);
	kcidb_out(r);
	html_out(r);
}

/*
 * The last lines of every run, once its files are whole: where the log
 * went, and the Read load's file if it was left for the next run.
 */
void say_files(const struct run *r)
{
	const struct plan *p = &r->plan;
	const char *path = p->cfg.read_file;
	struct stat st;
	double gib;
	int i;

	if (!p->console_only)
		printf("Logfile: %s (appended to)\n", r->log_name);
	for (i = 0; i < p->nloads; i++)
		if (p->loads[i]->flags & LOAD_READ_FILE)
			break;
	/* the Read load's file, if ours: nothing big is left unasked */
	if (i < p->nloads && !stat(path, &st) && load_read_file_valid(path)) {
		gib = (double)st.st_size / (1 << 30);
		if (p->keep_files)
			printf("Kept for the next run's Read load "
			       "(--keep-files): %s (%.1f GiB); remove it "
			       "when done: rm %s\n", path, gib, path);
		else if (unlink(path) && errno != ENOENT)
			fprintf(stderr, "interbench: warning: cannot "
				"remove the Read load's file %s (%.1f GiB): "
				"%s\n", path, gib, strerror(errno));
		else
			printf("Removed the Read load's file %s (%.1f GiB); "
			       "--keep-files keeps it for the next run\n", path,
			       gib);
	}
	fflush(stdout);
}
