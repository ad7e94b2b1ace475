// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/results.c - the result files, JSON and CSV, written from the table of
 * figures (figures.h) and the names of schema.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "outputs/results.h"
#include "lib/policy.h"
#include "lib/safefile.h"

#define US(ns)	((double)(ns) / NSEC_PER_USEC)
#include "core/schema.h"
#include "run/trace.h"
#include "run/onlate.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/load.h"

/* ---- JSON ------------------------------------------------------------ */

/* The keys of core/schema.h's lists: settings, calibration, frames. */
#define SK(name)	RF_KEY(settings, name)
#define CK(name)	RF_KEY(calibration, name)
#define FK(name)	RF_KEY(frame, name)
#define WK(name)	RF_KEY(who, name)

static void json_settings(struct jw *w, const struct results_info *ri)
{
	const struct plan *p = ri->plan;
	const struct run_cfg *cfg = &p->cfg;
	int i;

	jw_obj_begin(w, K_SETTINGS);
	jw_num(w, SK(duration_s), (double)cfg->duration_ns / NSEC_PER_SEC);
	jw_int(w, SK(repeats), p->repeats);
	if (p->auto_repeats)
		jw_bool(w, SK(repeats_auto), true);
	jw_int(w, SK(load_threads), cfg->load_threads);
	jw_int(w, SK(bench_nice), cfg->bench_nice);
	jw_int(w, SK(load_nice), cfg->load_nice);
	jw_bool(w, SK(rt), cfg->rt);
	jw_str(w, SK(bench_policy), policy_names[cfg->bench_policy]);
	if (cfg->timer_slack_ns)
		jw_num(w, SK(timer_slack_ns), (double)cfg->timer_slack_ns);
	else
		jw_null(w, SK(timer_slack_ns));
	if (cfg->bench_slice_ns)
		jw_num(w, SK(bench_slice_us), US(cfg->bench_slice_ns));
	else
		jw_null(w, SK(bench_slice_us));
	jw_str(w, SK(load_policy), load_policy_names[cfg->load_policy]);
	/* where the loads lived: compared like their class */
	jw_str(w, SK(load_group), load_group_names[cfg->load_group]);
	if (cfg->load_group == LG_CGROUP) {
		jw_int(w, SK(load_cpu_weight), (int)cfg->load_weight);
		jw_str(w, SK(load_cgroup), ri->load_where);
	} else {
		jw_null(w, SK(load_cpu_weight));
		jw_null(w, SK(load_cgroup));
	}
	jw_bool(w, SK(uniprocessor), cfg->uniprocessor);
	jw_str(w, SK(dir), cfg->dir);
	if (cfg->custom_interval_ns) {
		jw_int(w, SK(custom_cpu_pct), cfg->custom_cpu_pct);
		jw_num(w, SK(custom_interval_us),
		       (double)cfg->custom_interval_ns / NSEC_PER_USEC);
	} else {
		jw_null(w, SK(custom_cpu_pct));
		jw_null(w, SK(custom_interval_us));
	}
	jw_str(w, SK(comment), p->comment);
	/* --remeasure-if: the condition, and how many more attempts */
	if (p->remeasure_on) {
		jw_str(w, SK(remeasure_if), p->remeasure_if.text);
		jw_int(w, SK(remeasure_max), p->remeasure_max);
	}
	jw_arr_begin(w, SK(benches));
	for (i = 0; i < p->nsims; i++)
		jw_str(w, NULL, p->sims[i]->name);
	jw_arr_end(w);
	jw_arr_begin(w, SK(loads));
	for (i = 0; i < p->nloads; i++)
		jw_str(w, NULL, p->loads[i]->name);
	jw_arr_end(w);
	jw_bool(w, SK(allow_concurrent), p->allow_concurrent);
	if (p->dma_given)
		jw_int(w, SK(dma_latency_us), p->dma_latency_us);
	else
		jw_null(w, SK(dma_latency_us));
	jw_bool(w, SK(concurrent), ri->concurrent);
	if (ri->concurrent && ri->concurrent_pid)
		jw_int(w, SK(concurrent_pid), ri->concurrent_pid);
	else
		jw_null(w, SK(concurrent_pid));
	if (ri->other_user)
		jw_int(w, SK(concurrent_uid), ri->other_uid);
	else
		jw_null(w, SK(concurrent_uid));
	jw_obj_begin(w, SK(sim_options));
	for (i = 0; i < p->ngiven; i++)
		jw_str(w, p->given[i].name, p->given[i].value);
	jw_obj_end(w);
	jw_obj_end(w);
}

/* One figure's value as its unit asks: times in us, NaN as null. */
static void json_value(struct jw *w, const struct figure *f, double v)
{
	if (isnan(v))
		jw_null(w, f->key);
	else if (f->unit == FU_COUNT)
		jw_uint(w, f->key, (uint64_t)v);
	else
		jw_num(w, f->key, figure_out(f, v));
}

/*
 * Figures f[0..n-1] with values v, each in its group: a group is opened
 * at its first figure written and closed when the group changes, so one
 * whose figures are all left out is not written at all.
 */
static void json_figures(struct jw *w, const struct figure *f, int n,
			 const double *v, const struct result *r)
{
	const char *open = NULL;
	int i;

	for (i = 0; i < n; i++) {
		if (open && (!f[i].group || strcmp(open, f[i].group))) {
			jw_obj_end(w);
			open = NULL;
		}
		if (!f[i].json && isnan(v[i]) && (f[i].flags & FIG_OMIT))
			continue;
		if (f[i].group && !open) {
			jw_obj_begin(w, f[i].group);
			open = f[i].group;
		}
		if (f[i].json)
			f[i].json(w, &f[i], r);
		else
			json_value(w, &f[i], v[i]);
	}
	if (open)
		jw_obj_end(w);
}

/* Latency over time: only where the engine kept it (not old results). */
static void json_windows(struct jw *w, const struct result *r)
{
	int i;

	jw_obj_begin(w, K_WINDOWS);
	jw_uint(w, K_WINDOW_MS, r->win_ns / NSEC_PER_MSEC);
	jw_arr_begin(w, K_VALUES);
	for (i = 0; i < r->nwin; i++) {
		if (r->win[i] == WIN_EMPTY)
			jw_null(w, NULL);
		else
			jw_num(w, NULL, (double)r->win[i] / NSEC_PER_USEC);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

static void json_who(struct jw *w, const char *key, const struct why_who *v,
		     int n, bool task)
{
	int i;

	jw_arr_begin(w, key);
	for (i = 0; i < n; i++) {
		jw_obj_begin(w, NULL);
		jw_str(w, task ? WK(comm) : WK(name), v[i].name);
		if (task)
			jw_int(w, WK(pid), v[i].pid);
		jw_num(w, WK(us), (double)v[i].ns / NSEC_PER_USEC);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* Both parts' interrupts of one kind, by name, largest first. */
static int merge_who(struct why_who *out, const struct why_who *a, int na,
		     const struct why_who *b, int nb)
{
	int i, j, n = 0;

	for (i = 0; i < na + nb; i++) {
		const struct why_who *x = i < na ? &a[i] : &b[i - na];

		for (j = 0; j < n && strcmp(out[j].name, x->name); j++)
			;
		if (j < n) {
			out[j].ns += x->ns;
			continue;
		}
		out[n++] = *x;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && out[j].ns > out[j - 1].ns; j--) {
			struct why_who t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}


/*
 * Which late part's idle time was whose: the host's ("host", a VM), the
 * host's or an idle state's exit ("idle_exit_or_host"), or the run's
 * cgroup's throttling ("throttled"); how much the host took in a VM and
 * the throttling took, by what limit, and whether only the cgroup's
 * counters said so; null where no late part was idle.
 */
static void json_idle(struct jw *w, const struct why_frame *f)
{
	static const char *const causes[] = {
		[WHY_IDLE_NONE] = NULL, [WHY_IDLE_HOST] = "host",
		[WHY_IDLE_EXIT_OR_HOST] = "idle_exit_or_host",
		[WHY_IDLE_THROTTLED] = "throttled",
	};
	/* the cause of the part with the more idle time, when both had one */
	const struct why_part *p = !f->wait.idle_cause ? &f->timer :
		!f->timer.idle_cause || f->wait.idle_ns >= f->timer.idle_ns ?
		&f->wait : &f->timer;
	enum why_idle c = p->idle_cause;
	double thr = f->throttled_ns ? US(f->throttled_ns) : NAN;

	jw_str(w, FK(idle_cause), causes[c]);
	jw_num(w, FK(host_us), f->host_ns ? US(f->host_ns) : NAN);
	jw_num(w, FK(throttled_us), thr);
	jw_str_or_null(w, FK(throttled_by), f->throttled_by);
	/* A bandwidth timer in a throttled part, or the counters alone */
	if (f->throttled_ns)
		jw_bool(w, FK(throttle_inferred), !f->timer.throttle_seen &&
			!f->wait.throttle_seen);
	else
		jw_null(w, FK(throttle_inferred));
}

/* --trace: each frame, the parts of its latency and who took them. */
static void json_worst(struct jw *w, const struct result *r)
{
	struct why_who m[2 * WHY_IRQS];
	int i, n;

	jw_uint(w, K_TRACE_LOST, r->trace_lost);
	jw_arr_begin(w, K_WORST_FRAMES);
	for (i = 0; i < r->nexplained; i++) {
		const struct why_frame *f = &r->explained[i];

		jw_obj_begin(w, NULL);
		jw_num(w, FK(latency_us), US(f->latency_ns));
		jw_num(w, FK(timer_us), US(f->timer.ns));
		jw_num(w, FK(wait_us), US(f->wait.ns));
		jw_int(w, FK(cpu), f->wait.cpu);
		json_who(w, FK(ran_instead), f->wait.ran, f->wait.nran, true);
		/* All the other tasks' time: ran_instead lists the largest. */
		jw_num(w, FK(others_us), US(f->wait.others_ns));
		jw_num(w, FK(irq_us), US(f->wait.irq_ns + f->timer.irq_ns));
		jw_num(w, FK(softirq_us),
		       US(f->wait.softirq_ns + f->timer.softirq_ns));
		n = merge_who(m, f->wait.irq, f->wait.nirq, f->timer.irq,
			      f->timer.nirq);
		json_who(w, FK(irqs), m, n, false);
		n = merge_who(m, f->wait.soft, f->wait.nsoft, f->timer.soft,
			      f->timer.nsoft);
		json_who(w, FK(softirqs), m, n, false);
		jw_num(w, FK(own_us), US(f->wait.own_ns));
		jw_int(w, FK(migrations), f->migrations);
		jw_int(w, FK(timer_cpu), f->timer.cpu);
		json_who(w, FK(timer_ran_instead), f->timer.ran, f->timer.nran,
			 true);
		jw_num(w, FK(timer_others_us), US(f->timer.others_ns));
		/* What no task did: the CPU idle while the frame was late. */
		if (f->timer.fired_ns)
			jw_num(w, FK(timer_fired_late_us), US(f->timer.fired_ns));
		else
			jw_null(w, FK(timer_fired_late_us));
		jw_num(w, FK(timer_idle_us), US(f->timer.idle_ns));
		jw_num(w, FK(wait_idle_us), US(f->wait.idle_ns));
		/* what --trace itself wrote in the frame's time */
		jw_int(w, FK(trace_events), f->timer.events + f->wait.events);
		json_idle(w, f);
		jw_int(w, FK(tid), f->tid);
		jw_bool(w, FK(complete), !f->lost);
		jw_bool(w, FK(breaktrace), f->broke);
		results_picture(w, f);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* The class the kernel reported for the simulated thread: the proof. */
static void json_sched(struct jw *w, const struct result *r)
{
	jw_obj_begin(w, K_SCHED);
	jw_str(w, "policy", r->sched.policy >= 0 ?
	       policy_names[r->sched.policy] : "unknown");
	if (r->sched.policy == POL_DEADLINE) {
		jw_num(w, "runtime_us", US(r->sched.runtime_ns));
		jw_num(w, "period_us", US(r->sched.period_ns));
	} else if (policy_fair(r->sched.policy)) {
		jw_num(w, "slice_us", US(r->sched.slice_ns));
	}
	jw_obj_end(w);
}

/*
 * --remeasure-if: every attempt at the cell, in order, and which one the
 * result's figures are; the condition is in the settings.
 */
static void json_attempts(struct jw *w, const struct result *r)
{
	int i;

	jw_obj_begin(w, K_REMEASURE);
	jw_int(w, "attempts", r->nattempts);
	jw_int(w, "kept", r->chosen + 1);
	jw_arr_begin(w, "each");
	for (i = 0; i < r->nattempts; i++) {
		const struct attempt *a = &r->attempt[i];

		jw_obj_begin(w, NULL);
		jw_int(w, "attempt", i + 1);
		jw_str(w, K_STATUS, a->status == RES_OK ? "ok" :
		       "not measured");
		jw_num(w, "value", a->value);
		jw_num(w, "steal_pct", a->steal_pct);
		jw_num(w, "latency_mean_us", US(a->lat_mean));
		jw_num(w, "latency_p99_us", US(a->lat_p99));
		jw_bool(w, "kept", i == r->chosen);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

static void json_result(struct jw *w, const struct result *r)
{
	uint32_t i;
	int k;

	jw_obj_begin(w, NULL);
	jw_str(w, K_BENCH, r->sim->name);
	jw_str(w, K_LOAD, r->load->name);
	jw_int(w, K_REPEAT, r->repeat);
	jw_str(w, K_STATUS, result_status_text(r));
	if (r->status != RES_OK) {
		jw_obj_end(w);
		return;
	}
	json_figures(w, figures, F_COUNT, r->v, r);
	/* The host took enough to confound the figures: say so. */
	jw_bool(w, K_STEAL_MARKED, steal_marked(r->v[F_INTF_STEAL]));
	jw_bool(w, K_BUSY_MARKED, busy_marked(r->v[F_INTF_OTHERS]));
	/* Measured under the cgroup's quota: the figures include it. */
	jw_bool(w, K_THROTTLED_MARKED, throttle_marked(r->v[F_INTF_THROTTLED]));
	jw_str_or_null(w, K_THROTTLED_BY, throttle_marked(r->v[F_INTF_THROTTLED])
		       ? r->throttled_by : "");
	if (r->sched.seen)
		json_sched(w, r);
	jw_obj_begin(w, K_HISTOGRAM);
	jw_str(w, K_HIST_UNIT, "ns");
	jw_arr_begin(w, K_BUCKETS);
	for (i = 0; i < r->nhist; i++) {
		jw_arr_begin(w, NULL);
		jw_uint(w, NULL, stats_bucket_low(r->hist[i].bucket));
		jw_uint(w, NULL, stats_bucket_high(r->hist[i].bucket));
		jw_uint(w, NULL, r->hist[i].count);
		jw_arr_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
	if (r->sim_v)
		json_figures(w, r->sim->figures, r->sim->nfigures, r->sim_v, r);
	jw_obj_begin(w, K_LOAD_WORK);
	for (k = 0; k < WORK_KINDS; k++) {
		char key[64];

		if (r->work_rate[k] <= 0)
			continue;
		snprintf(key, sizeof(key), "%s" K_PER_S_SUFFIX,
			 work_units[k].key);
		jw_num(w, key, r->work_rate[k]);
	}
	jw_obj_end(w);
	if (r->nwin)
		json_windows(w, r);
	if (r->traced)
		json_worst(w, r);
	if (r->nattempts)
		json_attempts(w, r);
	jw_obj_end(w);
}

/* --on-late: every action taken on a late frame, in order. */
static void json_late(struct jw *w, const struct onlate_log *l, int max)
{
	int i;

	jw_obj_begin(w, "on_late");
	jw_int(w, "max", max ? max : LATE_MAX_DEFAULT);
	jw_int(w, "frames", l->frames);
	jw_int(w, "skipped", l->skipped);
	jw_arr_begin(w, "actions");
	for (i = 0; i < l->n; i++) {
		const struct onlate_entry *e = &l->e[i];

		jw_obj_begin(w, NULL);
		jw_str(w, "bench", e->bench);
		jw_str(w, "load", e->load);
		jw_int(w, "repeat", e->repeat);
		jw_int(w, "attempt", e->attempt);
		jw_int(w, "frame", e->frame);
		jw_num(w, "latency_us", (double)e->latency_ns / NSEC_PER_USEC);
		jw_num(w, "bound_us", (double)e->bound_ns / NSEC_PER_USEC);
		jw_uint(w, "release_ns", e->release_ns);
		jw_int(w, "cpu", e->cpu);
		jw_int(w, "tid", e->tid);
		jw_str(w, "action", plan_late_action(e->action));
		jw_str(w, "status", e->status);
		jw_str_or_null(w, "file", e->file);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

/* --trace: where, how, and what this kernel could not trace. */
static void json_trace(struct jw *w, const struct results_info *ri)
{
	const struct tracer *t = ri->trace;
	char ev[sizeof(t->missing)], *s, *save = NULL;

	jw_obj_begin(w, K_TRACE);
	jw_str(w, "instance", t->inst);
	jw_str(w, "clock", "mono");
	jw_str(w, "cpus", t->cpus);
	/* The switches not recorded (null: all were, the kernel refused) */
	jw_str_or_null(w, "switch_filter", t->switch_filtered ?
		       trace_switch_filter : NULL);
	jw_int(w, "frames", ri->plan->trace_frames);
	jw_bool(w, "timer", ri->plan->trace_timer);
	jw_bool(w, "alternate", ri->plan->trace_alternate);
	jw_num(w, "breaktrace_us", ri->plan->breaktrace_ns ?
	       (double)ri->plan->breaktrace_ns / NSEC_PER_USEC : NAN);
	jw_arr_begin(w, "missing_events");
	snprintf(ev, sizeof(ev), "%s", t->missing);
	for (s = strtok_r(ev, " ", &save); s; s = strtok_r(NULL, " ", &save))
		jw_str(w, NULL, s);
	jw_arr_end(w);
	jw_str(w, "breaktrace_file", ri->breaktrace_file);
	if (ri->late)
		json_late(w, ri->late, ri->plan->late_max);
	jw_obj_end(w);
}

/* ab's order: the side each cell of the run order measured first */
static void json_ab_first(struct jw *w, const struct plan *p, uint32_t seed)
{
	size_t n = (size_t)p->cells + 1;
	char *buf = malloc(n);

	if (buf && !plan_ab_order(p, seed, buf, n))
		jw_str(w, K_AB_FIRST, buf);
	else
		jw_null(w, K_AB_FIRST);
	free(buf);
}

/* `interbench ab`: which side this is, of which run, and how it was made */
static void json_ab(struct jw *w, const struct results_info *ri)
{
	const struct ab_plan *ab = ri->ab;
	const struct ab_side *me = &ab->side[ri->ab_side];
	char side[2] = { me->name, '\0' };

	jw_obj_begin(w, K_AB);
	jw_str(w, K_AB_ID, ab->id);
	jw_str(w, K_AB_SIDE, side);
	jw_int(w, K_AB_LOOKS, ab->looks);
	if (ab->stop_pairs) {
		jw_obj_begin(w, K_AB_STOPPED);
		jw_int(w, K_AB_PAIRS, ab->stop_pairs);
		jw_str(w, K_AB_WHY, ab->stop_why);
		jw_obj_end(w);
	}
	if (ab->sweep_doc) {
		/* a sweep's state: its order is the sweep document's */
		jw_int(w, K_AB_SHARE, ab->share);
		jw_str(w, K_AB_SWEEP, me->label);
		jw_str(w, "order", "a sweep's blocks, each in a Williams "
		       "square's row (the sweep's document)");
		jw_uint(w, K_AB_SEED, ab->seed);
	} else {
		jw_str(w, "order", "cell by cell, A B or B A by a coin for "
		       "each cell and two passes, the second pass the other "
		       "way round");
		jw_uint(w, K_AB_SEED, ab->seed);
		json_ab_first(w, ri->plan, ab->seed);
	}
	jw_str(w, "command", me->cmd);
	jw_str(w, "undo", me->undo);
	jw_str(w, "options", me->opts);
	jw_str(w, "other_file", ab->sweep_doc && !ri->ab_side ?
	       ab->sweep_doc : ab->side[!ri->ab_side].path);
	jw_obj_end(w);
}

/* The document up to the inside of its "results" array. */
static void json_head(struct jw *w, const struct results_info *ri)
{
	const struct calibration *cal = ri->cal;

	jw_obj_begin(w, NULL);
	jw_str(w, K_SCHEMA, SCHEMA_NAME);
	jw_str(w, K_VERSION, IB_VERSION);
	jw_str(w, K_COMMAND_LINE, ri->plan->args);
	jw_str(w, K_STARTED, ri->started);
	jw_str_or_null(w, K_FINISHED, ri->finished);
	jw_str(w, K_INTERRUPTED, ri->interrupted);
	jw_str(w, K_TAG, ri->plan->tag);
	results_system(w, ri);
	json_settings(w, ri);
	if (ri->ab)
		json_ab(w, ri);
	if (ri->trace)
		json_trace(w, ri);
	jw_obj_begin(w, K_CALIBRATION);
	jw_uint(w, CK(loops_per_ms), cal->loops_per_ms);
	jw_num(w, CK(error_pct), cal->error_pct);
	jw_num(w, CK(check_off_cpu_pct), cal->check_off_pct);
	jw_num(w, CK(check_others_pct), cal->check_others_pct);
	jw_bool(w, CK(measured), cal->measured);
	jw_num(w, CK(spread_pct), cal->measured ? cal->spread_pct : NAN);
	if (cal->measured && cal->samples) {
		/* what disturbed it: lib/cpuwork.h */
		jw_int(w, CK(samples), cal->samples);
		jw_int(w, CK(undisturbed_samples), cal->undisturbed);
		jw_num(w, CK(speed_spread_pct), cal->speed_spread_pct);
		jw_num(w, CK(off_cpu_pct), cal->off_pct);
		jw_num(w, CK(others_pct), cal->others_pct);
		jw_num(w, CK(host_pct), cal->host_pct);
		jw_num(w, CK(others_machine_pct), cal->others_machine_pct);
		jw_bool(w, CK(cpufreq), cal->cpufreq);
	}
	jw_obj_end(w);
	jw_arr_begin(w, K_RESULTS);
}

/* What closes the document after the last result. */
static int json_tail(struct jw *w)
{
	jw_arr_end(w);
	jw_obj_end(w);
	return jw_finish(w);
}

/*
 * The whole document into a new file next to path, renamed over it (see
 * safefile.h). With keep, the file stays open for results_json_add(): its
 * fd; else 0; or -errno.
 */
static int json_write_all(const char *path, const struct results_info *ri,
			  const struct result *res, int n, bool keep)
{
	struct safe_file sf;
	int i, kept = -1, err;
	struct jw w;

	err = safe_file_begin(&sf, path);
	if (err)
		return err;
	if (keep && (kept = fcntl(sf.fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		err = -errno;
		safe_file_abort(&sf);
		return err;
	}
	jw_init(&w, sf.f);
	json_head(&w, ri);
	for (i = 0; i < n; i++)
		json_result(&w, &res[i]);
	err = json_tail(&w);
	if (err)
		safe_file_abort(&sf);
	else
		err = safe_file_commit(&sf);
	if (err) {
		if (kept >= 0)
			close(kept);
		return err;
	}
	return keep ? kept : 0;
}

int results_json_text(const struct results_info *ri, const struct result *res,
		      int n, char **text, size_t *len)
{
	FILE *mem = open_memstream(text, len);
	struct jw w;
	int i, err;

	if (!mem)
		return -errno;
	jw_init(&w, mem);
	json_head(&w, ri);
	for (i = 0; i < n; i++)
		json_result(&w, &res[i]);
	err = json_tail(&w);
	if (fclose(mem) && !err)
		err = -ENOMEM;
	if (err) {
		free(*text);
		*text = NULL;
	}
	return err;
}

/* Write len bytes at off, whole: 0 or -errno. */
static int pwrite_all(int fd, const char *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t w = pwrite(fd, buf, len, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		buf += w;
		len -= (size_t)w;
		off += w;
	}
	return 0;
}

int results_json_begin(struct results_json *o, const char *path,
		       const struct results_info *ri)
{
	struct jw w;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int err;

	o->path = path;
	o->fd = -1;
	o->err = 0;
	mem = open_memstream(&buf, &len);
	if (!mem)
		return o->err = -errno;
	jw_init(&w, mem);
	json_head(&w, ri);
	fflush(mem);
	o->tail_at = (off_t)len;
	o->w = w;
	o->w.f = NULL;
	fclose(mem);
	free(buf);
	/* The file we made stays open: its name is never opened again. */
	err = json_write_all(path, ri, NULL, 0, true);
	if (err >= 0) {
		o->fd = err;
		err = 0;
	}
	return o->err = err;
}

/*
 * After a write that failed (ENOSPC), the document as it was: the old
 * closing lines, written where they stood, and nothing after them. They
 * fit: they were there before. Best effort: 0 or -errno.
 */
static int json_restore(struct results_json *o)
{
	struct jw w = o->w;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int err;

	if (!mem)
		return -errno;
	w.f = mem;
	err = json_tail(&w);
	if (fclose(mem) && !err)
		err = -ENOMEM;
	if (!err && ftruncate(o->fd, o->tail_at))
		err = -errno;
	if (!err)
		err = pwrite_all(o->fd, buf, len, o->tail_at);
	if (!err && fdatasync(o->fd))
		err = -errno;
	free(buf);
	return err;
}

int results_json_add(struct results_json *o, const struct result *r)
{
	struct jw w = o->w, after;
	char *buf = NULL;
	size_t len = 0, cell;
	FILE *mem;
	int err;

	if (o->fd < 0)
		return o->err ? o->err : -EBADF;
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -errno;
	w.f = mem;
	json_result(&w, r);
	fflush(mem);
	cell = len;
	after = w;
	err = json_tail(&w);
	if (fclose(mem) && !err)
		err = -ENOMEM;
	/* One write of the result and the closing lines after it. */
	if (!err)
		err = pwrite_all(o->fd, buf, len, o->tail_at);
	if (!err && fdatasync(o->fd))
		err = -errno;
	free(buf);
	if (err) {
		/* Cut inside this result: the last whole document again */
		json_restore(o);
		return o->err = err;
	}
	o->tail_at += (off_t)cell;
	o->w = after;
	o->w.f = NULL;
	return 0;
}

int results_json_end(struct results_json *o, const struct results_info *ri,
		     const struct result *res, int n)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	return json_write_all(o->path, ri, res, n, false);
}
