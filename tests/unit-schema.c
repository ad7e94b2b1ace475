// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-schema - the result file's blocks (core/schema.h's lists) round
 * trip: a run whose every key is due (auto repeats, --remeasure-if, a
 * measured calibration, its cgroup, a traced frame) is written by the
 * writer (outputs/results.c) and read back by the reader (rf_parse).
 * Each block's written keys must be its list, no more (a key written
 * and not read) and no less (a key read and never written); the typed
 * structs get the values written. The check is shown to fail on a key
 * planted and a key taken away.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "outputs/results.h"
#include "run/trace.h"
#include "core/resultfile.h"
#include "core/schema.h"
#include "simulators/simulators.h"
#include "loads/loads.h"
#include "named.h"
#include "lib/base.h"
#include "synth.h"

/* Is key one of fields[0..n-1]? */
static bool listed(const struct rf_field *fields, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(fields[i].key, key))
			return true;
	return false;
}

/*
 * The object o against its list: what differs into why (the first), and
 * how many differences. A key of RKF_ALT stands for the one before it.
 */
static int differs(const struct jval *o, const struct rf_field *fields,
		   int n, char *why, size_t wn)
{
	size_t k;
	int i, bad = 0;

	if (!o || o->type != J_OBJ) {
		snprintf(why, wn, "no such object");
		return 1;
	}
	for (k = 0; k < o->n; k++)
		if (!listed(fields, n, o->keys[k]) && !bad++)
			snprintf(why, wn, "%s written, not in the list",
				 o->keys[k]);
	for (i = 0; i < n; i++) {
		bool here = json_get(o, fields[i].key);

		if (i + 1 < n && (fields[i + 1].flags & RKF_ALT))
			here = here || json_get(o, fields[i + 1].key);
		if (fields[i].flags & RKF_ALT)
			here = here || json_get(o, fields[i - 1].key);
		if (!here && !bad++)
			snprintf(why, wn, "%s listed, never written",
				 fields[i].key);
	}
	return bad;
}

/* Every key due: the settings', the calibration's, the cgroup's. */
static void everything(struct plan *p, struct sysinfo_ib *si,
		       struct calibration *cal, struct result *r)
{
	static struct sim_result sr;
	static struct why_frame wf;
	static struct cgroup_self cg;

	plan_init(p);
	p->cfg.duration_ns = 3 * NSEC_PER_SEC / 2;
	p->cfg.loops_per_ms = 123456;
	p->sims[p->nsims++] = r->sim = sim_named("Video");
	p->loads[p->nloads++] = r->load = load_named("Burn");
	p->per_pass = p->cells = p->repeats = 1;
	p->auto_repeats = true;
	p->remeasure_on = true;
	p->remeasure_if.text = "steal>1";
	p->remeasure_max = 2;
	p->comment = "schema";
	memset(si, 0, sizeof(*si));
	snprintf(si->release, sizeof(si->release), "6.1.0-schema");
	snprintf(si->hostname, sizeof(si->hostname), "round");
	si->cpus_online = 2;
	si->cg = &cg;
	cg.read = true;
	cg.at[CG_CPU].version = 2;
	snprintf(cg.at[CG_CPU].path, sizeof(cg.at[CG_CPU].path), "/trip");
	cg.quota_us = 40000;
	cg.period_us = 100000;
	cg.cpus_usable = 2;
	cal->loops_per_ms = 123456;
	cal->measured = true;
	cal->samples = 9;
	cal->check_off_pct = 7.5;
	r->repeat = 1;
	stats_init(&sr.latency);
	stats_init(&sr.timer);
	stats_init(&sr.wakeup);
	stats_init(&sr.per_sec);
	stats_init(&sr.frame_time);
	synth_fill(&sr, 3, 1, true, 300);
	result_from_sim(r, &sr);
	wf.latency_ns = wf.wait.ns = 2000000;
	wf.wait.nran = 1;
	snprintf(wf.wait.ran[0].name, sizeof(wf.wait.ran[0].name), "spin");
	wf.wait.ran[0].pid = 42;
	wf.wait.ran[0].ns = 1900000;
	r->traced = true;
	r->explained = &wf;
	r->nexplained = 1;
}

int main(void)
{
	static struct plan p;
	struct calibration cal = { 0 };
	struct sysinfo_ib si;
	struct results_info info = { .plan = &p, .sys = &si, .cal = &cal };
	struct result r = { 0 };
	struct result_file rf;
	struct jval *doc = NULL, *mine = NULL;
	const struct jval *set, *sys, *frames, *f;
	char *text = NULL, *copy, why[160] = "", err[160];
	size_t len = 0;

	everything(&p, &si, &cal, &r);
	if (results_json_text(&info, &r, 1, &text, &len) ||
	    json_parse(text, len, &doc, err, sizeof(err))) {
		check(0, "the run's JSON is written and parsed");
		return check_done();
	}
	set = json_get_type(doc, K_SETTINGS, J_OBJ);
	sys = json_get_type(doc, K_SYSTEM, J_OBJ);
	check(!differs(set, rf_settings_fields, RFK_SETTINGS, why,
		       sizeof(why)), "settings: written as listed (%s)", why);
	check(!differs(sys, rf_system_fields, RFK_SYSTEM, why, sizeof(why)),
	      "system: written as listed (%s)", why);
	check(!differs(json_get(sys, RF_KEY(system, cgroup)), rf_cgroup_fields,
		       RFK_CGROUP, why, sizeof(why)),
	      "system.cgroup: written as listed (%s)", why);
	check(!differs(json_get(doc, K_CALIBRATION), rf_calibration_fields,
		       RFK_CALIBRATION, why, sizeof(why)),
	      "calibration: written as listed (%s)", why);
	frames = json_get_type(&json_get_type(doc, K_RESULTS, J_ARR)->items[0],
			       K_WORST_FRAMES, J_ARR);
	f = frames && frames->n ? &frames->items[0] : NULL;
	{
		static struct rf_field fr[] = {
#define FRAME_ROW(n, k, fl)	{ #n, k, fl, 0 },
			RF_FRAME(FRAME_ROW)
		}, who[] = {
			RF_WHO(FRAME_ROW)
#undef FRAME_ROW
		};
		const struct jval *ran = f ? json_get_type(f,
			RF_KEY(frame, ran_instead), J_ARR) : NULL;

		check(!differs(f, fr, RFK_FRAME, why, sizeof(why)),
		      "worst_frames[]: written as listed (%s)", why);
		check(ran && ran->n == 1 && !differs(&ran->items[0], who,
						     RFK_WHO, why, sizeof(why)),
		      "ran_instead[]: written as listed (%s)", why);
	}
	/* The typed blocks get what was written. */
	copy = malloc(len + 1);
	memcpy(copy, text, len + 1);
	if (rf_parse(&rf, "trip", copy, len, err, sizeof(err))) {
		check(0, "read back: %s", err);
		return check_done();
	}
	check(rf.set.duration_s == 1.5 && rf.set.repeats_auto == 1 &&
	      rf.set.remeasure_if && !strcmp(rf.set.remeasure_if, "steal>1") &&
	      rf.set.remeasure_max == 2 && rf.set.rt == 0 &&
	      rf.set.benches && rf.set.benches->type == J_ARR,
	      "rf_settings: duration 1.5, auto, remeasure steal>1 x2, rt no");
	check(rf.sys.release && !strcmp(rf.sys.release, "6.1.0-schema") &&
	      rf.sys.cpus_online == 2 && rf.sys.hostname &&
	      !strcmp(rf.sys.hostname, "round"),
	      "rf_system: release, hostname, CPUs");
	check(rf.cg.read && rf.cg.cpu_version == 2 && rf.cg.cpu_path &&
	      !strcmp(rf.cg.cpu_path, "/trip") && rf.cg.cpu_quota_us == 40000 &&
	      rf.cg.cpu_quota_cpus == 0.4 && isnan(rf.cg.cpu_shares),
	      "rf_cgroup: v2 /trip, quota 40000 us (0.4 CPU), no shares");
	check(rf.cal.loops_per_ms == 123456 && rf.cal.measured == 1 &&
	      rf.cal.samples == 9 && rf.cal.check_off_cpu_pct == 7.5,
	      "rf_calibration: loops, measured, 9 samples, 7.5 %% held off");
	rf_free(&rf);
	/* The check can fail: a key planted, a key taken away. */
	copy = malloc(len + 64);
	len = (size_t)snprintf(copy, len + 64, "%.*s", (int)len, text);
	{
		char *at = strstr(copy, "\"duration_s\"");

		memcpy(at, "\"duration_z\"", 12);
	}
	json_parse(copy, len, &mine, err, sizeof(err));
	check(differs(json_get(mine, K_SETTINGS), rf_settings_fields,
		      RFK_SETTINGS, why, sizeof(why)) == 2 &&
	      !strcmp(why, "duration_z written, not in the list"),
	      "planted: a key renamed is said written and not read (%s)",
	      why);
	json_free(mine);
	free(copy);
	json_free(doc);
	free(text);
	r.explained = NULL;
	r.nexplained = 0;
	result_free(&r);
	plan_free(&p);
	return check_done();
}
