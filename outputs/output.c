// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/output.c - the classic tables, the logfile and the --trace lines
 * (outputs/progress.c: the noise advice, -n auto, progress and the plan).
 * Columns come from the table of figures: the classic ones by their
 * figure, the -v ones from every figure flagged FIG_VERBOSE.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include "outputs/output.h"
#include "lib/policy.h"
#include "run/trace.h"
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "core/cfg.h"
#include "core/sim.h"
#include "core/load.h"

static void vout(struct out_console *con, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void vout(struct out_console *con, const char *fmt, va_list ap)
{
	va_list ap2;

	va_copy(ap2, ap);
	vprintf(fmt, ap);
	fflush(stdout);
	if (con->log) {
		vfprintf(con->log, fmt, ap2);
		fflush(con->log);
	}
	va_end(ap2);
}

void out_printf(struct out_console *con, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vout(con, fmt, ap);
	va_end(ap);
}

void out_cb(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vout(ctx, fmt, ap);
	va_end(ap);
}

/* Latencies are in ms, or us with -r (as interbench always did). */
static double table_unit(const struct plan *p)
{
	return p->cfg.rt ? NSEC_PER_USEC : NSEC_PER_MSEC;
}

static const char *table_unit_name(const struct plan *p)
{
	return p->cfg.rt ? "us" : "ms";
}

/* A figure as the tables print it; "-" where there is none. */
static const char *fig(char *buf, size_t n, const struct plan *p,
		       enum fig_id id, double v)
{
	if (figures[id].unit == FU_NS)
		v /= table_unit(p);
	else if (figures[id].unit == FU_NS_MS)
		v /= NSEC_PER_MSEC;
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3g", v);
	return buf;
}

/* Does the table of simulator s show figure id? */
static bool shows(const struct sim_desc *s, enum fig_id id)
{
	return !(figures[id].flags & FIG_DEADLINES) ||
	       (s->flags & SIM_DEADLINES);
}

/* The short name of a figure: its first, without the alternatives. */
static int name_len(const struct figure *f)
{
	return (int)strcspn(f->name, "|");
}

/* The Load column: 0.31's 9 wide, wider for a longer name in the run. */
static int load_w(const struct plan *p)
{
	int i, w = 9;

	for (i = 0; i < p->nloads; i++)
		if ((int)strlen(p->loads[i]->name) > w)
			w = (int)strlen(p->loads[i]->name);
	return w;
}

/*
 * A -v column's head: the figure's short name and its unit as the table
 * gives it ("p99 ms", "low_1pct fps", "stutters"); its width, 9 at least.
 */
static int verbose_head(char *buf, size_t n, const struct plan *p,
			const struct figure *f)
{
	const char *unit = f->unit == FU_NS ? table_unit_name(p) :
			   f->unit == FU_NS_MS ? "ms" :
			   f->unit == FU_HZ ? "fps" :
			   f->unit == FU_PCT ? "%" : "";
	int len = snprintf(buf, n, "%.*s%s%s", name_len(f), f->name,
			   *unit ? " " : "", unit);

	return len > 9 ? len : 9;
}

void out_table_head(struct out_console *con, const struct sim_desc *s)
{
	const struct plan *p = con->plan;
	char lat[32], max[32], head[48];
	int i, w;

	out_printf(con, "\n--- Benchmarking simulated cpu of %s in the "
		   "presence of simulated ---\n", s->name);
	snprintf(lat, sizeof(lat), "Latency +/- SD (%s)", table_unit_name(p));
	snprintf(max, sizeof(max), "Max Latency (%s)", table_unit_name(p));
	out_printf(con, "%-*s %-24s %16s %14s", load_w(p), "Load", lat, max,
		   "% Desired CPU");
	if (shows(s, F_MET))
		out_printf(con, " %16s", "% Deadlines Met");
	/* each -v column says its own unit */
	for (i = 0; p->verbose && i < F_COUNT; i++)
		if (figures[i].flags & FIG_VERBOSE) {
			w = verbose_head(head, sizeof(head), p, &figures[i]);
			out_printf(con, " %*s", w, head);
		}
	if (p->repeats > 1)
		out_printf(con, "  [median of %d repeats: repeats measured; "
			   "mean latency, lowest-highest]", p->repeats);
	out_printf(con, "\n");
}

/* A percentage, or "-" when unknown. */
static const char *pct_text(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (v >= 10)
		snprintf(buf, n, "%.0f", v);	/* never "1e+02" */
	else
		snprintf(buf, n, "%.2g", v);
	return buf;
}

/* A count or rate, or "-" when unknown. */
static const char *count_text(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.0f", v);
	return buf;
}

/* With -v: the row's interference (interfere.h), in percent and counts. */
static void table_interference(struct out_console *con, const struct row *w)
{
	char a[8][16];
	int i;

	for (i = 0; i < 7; i++)
		pct_text(a[i], sizeof(a[i]), w->v[F_INTF_STEAL + i]);
	out_printf(con, "          interference: steal %s, irq %s, softirq "
		   "%s, iowait %s %%; psi cpu %s, io %s, memory %s %%; ", a[0],
		   a[1], a[2], a[3], a[4], a[5], a[6]);
	out_printf(con, "%s ctxt/s, %s intr/s; other tasks %s %%\n",
		   count_text(a[0], 16, w->v[F_INTF_CTXT]),
		   count_text(a[1], 16, w->v[F_INTF_INTR]),
		   pct_text(a[2], 16, w->v[F_INTF_OTHERS]));
	out_printf(con, "          task: runq wait %s %%, switches %s "
		   "voluntary, %s involuntary, %s migrations\n",
		   pct_text(a[0], 16, w->v[F_INTF_RUNQ]),
		   count_text(a[1], 16, w->v[F_INTF_VCSW]),
		   count_text(a[2], 16, w->v[F_INTF_IVCSW]),
		   count_text(a[3], 16, w->v[F_INTF_MIGR]));
	out_printf(con, "          cgroup: throttled %s %% (%s periods); psi "
		   "cpu %s, memory %s %%; memory events: high %s, max %s, "
		   "oom_kill %s\n", pct_text(a[0], 16, w->v[F_INTF_THROTTLED]),
		   count_text(a[1], 16, w->v[F_INTF_THR_PERIODS]),
		   pct_text(a[2], 16, w->v[F_INTF_CG_PSI_CPU]),
		   pct_text(a[3], 16, w->v[F_INTF_CG_PSI_MEM]),
		   count_text(a[4], 16, w->v[F_INTF_MEM_HIGH]),
		   count_text(a[5], 16, w->v[F_INTF_MEM_MAX]),
		   count_text(a[6], 16, w->v[F_INTF_OOM]));
}

/*
 * What confounds a row, each mark "  [...]" as the table prints it: the
 * console's and KTAP's one list (doc/results.txt, "Row marks").
 */
void out_row_marks(char *buf, size_t n, const struct plan *p,
		   const struct row *w)
{
	double u = table_unit(p);
	size_t at = 0;

#define ADD(...) (at += (size_t)snprintf(buf + at, at < n ? n - at : 0, \
					 __VA_ARGS__))
	if (n)
		buf[0] = '\0';
	/* the simulator's own: RtApp's threads that stalled */
	if (w->marked && p->repeats > 1)
		ADD("  [%s; %d of %d]", w->mark, w->marked, w->ok);
	else if (w->marked)
		ADD("  [%s]", w->mark);
	if (steal_marked(w->v[F_INTF_STEAL]))
		ADD("  [steal %.2g %%]", w->v[F_INTF_STEAL]);
	/*
	 * Without real-time rights the timing thread's own lateness (the
	 * timer part of each latency) is in every figure: its mean.
	 */
	if (!p->cfg.rt_ok && isfinite(w->v[F_TIMER_MEAN]))
		ADD("  [no rt: timer +%.3g]", w->v[F_TIMER_MEAN] / u);
	/* other tasks took the run's CPUs: the figures include them */
	if (busy_marked(w->v[F_INTF_OTHERS]))
		ADD("  [busy %.2g %%]", w->v[F_INTF_OTHERS]);
	/* the cgroup's quota held the run back: its figures include it */
	if (throttle_marked(w->v[F_INTF_THROTTLED]))
		ADD("  [throttled %.2g %%]", w->v[F_INTF_THROTTLED]);
	/* --remeasure-if: these figures are one of several attempts */
	if (w->remeasured && p->repeats > 1)
		ADD("  [remeasured %d of %d]", w->remeasured, w->ok);
	else if (w->remeasured)
		ADD("  [remeasured]");
#undef ADD
}

/* With -v: "load did: 1.2 Mloops/s, ..." */
static void table_work(struct out_console *con, const struct row *w)
{
	bool any = false;
	int k;

	for (k = 0; k < WORK_KINDS; k++) {
		if (!(w->work_rate[k] > 0))
			continue;
		out_printf(con, "%s%.4g %s",
			   any ? ", " : "          load did: ",
			   w->work_rate[k] / work_units[k].scale,
			   work_units[k].unit);
		any = true;
	}
	if (any)
		out_printf(con, "\n");
}

static void table_row(struct out_console *con, const struct row *w)
{
	const struct plan *p = con->plan;
	double u = table_unit(p);
	char marks[512];
	char lat[64], num[32], head[48];
	int i;

	if (!w->ok) {
		out_printf(con, "%-*s %s\n", load_w(p), w->load->name,
			   w->bad ? w->bad->why : "not run");
		return;
	}
	snprintf(lat, sizeof(lat), "%.3g +/- %.3g", w->v[F_LAT_MEAN] / u,
		 w->v[F_LAT_SD] / u);
	out_printf(con, "%-*s %-24s %16s", load_w(p), w->load->name, lat,
		   fig(num, sizeof(num), p, F_LAT_MAX, w->v[F_LAT_MAX]));
	out_printf(con, " %14s",
		   fig(num, sizeof(num), p, F_DESIRED, w->v[F_DESIRED]));
	if (shows(w->sim, F_MET))
		out_printf(con, " %16s",
			   fig(num, sizeof(num), p, F_MET, w->v[F_MET]));
	for (i = 0; p->verbose && i < F_COUNT; i++)
		if (figures[i].flags & FIG_VERBOSE)
			out_printf(con, " %*s",
				   verbose_head(head, sizeof(head), p,
						&figures[i]),
				   fig(num, sizeof(num), p, (enum fig_id)i,
				       w->v[i]));
	if (p->repeats > 1)
		out_printf(con, "  [%d of %d ok; mean %.3g-%.3g]", w->ok, w->n,
			   w->mean_lo / u, w->mean_hi / u);
	out_row_marks(marks, sizeof(marks), p, w);
	out_printf(con, "%s\n", marks);
	if (w->bad && p->repeats > 1)
		out_printf(con, "          repeat %d: %s\n", w->bad->repeat,
			   w->bad->why);
	if (p->verbose) {
		table_work(con, w);
		table_interference(con, w);
	}
}

void out_result(struct out_console *con, const struct result *res, int n)
{
	const struct result *r = &res[n - 1];
	struct row w;

	if (make_row(&w, res, n, r->sim, r->load)) {
		out_printf(con, "%-*s out of memory\n", load_w(con->plan),
			   r->load->name);
		return;
	}
	table_row(con, &w);
	if (r->status == RES_OK && r->sim->detail)
		r->sim->detail(r, plan_sim_opts(con->plan, r->sim), out_cb,
			       con);
}

void out_tables(struct out_console *con, const struct result *res, int n)
{
	const struct plan *p = con->plan;
	struct row w;
	int s, l;

	for (s = 0; s < p->nsims; s++) {
		out_table_head(con, p->sims[s]);
		for (l = 0; l < p->nloads; l++) {
			if (!plan_has(p->sims[s], p->loads[l]))
				continue;
			if (make_row(&w, res, n, p->sims[s], p->loads[l])) {
				out_printf(con, "%-*s out of memory\n",
					   load_w(p), p->loads[l]->name);
				continue;
			}
			if (w.n)
				table_row(con, &w);
		}
	}
}

/* One row's broken gates; true if any. */
void out_gate_text(char *buf, size_t n, const struct plan *p,
		   const struct gate *gt, const struct row *w, int nbroke)
{
	const struct figure *f = &figures[gt->fig];
	double v = w->v[gt->fig];
	bool ns = f->unit == FU_NS;
	int used, thin, need;

	/* in the table's unit, as the row shows it */
	if (gt->k)
		used = snprintf(buf, n, "--fail-if '%s': %s under %s broke it "
				"in %d of %d repeats (median %.4g %s)",
				gt->text, w->sim->name, w->load->name, nbroke,
				w->ok, ns ? v / table_unit(p) :
				figure_out(f, v), ns ? table_unit_name(p) :
				figure_out_unit(f));
	else
		used = snprintf(buf, n, "--fail-if '%s': %s under %s has %.4g "
				"%s", gt->text, w->sim->name, w->load->name,
				ns ? v / table_unit(p) : figure_out(f, v),
				ns ? table_unit_name(p) : figure_out_unit(f));
	thin = gate_thin(gt, w, &need);
	if (thin && used > 0 && (size_t)used < n)
		snprintf(buf + used, n - (size_t)used, " (a %s of %d samples "
			 "is their maximum: it needs %d)", f->label, thin,
			 need);
}

/* Each gate the row breaks, said, and marked in broken[]. */
static void row_gates(struct out_console *con, const struct row *w,
		      const struct result *res, int n, bool *broken)
{
	const struct plan *p = con->plan;
	char line[400];
	int g, nb;

	for (g = 0; g < p->ngates; g++) {
		if (!gate_judge(&p->gates[g], w, res, n, &nb))
			continue;
		out_gate_text(line, sizeof(line), p, &p->gates[g], w, nb);
		out_printf(con, "FAILED %s\n", line);
		broken[g] = true;
	}
}

/* Gates are checked on the figures the tables show. */
int out_check_gates(struct out_console *con, const struct result *res, int n)
{
	const struct plan *p = con->plan;
	bool broken[MAX_GATES] = { false };
	struct row w;
	int s, l, g, nbroken = 0;

	for (s = 0; s < p->nsims; s++)
		for (l = 0; l < p->nloads; l++) {
			if (!plan_has(p->sims[s], p->loads[l]))
				continue;
			if (make_row(&w, res, n, p->sims[s], p->loads[l]) ||
			    !w.ok)
				continue;
			row_gates(con, &w, res, n, broken);
		}
	for (g = 0; g < p->ngates; g++)
		nbroken += broken[g];
	return nbroken;
}

/* Text out at words, in lines of at most 79 columns. */
static void out_wrapped(struct out_console *con, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *cut = NULL, *q;

		for (q = p; *q && q - p <= 79; q++)
			if (*q == ' ')
				cut = q;
		if (!*q || !cut)
			cut = q;
		out_printf(con, "%.*s\n", (int)(cut - p), p);
		p = *cut ? cut + 1 : cut;
	}
}

/*
 * The loop count varied while calibrating: say why, as far as the samples
 * tell (lib/cpuwork.c). Other tasks or the host taking the calibrating
 * thread's CPU is not the CPU's speed; undisturbed samples that still
 * varied are the speed, and they say what else was busy meanwhile.
 */
static void calib_note(struct out_console *con, const struct calibration *cal)
{
	char t[640];
	size_t n = 0;
	bool speed, busy, rest;

	if (!cal->measured || !(cal->spread_pct > 10))
		return;
	speed = cal->undisturbed >= 3 && cal->speed_spread_pct > 10;
	/* a sample or two just past the mark does not explain a speed */
	busy = cal->undisturbed < cal->samples &&
	       !(speed && cal->off_pct < 2);
	rest = cal->others_machine_pct >= 25;
#define ADD(...) (n += (size_t)snprintf(t + n, n < sizeof(t) ? \
					   sizeof(t) - n : 0, __VA_ARGS__))
	if (busy) {
		ADD("Note: calibration was disturbed: ");
		if (isfinite(cal->others_pct) && cal->host_pct >= 1)
			ADD("other tasks held its CPU %.0f %% of the time "
			    "and the host %.0f %%", cal->others_pct,
			    cal->host_pct);
		else if (isfinite(cal->others_pct))
			ADD("other tasks held its CPU %.0f %% of the time",
			    cal->others_pct);
		else
			ADD("other tasks or the host held its CPU %.0f %% "
			    "of the time", cal->off_pct);
		ADD(", and the loop count varied by %.0f %% (%d of %d samples "
		    "undisturbed). Loops per ms is the median of the %s "
		    "thread CPU time; latency and %% CPU figures are "
		    "unaffected (tasks burn CPU time, not loop counts). Is "
		    "the machine busy?", cal->spread_pct, cal->undisturbed,
		    cal->samples, cal->undisturbed >= 3 ?
		    "undisturbed samples'" : "samples'");
		out_wrapped(con, t);
		n = 0;
	}
	if (!speed)
		return;
	ADD("Note: the %s speed varied by %.0f %% while calibrating, in "
	    "samples that had their CPU to themselves",
	    cal->cpufreq && !rest ? "CPU's" : "loop's",
	    cal->speed_spread_pct);
	if (rest)
		ADD(", with other tasks keeping the rest of the machine %.0f "
		    "%% busy", cal->others_machine_pct);
	if (!cal->cpufreq)
		ADD("; no cpufreq here, so not a frequency change the kernel "
		    "made");
	ADD(". Latency and %% CPU figures are unaffected (tasks burn CPU "
	    "time, not loop counts); what the loads got done (-v's \"load "
	    "did\", compare's load rates) varies with the speed");
#undef ADD
	out_wrapped(con, t);
}

/* How a run schedules its tasks and loads: "Benchmarked tasks ...". */
static void settings_text(const struct plan *p, char *buf, size_t n)
{
	const struct run_cfg *cfg = &p->cfg;
	char slice[80] = "", lpol[32] = "";
	int len;

	if (cfg->bench_slice_ns)
		snprintf(slice, sizeof(slice), ", slice %llu us",
			 (unsigned long long)(cfg->bench_slice_ns /
					      NSEC_PER_USEC));
	if (cfg->timer_slack_ns)
		snprintf(slice + strlen(slice), sizeof(slice) - strlen(slice),
			 ", timer slack %llu ns",
			 (unsigned long long)cfg->timer_slack_ns);
	if (cfg->load_policy != POL_OTHER)
		snprintf(lpol, sizeof(lpol), "%s, ",
			 policy_kernel_name(cfg->load_policy));
	len = snprintf(buf, n, "Benchmarked tasks %s, nice %d%s; loads %snice "
		       "%d, %d burn threads; %d CPUs",
		       policy_kernel_name(cfg->bench_policy), cfg->bench_nice,
		       slice, lpol, cfg->load_nice, cfg->load_threads,
		       cfg->cpus);
	if (cfg->uniprocessor && len > 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, " (all on CPU %d)",
			 cfg->uni_cpu);
}

void out_log_header(struct out_console *con, const struct calibration *cal,
		    const struct plan *b)
{
	const struct plan *p = con->plan;
	const struct run_cfg *cfg = &p->cfg;
	struct utsname u;
	char stamp[32], set[2][256];
	time_t t = time(NULL);

	uname(&u);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M", localtime(&t));
	out_printf(con, "\nBenchmarking kernel %s with datestamp %s\n",
		   u.release, stamp);
	out_printf(con, "interbench %s: %s\n", IB_VERSION, p->args);
	out_printf(con, "Using %llu loops per ms (burn error %+.2f %%), "
		   "running every cell for %.3g seconds\n",
		   (unsigned long long)cfg->loops_per_ms, cal->error_pct,
		   (double)cfg->duration_ns / NSEC_PER_SEC);
	settings_text(p, set[0], sizeof(set[0]));
	if (b)
		settings_text(b, set[1], sizeof(set[1]));
	/* ab's sides scheduled apart: each side's own line */
	if (b && strcmp(set[0], set[1]))
		out_printf(con, "A: %s\nB: %s\n", set[0], set[1]);
	else
		out_printf(con, "%s\n", set[0]);
	calib_note(con, cal);
	if (!cfg->rt_ok)
		out_printf(con, "WARNING: no real-time privileges: the "
			   "timing thread runs SCHED_OTHER and results are "
			   "unreliable\n");
	if (p->dma_given)
		out_printf(con, "PM QoS: /dev/cpu_dma_latency held at %d us "
			   "for the run\n", p->dma_latency_us);
	if (p->comment)
		out_printf(con, "Comment: %s\n", p->comment);
	if (p->tag)
		out_printf(con, "Tag: %s\n", p->tag);
}

/* ---- --trace -------------------------------------------------------- */

/* Only to the log: what -v would have shown on the console. */
static void log_only(struct out_console *con, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void log_only(struct out_console *con, const char *fmt, ...)
{
	va_list ap;

	if (!con->log)
		return;
	va_start(ap, fmt);
	vfprintf(con->log, fmt, ap);
	va_end(ap);
	fflush(con->log);
}

#define MS(ns)	((double)(ns) / NSEC_PER_MSEC)

/* snprintf appended at *at, never past n. */
static void add(char *buf, size_t n, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t n, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*at >= n)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *at, n - *at, fmt, ap);
	va_end(ap);
	if (k > 0)
		*at += (size_t)k;
}

/*
 * " (cpu idle 22.8: host (steal or vCPU wakeup))": no task held it; or
 * " (cpu idle 22.5: throttled, cgroup /ci: cpu.max 40000/100000)", by
 * the limit the frame names.
 */
static void idle_text(char *buf, size_t n, size_t *at,
		      const struct why_part *p, const char *by)
{
	if (!p->idle_cause)
		return;
	add(buf, n, at, " (cpu idle %.3g: %s", MS(p->idle_ns),
	    trace_why_idle_text(p->idle_cause));
	if (p->idle_cause == WHY_IDLE_THROTTLED) {
		if (*by)
			add(buf, n, at, ", %s", by);
		else
			add(buf, n, at, " by the run's cgroup");
		if (!p->throttle_seen)
			add(buf, n, at, ", inferred from the cgroup's "
			    "counters");
	}
	add(buf, n, at, ")");
}

/* " behind a:1 2.1, b:2 0.3; irq x 0.1; softirq NET_RX 0.2" */
static void part_text(char *buf, size_t n, size_t *at,
		      const struct why_frame *f, const struct why_part *p,
		      int most)
{
	uint64_t shown = 0;
	int i;

	idle_text(buf, n, at, p, f->throttled_by);
	if (p->own_ns >= 10 * NSEC_PER_USEC)
		add(buf, n, at, " (own work %.3g)", MS(p->own_ns));
	for (i = 0; i < p->nran && i < most; i++) {
		add(buf, n, at, "%s%s:%d %.3g", i ? ", " : " behind ",
		    p->ran[i].name, p->ran[i].pid, MS(p->ran[i].ns));
		if (p->ran[i].pid)
			shown += p->ran[i].ns;
	}
	/* Many small culprits (hackbench's threads) add up: say so. */
	if (i && p->others_ns > shown + p->others_ns / 20)
		add(buf, n, at, ", other tasks %.3g", MS(p->others_ns - shown));
	if (p->irq_ns) {
		add(buf, n, at, "; irq %.3g", MS(p->irq_ns));
		for (i = 0; i < p->nirq && i < 2; i++)
			add(buf, n, at, "%s%s %.3g", i ? ", " : " (",
			    p->irq[i].name, MS(p->irq[i].ns));
		add(buf, n, at, ")");
	}
	for (i = 0; i < p->nsoft && i < 2; i++)
		add(buf, n, at, "%s%s %.3g", i ? ", " : "; softirq ",
		    p->soft[i].name, MS(p->soft[i].ns));
}

void out_why_line(char *buf, size_t n, const struct why_frame *f)
{
	size_t at = 0;

	buf[0] = '\0';
	add(buf, n, &at, "%s %.3g ms: timer +%.3g", f->broke ? "break" :
	    "worst", MS(f->latency_ns), MS(f->timer.ns));
	/* What held the timer up matters only when it was late. */
	if (f->timer.ns >= WHY_LATE_NS) {
		if (f->timer.fired_ns)
			add(buf, n, &at, " fired %.3g late",
			    MS(f->timer.fired_ns));
		part_text(buf, n, &at, f, &f->timer, 2);
	}
	add(buf, n, &at, "; waited %.3g on cpu %d", MS(f->wait.ns),
	    f->wait.cpu);
	part_text(buf, n, &at, f, &f->wait, 3);
	if (f->migrations)
		add(buf, n, &at, "; migrated %d", f->migrations);
	if (f->lost)
		add(buf, n, &at, "; [trace incomplete: not explained in "
		    "full]");
}

void out_remeasured_line(char *buf, size_t n, const struct gate *g,
			 const struct result *r)
{
	const struct figure *f = &figures[g->fig];
	size_t at = 0;
	int i;

	buf[0] = '\0';
	add(buf, n, &at, "remeasured while %s:", g->text);
	for (i = 0; i < r->nattempts; i++) {
		const struct attempt *a = &r->attempt[i];

		add(buf, n, &at, "%s %d", i ? ";" : "", i + 1);
		if (a->status != RES_OK) {
			add(buf, n, &at, " not measured");
			continue;
		}
		/* The condition's figure by its gate name, and the steal */
		add(buf, n, &at, " %.*s %.3g%s%s", (int)strcspn(f->name, "|"),
		    f->name, figure_out(f, a->value),
		    *figure_out_unit(f) ? " " : "", figure_out_unit(f));
		if (g->fig != F_INTF_STEAL)
			add(buf, n, &at, ", steal %.2g %%", a->steal_pct);
		add(buf, n, &at, ", mean %.3g ms", a->lat_mean / NSEC_PER_MSEC);
		if (i == r->chosen)
			add(buf, n, &at, " (kept)");
	}
}

void out_remeasured(struct out_console *con, const struct result *r)
{
	const struct plan *p = con->plan;
	char who[96] = "", line[1024];

	if (r->nattempts < 2)
		return;
	if (p->repeats > 1)
		snprintf(who, sizeof(who), "%s under %s, repeat %d: ",
			 r->sim->name, r->load->name, r->repeat);
	out_remeasured_line(line, sizeof(line), &p->remeasure_if, r);
	out_printf(con, "          %s%s\n", who, line);
}

void out_why(struct out_console *con, const struct result *r)
{
	const struct plan *p = con->plan;
	char line[1024], who[96] = "";
	int i;

	if (!r->traced || r->status != RES_OK)
		return;
	if (p->repeats > 1)
		snprintf(who, sizeof(who), "%s under %s, repeat %d: ",
			 r->sim->name, r->load->name, r->repeat);
	if (r->trace_lost)
		out_printf(con, "          %strace: %llu events lost (buffer "
			   "full); frames they would explain are marked "
			   "incomplete\n", who,
			   (unsigned long long)r->trace_lost);
	if (r->why_err)
		out_printf(con, "          %strace: cannot read it: %s\n", who,
			   strerror(-r->why_err));
	else if (!r->nexplained)
		out_printf(con, "          %strace: %s keeps no frames to "
			   "explain\n", who, r->sim->name);
	for (i = 0; i < r->nexplained; i++) {
		out_why_line(line, sizeof(line), &r->explained[i]);
		/*
		 * The worst frame, and the one --breaktrace stopped at, on
		 * the console always; the rest there with -v, else only in
		 * the logfile, which the run names at its end.
		 */
		if (p->verbose || !i || r->explained[i].broke)
			out_printf(con, "          %s%s\n", who, line);
		else
			log_only(con, "          %s%s\n", who, line);
	}
	if (!p->verbose && r->nexplained > 1)
		out_printf(con, "          %s%d more frames explained %s\n",
			   who, r->nexplained - 1, con->log ? "in the logfile "
			   "(or -v here)" : "with -v (-c keeps no logfile)");
}
