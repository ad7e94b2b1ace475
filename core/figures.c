// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/figures.c - the table of figures, results read from the simulators'
 * raw figures, rows (medians over repeats) and --fail-if gates. Pure: no
 * output, no clocks, no exit; unit-tested by tests/unit-figures.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/figures.h"
#include "core/gate.h"
#include "lib/json.h"
#include "lib/base.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"

#define IB_FIG_ROW(id, g, k, n, l, u, b, fl, get, off, arg)		\
	[F_##id] = { g, k, n, l, u, b, fl, get, off, arg, NULL },
const struct figure figures[F_COUNT] = { IB_FIGURES(IB_FIG_ROW) };
#undef IB_FIG_ROW

static const struct lat_stats *stats_at(const struct figure *f,
					const struct sim_result *r)
{
	return (const struct lat_stats *)((const char *)r + f->off);
}

double fig_stat(const struct figure *f, const struct sim_result *r)
{
	const struct lat_stats *s = stats_at(f, r);

	if (f->arg == FS_COUNT)
		return (double)s->count;
	if (!s->count)
		return NAN;
	if (f->arg == FS_MEAN)
		return stats_mean(s);
	if (f->arg == FS_SD)
		return stats_sd(s);
	if (f->arg == FS_MIN)
		return (double)s->min;
	if (f->arg == FS_MAX)
		return (double)s->max;
	return (double)stats_percentile(s, f->arg);
}

double fig_u64(const struct figure *f, const struct sim_result *r)
{
	uint64_t v;

	memcpy(&v, (const char *)r + f->off, sizeof(v));
	return (double)v;
}

double fig_u64_nonzero(const struct figure *f, const struct sim_result *r)
{
	double v = fig_u64(f, r);

	return v > 0 ? v : NAN;
}

double fig_double(const struct figure *f, const struct sim_result *r)
{
	double v;

	memcpy(&v, (const char *)r + f->off, sizeof(v));
	return v;
}

double fig_desired_pct(const struct figure *f, const struct sim_result *r)
{
	(void)f;
	return r->cpu_desired_ns > 0 ?
	       100.0 * r->cpu_got_ns / r->cpu_desired_ns : NAN;
}

double fig_met_pct(const struct figure *f, const struct sim_result *r)
{
	(void)f;
	return r->has_deadlines && r->frames ?
	       100.0 * (double)r->frames_met / (double)r->frames : NAN;
}

double fig_mode(const struct figure *f, const struct sim_result *r)
{
	const struct lat_stats *s = stats_at(f, r);
	uint64_t best = 0, lo, hi;
	unsigned b, at = 0;

	if (!s->count)
		return NAN;
	for (b = 0; b < STATS_BUCKETS; b++)
		if (s->hist[b] > best) {
			best = s->hist[b];
			at = b;
		}
	lo = stats_bucket_low(at);
	hi = stats_bucket_high(at);
	return (double)(lo + (hi - lo) / 2);
}

double fig_fps(const struct figure *f, const struct sim_result *r)
{
	const struct lat_stats *s = stats_at(f, r);
	double want, got = 0, sum = 0;
	unsigned b;

	if (!s->count)
		return NAN;
	if (f->arg <= 0)
		return NSEC_PER_SEC / stats_mean(s);
	/* the slowest arg % of the frames (one at least), from the top */
	want = ceil((double)s->count * f->arg / 100);
	for (b = STATS_BUCKETS; b-- > 0 && got < want; ) {
		double n = (double)s->hist[b], mid, take;

		if (!n)
			continue;
		mid = ((double)stats_bucket_low(b) + (double)stats_bucket_high(b))
		      / 2;
		/* within 0.4 %; the extremes are known exactly */
		mid = fmin(fmax(mid, (double)s->min), (double)s->max);
		take = fmin(n, want - got);
		sum += take * mid;
		got += take;
	}
	return NSEC_PER_SEC / (sum / got);
}

double fig_stutters(const struct figure *f, const struct sim_result *r)
{
	(void)f;
	return r->frame_time.count ? (double)r->stutters : NAN;
}

double figure_out(const struct figure *f, double v)
{
	if (f->unit == FU_NS)
		return v / NSEC_PER_USEC;
	if (f->unit == FU_NS_MS)
		return v / NSEC_PER_MSEC;
	return v;
}

const char *figure_out_unit(const struct figure *f)
{
	switch (f->unit) {
	case FU_NS: return "us";
	case FU_NS_MS: return "ms";
	case FU_PCT: return "%";
	case FU_HZ: return "fps";
	default: return "";
	}
}

void fig_json_note(struct jw *w, const struct figure *f,
		   const struct result *r)
{
	jw_str(w, f->key, r->note[0] ? r->note : NULL);
}

/* ---- results -------------------------------------------------------- */

int result_from_sim(struct result *r, const struct sim_result *res)
{
	const struct sim_desc *s = r->sim;
	uint32_t b, n = 0;
	int i;

	for (i = 0; i < F_COUNT; i++)
		r->v[i] = figures[i].get(&figures[i], res);
	snprintf(r->note, sizeof(r->note), "%s", res->note);
	snprintf(r->throttled_by, sizeof(r->throttled_by), "%s",
		 res->intf.throttled_by);
	r->sched.seen = res->sched_seen;
	r->sched.policy = res->sched_policy;
	r->sched.slice_ns = res->sched_slice_ns;
	r->sched.runtime_ns = res->sched_runtime_ns;
	r->sched.period_ns = res->sched_period_ns;
	if (s->nfigures) {
		r->sim_v = calloc((size_t)s->nfigures, sizeof(*r->sim_v));
		if (!r->sim_v)
			return -ENOMEM;
		for (i = 0; i < s->nfigures; i++)
			r->sim_v[i] = s->figures[i].get ?
				s->figures[i].get(&s->figures[i], res) : NAN;
	}
	for (b = 0; b < STATS_BUCKETS; b++)
		n += res->latency.hist[b] != 0;
	r->hist = n ? calloc(n, sizeof(*r->hist)) : NULL;
	if (n && !r->hist)
		return -ENOMEM;
	r->nhist = 0;
	for (b = 0; b < STATS_BUCKETS; b++)
		if (res->latency.hist[b]) {
			r->hist[r->nhist].bucket = b;
			r->hist[r->nhist++].count = res->latency.hist[b];
		}
	r->win_ns = res->windows.width_ns;
	r->nwin = 0;
	for (i = 0; r->win_ns && i < WIN_SLOTS; i++) {
		r->win[i] = res->windows.worst[i];
		if (r->win[i] != WIN_EMPTY)
			r->nwin = i + 1;
	}
	if (s->keep) {
		r->kept = s->keep(res);
		/* NULL is also "nothing to keep": keep() says which. */
	}
	return 0;
}

void result_free(struct result *r)
{
	free(r->hist);
	free(r->sim_v);
	free(r->kept);
	free(r->explained);
	r->explained = NULL;
	r->nexplained = 0;
	r->hist = NULL;
	r->sim_v = NULL;
	r->kept = NULL;
	r->nhist = 0;
}

const char *result_status_text(const struct result *r)
{
	return r->status == RES_OK ? "ok" : r->why;
}

void figure_group_names(const char *group, char *buf, size_t n)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < F_COUNT && at < n; i++)
		if (figures[i].group && !strcmp(figures[i].group, group))
			at += (size_t)snprintf(buf + at, n - at, "%s%s",
					       at ? ", " : "", figures[i].name);
}

void figure_compare_names(const char *sep, char *buf, size_t n)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < F_COUNT && at < n; i++)
		if (figures[i].flags & FIG_COMPARE)
			at += (size_t)snprintf(buf + at, n - at, "%s%.*s",
					       at ? sep : "",
					       (int)strcspn(figures[i].name, "|"),
					       figures[i].name);
}

bool figure_named(const struct figure *f, const char *name, size_t len)
{
	const char *p = f->name;

	while (p && *p) {
		size_t l = strcspn(p, "|");

		if (l == len && !strncasecmp(p, name, len))
			return true;
		p += l;
		if (*p == '|')
			p++;
	}
	return false;
}

/* "latency_us" + "p99" -> "latency_p99_us"; no group: the key. */
void figure_csv_name(const struct figure *f, char *buf, size_t n)
{
	size_t gl;

	if (!f->group) {
		snprintf(buf, n, "%s", f->key);
		return;
	}
	gl = strlen(f->group);
	/* "latency_us": the unit goes last; a count in it has none */
	if (gl > 3 && (!strcmp(f->group + gl - 3, "_us") ||
		       !strcmp(f->group + gl - 3, "_ms")))
		snprintf(buf, n, "%.*s_%s%s", (int)(gl - 3), f->group, f->key,
			 figure_is_time(f) ? f->group + gl - 3 : "");
	else
		snprintf(buf, n, "%s_%s", f->group, f->key);
}

/* ---- rows ----------------------------------------------------------- */

/* Median of the known (not NaN) values among v[0..n-1]; sorts them. */
static double known_median(double *v, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	return stats_median(v, (size_t)k);
}

int make_row(struct row *w, const struct result *res, int n,
	     const struct sim_desc *sim, const struct load_desc *load)
{
	double *v = calloc((size_t)n + 1, sizeof(double));
	int i, k, m;

	memset(w, 0, sizeof(*w));
	w->sim = sim;
	w->load = load;
	w->mean_lo = INFINITY;
	w->mean_hi = -INFINITY;
	for (i = 0; i < F_COUNT; i++)
		w->v[i] = NAN;
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (r->sim != sim || r->load != load)
			continue;
		w->n++;
		if (r->status != RES_OK) {
			if (!w->bad)
				w->bad = r;
			continue;
		}
		w->ok++;
		w->remeasured += r->nattempts > 1;
		if (sim->mark) {
			char mark[sizeof(w->mark)];

			sim->mark(r, mark, sizeof(mark));
			if (mark[0] && !w->marked++)
				memcpy(w->mark, mark, sizeof(mark));
		}
		w->mean_lo = fmin(w->mean_lo, r->v[F_LAT_MEAN]);
		w->mean_hi = fmax(w->mean_hi, r->v[F_LAT_MEAN]);
	}
	for (k = 0; w->ok && k < F_COUNT + WORK_KINDS; k++) {
		for (i = 0, m = 0; i < n; i++) {
			const struct result *r = &res[i];

			if (r->sim == sim && r->load == load &&
			    r->status == RES_OK)
				v[m++] = k < F_COUNT ? r->v[k] :
					 r->work_rate[k - F_COUNT];
		}
		if (k < F_COUNT)
			w->v[k] = known_median(v, m);
		else
			w->work_rate[k - F_COUNT] = known_median(v, m);
	}
	free(v);
	return 0;
}

int row_spread(const struct result *res, int n, const struct sim_desc *sim,
	       const struct load_desc *load, enum fig_id f, double *mean,
	       double *sd)
{
	double sum = 0, ss = 0;
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (res[i].sim == sim && res[i].load == load &&
		    res[i].status == RES_OK && res[i].v[f] > 0) {
			sum += log(res[i].v[f]);
			k++;
		}
	*mean = k ? sum / k : NAN;
	for (i = 0; i < n; i++)
		if (res[i].sim == sim && res[i].load == load &&
		    res[i].status == RES_OK && res[i].v[f] > 0)
			ss += (log(res[i].v[f]) - *mean) *
			      (log(res[i].v[f]) - *mean);
	*sd = k > 1 ? sqrt(ss / (k - 1)) : NAN;
	return k;
}

/* ---- gates ---------------------------------------------------------- */

/* The gate metric names, for the error message: "mean, sd, ..." */
static void gate_names(char *buf, size_t n)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < F_COUNT; i++) {
		const char *nm = figures[i].name;

		if (!(figures[i].flags & FIG_GATE) || !nm || used >= n)
			continue;
		used += (size_t)snprintf(buf + used, n - used, "%s%.*s",
					 used ? ", " : "",
					 (int)strcspn(nm, "|"), nm);
	}
}

/* The gate figure whose name is the longest prefix of p; -1 if none. */
static int gate_figure(const char *p, size_t *len)
{
	int i, best = -1;
	size_t bl = 0;

	for (i = 0; i < F_COUNT; i++) {
		const char *nm = figures[i].name;

		if (!(figures[i].flags & FIG_GATE))
			continue;
		while (nm && *nm) {
			size_t l = strcspn(nm, "|");

			if (l > bl && !strncasecmp(p, nm, l)) {
				best = i;
				bl = l;
			}
			nm += l;
			if (*nm == '|')
				nm++;
		}
	}
	*len = bl;
	return best;
}

/*
 * METRIC OP VALUE, e.g. 'p99>20ms', 'deadlines<95', 'cpu<=99.5%'.
 * Latencies need a unit (ns, us, ms, s) so that a gate never means one
 * thing with -r and another without.
 */
int gate_parse(struct gate *g, const char *text, char *err, size_t n)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = {
		{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC },
		{ "s", NSEC_PER_SEC },
	};
	const char *p = text, *rest, *at;
	char names[400], *end, expr[128];
	size_t i, len;
	long k;
	int f;

	g->text = text;
	g->k = 0;
	at = strchr(text, '@');
	if (at) {
		errno = 0;
		k = strtol(at + 1, &end, 10);
		if (end == at + 1 || *end || errno || k < 1 || k > 100) {
			snprintf(err, n, "'%s': @K wants K, the repeats that "
				 "must break it, from 1 to 100", text);
			return -EINVAL;
		}
		g->k = (int)k;
		snprintf(expr, sizeof(expr), "%.*s", (int)(at - text), text);
		p = expr;
	}
	while (*p == ' ')
		p++;
	f = gate_figure(p, &len);
	if (f < 0) {
		gate_names(names, sizeof(names));
		snprintf(err, n, "'%s': unknown metric (%s)", text, names);
		return -EINVAL;
	}
	g->fig = (enum fig_id)f;
	p += len;
	while (*p == ' ')
		p++;
	if (p[0] == '<' && p[1] == '=')
		g->op = 'l', p += 2;
	else if (p[0] == '>' && p[1] == '=')
		g->op = 'g', p += 2;
	else if (*p == '<' || *p == '>')
		g->op = *p++;
	else {
		snprintf(err, n, "'%s': expected <, <=, > or >= after the "
			 "metric", text);
		return -EINVAL;
	}
	while (*p == ' ')
		p++;
	errno = 0;
	g->value = strtod(p, &end);
	if (end == p || errno || !isfinite(g->value) || g->value < 0) {
		snprintf(err, n, "'%s': expected a number after the "
			 "comparison", text);
		return -EINVAL;
	}
	rest = end;
	if (!figure_is_time(&figures[f])) {
		if (*rest == '%')
			rest++;
		if (*rest) {
			snprintf(err, n, "'%s': a percentage takes no unit but "
				 "%%", text);
			return -EINVAL;
		}
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(rest, units[i].name)) {
			g->value *= units[i].ns;
			return 0;
		}
	snprintf(err, n, "'%s': a latency needs a unit: ns, us, ms or s",
		 text);
	return -EINVAL;
}

bool gate_judge(const struct gate *g, const struct row *w,
		const struct result *res, int n, int *nbroke)
{
	int i;

	*nbroke = 0;
	for (i = 0; i < n; i++)
		if (res[i].sim == w->sim && res[i].load == w->load &&
		    res[i].status == RES_OK && gate_broken(g, res[i].v[g->fig]))
			(*nbroke)++;
	return g->k ? *nbroke >= g->k : gate_broken(g, w->v[g->fig]);
}

int gate_thin(const struct gate *g, const struct row *w, int *need)
{
	const struct figure *f = &figures[g->fig];
	int i;

	if (f->get != fig_stat || !(f->arg > 0 && f->arg < 100))
		return 0;
	*need = (int)ceil(100 / (100 - f->arg) - 1e-9);
	/* the sample count of the same statistics */
	for (i = 0; i < F_COUNT; i++)
		if (figures[i].get == fig_stat && figures[i].off == f->off &&
		    figures[i].arg == FS_COUNT &&
		    figures[i].group == f->group)
			break;
	if (i == F_COUNT || isnan(w->v[i]) || w->v[i] >= *need)
		return 0;
	return (int)w->v[i];
}

bool gate_broken(const struct gate *g, double v)
{
	if (isnan(v))
		return false;
	switch (g->op) {
	case '<': return v < g->value;
	case '>': return v > g->value;
	case 'l': return v <= g->value;
	default: return v >= g->value;
	}
}
