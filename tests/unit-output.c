// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-output - the tables, the logfile's text, the JSON and the CSV made
 * from made-up measurements (synth.h) are byte for byte the files in
 * golden/, and so is scenario B's KCIDB report (repeats, gates that
 * pass and fail, repeats failed and skipped; t0105-kcidb.sh validates it
 * with KernelCI's kcidb-io). Those were first written by interbench 0.40
 * before its outputs were driven by the table of figures, from the same
 * measurements; they were rewritten on purpose when figures and settings
 * were added (frame pacing; the run lock; the boot and the invocation),
 * each time checked to differ only by what was added. This test holds
 * the outputs to what they are. The JSON written result by result during
 * a run must also be the very document written whole. A --trace frame
 * the run's cgroup throttled is checked apart, in the JSON and the
 * report.
 *
 * Run from tests/ (tests/run does). UPDATE_GOLDEN=1 rewrites golden/ from
 * this build instead: only for a change of output made on purpose.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "cli/cli.h"
#include "outputs/kcidb.h"
#include "outputs/output.h"
#include "lib/policy.h"
#include "outputs/results.h"
#include "outputs/sink.h"
#include "report/report.h"
#include "run/trace.h"
#include "core/resultfile.h"
#include "core/schema.h"
#include "synth.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"
#include "simulators/simulators.h"
#include "loads/loads.h"
#include "named.h"

static struct sim_result res;

/* A whole file, NUL-ended, without the lines that start with skip. */
static char *slurp(const char *path, const char *skip)
{
	FILE *f = fopen(path, "r");
	char line[4096], *buf;
	size_t len = 0, cap = 1 << 20;

	if (!f)
		return NULL;
	buf = malloc(cap);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	buf[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		size_t l = strlen(line);

		if (skip && !strncmp(line, skip, strlen(skip)))
			continue;
		while (len + l + 1 > cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		memcpy(buf + len, line, l + 1);
		len += l;
	}
	fclose(f);
	return buf;
}

/* Is file a the same as golden/b (lines starting with skip aside)? */
static int same_file(const char *a, const char *b, const char *skip)
{
	char gold[256], *x, *y;
	int same;

	snprintf(gold, sizeof(gold), "golden/%s", b);
	if (getenv("UPDATE_GOLDEN")) {
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", a, gold);
		return !system(cmd);
	}
	x = slurp(a, skip);
	y = slurp(gold, skip);
	same = x && y && !strcmp(x, y);
	if (!same && x && y) {
		size_t i = 0;

		while (x[i] && x[i] == y[i])
			i++;
		printf("# first difference at byte %zu: '%.60s' vs '%.60s'\n",
		       i, x + i, y + i);
	}
	free(x);
	free(y);
	return same;
}

struct scenario {
	const char *name;
	int repeats;
	bool rt, verbose;
	const char *sims[8], *loads[4], *gates[8];
	bool kcidb;		/* its KCIDB report too (golden/NAME.kcidb.json) */
};

/* Results that could not be read (checked once stdout is back). */
static int unread;

static void fill(struct result *r, int seed)
{
	int k;

	if (seed % 7 == 3) {
		r->status = RES_FAILED;
		snprintf(r->why, sizeof(r->why), "failed: synthetic %d", seed);
		return;
	}
	if (seed % 11 == 5) {
		r->status = RES_SKIPPED;
		snprintf(r->why, sizeof(r->why),
			 "skipped: no room, \"quoted\", comma");
		return;
	}
	memset(&res, 0, sizeof(res));
	stats_init(&res.latency);
	stats_init(&res.timer);
	stats_init(&res.wakeup);
	stats_init(&res.per_sec);
	stats_init(&res.frame_time);
	synth_fill(&res, (uint64_t)seed, seed % 4,
		   r->sim->flags & SIM_DEADLINES, 200 + (uint64_t)seed * 13);
	if (!strcmp(r->sim->name, "Server"))
		for (k = 0; k < 9; k++)
			stats_add(&res.per_sec,
				  1000 + (uint64_t)(k * 37 + seed) % 101);
	if (!strcmp(r->sim->name, "Cyclic"))
		snprintf(res.note, sizeof(res.note), "SCHED_FIFO %d", 90);
	unread += result_from_sim(r, &res) != 0;
	for (k = 0; k < WORK_KINDS; k++)
		if ((k + seed) % 5 == 0 ||
		    (k == WORK_BURN_LOOPS && !strcmp(r->load->name, "Burn")))
			r->work_rate[k] = 1234.5 * (k + 1) * seed;
}

static void setup(struct plan *p, const struct scenario *sc)
{
	char err[256];
	int i;

	check(!plan_init(p), "%s: plan", sc->name);
	p->cfg.duration_ns = 3 * NSEC_PER_SEC / 2;
	p->cfg.cpus = 2;
	p->cfg.load_threads = 2;
	p->cfg.rt = sc->rt;
	p->cfg.bench_policy = sc->rt ? POL_FIFO : POL_OTHER;
	p->cfg.rt_ok = true;
	p->cfg.loops_per_ms = 123456;
	p->verbose = sc->verbose;
	p->repeats = sc->repeats;
	p->comment = "golden";
	snprintf(p->args, sizeof(p->args), "interbench -t 1.5 golden");
	for (i = 0; sc->sims[i]; i++)
		p->sims[p->nsims++] = sim_named(sc->sims[i]);
	for (i = 0; sc->loads[i]; i++)
		p->loads[p->nloads++] = load_named(sc->loads[i]);
	for (i = 0; sc->gates[i]; i++)
		check(!gate_parse(&p->gates[p->ngates++], sc->gates[i], err,
				  sizeof(err)), "gate %s: %s", sc->gates[i],
		      err);
	p->given[0].name = "cyclic-prio";
	p->given[0].value = "90";
	p->ngiven = 1;
	p->per_pass = 0;
	for (i = 0; i < p->nsims * p->nloads; i++)
		p->per_pass += plan_has(p->sims[i / p->nloads],
					p->loads[i % p->nloads]);
	p->cells = p->per_pass * p->repeats;
}

static void machine(struct sysinfo_ib *si)
{
	memset(si, 0, sizeof(*si));
	snprintf(si->sysname, sizeof(si->sysname), "Linux");
	snprintf(si->release, sizeof(si->release), "6.1.0-golden");
	snprintf(si->version, sizeof(si->version), "#1 SMP PREEMPT_DYNAMIC");
	snprintf(si->machine, sizeof(si->machine), "x86_64");
	snprintf(si->hostname, sizeof(si->hostname), "gold");
	snprintf(si->boot_id, sizeof(si->boot_id),
		 "0123abcd-4567-89ab-cdef-0123456789ab");
	snprintf(si->invocation, sizeof(si->invocation),
		 "fedc9876-5432-10fe-dcba-9876543210fe");
	snprintf(si->cpu_model, sizeof(si->cpu_model), "Golden CPU");
	si->cpus_online = 2;
	si->smt = 0;
	snprintf(si->preempt, sizeof(si->preempt), "dynamic");
	snprintf(si->clocksource, sizeof(si->clocksource), "tsc");
	si->mem_total_kb = 1000;
	si->swap_total_kb = -1;
}

static void scenario(const struct scenario *sc, const char *dir)
{
	static struct plan p;
	struct calibration cal = { .loops_per_ms = 123456, .spread_pct = 3.5,
				    .error_pct = 0.25, .measured = true };
	struct sysinfo_ib si;
	struct results_info info = { .plan = &p, .sys = &si, .cal = &cal };
	struct out_console con = { .plan = &p };
	struct results_json jo;
	struct result *rs;
	char txt[512], csv[512], json[512], name[32];
	char *streamed, *whole;
	int out_fd, saved, i, n = 0, begun;
	FILE *cf;

	setup(&p, sc);
	machine(&si);
	rs = calloc((size_t)p.cells, sizeof(*rs));
	snprintf(txt, sizeof(txt), "%s/%s.txt", dir, sc->name);
	snprintf(csv, sizeof(csv), "%s/%s.csv", dir, sc->name);
	snprintf(json, sizeof(json), "%s/%s.json", dir, sc->name);
	cf = fopen(csv, "w");
	check(rs && cf, "%s: files", sc->name);
	if (!rs || !cf)
		return;
	snprintf(info.started, sizeof(info.started), "2026-11-22T08:00:00Z");
	results_csv_header(cf);
	fflush(stdout);
	saved = dup(1);
	out_fd = open(txt, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(out_fd, 1);
	out_log_header(&con, &cal, NULL);
	begun = results_json_begin(&jo, json, &info);
	/* In the matrix's order, pass after pass (not the run's alternation). */
	for (i = 0; i < p.cells; i++) {
		struct result *r = &rs[n];
		int k, m = 0;

		for (k = 0; k < p.nsims * p.nloads; k++) {
			if (!plan_has(p.sims[k / p.nloads],
				      p.loads[k % p.nloads]))
				continue;
			if (m++ == i % p.per_pass) {
				r->sim = p.sims[k / p.nloads];
				r->load = p.loads[k % p.nloads];
				break;
			}
		}
		r->repeat = i / p.per_pass + 1;
		fill(r, i + 1);
		n++;
		if (p.repeats == 1) {
			if (n == 1 || r->sim != r[-1].sim)
				out_table_head(&con, r->sim);
			out_result(&con, rs, n);
		}
		results_csv_row(cf, r);
		results_json_add(&jo, r);
	}
	if (p.repeats > 1)
		out_tables(&con, rs, n);
	out_printf(&con, "\n");
	out_check_gates(&con, rs, n);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(out_fd);
	fclose(cf);
	check(!begun && !jo.err, "%s: JSON begun, every result added",
	      sc->name);
	check(!unread, "%s: every result read from its sim_result", sc->name);
	streamed = slurp(json, NULL);
	check(!results_json_end(&jo, &info, rs, n), "%s: JSON rewritten whole",
	      sc->name);
	whole = slurp(json, NULL);
	check(streamed && whole && !strcmp(streamed, whole),
	      "%s: the JSON written result by result is the whole document",
	      sc->name);
	free(streamed);
	free(whole);
	snprintf(info.finished, sizeof(info.finished), "2026-11-22T08:01:00Z");
	results_json_end(&jo, &info, rs, n);
	snprintf(name, sizeof(name), "%s.txt", sc->name);
	check(same_file(txt, name, "Benchmarking kernel "),
	      "%s: tables as before", sc->name);
	snprintf(name, sizeof(name), "%s.csv", sc->name);
	check(same_file(csv, name, NULL), "%s: CSV as before", sc->name);
	snprintf(name, sizeof(name), "%s.json", sc->name);
	check(same_file(json, name, NULL), "%s: JSON as before", sc->name);
	if (sc->kcidb) {
		snprintf(json, sizeof(json), "%s/%s.kcidb.json", dir, sc->name);
		snprintf(name, sizeof(name), "%s.kcidb.json", sc->name);
		check(!kcidb_write(json, &info, rs, n) &&
		      same_file(json, name, NULL), "%s: KCIDB as before",
		      sc->name);
	}
	for (i = 0; i < n; i++)
		result_free(&rs[i]);
	free(rs);
	plan_free(&p);
}

/* check(), and the text when it fails */
#define check_text(ok, t, ...) do {					\
	bool ok_ = (ok);						\
	check(ok_, __VA_ARGS__);					\
	if (!ok_)							\
		printf("# %s\n", t);					\
} while (0)
#define check_t(ok, ...) check_text(ok, t, __VA_ARGS__)

/* out_log_header()'s text for cal: stdout caught in a file (free it). */
static char *header_of(const char *dir, const struct calibration *cal)
{
	static struct plan p;
	struct out_console con = { .plan = &p };
	char path[512], *text, *at;
	int fd, saved;

	plan_init(&p);
	snprintf(path, sizeof(path), "%s/header.txt", dir);
	fflush(stdout);
	saved = dup(1);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	out_log_header(&con, cal, NULL);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	text = slurp(path, NULL);
	plan_free(&p);
	/* notes are wrapped at words: the tests read them as one line */
	for (at = text; at && *at; at++)
		if (*at == '\n' && at[1] && at[1] != '\n')
			*at = ' ';
	return text;
}

static int count_of(const char *text, const char *s)
{
	const char *at;
	int n = 0;

	for (at = text; at && (at = strstr(at, s)); at++)
		n++;
	return n;
}

/*
 * Why the loop count varied while calibrating is said once, in the
 * header (stdout and log), and blames what the samples show: other
 * tasks or the host taking the calibrating thread's CPU is no change of
 * the CPU's speed (issue 43: "the CPU's speed varied by 109 %" on a VM
 * without cpufreq, where other processes had taken the CPU).
 */
static void speed_note(const char *dir)
{
	struct calibration busy = {
		.loops_per_ms = 123456, .spread_pct = 109, .error_pct = 0.25,
		.measured = true, .samples = 9, .undisturbed = 1,
		.speed_spread_pct = NAN, .off_pct = 44, .others_pct = 44,
		.host_pct = 0.2, .others_machine_pct = 60, .cpufreq = false,
	};
	struct calibration freq = {
		.loops_per_ms = 123456, .spread_pct = 15, .error_pct = 0.25,
		.measured = true, .samples = 9, .undisturbed = 9,
		.speed_spread_pct = 15, .off_pct = 0.1, .others_pct = 0,
		.host_pct = 0.1, .others_machine_pct = 3, .cpufreq = true,
	};
	struct calibration vm = freq, host = busy, saved = busy;
	char *t;

	t = header_of(dir, &busy);
	check_t(count_of(t, "Note: calibration was disturbed: other tasks "
			 "held its CPU 44 % of the time, and the loop count "
			 "varied by 109 %") == 1 &&
		!strstr(t, "speed") && !strstr(t, "host") &&
		strstr(t, "median of the samples' thread CPU time"),
		"contention while calibrating is said as such, never as the "
		"CPU's speed");
	free(t);

	host.others_pct = 2;
	host.host_pct = 42;
	host.undisturbed = 4;
	t = header_of(dir, &host);
	check_t(strstr(t, "other tasks held its CPU 2 % of the time and the "
		       "host 42 %") &&
		strstr(t, "(4 of 9 samples undisturbed)") &&
		strstr(t, "median of the undisturbed samples'"),
		"the host's share (steal) is named apart");
	free(t);

	host.others_pct = host.host_pct = NAN;
	t = header_of(dir, &host);
	check_t(strstr(t, "other tasks or the host held its CPU 44 % of the "
		       "time") != NULL,
		"without schedstat the two are not told apart");
	free(t);

	t = header_of(dir, &freq);
	check_t(count_of(t, "the CPU's speed varied by 15 %") == 1 &&
		!strstr(t, "disturbed") && !strstr(t, "cpufreq") &&
		strstr(t, "Latency and % CPU figures are unaffected"),
		"undisturbed samples that varied on an idle machine with "
		"cpufreq: the CPU's speed, once");
	free(t);

	vm.cpufreq = false;
	vm.speed_spread_pct = vm.spread_pct = 46;
	vm.others_machine_pct = 98;
	t = header_of(dir, &vm);
	check_t(strstr(t, "the loop's speed varied by 46 %") &&
		strstr(t, "rest of the machine 98 % busy") &&
		strstr(t, "no cpufreq here, so not a frequency change") &&
		!strstr(t, "CPU's speed") && !strstr(t, "disturbed"),
		"no cpufreq, the rest of the machine busy: said as seen, "
		"not as a frequency change");
	free(t);

	saved.measured = false;
	t = header_of(dir, &saved);
	check_t(!strstr(t, "Note:"), "a saved calibration has no note");
	free(t);
	freq.spread_pct = freq.speed_spread_pct = 9;
	t = header_of(dir, &freq);
	check_t(!strstr(t, "Note:"), "a spread of 9 %% has no note");
	free(t);
}

/* out_log_header's text for plan a, with ab's side B's plan b (or NULL). */
static char *ab_header_of(const char *dir, struct plan *a, struct plan *b)
{
	struct calibration cal = { .loops_per_ms = 123456, .spread_pct = 1,
				   .error_pct = 0.25, .measured = true };
	struct out_console con = { .plan = a };
	char path[512];
	int fd, saved;

	snprintf(path, sizeof(path), "%s/header.txt", dir);
	fflush(stdout);
	saved = dup(1);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	out_log_header(&con, &cal, b);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	return slurp(path, NULL);
}

/* ab's header: each side's own scheduling where they differ (-N 19). */
static void ab_header(const char *dir)
{
	static struct plan a, b;
	char *same, *apart;

	plan_init(&a);
	plan_init(&b);
	a.cfg.cpus = b.cfg.cpus = 2;
	same = ab_header_of(dir, &a, &b);
	b.cfg.load_nice = 19;
	apart = ab_header_of(dir, &a, &b);
	check(same && strstr(same, "\nBenchmarked tasks SCHED_OTHER, nice 0; "
			     "loads nice 0,") && !strstr(same, "B: "),
	      "ab, sides alike: one settings line, no side named");
	check(apart && strstr(apart, "\nA: Benchmarked tasks SCHED_OTHER, "
			      "nice 0; loads nice 0,") &&
	      strstr(apart, "\nB: Benchmarked tasks SCHED_OTHER, nice 0; "
		     "loads nice 19,") &&
	      !strstr(apart, "\nBenchmarked tasks"),
	      "ab, B's loads at nice 19: each side's own line");
	free(same);
	free(apart);
	plan_free(&a);
	plan_free(&b);
}

/*
 * A traced result whose worst frame waited on an idle CPU while the
 * run's cgroup was throttled: its JSON keys, and the report's row.
 */
static void throttled_frame(const char *dir)
{
	static struct plan p;
	struct calibration cal = { .loops_per_ms = 123456, .spread_pct = 3.5,
				    .error_pct = 0.25, .measured = true };
	struct sysinfo_ib si;
	struct results_info info = { .plan = &p, .sys = &si, .cal = &cal };
	struct result r = { .repeat = 1 };
	struct jval *doc = NULL;
	const struct jval *f = NULL, *v, *a;
	struct why_frame *wf = calloc(1, sizeof(*wf));
	char path[512], err[128], *text = NULL, *html;
	size_t len = 0;

	plan_init(&p);
	machine(&si);
	p.sims[p.nsims++] = r.sim = sim_named("Video");
	p.loads[p.nloads++] = r.load = load_named("None");
	p.per_pass = p.cells = p.repeats = 1;
	fill(&r, 1);
	if (!wf)
		exit(1);
	wf->latency_ns = wf->wait.ns = wf->wait.idle_ns = 23480000;
	wf->timer.cpu = 1;
	wf->wait.idle_cause = WHY_IDLE_THROTTLED;
	wf->wait.throttle_seen = true;
	wf->throttled_ns = wf->wait.idle_ns;
	snprintf(wf->throttled_by, sizeof(wf->throttled_by),
		 "cgroup /ci&runner: cpu.max 40000/100000");
	r.traced = true;
	r.explained = wf;
	r.nexplained = 1;
	if (!results_json_text(&info, &r, 1, &text, &len) &&
	    !json_parse(text, len, &doc, err, sizeof(err))) {
		a = json_get_type(doc, "results", J_ARR);
		v = a && a->n ? json_get_type(&a->items[0], "worst_frames",
					      J_ARR) : NULL;
		f = v && v->n ? &v->items[0] : NULL;
	}
	check(f && (v = json_get_type(f, "idle_cause", J_STR)) &&
	      !strcmp(v->str, "throttled") &&
	      (v = json_get_type(f, "throttled_us", J_NUM)) &&
	      v->num == 23480 && json_get_type(f, "host_us", J_NULL) &&
	      (v = json_get_type(f, "throttled_by", J_STR)) &&
	      !strcmp(v->str, wf->throttled_by) &&
	      (v = json_get_type(f, "throttle_inferred", J_BOOL)) && !v->b,
	      "JSON: a throttled frame's idle_cause, throttled_us, host_us "
	      "null, throttled_by, throttle_inferred");
	snprintf(path, sizeof(path), "%s/throttled.html", dir);
	html = !out_page(path, report_run_page, &info, &r, 1) ? slurp(path, NULL) : NULL;
	check(html && strstr(html, "throttled by cgroup /ci&amp;runner: "
			     "cpu.max 40000/100000 23.5 ms</span>"),
	      "report: the frame's row says what throttled it, escaped");
	free(html);
	free(text);
	json_free(doc);
	result_free(&r);
	plan_free(&p);
}

/*
 * A run's own page (--html) in a VM whose only cell was busy, not
 * stolen from: the page says [busy] with its figure, and its steal note
 * no longer reads as a quiet machine.
 */
static void busy_page(const char *dir)
{
	static struct plan p;
	struct calibration cal = { .loops_per_ms = 123456, .measured = true };
	struct sysinfo_ib si;
	struct results_info info = { .plan = &p, .sys = &si, .cal = &cal };
	struct result r = { .repeat = 1 };
	char path[512], *html;

	plan_init(&p);
	machine(&si);
	si.st.vm = 1;
	p.cfg.rt_ok = true;
	p.sims[p.nsims++] = r.sim = sim_named("Audio");
	p.loads[p.nloads++] = r.load = load_named("Burn");
	p.per_pass = p.cells = p.repeats = 1;
	fill(&r, 1);
	r.v[F_INTF_STEAL] = 0;
	r.v[F_INTF_OTHERS] = 9.4;
	snprintf(path, sizeof(path), "%s/busy.html", dir);
	html = !out_page(path, report_run_page, &info, &r, 1) ? slurp(path, NULL) : NULL;
	check(html && strstr(html, "Confounder: other tasks used more than 5 "
			     "% of the run&#39;s CPU time (9.4 %) in 1 of 1 "
			     "cells, marked [busy]") &&
	      strstr(html, "(steal); the marks above confound the figures "
		     "all the same.</p>"),
	      "run's page: [busy 9.4 %%] said, the VM's steal note not quiet");
	free(html);
	result_free(&r);
	plan_free(&p);
}

/* The JSON text of r with frame wf: its length, the text in *text. */
static size_t frame_json(struct results_info *info, struct result *r,
			 struct why_frame *wf, char **text)
{
	size_t len = 0;

	*text = NULL;
	r->traced = true;
	r->explained = wf;
	r->nexplained = 1;
	if (results_json_text(info, r, 1, text, &len))
		return 0;
	r->explained = NULL;
	r->nexplained = 0;
	return len;
}

/* wf's picture: 3 known slices, then 61 of a load; 4 ms late. */
static void picture_frame(struct why_frame *wf)
{
	static const struct why_slice known[3] = {
		{ "a\"b<c", 4000, 1, SK_OTHER, 999000000, 1000250000 },
		{ "idle", 0, 0, SK_HOST, 1000000000, 1000300000 },
		{ "others", 7, 1, SK_MERGED, 1000250000, 1000300000 },
	};
	int i;

	wf->release_ns = 1000000000;
	wf->latency_ns = 4000000;
	wf->timer.ns = 300000;
	wf->timer.fired_ns = 100000;
	wf->timer.cpu = 0;
	wf->wait.cpu = 1;
	wf->wait.ns = 3700000;
	wf->deadline_ns = 16666667;
	wf->pic_from = 996000000;
	wf->pic_to = 1004500000;
	memcpy(wf->slice, known, sizeof(known));
	for (i = 3; i < WHY_SLICES; i++)
		wf->slice[i] = (struct why_slice){ "ib:load:Burn", 30000 + i,
			1, SK_LOAD, 1000300000 + 60000 * (uint64_t)(i - 3),
			1000300000 + 60000 * (uint64_t)(i - 2) };
	wf->nslices = WHY_SLICES;
}

/*
 * An explained frame's picture written (results_pic.c) and read back
 * (rf_picture) as it was; what it costs in the JSON, at WHY_SLICES.
 */
static void picture_roundtrip(void)
{
	static struct plan p;
	struct calibration cal = { .loops_per_ms = 123456, .measured = true };
	struct sysinfo_ib si;
	struct results_info info = { .plan = &p, .sys = &si, .cal = &cal };
	struct result r = { .repeat = 1 };
	struct why_frame *wf = calloc(2, sizeof(*wf));
	struct result_file rf = { 0 };
	struct rf_picture *pic = calloc(1, sizeof(*pic));
	const struct jval *a = NULL;
	char err[256], *text, *bare;
	size_t len, len0;
	int ok = 0, i;

	plan_init(&p);
	machine(&si);
	p.sims[p.nsims++] = r.sim = sim_named("Video");
	p.loads[p.nloads++] = r.load = load_named("None");
	p.per_pass = p.cells = p.repeats = 1;
	fill(&r, 1);
	if (!wf || !pic)
		exit(1);
	wf[1] = wf[0];
	picture_frame(&wf[0]);
	len0 = frame_json(&info, &r, &wf[1], &bare);
	len = frame_json(&info, &r, &wf[0], &text);
	check(len0 && strstr(bare, "\"picture\": null"), "no picture: null");
	if (len && !rf_parse(&rf, "pic.json", text, len, err, sizeof(err)) &&
	    rf.n_cells == 1 && rf.cells[0].n_ok == 1)
		a = json_get_type(rf.cells[0].ok[0].res, "worst_frames", J_ARR);
	if (a && a->n == 1 && !rf_picture(&a->items[0], pic))
		ok = 1;
	check(ok && pic->from_us == -4000 && pic->to_us == 4500 &&
	      pic->timer_us == 300 && pic->fired_us == 100 &&
	      pic->latency_us == 4000 && fabs(pic->deadline_us - 16666.667) <
	      1e-6 && pic->cpu == 1 && pic->timer_cpu == 0 &&
	      pic->n == WHY_SLICES, "the picture's window and marks read "
	      "back (%d slices)", ok ? pic->n : -1);
	/* the first slice starts before the picture: clipped to it */
	check(ok && pic->s[0].cpu == 1 && pic->s[0].pid == 4000 &&
	      pic->s[0].kind == SK_OTHER && !strcmp(pic->s[0].name,
	      "a\"b<c") && pic->s[0].from_us == -1000 &&
	      pic->s[0].to_us == 250 && pic->s[1].kind == SK_HOST &&
	      pic->s[1].pid == 0 && pic->s[2].kind == SK_MERGED &&
	      pic->s[2].pid == 7, "the slices read back: cpu, times, kind, "
	      "name (escaped), pid");
	for (i = 3; ok && i < WHY_SLICES; i++)
		if (pic->s[i].kind != SK_LOAD || pic->s[i].pid != 30000 + i ||
		    fabs(pic->s[i].from_us - (300 + 60.0 * (i - 3))) > 1e-9)
			ok = 0;
	check(ok, "every load slice read back");
	check(len > len0 && len - len0 < 9000, "a frame's picture of %d "
	      "slices costs %zu bytes in the JSON", WHY_SLICES, len - len0);
	printf("# a picture of %d slices: %zu bytes, %.0f a slice\n",
	       WHY_SLICES, len - len0, (double)(len - len0) / WHY_SLICES);
	if (!len)
		free(text);	/* else rf_parse took it */
	rf_free(&rf);
	free(bare);
	free(pic);
	free(wf);
	result_free(&r);
	plan_free(&p);
}

int main(void)
{
	static const struct scenario scs[] = {
		{ "A", 1, false, true,
		  { "Audio", "Video", "X", "Gaming", "Server", "Cyclic" },
		  { "None", "Burn", "Video" },
		  { "p99>5ms", "deadlines<99", "cpu<=100", "mean>=0ns",
		    "p99.9>20us", "max>1s" }, false },
		{ "B", 3, true, false, { "Audio", "Gaming" },
		  { "None", "Burn" }, { "sd>10us", "met<95%", "p50>=1ms" },
		  true },
		{ "C", 2, false, true,
		  { "Audio", "Video", "X", "Gaming", "Server", "Cyclic" },
		  { "None", "Burn", "Video" }, { "p99>5ms", "deadlines<99" },
		  false },
		{ "D", 1, true, false,
		  { "Audio", "Video", "X", "Gaming", "Server", "Cyclic" },
		  { "None", "Burn" }, { "sd>10us" }, false },
	};
	char dir[] = "/tmp/ibunit.XXXXXX", cmd[64];
	size_t i;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	for (i = 0; i < sizeof(scs) / sizeof(scs[0]); i++)
		scenario(&scs[i], dir);
	speed_note(dir);
	ab_header(dir);
	throttled_frame(dir);
	busy_page(dir);
	picture_roundtrip();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return check_done();
}
