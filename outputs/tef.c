// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/tef.c - --trace-out FILE: the run's explained frames and the
 * scheduling around them in the Trace Event Format (the Chrome/Catapult
 * JSON Object Format), which Perfetto's UI and chrome://tracing open. A
 * process per traced cell and repeat ("Audio under Burn, repeat 1"); in
 * it a track per benchmarked thread with its explained frames as slices
 * (release -> running, its timer and wait parts inside, the explanation
 * as args), and a track per CPU from the cell's trace text
 * (run/trace_tef.c). Read after each cell, while the instance still
 * holds the cell's trace; written whole (a new file renamed over the
 * name) after each cell that adds to it, and at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "outputs/sink.h"
#include "outputs/output.h"
#include "lib/safefile.h"
#include "lib/text.h"
#include "run/trace.h"
#include "run/trace_tef.h"

/* The file's bounds: events a cell, events in all */
#define CELL_EVENTS	20000UL
#define FILE_EVENTS	200000UL

struct out_tef {
	struct sbuf ev;			/* ",\n{...}" each */
	unsigned long n;		/* events in ev */
	unsigned long cells;		/* processes drawn */
	unsigned long cut;		/* cells the caps cut short */
	uint64_t flow_id;
};

static int tef_write(struct output_sink *s)
{
	struct out_tef *t = s->tef;
	struct safe_file sf;
	int err;

	if (t->ev.err)
		return t->ev.err;
	err = safe_file_begin(&sf, s->path);
	if (err)
		return err;
	/* Every task's comm and pid on the machine: root's eyes only */
	if (fchmod(sf.fd, 0600)) {
		/* safe_file_begin made it 0644 at most: still ours */
	}
	fprintf(sf.f, "{\"traceEvents\":[%s\n],\n\"displayTimeUnit\":\"ms\","
		"\n\"otherData\":{\"generator\":\"interbench " IB_VERSION
		"\",\"clock\":\"CLOCK_MONOTONIC\",\"cells\":%lu,"
		"\"events\":%lu,\"cells_cut\":%lu,\"cell_events_max\":%lu,"
		"\"events_max\":%lu,\"before_frame_ms\":%g,"
		"\"after_frame_ms\":%g}}\n", t->ev.len ? t->ev.s + 1 : "",
		t->cells, t->n, t->cut, CELL_EVENTS, FILE_EVENTS,
		(double)TEF_BEFORE_NS / NSEC_PER_MSEC,
		(double)TEF_AFTER_NS / NSEC_PER_MSEC);
	return safe_file_commit(&sf);
}

static int tef_open(struct output_sink *s)
{
	s->tef = calloc(1, sizeof(*s->tef));
	if (!s->tef)
		return -ENOMEM;
	sb_init(&s->tef->ev);
	s->tef->flow_id = 1;
	return 0;
}

static int tef_begin(struct output_sink *s, const struct results_info *ri,
		     const struct result *res, int n)
{
	(void)ri;
	(void)res;
	(void)n;
	return tef_write(s);
}

static void meta(struct sbuf *b, const char *what, int pid, int tid,
		 const char *name)
{
	sb_printf(b, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,"
		  "\"args\":{\"name\":", what, pid, tid);
	sb_json(b, name);
	sb_printf(b, "}}");
}

static void part(struct sbuf *b, const char *name, uint64_t from,
		 uint64_t ns, int pid, int tid)
{
	if (!ns)
		return;
	sb_printf(b, ",\n{\"ph\":\"X\",\"cat\":\"frame\",\"name\":\"%s\"",
		  name);
	trace_tef_us(b, "ts", from);
	trace_tef_us(b, "dur", ns);
	sb_printf(b, ",\"pid\":%d,\"tid\":%d}", pid, tid);
}

/* Frame f as a slice with its two parts, on track tid. */
static void frame(struct sbuf *b, const struct why_frame *f, int rank,
		  int pid, int tid)
{
	char line[1024];

	out_why_line(line, sizeof(line), f);
	sb_printf(b, ",\n{\"ph\":\"X\",\"cat\":\"frame\",\"name\":\"worst "
		  "frame %d\"", rank);
	trace_tef_us(b, "ts", f->release_ns);
	trace_tef_us(b, "dur", f->latency_ns);
	sb_printf(b, ",\"pid\":%d,\"tid\":%d,\"args\":{\"late\":true,"
		  "\"latency_ms\":%.6g,\"timer_ms\":%.6g,\"wait_ms\":%.6g,"
		  "\"cpu\":%d,\"timer_cpu\":%d,\"tid\":%d,\"complete\":%s,"
		  "\"breaktrace\":%s,\"explanation\":", pid, tid,
		  (double)f->latency_ns / NSEC_PER_MSEC,
		  (double)f->timer.ns / NSEC_PER_MSEC,
		  (double)f->wait.ns / NSEC_PER_MSEC, f->wait.cpu,
		  f->timer.cpu, f->tid, f->lost ? "false" : "true",
		  f->broke ? "true" : "false");
	sb_json(b, line);
	sb_printf(b, "}}");
	part(b, "timer part", f->release_ns, f->timer.ns, pid, tid);
	part(b, "wait part", f->release_ns + f->timer.ns, f->wait.ns, pid,
	     tid);
}

static int by_release(const void *x, const void *y)
{
	const struct why_frame *a = *(const struct why_frame *const *)x;
	const struct why_frame *b = *(const struct why_frame *const *)y;

	return a->release_ns < b->release_ns ? -1 :
	       a->release_ns > b->release_ns;
}

/*
 * r's frames on their threads' tracks: a frame that overlaps an earlier
 * one of its thread (it was released before that one ran) goes on the
 * thread's next track, so that slices on a track never cross.
 */
static void frames(struct out_tef *t, const struct result *r, int pid)
{
	const struct why_frame *o[WORST_MAX];
	struct { int tid, lane; uint64_t end; } tr[WORST_MAX] = { 0 };
	int i, k, ntr = 0, nf = r->nexplained;
	char name[96];

	if (nf > WORST_MAX)
		nf = WORST_MAX;
	if (nf <= 0)
		return;
	for (i = 0; i < nf; i++)
		o[i] = &r->explained[i];
	qsort(o, (size_t)nf, sizeof(o[0]), by_release);
	for (i = 0; i < nf; i++) {
		const struct why_frame *f = o[i];
		int lane = 0;

		for (k = 0; k < ntr; k++) {
			if (tr[k].tid != f->tid)
				continue;
			if (tr[k].end <= f->release_ns)
				break;
			lane = tr[k].lane + 1;
		}
		if (k == ntr) {
			tr[ntr].tid = f->tid;
			tr[ntr].lane = lane;
			snprintf(name, sizeof(name), "%s's thread %d%s",
				 r->sim->name, f->tid, lane ? " (frames "
				 "overlapping)" : "");
			meta(&t->ev, "thread_name", pid, pid * TEF_TIDS + 1 +
			     ntr, name);
			ntr++;
			t->n++;
		}
		tr[k].end = f->release_ns + f->latency_ns;
		/* worst first: its rank among the cell's explained */
		frame(&t->ev, f, (int)(f - r->explained) + 1, pid,
		      pid * TEF_TIDS + 1 + k);
		t->n += 1 + !!f->timer.ns + !!f->wait.ns;
	}
}

/*
 * The CPUs around r's frames, from the cell's trace, still in the
 * instance until the next cell starts: not when the result kept is an
 * earlier attempt (--remeasure-if) than the one the instance recorded.
 */
static int sched(struct out_tef *t, const struct tracer *tr,
		 const struct result *r, int pid)
{
	struct tef_span win[WORST_MAX];
	struct why_stamp stamp[WORST_MAX * WHY_STAMPS];
	struct tef_cell c = { .pid = pid, .win = win,
			      .flow_id = &t->flow_id, .stamp = stamp };
	char path[256];
	bool cut;
	long k;
	FILE *f;

	if (!tr || (r->nattempts > 1 && r->chosen != r->nattempts - 1))
		return 0;
	c.nwin = trace_tef_windows(r->explained, r->nexplained < WORST_MAX ?
				   r->nexplained : WORST_MAX, win);
	c.nstamp = trace_tef_stamps(r->explained, r->nexplained < WORST_MAX ?
				    r->nexplained : WORST_MAX, stamp);
	c.max_events = FILE_EVENTS - t->n < CELL_EVENTS ?
		       FILE_EVENTS - t->n : CELL_EVENTS;
	snprintf(path, sizeof(path), "%s/trace", tr->inst);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	k = trace_tef_sched(f, &c, &t->ev, &cut);
	fclose(f);
	if (k < 0)
		return (int)k;
	t->n += (unsigned long)k;
	t->cut += cut;
	return 0;
}

static int tef_add(struct output_sink *s, const struct results_info *ri,
		   const struct result *res, int n)
{
	const struct result *r = &res[n - 1];
	struct out_tef *t = s->tef;
	char name[160];
	int pid = n, err;

	if (!r->traced || r->status != RES_OK || r->nexplained <= 0)
		return 0;
	if (t->n + 2 + 4 * WORST_MAX > FILE_EVENTS) {
		t->cut++;
		return 0;
	}
	snprintf(name, sizeof(name), "%s under %s, repeat %d", r->sim->name,
		 r->load->name, r->repeat);
	meta(&t->ev, "process_name", pid, 0, name);
	sb_printf(&t->ev, ",\n{\"ph\":\"M\",\"name\":\"process_sort_index\","
		  "\"pid\":%d,\"tid\":0,\"args\":{\"sort_index\":%d}}", pid,
		  pid);
	t->n += 2;
	t->cells++;
	frames(t, r, pid);
	err = sched(t, ri->trace, r, pid);
	if (err)
		return err;
	return tef_write(s);
}

static int tef_end(struct output_sink *s, const struct results_info *ri,
		   const struct result *res, int n)
{
	int err;

	(void)ri;
	(void)res;
	(void)n;
	if (!s->tef)
		return 0;
	err = tef_write(s);
	sb_free(&s->tef->ev);
	free(s->tef);
	s->tef = NULL;
	return err;
}

const struct output_sink_ops output_sink_tef = {
	.name = "--trace-out",
	.open = tef_open,
	.begin = tef_begin,
	.add = tef_add,
	.end = tef_end,
};
