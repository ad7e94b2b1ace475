/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interbench.h - what the orchestrator, the simulators and the loads share.
 *
 * A simulator is a latency-sensitive task (Audio, Video, X, ...); a load is
 * background work (Burn, Write, ...). Each is one file with one const
 * descriptor, listed in one table (simulators/simulators.c, loads/loads.c).
 * Run-time state lives in the context structs below, never in globals.
 * Helpers return 0 or a negative errno; only interbench.c exits.
 */
#ifndef INTERBENCH_H
#define INTERBENCH_H

#include <stdint.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <signal.h>
#include <time.h>
#include "stats.h"
#include "interfere.h"

#define IB_VERSION		"0.40"

/* Exit statuses (documented in README and interbench.8). */
#define IB_EXIT_OK		0	/* run finished, every cell measured */
#define IB_EXIT_FAIL		1	/* a gate or a threshold failed */
#define IB_EXIT_USAGE		2	/* bad command line or input file */
#define IB_EXIT_SETUP		3	/* cannot set up (memory, fork, files) */
#define IB_EXIT_CELLS		4	/* run finished, some cells failed */
#define IB_EXIT_BREAK		5	/* --breaktrace: a frame was that late */

#define NSEC_PER_USEC		1000ULL
#define NSEC_PER_MSEC		1000000ULL
#define NSEC_PER_SEC		1000000000ULL

static inline uint64_t ts_to_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NSEC_PER_SEC + (uint64_t)ts->tv_nsec;
}

static inline struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};
	return ts;
}

/* CLOCK_MONOTONIC now, in ns. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_to_ns(&ts);
}

/* CPU time the calling thread has used, in ns. */
static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts_to_ns(&ts);
}

/* ---- CPU work (cpuwork.c) ------------------------------------------- */

/* Spin through n iterations of the calibrated loop. */
void burn_loops(uint64_t n);
/*
 * Burn ns of the calling thread's CPU time with the calibrated loop, in
 * chunks of at most 20 us sized by loops_per_ms (see cpuwork.c for why).
 */
void burn_ns(uint64_t loops_per_ms, uint64_t ns);

/* Far above any CPU's loop speed; beyond it a burn chunk never ends. */
#define MAX_LOOPS_PER_MS	100000000ULL

struct calibration {
	uint64_t loops_per_ms;
	double spread_pct;	/* (slowest - fastest) / median run, in % */
	double error_pct;	/* worst (CPU time - asked) / asked, in % */
	bool measured;		/* measured this run (not read from file) */
};

/* Measure loops_per_ms, bounded to a few seconds. 0 or -errno. */
int calibrate_loops(struct calibration *cal);
/* Check how closely burn_ns() costs what it is asked: sets error_pct. */
int calibration_check(struct calibration *cal);

/* ---- threads -------------------------------------------------------- */

/* Scheduling for the calling thread: SCHED_FIFO at prio, or nice level. */
int set_thread_fifo(int prio);
int set_thread_nice(int nice);

/* Real-time priorities used (the parent takes the maximum). */
#define PRIO_PARENT		(sched_get_priority_max(SCHED_FIFO))
#define PRIO_TIMING		(sched_get_priority_max(SCHED_FIFO) - 1)
#define PRIO_SIM		(sched_get_priority_max(SCHED_FIFO) - 2)

/* ---- what loads got done -------------------------------------------- */

/* Kinds of work a load can count; add one line here and in work_units. */
enum work_kind {
	WORK_BURN_LOOPS,
	WORK_BYTES_WRITTEN,
	WORK_BYTES_READ,
	WORK_RING_WAKEUPS,
	WORK_HACK_MESSAGES,
	WORK_MEM_BYTES,
	WORK_FRAMES,
	WORK_NET_PACKETS,
	WORK_NET_BYTES,
	WORK_FORKS,
	WORK_KINDS
};

struct work_unit {
	const char *key;	/* machine-readable name, e.g. "burn_loops" */
	const char *unit;	/* per second in tables, e.g. "loops/s" */
	double scale;		/* divide count by this for the table */
};
extern const struct work_unit work_units[WORK_KINDS];

/* Lives in shared memory; loads add to it, the parent reads it. */
struct load_work {
	_Atomic uint64_t count[WORK_KINDS];
	_Atomic int failed;	/* -errno of the first failure, or 0 */
	char why[128];		/* written once, before failed is set */
};

/* ---- configuration of a run (read-only after the command line) ------- */

struct run_cfg {
	uint64_t duration_ns;		/* -t per cell */
	uint64_t loops_per_ms;		/* calibrated */
	int load_threads;		/* -L */
	int bench_nice;			/* -B */
	int load_nice;			/* -N */
	bool rt;			/* a real-time class: figures in us */
	int bench_policy;		/* --bench-policy (-r: fifo) */
	uint64_t bench_slice_ns;	/* --bench-slice; 0: the kernel's */
	int load_policy;		/* --load-policy */
	bool rt_ok;			/* we may use SCHED_FIFO at all */
	bool uniprocessor;		/* -u */
	int cpus;			/* online CPUs */
	unsigned custom_cpu_pct;	/* -C */
	uint64_t custom_interval_ns;	/* -I */
	char dir[PATH_MAX];		/* -D: where load files go */
	char read_file[PATH_MAX];	/* the Read load's file, kept for reuse */
	char write_file[PATH_MAX];	/* the Write load's file, per run */
};

/* ---- options (cli.c parses them; simulators may have their own) ------ */

enum opt_type {
	OT_FLAG,		/* bool, set when given */
	OT_INT,			/* int in [min, max] */
	OT_UINT,		/* unsigned in [min, max] */
	OT_U64,			/* uint64_t: the whole number given x scale */
	OT_SECONDS,		/* uint64_t ns from decimal seconds in [min, max] */
	OT_PATH,		/* const char *: a non-empty file name */
	OT_ENUM,		/* int: the index of the value in names[] */
	OT_CALL,		/* parse() does it */
	OT_ACTION,		/* --help, --list, --version: what to do instead */
};

/* What a shell may complete an option's value with (completion.c). */
enum opt_complete {
	OC_NONE,		/* names[] if any, files for OT_PATH, else nothing */
	OC_LOAD,		/* a load's name */
	OC_BENCH,		/* a simulator's name */
	OC_DIR,			/* a directory */
};

/*
 * One command-line option: parsing, its error messages, --help and the
 * man page test all come from these tables (cli.c for interbench's own,
 * a simulator's descriptor for its own). off is where the value goes: in
 * struct plan for interbench's options, in the simulator's options block
 * for a simulator's.
 */
struct opt {
	const char *name;		/* long name, without "--" */
	int letter;			/* short option, or 0 */
	enum opt_type type;
	const char *arg;		/* e.g. "N"; NULL for a flag or action */
	const char *help;		/* lines after the first start with \n */
	size_t off;
	long long min, max;		/* OT_INT, OT_UINT, OT_U64 range */
	double dmin, dmax;		/* OT_SECONDS range */
	uint64_t scale;			/* OT_U64: stored = given x scale (0: 1) */
	const char *const *names;	/* OT_ENUM: NULL-ended */
	/* OT_CALL: 0, or -EINVAL with what is wrong in err. */
	int (*parse)(void *base, const char *val, char *err, size_t n);
	size_t seen;			/* OPT_SEEN(): a bool set when given */
	enum opt_complete complete;	/* for the shell's completion */
};

/* A bool in the options block that says the option was given. */
#define OPT_SEEN(type, field)	(offsetof(type, field) + 1)

/*
 * Parse val as o asks into base + o->off: 0, or -EINVAL with what is
 * wrong in err (without the option's name). cli.c.
 */
int opt_set(const struct opt *o, void *base, const char *val, char *err,
	    size_t n);

/* ---- simulators ----------------------------------------------------- */

/*
 * A frame is one unit of a simulated task's work that has a release
 * time: an audio period, a video frame, one step of X's ramp, a Gaming
 * frame, a Server request, a Cyclic wakeup.
 */

/*
 * A frame among the latest of a cell, kept for --trace to explain: its
 * release, when the timing thread woke for it (and on which CPU), when
 * it started running, and the simulated thread's tid and CPU then
 * (CLOCK_MONOTONIC ns).
 */
struct worst_frame {
	uint64_t release, timer, start;
	int32_t tid, cpu, timer_cpu;
};

#define WORST_MAX	16	/* --trace-frames at most */

struct worst_frames {
	uint32_t keep;			/* how many to keep; 0: none */
	uint32_t n;
	int32_t timing_tid;
	struct worst_frame f[WORST_MAX];	/* unordered */
	/* --breaktrace: the first frame later than break_ns stops it */
	uint64_t break_ns;
	int on_fd, marker_fd;		/* the trace's tracing_on, marker */
	uint32_t broke;			/* brk is that frame */
	struct worst_frame brk;
};

/* Room in every sim_result for a simulator's own raw figures. */
#define SIM_OWN_BYTES	(16 * 1024)

/*
 * Latency over time: the worst latency in each of WIN_SLOTS windows of a
 * cell, by release time. Fixed and small so the sampling path only
 * compares and stores (no lock, no allocation); a cell of any length is
 * cut into at most WIN_SLOTS windows (win_init() sizes them).
 */
#define WIN_SLOTS	200
#define WIN_EMPTY	UINT64_MAX	/* a window without a sample */

struct win_worst {
	uint64_t start_ns;		/* CLOCK_MONOTONIC: window 0 starts */
	uint64_t width_ns;		/* 0: not kept (run as a load) */
	uint64_t worst[WIN_SLOTS];	/* ns, or WIN_EMPTY */
};

/*
 * Windows for a cell of duration ns from start: whole milliseconds wide,
 * so that the JSON's window_ms is exact. duration 0 keeps nothing.
 */
static inline void win_init(struct win_worst *w, uint64_t start,
			    uint64_t duration)
{
	uint64_t ms = (duration + WIN_SLOTS * NSEC_PER_MSEC - 1) /
		      (WIN_SLOTS * NSEC_PER_MSEC);
	int i;

	w->start_ns = start;
	w->width_ns = duration ? (ms ? ms : 1) * NSEC_PER_MSEC : 0;
	for (i = 0; i < WIN_SLOTS; i++)
		w->worst[i] = WIN_EMPTY;
}

/* A sample of latency lat of a frame released at at. One thread only. */
static inline void win_add(struct win_worst *w, uint64_t at, uint64_t lat)
{
	uint64_t i;

	if (!w->width_ns || at < w->start_ns)
		return;
	i = (at - w->start_ns) / w->width_ns;
	if (i < WIN_SLOTS && (w->worst[i] == WIN_EMPTY || lat > w->worst[i]))
		w->worst[i] = lat;
}

/* What one benchmark process measured, raw (lives in shared memory). */
struct sim_result {
	int status;			/* 0 ok, or -errno */
	char why[128];			/* what went wrong, if status */
	char note[96];			/* how it ran, e.g. "SCHED_FIFO 95" */
	uint64_t frames;		/* frames due */
	uint64_t frames_met;		/* finished by their deadline */
	uint64_t frames_dropped;	/* never run: too late to be of use */
	double cpu_desired_ns;		/* CPU work asked for */
	double cpu_got_ns;		/* CPU work done */
	bool has_deadlines;
	/* The simulated thread's class, as the kernel reported it. */
	bool sched_seen;
	int sched_policy;		/* enum sched_pol */
	uint64_t sched_slice_ns;	/* fair classes: its slice */
	uint64_t sched_runtime_ns, sched_period_ns;	/* deadline */
	struct lat_stats latency;	/* release -> simulated thread running */
	struct lat_stats timer;		/* release -> timing thread awake */
	struct lat_stats wakeup;	/* timing thread post -> thread running */
	struct lat_stats per_sec;	/* frames done in each whole second */
	struct task_acc task;		/* its threads' counters, at their end */
	struct interference intf;	/* made by the parent (run.c) */
	struct worst_frames worst;	/* for --trace */
	/* From one frame's completion to the next: what a display shows. */
	struct lat_stats frame_time;
	uint64_t stutters;		/* frame times over two periods */
	struct win_worst windows;	/* worst latency by window */
	/* The simulator's own raw data, read by its descriptor's keep(). */
	_Alignas(16) unsigned char own[SIM_OWN_BYTES];
};

struct sim_desc;

struct sim_ctx {
	const struct sim_desc *desc;
	const struct run_cfg *cfg;
	const void *opts;		/* the simulator's own options, or NULL */
	/* How long past its duration it may take: sim_grace_ns(). */
	uint64_t grace_ns;
	int nice;			/* for the simulated thread */
	int policy;			/* its class: enum sched_pol */
	uint64_t slice_ns;		/* its EEVDF slice request, or 0 */
	bool timing_rt;			/* timing thread SCHED_FIFO (benchmarks) */
	struct sim_result *res;		/* where the figures go */
	struct load_work *work;		/* counts frames when run as a load */
};

/*
 * How long the simulator runs: cfg->duration_ns when benchmarked, 0
 * (until its process is killed) when run as a load (work is set).
 */
static inline uint64_t sim_duration(const struct sim_ctx *c)
{
	return c->work ? 0 : c->cfg->duration_ns;
}

/* How a periodic task behaves (see timing.c for the frame rules). */
struct periodic_spec {
	uint64_t period_ns;
	uint64_t deadline_ns;		/* after release; usually period_ns */
	/* CPU work of frame k in ns */
	uint64_t (*demand_ns)(const struct periodic_spec *p, uint64_t k);
	uint64_t cpu_ns;		/* constant demand, for demand_ns */
	unsigned steps;			/* X: ramp steps */
};

/* Engines in timing.c used by the simulators. */
int periodic_run(struct sim_ctx *c, const struct periodic_spec *p);
uint64_t periodic_const_demand(const struct periodic_spec *p, uint64_t k);
int greedy_run(struct sim_ctx *c, uint64_t frame_ns);

/* Helpers in timing.c the simulators share. */
/* --trace: keep this frame if among the cell's latest (timing.c). */
void worst_frame_add(struct worst_frames *w, uint64_t release,
		     uint64_t timer, int timer_cpu, uint64_t start);
/* --trace: say the calling thread's tid in the trace (timing.c). */
void worst_frame_thread(struct worst_frames *w);
/*
 * The calling thread as the run asks: c->policy (policy.h), with c->nice
 * and c->slice_ns for the fair classes; SCHED_DEADLINE needs p, whose
 * period and most CPU a frame needs set its reservation. 0 or -errno.
 */
int sim_sched(const struct sim_ctx *c, const struct periodic_spec *p);
/*
 * Put what the kernel reports for the calling thread's class in the
 * result (the proof it ran so), when benchmarked. Only from a simulator's
 * one simulated thread: the periodic and greedy engines' (Server's many
 * would race for the one record).
 */
void sim_sched_seen(const struct sim_ctx *c);
/* Record the first failure of a run: status and "what: strerror". */
void sim_fail(struct sim_result *r, int err, const char *what);
/* Join t by a CLOCK_MONOTONIC deadline (0: none): 0 or -errno. */
int thread_join_until(pthread_t t, uint64_t mono_deadline);
/*
 * The one allowance for a simulator to finish after its duration: its
 * threads are joined by then, and the parent kills it as stuck a little
 * later (run.c). A base for every simulator, plus its grace_ns().
 */
uint64_t sim_grace_ns(const struct sim_desc *s, const struct run_cfg *cfg,
		      const void *opts);

#define SIM_DEADLINES	0x1	/* has deadlines (% Deadlines Met column) */
#define SIM_CUSTOM	0x2	/* needs -C/-I; not in the default matrix */
#define SIM_NAMED	0x4	/* runs only when -W names it */
#define SIM_PERIODIC	0x8	/* periodic_run(): can be SCHED_DEADLINE */

/* Print to the console and the logfile (the orchestrator's out()). */
typedef void (*out_fn)(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct result;
struct figure;

struct sim_desc {
	const char *name;
	const char *summary;
	unsigned flags;
	int (*run)(struct sim_ctx *c);	/* in its own process */
	/* Optional: own options, their defaults, a check of them all. */
	const struct opt *opts;		/* ends with a NULL name */
	size_t opts_size;
	void (*opts_init)(void *opts, const struct run_cfg *cfg);
	int (*opts_check)(const void *opts, char *err, size_t n);
	/*
	 * Optional: how much longer than everyone's base (sim_grace_ns())
	 * it may still be finishing after its duration, e.g. a long
	 * interval or budget.
	 */
	uint64_t (*grace_ns)(const struct run_cfg *cfg, const void *opts);
	/*
	 * Optional: figures of its own (figures.h), written into each of its
	 * results after the histogram, read from its sim_result.
	 */
	const struct figure *figures;
	int nfigures;
	/*
	 * Optional: keep what its figures and detail need of res->own past
	 * the cell (a malloc'd copy, freed with the result), or NULL.
	 */
	void *(*keep)(const struct sim_result *res);
	/* Optional: more lines under the result's row in the table. */
	void (*detail)(const struct result *r, const void *opts, out_fn out,
		       void *ctx);
};

extern const struct sim_desc *const simulators[];	/* NULL-ended */

/* ---- loads ---------------------------------------------------------- */

struct load_desc;

struct load_ctx {
	const struct load_desc *desc;
	const struct run_cfg *cfg;
	struct load_work *work;		/* shared with the parent */
};

#define LOAD_CUSTOM	0x1	/* needs -C/-I; not in the default matrix */
#define LOAD_FILES	0x2	/* writes files into cfg->dir */
#define LOAD_IDLE	0x4	/* does no work on purpose (None) */

struct load_desc {
	const char *name;
	const char *summary;
	unsigned flags;
	/* The simulator this load runs, so a bench skips itself as a load. */
	const struct sim_desc *sim;
	/*
	 * In the parent, before the load's process starts (make files).
	 * 0, or -errno with ctx->work->why saying why (the cell is skipped).
	 */
	int (*prepare)(struct load_ctx *c);
	/*
	 * In the load's own process: work until killed. Count work in
	 * c->work. Returns only on failure (-errno, with why set).
	 */
	int (*run)(struct load_ctx *c);
	/* In the parent, after the load's process is gone (remove files). */
	void (*cleanup)(struct load_ctx *c);
	/* In the parent at exit (remove files kept across cells). */
	void (*finish)(const struct run_cfg *cfg);
};

extern const struct load_desc *const loads[];		/* NULL-ended */

/* Record a load failure once (thread-safe, async-signal-unsafe). */
void load_fail(struct load_work *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void work_add(struct load_work *w, enum work_kind k,
			    uint64_t n)
{
	atomic_fetch_add_explicit(&w->count[k], n, memory_order_relaxed);
}

/* Loads that combine others run each in a thread: 0 or -errno. */
int load_run_parallel(struct load_ctx *c, const struct load_desc *const *l,
		      int n);

/* Free bytes a load may fill in dir: leaves max(10 %, 1 GiB) free. */
int64_t dir_usable_bytes(const char *dir);

/* ---- compare.c: `interbench compare`; returns the exit status ------- */

int compare_main(int argc, char **argv);

/* One option of `interbench compare` (compare.c), for the completion. */
struct compare_opt {
	const char *name;		/* without "--" */
	const char *arg;		/* its value, e.g. "PCT"; NULL: none */
	/* 0, or -EINVAL with what is wrong in err; o: compare's options */
	int (*set)(void *o, const char *val, char *err, size_t n);
};

/* compare's options, ending with a NULL name. */
extern const struct compare_opt compare_opts[];

/* ---- hackbench.c ---------------------------------------------------- */

struct hack_cfg {
	int groups;		/* groups of senders and receivers */
	int fds;		/* senders (and receivers) per group */
	unsigned msg_bytes;	/* bytes per message */
};

/* Size a hackbench to the machine (cpus online). */
void hackbench_size(struct hack_cfg *h, int cpus);
/*
 * Run hackbench rounds until the process is killed, counting every
 * message received in w. Returns only on failure (-errno, why set).
 * No read or write blocks for more than a second, so it cannot hang.
 */
int hackbench_run(const struct hack_cfg *h, struct load_work *w);

#endif
