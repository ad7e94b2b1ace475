// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Server: requests handed to worker threads, as Chris Mason's schbench
 * does them (its HEAD, 24e32b8). Message threads wake their idle workers
 * (or, with --server-rps, hand out N requests at the start of every
 * second); a request is a sleep ("some simulated networking") and then
 * naive matrix multiplication over a chosen cache footprint, under a
 * per-CPU lock that waiters spin on (so that a worker preempted while
 * holding it stalls the others on that CPU).
 *
 *   wakeup latency   message thread's post (one stamp a round) ->
 *                    worker running
 *   request latency  worker running -> request done (the sleep and the
 *                    work, as schbench times it): the table's latency; a
 *                    request slower than --server-budget misses its
 *                    deadline
 *   % desired CPU    the workers' time on a CPU over their time on one or
 *                    runnable (schedstat, read when each starts and ends)
 *   requests per second, counted for every whole second of the run
 *
 * Every thread keeps its own figures; they are added up after the join.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/interfere.h"
#include "lib/base.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "core/sim.h"
#include "core/load.h"
#include "simulators/engine.h"
#include "simulators/server_priv.h"

/*
 * Workers per message thread: schbench's default shares the CPUs out
 * among the message threads, rounded up.
 */
int server_workers(const struct server_opts *o)
{
	int w = o->workers;

	if (!w)
		w = (o->cpus + o->threads - 1) / o->threads;
	return w > SERVER_MAX_WORKERS ? SERVER_MAX_WORKERS : w;
}

/* Side of the square matrices: three of them fill the footprint. */
size_t server_matrix_dim(int footprint_kb)
{
	size_t cells = (size_t)footprint_kb * 1024 / (3 * sizeof(unsigned long));
	size_t d = (size_t)sqrt((double)cells);

	/* sqrt of a double may be a hair off for large squares */
	while (d * d > cells)
		d--;
	while ((d + 1) * (d + 1) <= cells)
		d++;
	return d;
}

/* ---- the run -------------------------------------------------------- */

enum { W_IDLE, W_POSTED };

struct server;
struct msgr;

struct worker {
	struct server *sv;
	struct msgr *m;
	unsigned long *mat;		/* three dim x dim matrices */
	struct lat_stats *wakeup;	/* this worker's own figures */
	struct lat_stats *latency;
	_Atomic uint64_t stamp;		/* when the request was posted */
	_Atomic int state;		/* W_IDLE or W_POSTED */
	_Atomic int pending;		/* --server-rps: requests queued */
	sem_t wake;
	pthread_t tid;
	bool created;
	/* atomic: read after sem_clockwait, which TSan does not know */
	_Atomic int err;
	uint64_t frames, met, dropped;
	double desired_ns, got_ns;
	uint64_t ran0, waited0;		/* schedstat when it started */
	bool have_sched;
};

/* A message thread and its workers. */
struct msgr {
	struct server *sv;
	struct worker *w;
	int nw;
	sem_t done;			/* a worker finished a request */
	pthread_t tid;
	bool created;
	_Atomic int err;
};

struct server {
	struct sim_ctx *c;
	const struct server_opts *o;
	size_t dim;
	uint64_t sleep_ns, budget_ns;
	uint64_t start, end;		/* end: UINT64_MAX when unbounded */
	_Atomic int abort;		/* a thread could not set up */
	_Atomic int stopping;		/* --server-rps: no more requests */
	bool lock;			/* spin on a per-CPU lock */
	sem_t ready;			/* a worker is waiting for requests */
	pthread_mutex_t *locks;		/* one per CPU, for --server-lock */
	int nlocks;
	_Atomic uint64_t *per_sec;	/* requests done in second k */
	uint64_t nsec;			/* whole seconds in the run */
	struct msgr *m;
	struct worker *w;
	int nm, nw;
};

/* Sleep ns, relative, whatever signals arrive. */
static void nap(uint64_t ns)
{
	struct timespec ts = ns_to_ts(ns);

	if (!ns)
		return;
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/*
 * dst = a x b for dim x dim matrices, the naive way (i-j-k: the inner
 * loop walks down b's columns), as schbench does: its cost per request,
 * cache misses included, is what its figures are made of. The sum is
 * added into dst itself, as schbench's is: the three may alias, so the
 * compiler stores the cell on every step. Not inlined, so that the inner
 * loop has the registers it has in schbench: a sum kept in a register
 * made a request 0.77 of schbench's cost, the stride reloaded from the
 * stack 0.88 (bench/server-vs-schbench.sh, work-1cpu). false: stopped
 * at give_up.
 *
 * Where the inner loop lies matters as much. Its 25 bytes cost a request
 * about 18 % more when they straddle a 64-byte line than when they fit
 * in one (the 2-CPU VM's Zen 5, work alone: 3.17 against 2.61 ms), and
 * schbench's, as gcc -O2 builds it, straddles one: it starts 48 bytes
 * into a line. Ours moved with whatever the linker put before it: it
 * straddled at bbf7029 and fitted after 7020c87, which changed only
 * Compositor's code (16 bytes fewer) and made Server serve 1.2 times the
 * requests a second. So multiply starts a line of its own and its first
 * bytes are 32 no-ops, which put its inner loop, as gcc builds it, 48
 * bytes into a line as schbench's is: its place is multiply's own now
 * (bench/server-vs-schbench.sh prints both tools' loops).
 */
#if defined(__x86_64__) || defined(__i386__)
#define MULTIPLY_PAD	__asm__ volatile(".skip 32, 0x90")	/* 32 nops */
#else
#define MULTIPLY_PAD	do { } while (0)
#endif

static __attribute__((noinline, aligned(64)))
bool multiply(unsigned long *dst, const unsigned long *a,
	      const unsigned long *b, size_t dim, uint64_t give_up)
{
	/* Check the clock every quarter million or so multiply-adds. */
	size_t every = (1u << 18) / (dim * dim) + 1, i, j, k;

	MULTIPLY_PAD;

	for (i = 0; i < dim; i++) {
		for (j = 0; j < dim; j++) {
			dst[i * dim + j] = 0;
			for (k = 0; k < dim; k++)
				dst[i * dim + j] += a[i * dim + k] *
						    b[k * dim + j];
		}
		if ((i + 1) % every == 0 && now_ns() >= give_up)
			return false;
	}
	return true;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * The lock of the CPU we are on, spun for as schbench does: trylock in a
 * loop, and again if we were moved meanwhile. NULL: gave up at give_up.
 */
static pthread_mutex_t *lock_this_cpu(struct server *sv, uint64_t give_up)
{
	unsigned long spins = 0;

	for (;;) {
		int cpu = sched_getcpu();
		pthread_mutex_t *l = &sv->locks[cpu >= 0 ? cpu % sv->nlocks :
						 0];

		while (pthread_mutex_trylock(l)) {
			cpu_relax();
			if (!(++spins & 1023) && now_ns() >= give_up)
				return NULL;
		}
		if (sched_getcpu() == cpu)
			return l;
		pthread_mutex_unlock(l);
	}
}

/* The request's CPU work. false: gave up at give_up. */
static bool think(struct worker *w, uint64_t give_up)
{
	struct server *sv = w->sv;
	size_t n2 = sv->dim * sv->dim;
	unsigned long *m[3] = { w->mat, w->mat + n2, w->mat + 2 * n2 };
	pthread_mutex_t *lock = NULL;
	bool done = true;
	int k;

	if (sv->lock) {
		lock = lock_this_cpu(sv, give_up);
		if (!lock)
			return false;
	}
	/*
	 * The same product every time, as schbench: the loop's cost moves
	 * by 10 % and more with which matrix is written while which is read
	 * down its columns (a product feeding the next varied it run to run).
	 */
	for (k = 0; k < sv->o->ops && done; k++)
		done = now_ns() < give_up &&
		       multiply(m[2], m[0], m[1], sv->dim, give_up);
	if (lock)
		pthread_mutex_unlock(lock);
	return done;
}

/* Woken with a request: how long after its post. */
static void woken(struct worker *w)
{
	uint64_t stamp = atomic_load_explicit(&w->stamp, memory_order_relaxed);
	uint64_t t = now_ns();

	stats_add(w->wakeup, t > stamp ? t - stamp : 0);
}

/*
 * One request, timed as schbench times it: from the worker taking it,
 * through the sleep ("simulated networking") and the matrix work.
 */
static void serve(struct worker *w)
{
	struct server *sv = w->sv;
	struct sim_ctx *c = sv->c;
	uint64_t t0 = now_ns(), t1, lat;
	uint64_t give_up;
	bool done;

	/*
	 * A request still running after the end that has already missed
	 * its deadline is given up: nobody waits for it any more, and a
	 * big footprint could otherwise keep the run going for minutes.
	 */
	give_up = t0 + sv->budget_ns;
	if (give_up < sv->end)
		give_up = sv->end;
	nap(sv->sleep_ns);
	done = think(w, give_up);
	t1 = now_ns();
	w->frames++;
	if (!done) {
		w->dropped++;
		return;
	}
	lat = t1 - t0;
	stats_add(w->latency, lat);
	if (lat <= sv->budget_ns)
		w->met++;
	if (sv->per_sec && t1 < sv->end) {
		uint64_t k = (t1 - sv->start) / NSEC_PER_SEC;

		if (k < sv->nsec)
			atomic_fetch_add_explicit(&sv->per_sec[k], 1,
						  memory_order_relaxed);
	}
	if (c->work)
		work_add(c->work, WORK_FRAMES, 1);
}

/*
 * Every post of w->wake is a request (state W_POSTED, set before the
 * post) or, last, the message thread's goodbye: woken and idle means
 * no request is left, so the worker is done.
 */
static void *worker_thread(void *arg)
{
	struct worker *w = arg;
	uint64_t ran, waited;

	w->err = sim_sched(w->sv->c, NULL);
	if (!w->err)
		w->have_sched = !thread_schedstat(&w->ran0, &w->waited0);
	sem_post(&w->sv->ready);
	if (w->err)
		return NULL;
	for (;;) {
		struct timespec ts = ns_to_ts(now_ns() + NSEC_PER_SEC);

		/* Bounded, so that an abort is seen within a second. */
		if (sem_clockwait(&w->wake, CLOCK_MONOTONIC, &ts)) {
			if (atomic_load(&w->sv->abort))
				break;
			continue;
		}
		if (w->sv->o->rps) {
			/* Every request queued for us, then wait again. */
			if (atomic_load(&w->pending) > 0)
				woken(w);
			while (atomic_load(&w->pending) > 0) {
				serve(w);
				atomic_fetch_sub(&w->pending, 1);
			}
			if (atomic_load(&w->sv->stopping))
				break;
			continue;
		}
		if (atomic_load_explicit(&w->state, memory_order_acquire) !=
		    W_POSTED)
			break;
		woken(w);
		serve(w);
		atomic_store_explicit(&w->state, W_IDLE, memory_order_release);
		sem_post(&w->m->done);
	}
	/*
	 * % desired CPU: of the time it wanted a CPU, the share it ran.
	 * Read once at each end of the worker's life, not around every
	 * request: reading a thread's CPU clock makes the scheduler account
	 * its time there and then, ending a spent slice at that point rather
	 * than at the next tick, and on a busy CPU that changed who ran
	 * after a request (schbench reads no CPU clock).
	 */
	if (w->have_sched && !thread_schedstat(&ran, &waited)) {
		w->got_ns = (double)(ran - w->ran0);
		w->desired_ns = w->got_ns + (double)(waited - w->waited0);
	}
	task_acc_add_self(&w->sv->c->res->task);
	return NULL;
}

/*
 * --server-rps: at the start of every second hand out the second's
 * requests to the workers in turn, as schbench -R does; a worker with
 * more than RPS_BATCH waiting gets none (after a 100 us pause), then
 * sleep out the second.
 */
#define RPS_BATCH	128

static void msgr_rps(struct msgr *m)
{
	struct server *sv = m->sv;
	int i, next = 0;

	while (!atomic_load(&sv->abort)) {
		uint64_t sec = now_ns(), until;

		if (sec >= sv->end)
			break;
		for (i = 0; i < sv->o->rps && now_ns() < sv->end; i++) {
			struct worker *w = &m->w[next++ % m->nw];

			if (atomic_load(&w->pending) > RPS_BATCH) {
				nap(100 * NSEC_PER_USEC);
				continue;
			}
			atomic_fetch_add(&w->pending, 1);
			atomic_store_explicit(&w->stamp, now_ns(),
					      memory_order_relaxed);
			sem_post(&w->wake);
		}
		until = sec + NSEC_PER_SEC;
		if (until > sv->end)
			until = sv->end;
		while (now_ns() < until && !atomic_load(&sv->abort))
			nap(until - now_ns());
	}
	atomic_store(&sv->stopping, 1);
}

static void *msgr_thread(void *arg)
{
	struct msgr *m = arg;
	struct server *sv = m->sv;
	int i;

	m->err = sim_sched(sv->c, NULL);
	if (m->err)
		atomic_store(&sv->abort, 1);
	if (sv->o->rps && !m->err)
		msgr_rps(m);
	while (!sv->o->rps && !atomic_load(&sv->abort)) {
		uint64_t now = now_ns(), until;
		struct timespec ts;

		if (now >= sv->end)
			break;
		/*
		 * One stamp for the round, as schbench takes it: a waker
		 * preempted by its first wakee shows in the others' wakeup.
		 */
		for (i = 0; i < m->nw; i++) {
			struct worker *w = &m->w[i];

			if (atomic_load_explicit(&w->state,
						 memory_order_acquire) != W_IDLE)
				continue;
			atomic_store_explicit(&w->stamp, now,
					      memory_order_relaxed);
			atomic_store_explicit(&w->state, W_POSTED,
					      memory_order_release);
			sem_post(&w->wake);
		}
		/* Wait for a worker to finish, a second at most. */
		until = now + NSEC_PER_SEC;
		if (until > sv->end)
			until = sv->end;
		ts = ns_to_ts(until);
		sem_clockwait(&m->done, CLOCK_MONOTONIC, &ts);
	}
	for (i = 0; i < m->nw; i++)
		sem_post(&m->w[i].wake);
	task_acc_add_self(&sv->c->res->task);
	return NULL;
}

/* Everything the threads use, made before any of them starts. */
static int server_alloc(struct server *sv)
{
	int per = sv->nw / sv->nm, k;	/* workers a message thread */
	size_t n2 = sv->dim * sv->dim, i;

	sv->m = calloc((size_t)sv->nm, sizeof(*sv->m));
	sv->w = calloc((size_t)sv->nw, sizeof(*sv->w));
	if (!sv->m || !sv->w)
		return -ENOMEM;
	for (k = 0; k < sv->nm; k++) {
		sv->m[k].sv = sv;
		sv->m[k].w = &sv->w[k * per];
		sv->m[k].nw = per;
		sem_init(&sv->m[k].done, 0, 0);
	}
	for (k = 0; k < sv->nw; k++) {
		struct worker *w = &sv->w[k];

		w->sv = sv;
		w->m = &sv->m[k / per];
		sem_init(&w->wake, 0, 0);
		if (posix_memalign((void **)&w->mat, 64,
				   3 * n2 * sizeof(*w->mat))) {
			w->mat = NULL;
			return -ENOMEM;
		}
		/* Touched now: no page faults in the first requests. */
		for (i = 0; i < 3 * n2; i++)
			w->mat[i] = (unsigned long)(i % 7) + 1;
		w->wakeup = malloc(sizeof(*w->wakeup));
		w->latency = malloc(sizeof(*w->latency));
		if (!w->wakeup || !w->latency)
			return -ENOMEM;
		stats_init(w->wakeup);
		stats_init(w->latency);
	}
	if (sv->lock) {
		long cpus = sysconf(_SC_NPROCESSORS_CONF);

		sv->nlocks = cpus > 0 ? (int)cpus : 1;
		sv->locks = calloc((size_t)sv->nlocks, sizeof(*sv->locks));
		if (!sv->locks)
			return -ENOMEM;
		/* Waiters spin on trylock (lock_this_cpu), never sleep. */
		for (k = 0; k < sv->nlocks; k++)
			pthread_mutex_init(&sv->locks[k], NULL);
	}
	sv->nsec = sim_duration(sv->c) / NSEC_PER_SEC;
	if (sv->nsec) {
		sv->per_sec = calloc(sv->nsec, sizeof(*sv->per_sec));
		if (!sv->per_sec)
			return -ENOMEM;
	}
	return 0;
}

static void server_free(struct server *sv)
{
	int k;

	if (sv->w)
		for (k = 0; k < sv->nw; k++) {
			free(sv->w[k].mat);
			free(sv->w[k].wakeup);
			free(sv->w[k].latency);
			sem_destroy(&sv->w[k].wake);
		}
	if (sv->m)
		for (k = 0; k < sv->nm; k++)
			sem_destroy(&sv->m[k].done);
	if (sv->locks)
		for (k = 0; k < sv->nlocks; k++)
			pthread_mutex_destroy(&sv->locks[k]);
	free(sv->locks);
	free(sv->per_sec);
	free(sv->m);
	free(sv->w);
	sem_destroy(&sv->ready);
	free(sv);
}

/* Start the workers and wait until every one is ready: 0 or -errno. */
static int start_workers(struct server *sv, const pthread_attr_t *attr)
{
	uint64_t deadline;
	int k, started = 0, err = 0;

	for (k = 0; k < sv->nw; k++) {
		err = -pthread_create(&sv->w[k].tid, attr, worker_thread,
				      &sv->w[k]);
		if (err) {
			sim_fail(sv->c->res, err, "starting a worker");
			break;
		}
		sv->w[k].created = true;
		started++;
	}
	deadline = now_ns() + SERVER_START_NS;
	while (started) {
		struct timespec ts = ns_to_ts(deadline);

		if (!sem_clockwait(&sv->ready, CLOCK_MONOTONIC, &ts)) {
			started--;
		} else if (errno == ETIMEDOUT) {
			sim_fail(sv->c->res, -ETIMEDOUT,
				    "workers did not start");
			return -ETIMEDOUT;
		}
	}
	for (k = 0; k < sv->nw && !err; k++)
		if (sv->w[k].err) {
			err = sv->w[k].err;
			sim_fail(sv->c->res, err, "scheduling a worker");
		}
	return err;
}

static int start_msgrs(struct server *sv, const pthread_attr_t *attr)
{
	int k, err;

	for (k = 0; k < sv->nm; k++) {
		err = -pthread_create(&sv->m[k].tid, attr, msgr_thread,
				      &sv->m[k]);
		if (err) {
			sim_fail(sv->c->res, err,
				    "starting a message thread");
			return err;
		}
		sv->m[k].created = true;
	}
	return 0;
}

/* Stop and join every thread by the deadline: 0 or -ETIMEDOUT. */
static int stop_all(struct server *sv, uint64_t deadline)
{
	int k, i;

	for (k = 0; k < sv->nm; k++) {
		struct msgr *m = &sv->m[k];

		if (!m->created) {
			/* Its workers would wait for it forever. */
			for (i = 0; i < m->nw; i++)
				sem_post(&m->w[i].wake);
			continue;
		}
		if (thread_join_until(m->tid, deadline)) {
			sim_fail(sv->c->res, -ETIMEDOUT,
				    "a message thread did not finish");
			return -ETIMEDOUT;
		}
	}
	for (k = 0; k < sv->nw; k++) {
		if (!sv->w[k].created)
			continue;
		if (thread_join_until(sv->w[k].tid, deadline)) {
			sim_fail(sv->c->res, -ETIMEDOUT,
				    "a worker did not finish");
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/* Add every thread's figures into the result: 0 or -ENOMEM. */
static int collect(struct server *sv)
{
	struct sim_result *r = sv->c->res;
	struct lat_stats *rate;
	uint64_t k;
	int i;

	for (i = 0; i < sv->nm; i++)
		if (sv->m[i].err) {
			sim_fail(r, sv->m[i].err,
				    "scheduling a message thread");
			return r->status;
		}
	for (i = 0; i < sv->nw; i++) {
		struct worker *w = &sv->w[i];

		stats_merge(&r->wakeup, w->wakeup);
		stats_merge(&r->latency, w->latency);
		r->frames += w->frames;
		r->frames_met += w->met;
		r->frames_dropped += w->dropped;
		r->cpu_desired_ns += w->desired_ns;
		r->cpu_got_ns += w->got_ns;
	}
	rate = malloc(sizeof(*rate));
	if (!rate) {
		sim_fail(r, -ENOMEM, "requests per second");
		return -ENOMEM;
	}
	stats_init(rate);
	for (k = 0; k < sv->nsec; k++)
		stats_add(rate, atomic_load(&sv->per_sec[k]));
	stats_merge(&r->per_sec, rate);
	free(rate);
	return 0;
}

int server_run(struct sim_ctx *c)
{
	const struct server_opts *o = c->opts;
	struct server *sv;
	pthread_attr_t attr;
	uint64_t deadline;
	int err;

	if (!o)
		return -EINVAL;
	sv = calloc(1, sizeof(*sv));
	if (!sv)
		return -ENOMEM;
	sv->c = c;
	sv->o = o;
	sv->dim = server_matrix_dim(o->footprint_kb);
	sv->sleep_ns = (uint64_t)o->sleep_us * NSEC_PER_USEC;
	sv->budget_ns = (uint64_t)o->budget_us * NSEC_PER_USEC;
	sv->nm = o->threads;
	sv->nw = o->threads * server_workers(o);
	sv->lock = !o->no_lock;
	sv->end = UINT64_MAX;
	sem_init(&sv->ready, 0, 0);
	c->res->has_deadlines = true;
	err = server_alloc(sv);
	if (err) {
		sim_fail(c->res, err, "setting up the server");
		server_free(sv);
		return err;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SERVER_STACK);
	err = start_workers(sv, &attr);
	if (!err) {
		/* The run starts with the first request. */
		sv->start = now_ns();
		if (sim_duration(c))
			sv->end = sv->start + sim_duration(c);
		err = start_msgrs(sv, &attr);
	}
	pthread_attr_destroy(&attr);
	if (err)
		atomic_store(&sv->abort, 1);
	/* The last requests may run to their deadline, then give up. */
	deadline = err ? now_ns() : sv->end;
	if (deadline != UINT64_MAX)
		deadline += c->grace_ns;
	else
		deadline = 0;
	if (stop_all(sv, deadline))
		return -ETIMEDOUT;	/* threads die with the process */
	if (!err)
		err = collect(sv);
	server_free(sv);
	return err ? err : c->res->status;
}
