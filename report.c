// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.c - cells summed up, the machine they ran on, and the JSON and
 * CSV results written from them.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "json.h"
#include "report.h"

static void summarize(struct lat_summary *o, const struct lat_stats *s)
{
	o->count = s->count;
	o->min = s->count ? s->min : 0;
	o->max = s->count ? s->max : 0;
	o->mean = stats_mean(s);
	o->sd = stats_sd(s);
	o->p50 = stats_percentile(s, 50);
	o->p90 = stats_percentile(s, 90);
	o->p99 = stats_percentile(s, 99);
	o->p999 = stats_percentile(s, 99.9);
}

const double extra_pcts[EXTRA_PCTS] = { 25, 50, 75, 90, 95.4, 99, 99.5,
					99.9, 99.99 };

static int extra_from_result(struct cell *c, const struct bench_result *res)
{
	struct cell_extra *x = calloc(1, sizeof(*x));
	const struct lat_stats *q = &res->rate;
	int i;

	if (!x)
		return -ENOMEM;
	c->extra = x;
	snprintf(x->note, sizeof(x->note), "%s", res->note);
	for (i = 0; i < EXTRA_PCTS; i++)
		x->pct[i] = stats_percentile(&res->latency, extra_pcts[i]);
	x->mode = stats_mode(&res->latency);
	x->rate_count = q->count;
	if (q->count) {
		x->rate_min = q->min;
		x->rate_p20 = stats_percentile(q, 20);
		x->rate_p50 = stats_percentile(q, 50);
		x->rate_p90 = stats_percentile(q, 90);
		x->rate_max = q->max;
	}
	x->dist_width_ns = res->dist_width_ns;
	if (res->dist_width_ns) {
		x->dist = malloc(sizeof(res->dist));
		if (!x->dist)
			return -ENOMEM;
		memcpy(x->dist, res->dist, sizeof(res->dist));
	}
	return 0;
}

int cell_from_result(struct cell *c, const struct bench_result *res)
{
	uint32_t b, n = 0;

	summarize(&c->lat, &res->latency);
	summarize(&c->timer, &res->timer);
	summarize(&c->wakeup, &res->wakeup);
	c->frames = res->frames;
	c->frames_met = res->frames_met;
	c->frames_dropped = res->frames_dropped;
	c->desired_pct = res->cpu_desired_ns > 0 ?
		100.0 * res->cpu_got_ns / res->cpu_desired_ns : NAN;
	c->met_pct = res->has_deadlines && res->frames ?
		100.0 * (double)res->frames_met / (double)res->frames : NAN;
	for (b = 0; b < STATS_BUCKETS; b++)
		n += res->latency.hist[b] != 0;
	c->hist = n ? calloc(n, sizeof(*c->hist)) : NULL;
	if (n && !c->hist)
		return -ENOMEM;
	c->nhist = 0;
	for (b = 0; b < STATS_BUCKETS; b++)
		if (res->latency.hist[b]) {
			c->hist[c->nhist].bucket = b;
			c->hist[c->nhist++].count = res->latency.hist[b];
		}
	if (c->bench->detail)
		return extra_from_result(c, res);
	return 0;
}

void cell_free(struct cell *c)
{
	free(c->hist);
	if (c->extra)
		free(c->extra->dist);
	free(c->extra);
	c->hist = NULL;
	c->extra = NULL;
	c->nhist = 0;
}

uint64_t stats_mode(const struct lat_stats *s)
{
	uint64_t best = 0, lo, hi;
	unsigned b, at = 0;

	if (!s->count)
		return 0;
	for (b = 0; b < STATS_BUCKETS; b++)
		if (s->hist[b] > best) {
			best = s->hist[b];
			at = b;
		}
	lo = stats_bucket_low(at);
	hi = stats_bucket_high(at);
	return lo + (hi - lo) / 2;
}

const char *cell_status_text(const struct cell *c)
{
	return c->status == CELL_OK ? "ok" : c->why;
}

/* ---- the machine ---------------------------------------------------- */

/* First line of a small file, without its newline: 0 or -errno. */
static int read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	char *nl;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		buf[0] = '\0';
		return -EIO;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

/* "key : value" from a /proc file such as cpuinfo or meminfo. */
static int proc_field(const char *path, const char *key, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	char line[512];
	size_t kl = strlen(key);
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, kl) || (line[kl] != ':' &&
					       line[kl] != ' ' &&
					       line[kl] != '\t'))
			continue;
		v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, n, "%s", v);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

static long long meminfo_kb(const char *key)
{
	char buf[64];

	if (proc_field("/proc/meminfo", key, buf, sizeof(buf)))
		return -1;
	return atoll(buf);
}

/* The kernel's preemption model, where it can be read. */
static void read_preempt(char *buf, size_t n, const char *version)
{
	char line[128], *open_p, *close_p;

	buf[0] = '\0';
	/* Dynamic preemption shows the mode in use in parentheses. */
	if (!read_line("/sys/kernel/debug/sched/preempt", line, sizeof(line))) {
		open_p = strchr(line, '(');
		close_p = open_p ? strchr(open_p, ')') : NULL;
		if (open_p && close_p) {
			*close_p = '\0';
			snprintf(buf, n, "%s", open_p + 1);
			return;
		}
	}
	if (!read_line("/sys/kernel/realtime", line, sizeof(line)) &&
	    line[0] == '1') {
		snprintf(buf, n, "rt");
		return;
	}
	if (strstr(version, "PREEMPT_RT"))
		snprintf(buf, n, "rt");
	else if (strstr(version, "PREEMPT_DYNAMIC"))
		snprintf(buf, n, "dynamic");
	else if (strstr(version, "PREEMPT "))
		snprintf(buf, n, "full");
}

void sysinfo_read(struct sysinfo_ib *si)
{
	struct utsname u;
	char buf[64];

	memset(si, 0, sizeof(*si));
	if (!uname(&u)) {
		snprintf(si->sysname, sizeof(si->sysname), "%s", u.sysname);
		snprintf(si->release, sizeof(si->release), "%s", u.release);
		snprintf(si->version, sizeof(si->version), "%s", u.version);
		snprintf(si->machine, sizeof(si->machine), "%s", u.machine);
		snprintf(si->hostname, sizeof(si->hostname), "%s", u.nodename);
	}
	if (proc_field("/proc/cpuinfo", "model name", si->cpu_model,
		       sizeof(si->cpu_model)))
		proc_field("/proc/cpuinfo", "Hardware", si->cpu_model,
			   sizeof(si->cpu_model));
	si->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	si->smt = -1;
	if (!read_line("/sys/devices/system/cpu/smt/active", buf, sizeof(buf)))
		si->smt = atoi(buf) ? 1 : 0;
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  si->governor, sizeof(si->governor));
	read_preempt(si->preempt, sizeof(si->preempt), si->version);
	read_line("/sys/devices/system/clocksource/clocksource0/"
		  "current_clocksource", si->clocksource,
		  sizeof(si->clocksource));
	si->mem_total_kb = meminfo_kb("MemTotal");
	si->swap_total_kb = meminfo_kb("SwapTotal");
}

void iso_now(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- JSON ------------------------------------------------------------ */

static void jw_str_or_null(struct jw *w, const char *key, const char *s)
{
	jw_str(w, key, s && *s ? s : NULL);
}

/* A figure that may be unknown (negative): a number, or null. */
static void jw_int_or_null(struct jw *w, const char *key, long long v)
{
	if (v < 0)
		jw_null(w, key);
	else
		jw_int(w, key, v);
}

static void jw_lat(struct jw *w, const char *key, const struct lat_summary *l)
{
	jw_obj_begin(w, key);
	jw_uint(w, "count", l->count);
	jw_num(w, "mean", l->count ? l->mean / 1e3 : NAN);
	jw_num(w, "sd", l->count ? l->sd / 1e3 : NAN);
	jw_num(w, "min", l->count ? (double)l->min / 1e3 : NAN);
	jw_num(w, "max", l->count ? (double)l->max / 1e3 : NAN);
	jw_num(w, "p50", l->count ? (double)l->p50 / 1e3 : NAN);
	jw_num(w, "p90", l->count ? (double)l->p90 / 1e3 : NAN);
	jw_num(w, "p99", l->count ? (double)l->p99 / 1e3 : NAN);
	jw_num(w, "p99_9", l->count ? (double)l->p999 / 1e3 : NAN);
	jw_obj_end(w);
}

static void json_system(struct jw *w, const struct run_info *ri)
{
	const struct sysinfo_ib *si = ri->sys;

	jw_obj_begin(w, "system");
	jw_str(w, "sysname", si->sysname);
	jw_str(w, "release", si->release);
	jw_str(w, "version", si->version);
	jw_str(w, "machine", si->machine);
	jw_str(w, "hostname", si->hostname);
	jw_str_or_null(w, "cpu_model", si->cpu_model);
	jw_int(w, "cpus_online", si->cpus_online);
	if (si->smt < 0)
		jw_null(w, "smt");
	else
		jw_bool(w, "smt", si->smt);
	jw_str_or_null(w, "governor", si->governor);
	jw_str_or_null(w, "preempt", si->preempt);
	jw_str_or_null(w, "clocksource", si->clocksource);
	jw_int_or_null(w, "mem_total_kb", si->mem_total_kb);
	jw_int_or_null(w, "swap_total_kb", si->swap_total_kb);
	jw_bool(w, "realtime_ok", ri->rt_ok);
	jw_obj_end(w);
}

static void json_settings(struct jw *w, const struct run_info *ri)
{
	const struct run_cfg *cfg = ri->cfg;
	int i;

	jw_obj_begin(w, "settings");
	jw_num(w, "duration_s", (double)cfg->duration_ns / 1e9);
	jw_int(w, "repeats", ri->repeats);
	jw_int(w, "load_threads", cfg->load_threads);
	jw_int(w, "bench_nice", cfg->bench_nice);
	jw_int(w, "load_nice", cfg->load_nice);
	jw_bool(w, "rt", cfg->rt);
	jw_bool(w, "uniprocessor", cfg->uniprocessor);
	jw_str(w, "dir", cfg->dir);
	if (cfg->custom_interval_ns) {
		jw_int(w, "custom_cpu_pct", cfg->custom_cpu_pct);
		jw_num(w, "custom_interval_us",
		       (double)cfg->custom_interval_ns / 1e3);
	} else {
		jw_null(w, "custom_cpu_pct");
		jw_null(w, "custom_interval_us");
	}
	jw_str(w, "comment", ri->comment);
	jw_arr_begin(w, "benches");
	for (i = 0; i < ri->nbench; i++)
		jw_str(w, NULL, ri->bench[i]->name);
	jw_arr_end(w);
	jw_arr_begin(w, "loads");
	for (i = 0; i < ri->nload; i++)
		jw_str(w, NULL, ri->load[i]->name);
	jw_arr_end(w);
	jw_obj_begin(w, "sim_options");
	for (i = 0; i < ri->nsimopts; i++)
		jw_str(w, ri->simopt_name[i], ri->simopt_value[i]);
	jw_obj_end(w);
	jw_obj_end(w);
}

/* What details-printing simulators (Cyclic, Server) have beyond the rest. */
static void json_extra(struct jw *w, const struct cell *c)
{
	const struct cell_extra *x = c->extra;
	size_t i;

	jw_str(w, "note", x->note[0] ? x->note : NULL);
	if (c->lat.count) {
		jw_obj_begin(w, "latency_percentiles_us");
		for (i = 0; i < EXTRA_PCTS; i++) {
			char key[16];

			snprintf(key, sizeof(key), "%g", extra_pcts[i]);
			jw_num(w, key, (double)x->pct[i] / 1e3);
		}
		jw_obj_end(w);
		jw_num(w, "latency_mode_us", (double)x->mode / 1e3);
	}
	if (x->dist) {
		jw_obj_begin(w, "distribution");
		jw_num(w, "width_us", (double)x->dist_width_ns / 1e3);
		jw_arr_begin(w, "counts");
		for (i = 0; i < DIST_BINS; i++)
			jw_uint(w, NULL, x->dist[i]);
		jw_arr_end(w);
		jw_obj_end(w);
	}
	if (x->rate_count) {
		jw_obj_begin(w, "rate_per_s");
		jw_uint(w, "samples", x->rate_count);
		jw_uint(w, "min", x->rate_min);
		jw_uint(w, "p20", x->rate_p20);
		jw_uint(w, "p50", x->rate_p50);
		jw_uint(w, "p90", x->rate_p90);
		jw_uint(w, "max", x->rate_max);
		jw_obj_end(w);
	}
}

static void json_cell(struct jw *w, const struct cell *c)
{
	uint32_t i;
	int k;

	jw_obj_begin(w, NULL);
	jw_str(w, "bench", c->bench->name);
	jw_str(w, "load", c->load->name);
	jw_int(w, "repeat", c->repeat);
	jw_str(w, "status", cell_status_text(c));
	if (c->status != CELL_OK) {
		jw_obj_end(w);
		return;
	}
	jw_uint(w, "samples", c->lat.count);
	jw_uint(w, "frames", c->frames);
	jw_uint(w, "frames_met", c->frames_met);
	jw_uint(w, "frames_dropped", c->frames_dropped);
	jw_lat(w, "latency_us", &c->lat);
	jw_lat(w, "timer_latency_us", &c->timer);
	jw_lat(w, "wakeup_latency_us", &c->wakeup);
	jw_num(w, "desired_cpu_pct", c->desired_pct);
	jw_num(w, "deadlines_met_pct", c->met_pct);
	jw_obj_begin(w, "histogram");
	jw_str(w, "unit", "ns");
	jw_arr_begin(w, "buckets");
	for (i = 0; i < c->nhist; i++) {
		jw_arr_begin(w, NULL);
		jw_uint(w, NULL, stats_bucket_low(c->hist[i].bucket));
		jw_uint(w, NULL, stats_bucket_high(c->hist[i].bucket));
		jw_uint(w, NULL, c->hist[i].count);
		jw_arr_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
	if (c->extra)
		json_extra(w, c);
	jw_obj_begin(w, "load_work");
	for (k = 0; k < WORK_KINDS; k++) {
		char key[64];

		if (c->work_rate[k] <= 0)
			continue;
		snprintf(key, sizeof(key), "%s_per_s", work_units[k].key);
		jw_num(w, key, c->work_rate[k]);
	}
	jw_obj_end(w);
	jw_obj_end(w);
}

int json_write_results(const char *path, const struct run_info *ri,
		       const struct cell *cells, int n)
{
	char tmp[PATH_MAX + 8];
	struct jw w;
	FILE *f;
	int i, fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		unlink(tmp);
		return err;
	}
	jw_init(&w, f);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", "interbench-result/1");
	jw_str(&w, "interbench_version", IB_VERSION);
	jw_str(&w, "command_line", ri->command_line);
	jw_str(&w, "started", ri->started);
	jw_str_or_null(&w, "finished", ri->finished);
	jw_str(&w, "interrupted", ri->interrupted);
	json_system(&w, ri);
	json_settings(&w, ri);
	jw_obj_begin(&w, "calibration");
	jw_uint(&w, "loops_per_ms", ri->cal->loops_per_ms);
	jw_num(&w, "error_pct", ri->cal->error_pct);
	jw_bool(&w, "measured", ri->cal->measured);
	jw_num(&w, "spread_pct", ri->cal->measured ? ri->cal->spread_pct :
	       NAN);
	jw_obj_end(&w);
	jw_arr_begin(&w, "results");
	for (i = 0; i < n; i++)
		json_cell(&w, &cells[i]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	err = jw_finish(&w);
	if (fflush(f) || fsync(fileno(f)))
		err = -errno;
	if (fclose(f) && !err)
		err = -EIO;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

/* ---- CSV ------------------------------------------------------------- */

static const char *const lat_cols[] = {
	"mean", "sd", "min", "max", "p50", "p90", "p99", "p99_9"
};

void csv_header(FILE *f)
{
	static const char *const parts[] = { "latency", "timer_latency",
					     "wakeup_latency" };
	size_t p, i;
	int k;

	fputs("bench,load,repeat,status,samples,frames,frames_met,"
	      "frames_dropped", f);
	for (p = 0; p < 3; p++)
		for (i = 0; i < sizeof(lat_cols) / sizeof(lat_cols[0]); i++)
			fprintf(f, ",%s_%s_us", parts[p], lat_cols[i]);
	fputs(",desired_cpu_pct,deadlines_met_pct", f);
	for (k = 0; k < WORK_KINDS; k++)
		fprintf(f, ",%s_per_s", work_units[k].key);
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

static void csv_num(FILE *f, double v, bool have)
{
	if (have && isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputc(',', f);
}

static void csv_lat(FILE *f, const struct lat_summary *l, bool ok)
{
	bool have = ok && l->count;

	csv_num(f, l->mean / 1e3, have);
	csv_num(f, l->sd / 1e3, have);
	csv_num(f, (double)l->min / 1e3, have);
	csv_num(f, (double)l->max / 1e3, have);
	csv_num(f, (double)l->p50 / 1e3, have);
	csv_num(f, (double)l->p90 / 1e3, have);
	csv_num(f, (double)l->p99 / 1e3, have);
	csv_num(f, (double)l->p999 / 1e3, have);
}

void csv_row(FILE *f, const struct cell *c)
{
	bool ok = c->status == CELL_OK;
	int k;

	csv_str(f, c->bench->name);
	fputc(',', f);
	csv_str(f, c->load->name);
	fprintf(f, ",%d,", c->repeat);
	csv_str(f, cell_status_text(c));
	if (ok)
		fprintf(f, ",%llu,%llu,%llu,%llu",
			(unsigned long long)c->lat.count,
			(unsigned long long)c->frames,
			(unsigned long long)c->frames_met,
			(unsigned long long)c->frames_dropped);
	else
		fputs(",,,,", f);
	csv_lat(f, &c->lat, ok);
	csv_lat(f, &c->timer, ok);
	csv_lat(f, &c->wakeup, ok);
	csv_num(f, c->desired_pct, ok);
	csv_num(f, c->met_pct, ok);
	for (k = 0; k < WORK_KINDS; k++)
		csv_num(f, c->work_rate[k], ok);
	fputc('\n', f);
	fflush(f);
}
