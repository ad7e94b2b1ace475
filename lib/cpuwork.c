// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/cpuwork.c - the calibrated CPU loop the simulators and loads burn.
 *
 * Simulated tasks ask for an amount of CPU (Audio: 5 % of 50 ms). They burn
 * it with the calibrated loop, in steps sized from loops_per_ms, until
 * they have run that long: the time on CLOCK_MONOTONIC less the gaps in
 * which the thread did not run. Why time and not a fixed loop count: a
 * CPU's speed is not constant (turbo, frequency scaling, a busy SMT
 * sibling, a virtual machine's host). On our 2-core VM the loop ran
 * anywhere from 1.0 to 3.1 million loops per ms within seconds on an idle
 * machine, so a fixed count would make "5 % CPU" mean 5 % to 15 % and
 * charge the kernel for the host's moods. Why not the thread's CPU clock
 * (which earlier builds read every 20 us): reading it is a system
 * call that makes the scheduler account the running slice there and then,
 * so a spent slice ended at the read rather than at the next tick, and
 * the simulated task was scheduled as no real one is (bench/gaming-clock.sh
 * measures it). calibration_check() still holds the burn to the CPU
 * clock, outside the measured time. Loads that count work (Burn) use the
 * fixed loop and report what they got done.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "lib/base.h"
#include "lib/cpuwork.h"
#include "lib/interfere.h"

void burn_loops(uint64_t n)
{
	uint64_t i;

	/* The empty asm keeps the compiler from deleting the loop. */
	for (i = 0; i < n; i++)
		__asm__ __volatile__("" : : : "memory");
}

static uint64_t loops_for(uint64_t loops_per_ms, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)loops_per_ms * ns / NSEC_PER_MSEC);
}

#ifndef IB_BENCH_CPU_CLOCK
/*
 * The loop runs in steps of about 1 us between two looks at
 * CLOCK_MONOTONIC, which the vDSO reads without entering the kernel. A
 * step that took more than BURN_GAP_NS was a time the thread did not run
 * (preempted, an interrupt, the host): it is counted as off, but for the
 * shortest step seen, which is what the loop itself took. A step takes
 * 1 to 3 us as the CPU's speed varies (see above); a switch away and
 * back, or an interrupt on a VM, takes longer. Gaps under 5 us are
 * counted as run, as the CPU clock counted an interrupt's time.
 */
#define BURN_STEP_NS	NSEC_PER_USEC
#define BURN_GAP_NS	(5 * NSEC_PER_USEC)

uint64_t burn_ns(uint64_t loops_per_ms, uint64_t ns)
{
	uint64_t step = loops_for(loops_per_ms, BURN_STEP_NS) + 1;
	uint64_t ran = 0, off = 0, least = BURN_STEP_NS, prev = now_ns();

	while (ran < ns) {
		uint64_t t, d;

		burn_loops(step);
		t = now_ns();
		d = t - prev;
		prev = t;
		if (d > BURN_GAP_NS) {
			ran += least;
			off += d - least;
			continue;
		}
		if (d < least)
			least = d;
		ran += d;
	}
	return off;
}
#else
/*
 * bench/gaming-clock.sh's other way, never shipped: the thread's CPU
 * clock read every 20 us of the burn (a system call that makes the
 * scheduler account the slice there and then).
 */
#define BURN_CHUNK_NS	(20 * NSEC_PER_USEC)

uint64_t burn_ns(uint64_t loops_per_ms, uint64_t ns)
{
	uint64_t start = thread_cpu_ns(), used;

	while ((used = thread_cpu_ns() - start) < ns) {
		uint64_t left = ns - used;

		burn_loops(loops_for(loops_per_ms, left < BURN_CHUNK_NS ?
					      left : BURN_CHUNK_NS) + 1);
	}
	return 0;
}
#endif

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* burn_loops(a) or burn_ns(a, b): what the timings below run. */
static void run_loops(uint64_t a, uint64_t b)
{
	(void)b;
	burn_loops(a);
}

static void run_burn(uint64_t a, uint64_t b)
{
	(void)burn_ns(a, b);
}

/* Thread CPU ns that fn(a, b) takes: median of reps tries (and extremes). */
static uint64_t time_cpu(void (*fn)(uint64_t, uint64_t), uint64_t a,
			 uint64_t b, int reps, uint64_t *lo, uint64_t *hi)
{
	uint64_t t[16] = { 0 };
	int i;

	if (reps > 16)
		reps = 16;
	if (reps < 1)
		reps = 1;
	for (i = 0; i < reps; i++) {
		uint64_t c0 = thread_cpu_ns();

		fn(a, b);
		t[i] = thread_cpu_ns() - c0;
	}
	qsort(t, (size_t)reps, sizeof(t[0]), cmp_u64);
	if (lo)
		*lo = t[0];
	if (hi)
		*hi = t[reps - 1];
	return t[reps / 2];
}

/*
 * A calibration sample: the loop's thread CPU time and wall time, and the
 * time it waited runnable in the guest (schedstat; -1 unknown). Wall
 * time the thread did not run was taken by other tasks (the wait) or by
 * the host (the rest: steal, which the kernel leaves out of CPU time).
 */
struct cal_sample {
	uint64_t cpu, wall;
	int64_t wait;
};

static void cal_sample(struct cal_sample *s, uint64_t n)
{
	uint64_t r0, w0, r1, w1, c0, t0;
	bool ss = !thread_schedstat(&r0, &w0);

	t0 = now_ns();
	c0 = thread_cpu_ns();
	burn_loops(n);
	s->cpu = thread_cpu_ns() - c0;
	s->wall = now_ns() - t0;
	ss = ss && !thread_schedstat(&r1, &w1);
	s->wait = ss && w1 >= w0 ? (int64_t)(w1 - w0) : -1;
}

#define CAL_SAMPLES		9

/* (slowest - fastest) / median of the n sorted times t, in %. */
static double spread_of(const uint64_t *t, int n)
{
	return 100.0 * (double)(t[n - 1] - t[0]) / (double)t[n / 2];
}

/*
 * How busy other tasks kept the machine's CPU time but ours (ran ns)
 * between a and b, from /proc/stat's ticks: user, nice, system, irq and
 * softirq (not steal: the host's, not a task's).
 */
static void rest_of_machine(struct calibration *cal,
			    const struct machine_counters *a,
			    const struct machine_counters *b, uint64_t ran)
{
	static const int busy[] = { 0, 1, 2, 5, 6 };
	double hz = (double)sysconf(_SC_CLK_TCK), total = 0, used = 0, ours;
	size_t i;

	cal->others_machine_pct = NAN;
	if (!a->have_stat || !b->have_stat || hz <= 0)
		return;
	for (i = 0; i < 8; i++)
		total += (double)(b->jif[i] - a->jif[i]);
	for (i = 0; i < sizeof(busy) / sizeof(busy[0]); i++)
		used += (double)(b->jif[busy[i]] - a->jif[busy[i]]);
	ours = (double)ran * hz / NSEC_PER_SEC;
	/* one CPU, or ticks too few to tell: unknown */
	if (total - ours < 10)
		return;
	cal->others_machine_pct = used > ours ?
		100.0 * (used - ours) / (total - ours) : 0;
	if (cal->others_machine_pct > 100)
		cal->others_machine_pct = 100;
}

/*
 * Thread CPU time, not wall time: a preemption during calibration must not
 * make the loop look slower. Yet a busy machine slows it even in CPU
 * time (on our 2-CPU VM, by up to 20 % in a sample switched away 20
 * times), and never speeds it: the loop count is the median of the
 * samples the thread ran throughout, when there are 3 or more, else of
 * all. Bounded: about 1.5 s of CPU on any machine.
 */
int calibrate_loops(struct calibration *cal)
{
	struct cal_sample s[CAL_SAMPLES];
	uint64_t n = 1000, t, all[CAL_SAMPLES], calm[CAL_SAMPLES];
	uint64_t wall = 0, off = 0, wait = 0, ran = 0;
	struct machine_counters m0, m1;
	int grow, i, ncalm = 0;
	bool have_wait = true;

	/* Grow n until it takes >= 2 ms; at most ~40 doublings. */
	for (grow = 0; grow < 40; grow++) {
		t = time_cpu(run_loops, n, 0, 1, NULL, NULL);
		if (t >= 2 * NSEC_PER_MSEC)
			break;
		n *= 2;
	}
	if (grow == 40 || !t)
		return -ERANGE;
	/* Warm up the CPU (frequency, caches) for about 200 ms. */
	burn_loops((uint64_t)((double)n * 200.0 * NSEC_PER_MSEC / (double)t));
	/* Then 9 samples of ~50 ms each. */
	n = (uint64_t)((double)n * 50.0 * NSEC_PER_MSEC / (double)t);
	machine_read(&m0, NULL);
	for (i = 0; i < CAL_SAMPLES; i++) {
		uint64_t o;

		cal_sample(&s[i], n);
		if (!s[i].cpu)
			return -ERANGE;
		o = s[i].wall > s[i].cpu ? s[i].wall - s[i].cpu : 0;
		all[i] = s[i].cpu;
		if (100.0 * (double)o <=
		    CAL_UNDISTURBED_PCT * (double)s[i].wall)
			calm[ncalm++] = s[i].cpu;
		wall += s[i].wall;
		ran += s[i].cpu;
		off += o;
		if (s[i].wait < 0)
			have_wait = false;
		else
			wait += (uint64_t)s[i].wait;
	}
	machine_read(&m1, NULL);
	rest_of_machine(cal, &m0, &m1, ran);
	qsort(all, CAL_SAMPLES, sizeof(all[0]), cmp_u64);
	qsort(calm, (size_t)ncalm, sizeof(calm[0]), cmp_u64);
	t = ncalm >= 3 ? calm[ncalm / 2] : all[CAL_SAMPLES / 2];
	cal->loops_per_ms = (uint64_t)((double)n * NSEC_PER_MSEC / (double)t);
	if (!cal->loops_per_ms)
		return -ERANGE;
	cal->spread_pct = spread_of(all, CAL_SAMPLES);
	cal->samples = CAL_SAMPLES;
	cal->undisturbed = ncalm;
	cal->speed_spread_pct = ncalm >= 3 ? spread_of(calm, ncalm) : NAN;
	cal->off_pct = wall ? 100.0 * (double)off / (double)wall : NAN;
	cal->others_pct = NAN;
	cal->host_pct = NAN;
	if (have_wait && wall) {
		wait = wait < off ? wait : off;
		cal->others_pct = 100.0 * (double)wait / (double)wall;
		cal->host_pct = 100.0 * (double)(off - wait) / (double)wall;
	}
	cal->cpufreq = !access("/sys/devices/system/cpu/cpu0/cpufreq", F_OK);
	cal->measured = true;
	return 0;
}

/*
 * How closely burn_ns() costs what it is asked, in thread CPU time: the
 * median of 5 tries at 1, 5 and 20 ms, worst of the three sizes.
 */
int calibration_check(struct calibration *cal)
{
	static const uint64_t sizes[] = { 1, 5, 20 };
	uint64_t r0, w0, r1, w1, t0, c0, wall, cpu, off;
	double worst = 0;
	bool ss;
	size_t i;

	if (!cal->loops_per_ms)
		return -EINVAL;
	ss = !thread_schedstat(&r0, &w0);
	t0 = now_ns();
	c0 = thread_cpu_ns();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t want = sizes[i] * NSEC_PER_MSEC;
		uint64_t got = time_cpu(run_burn, cal->loops_per_ms, want, 5,
					NULL, NULL);
		double err = ((double)got - (double)want) / (double)want;

		if (fabs(err) > fabs(worst))
			worst = err;
	}
	cpu = thread_cpu_ns() - c0;
	wall = now_ns() - t0;
	ss = ss && !thread_schedstat(&r1, &w1) && w1 >= w0;
	/* two clocks: the CPU's may read a hair past the wall's */
	off = wall > cpu ? wall - cpu : 0;
	cal->error_pct = worst * 100.0;
	cal->check_off_pct = wall ? 100.0 * (double)off / (double)wall : NAN;
	cal->check_others_pct = ss && wall ? 100.0 * (double)(w1 - w0 < off ?
				w1 - w0 : off) / (double)wall : NAN;
	return 0;
}

bool calibration_disturbed(const struct calibration *cal)
{
	return cal->check_off_pct > CAL_UNDISTURBED_PCT;
}
