// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pagebench - what --html costs a run of N results (bench/html-speed.sh).
 *
 *	pagebench N CELL_MS [every]
 *
 * N made-up results (tests/synth.h) of 4 tasks x 2 loads, repeated, go
 * through --html's sink (outputs/html.c) as a run's would, CELL_MS of
 * sleep standing for each cell's measuring; with "every", a page is
 * drawn after every result instead, as --html did before. Prints one
 * line: N, the pages drawn, the seconds they took in all (the run made
 * its result file, read back and drawn) and the seconds of the last
 * page's drawing alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "outputs/results.h"
#include "outputs/sink.h"
#include "report/report.h"
#include "simulators/simulators.h"
#include "loads/loads.h"
#include "named.h"
#include "synth.h"
#include "lib/base.h"

static const char *const tasks[] = { "Audio", "Video", "X", "Gaming" };
static const char *const lds[] = { "None", "Burn" };

/* Result i: its cell and repeat, its made-up figures. */
static int fill(struct result *r, struct plan *p, int i)
{
	static struct sim_result sr;

	r->sim = p->sims[i % p->nsims];
	r->load = p->loads[(i / p->nsims) % p->nloads];
	r->repeat = 1 + i / p->per_pass;
	memset(&sr, 0, sizeof(sr));
	stats_init(&sr.latency);
	stats_init(&sr.timer);
	stats_init(&sr.wakeup);
	stats_init(&sr.per_sec);
	stats_init(&sr.frame_time);
	synth_fill(&sr, (uint64_t)i, i % 4, r->sim->flags & SIM_DEADLINES,
		   200);
	return result_from_sim(r, &sr);
}

/* The drawer report/ gives a run, timed: each page's seconds. */
static double page_s, pages;

static int timed_page(const char *path, const struct result_file *rf)
{
	uint64_t t = now_ns();
	int ret = report_run_page(path, rf);

	page_s = (double)(now_ns() - t) / 1e9;
	pages++;
	return ret;
}

int main(int argc, char **argv)
{
	static struct plan p;
	struct calibration cal = { .loops_per_ms = 123456, .measured = true };
	struct sysinfo_ib si = { .cpus_online = 2 };
	struct results_info info = { .plan = &p, .sys = &si, .cal = &cal };
	struct output_sink s = { .draw = timed_page };
	struct timespec cell;
	struct result *res;
	double all_s = 0;
	char path[] = "/tmp/pagebench.XXXXXX.html";
	int n, ms, i, fd, every, ret = 0;

	if (argc < 3 || argc > 4 || (n = atoi(argv[1])) < 1 || n > 100000 ||
	    (ms = atoi(argv[2])) < 0 ||
	    (argc == 4 && strcmp(argv[3], "every"))) {
		fprintf(stderr, "usage: pagebench N CELL_MS [every]\n");
		return 2;
	}
	every = argc == 4;
	cell.tv_sec = ms / 1000;
	cell.tv_nsec = (long)(ms % 1000) * 1000000L;
	fd = mkstemps(path, 5);
	if (fd < 0 || plan_init(&p))
		return 1;
	close(fd);
	p.cfg.duration_ns = NSEC_PER_SEC;
	p.cfg.cpus = p.cfg.load_threads = 2;
	p.cfg.rt_ok = true;
	p.cfg.loops_per_ms = 123456;
	for (i = 0; i < 4; i++)
		p.sims[p.nsims++] = sim_named(tasks[i]);
	for (i = 0; i < 2; i++)
		p.loads[p.nloads++] = load_named(lds[i]);
	p.per_pass = p.nsims * p.nloads;
	p.repeats = (n + p.per_pass - 1) / p.per_pass;
	p.cells = n;
	res = calloc((size_t)n, sizeof(*res));
	if (!res)
		return 1;
	s.path = path;
	ret = output_sink_html.open(&s);
	for (i = 0; i < n && !ret; i++) {
		nanosleep(&cell, NULL);
		ret = fill(&res[i], &p, i);
		if (ret)
			break;
		if (every) {
			uint64_t t = now_ns();

			ret = out_page(path, timed_page, &info, res, i + 1);
			all_s += (double)(now_ns() - t) / 1e9;
		} else {
			ret = output_sink_html.add(&s, &info, res, i + 1);
		}
	}
	if (!ret && !every)
		ret = output_sink_html.end(&s, &info, res, n);
	if (!every)
		all_s = (double)s.page.spent / 1e9;
	unlink(path);
	if (ret) {
		fprintf(stderr, "pagebench: %s\n", strerror(ret < 0 ? -ret : EIO));
		return 1;
	}
	printf("%d results%s: %.0f pages drawn, %.3f s in all, the last "
	       "%.4f s\n", n, every ? " (a page each)" : "", pages, all_s,
	       page_s);
	for (i = 0; i < n; i++)
		result_free(&res[i]);
	free(res);
	plan_free(&p);
	return 0;
}
