// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-chain.c - the chain engine (simulators/chain.c): which graphs it
 * refuses, the longest path of work, the shape it prints, and, run for
 * real in this process, that its frames add up: every frame released is
 * run or dropped exactly once, every thread of every stage runs once a
 * frame run, and the misses are the frames not met; and that a periodic
 * task's first release falls at a random point of its second period.
 * Nothing here asserts how fast the machine is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/cpuwork.h"
#include "lib/policy.h"
#include "core/cfg.h"
#include "core/raw.h"
#include "simulators/chain.h"
#include "simulators/engine.h"
#include "check.h"

#define MS	NSEC_PER_MSEC

/* main > render + 3 workers > present, as GameFrame. */
static struct chain_spec fork_join(uint64_t period)
{
	return (struct chain_spec){
		.period_ns = period, .deadline_ns = period,
		.miss = CHAIN_LATE, .nstages = 4,
		.stage = {
			{ "main", 2 * MS, 0, 1 },
			{ "render", 3 * MS, 1u << 0, 1 },
			{ "worker", 4 * MS, 1u << 0, 3 },
			{ "present", 1 * MS, 1u << 1 | 1u << 2, 1 },
		},
	};
}

static void test_shapes(void)
{
	struct chain_spec s = fork_join(10 * MS), bad;
	char err[160], buf[128];

	check(!chain_check(&s, err, sizeof(err)), "a fork-join is a chain");
	check(chain_ideal_ns(&s) == 7 * MS,
	      "its longest path: main 2 + worker 4 + present 1 = 7 ms (%llu)",
	      (unsigned long long)chain_ideal_ns(&s));
	chain_shape(&s, buf, sizeof(buf));
	check(!strcmp(buf, "main > render+worker x3 > present"),
	      "its shape: %s", buf);
	bad = s;
	bad.stage[1].after = 1u << 2;
	check(chain_check(&bad, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "later stage"), "waiting for a later stage: %s", err);
	bad = s;
	bad.stage[0].after = 0;
	bad.stage[2].copies = 0;
	check(chain_check(&bad, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "worker"), "a stage without threads: %s", err);
	bad = s;
	bad.deadline_ns = bad.period_ns - 1;
	check(chain_check(&bad, err, sizeof(err)) == -EINVAL,
	      "a deadline shorter than the period: %s", err);
	bad = s;
	bad.nstages = 0;
	check(chain_check(&bad, err, sizeof(err)) == -EINVAL,
	      "no stages: %s", err);
}

/* Run s for duration in this process: the result (malloc'd) or NULL. */
static struct sim_result *run(const struct chain_spec *s, uint64_t duration,
			      uint64_t lpm, int *err)
{
	static struct run_cfg cfg;
	struct sim_result *r = calloc(1, sizeof(*r));
	struct sim_ctx c;

	if (!r)
		return NULL;
	cfg.duration_ns = duration;
	cfg.loops_per_ms = lpm;
	cfg.cpus = 2;
	stats_init(&r->latency);
	stats_init(&r->timer);
	stats_init(&r->wakeup);
	stats_init(&r->per_sec);
	stats_init(&r->frame_time);
	c = (struct sim_ctx){ .cfg = &cfg, .policy = POL_OTHER,
			      .grace_ns = 5 * NSEC_PER_SEC, .res = r };
	*err = chain_run(&c, s);
	return r;
}

static void test_accounting(uint64_t lpm)
{
	struct chain_spec s = fork_join(20 * MS);
	const struct chain_own *o;
	struct sim_result *r;
	uint64_t due = 300 * MS / s.period_ns;
	int err, i;

	/* A tenth of the work: frames have room, but misses may happen. */
	for (i = 0; i < s.nstages; i++)
		s.stage[i].work_ns /= 10;
	r = run(&s, 300 * MS, lpm, &err);
	if (!r) {
		check(0, "out of memory");
		return;
	}
	o = (const struct chain_own *)r->own;
	check(!err && !r->status, "a fork-join ran (%d: %s)", err, r->why);
	check(r->frames == due, "every frame released is counted once: "
	      "%llu of %llu", (unsigned long long)r->frames,
	      (unsigned long long)due);
	check(r->frames - r->frames_met == o->misses,
	      "late frames are the frames not met (%llu, %llu of %llu)",
	      (unsigned long long)o->misses,
	      (unsigned long long)r->frames_met,
	      (unsigned long long)r->frames);
	i = (int)(r->frames - r->frames_dropped);
	check(o->total.count == (uint64_t)i && r->latency.count == (uint64_t)i,
	      "a latency and an end-to-end time for each frame run (%d)", i);
	check(o->hop[0].count == (uint64_t)i && o->hop[1].count == (uint64_t)i
	      && o->hop[2].count == 3 * (uint64_t)i &&
	      o->hop[3].count == (uint64_t)i,
	      "each stage's threads woke once a frame: %llu %llu %llu %llu",
	      (unsigned long long)o->hop[0].count,
	      (unsigned long long)o->hop[1].count,
	      (unsigned long long)o->hop[2].count,
	      (unsigned long long)o->hop[3].count);
	check(r->wakeup.count == 6 * (uint64_t)i,
	      "the wakeups are every hop's (%llu)",
	      (unsigned long long)r->wakeup.count);
	check(o->total.min >= chain_ideal_ns(&s) * 9 / 10,
	      "no frame took less than its longest path of work (%llu ns)",
	      (unsigned long long)o->total.min);
	free(r);

	/* Work of three periods a frame: most frames must be dropped. */
	s = fork_join(2 * MS);
	s.nstages = 1;
	s.stage[0].work_ns = 6 * MS;
	r = run(&s, 200 * MS, lpm, &err);
	if (!r)
		return;
	o = (const struct chain_own *)r->own;
	due = 200 * MS / s.period_ns;
	check(!err && r->frames == due && r->frames_dropped > due / 3 &&
	      r->frames_met == 0 && o->misses == r->frames,
	      "an overloaded chain drops frames and misses all: %llu due, "
	      "%llu dropped, %llu met, %llu missed",
	      (unsigned long long)r->frames,
	      (unsigned long long)r->frames_dropped,
	      (unsigned long long)r->frames_met,
	      (unsigned long long)o->misses);
	free(r);
}

/*
 * Each release is 1 to 2 periods on, and 4000 of them fill every tenth
 * of the period: a fixed phase would fill one (binomial sd about 19).
 */
static void test_first_release(void)
{
	const uint64_t period = 10 * MS;
	unsigned int tenth[10] = { 0 }, i, out = 0, least = UINT32_MAX;

	for (i = 0; i < 4000; i++) {
		uint64_t before = now_ns(), r = sim_first_release(period);
		uint64_t after = now_ns();

		if (r < before + period || r >= after + 2 * period) {
			out++;
			continue;
		}
		tenth[(r - before - period) * 10 / period % 10]++;
	}
	for (i = 0; i < 10; i++)
		if (tenth[i] < least)
			least = tenth[i];
	check(!out, "first releases 1 to 2 periods on (%u outside)", out);
	check(least >= 250, "they fill every tenth of a period (least %u of "
	      "an expected 400)", least);
}

int main(void)
{
	struct calibration cal;

	test_shapes();
	test_first_release();
	memset(&cal, 0, sizeof(cal));
	if (calibrate_loops(&cal) || !cal.loops_per_ms) {
		check(0, "calibrating the CPU burn");
		return check_done();
	}
	test_accounting(cal.loops_per_ms);
	return check_done();
}
