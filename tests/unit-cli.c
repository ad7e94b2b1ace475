// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-cli - the command line in process: options into the plan, their
 * errors, simulators' options, the matrix and the order its cells run in.
 */
#include <errno.h>
#include <string.h>
#include "check.h"
#include "cli/ab.h"
#include "cli/cli.h"
#include "lib/policy.h"
#include "lib/base.h"
#include "core/sim.h"
#include "core/load.h"

static struct plan p;
static char err[512];

/* Parse the words of line (split on spaces) into p: cli_parse's return. */
static int parse(const char *line)
{
	static char buf[1024];
	char *argv[64], *tok, *save = NULL;
	int argc = 0;

	plan_free(&p);
	if (plan_init(&p))
		return -12345;
	snprintf(buf, sizeof(buf), "interbench %s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 63;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	err[0] = '\0';
	return cli_parse(&p, argc, argv, err, sizeof(err));
}

/* The line is refused with an error that says want. */
static void refused(const char *line, const char *want)
{
	int rc = parse(line);

	check(rc == -EINVAL && !strcmp(err, want), "'%s' is refused: '%s'",
	      line, rc ? err : "(accepted)");
}

static const char *name_at(int i)
{
	return p.sims[i]->name;
}

/*
 * ab's order on any matrix: in each block of two passes a cell runs A B
 * then B A, or B A then A B (so drift within a pair cancels over every
 * two pairs), a fair coin from the seed choosing for each cell and block
 * (so an odd number of pairs leans no way on average, and no two cells
 * the same way); the text the result files record is that order; and -n
 * auto looks at 3, 5, 8 and the last pass.
 */
static void ab_order(void)
{
	struct plan q = { 0 };
	int pp, i, seed, bad_alt = 0, first_a = 0, same = 0, coins = 0;
	int pairs = 0, bad_text = 0;
	char text[64];

	for (pp = 1; pp <= 7; pp++) {
		q.per_pass = pp;
		for (i = 0; i < pp * 6; i++) {
			int pass = i / pp, c = i % pp;
			/* the same cell in the next pass: it runs the cells
			 * backwards (plan_cell()) */
			int j = (pass + 1) * pp + (pp - 1 - c);

			/* a block's second pass: each cell the other way */
			if (!(pass % 2) && plan_ab_first(&q, 7, j) ==
			    plan_ab_first(&q, 7, i))
				bad_alt++;
		}
	}
	check(!bad_alt, "ab: in each block of two passes each cell runs A B "
	      "and B A (%d wrong)", bad_alt);
	/* 2000 runs of 5 cells: the coin, cell by cell and block by block */
	q.per_pass = 5;
	for (seed = 0; seed < 2000; seed++) {
		for (i = 0; i < 5; i++) {
			int b0 = plan_ab_first(&q, (uint32_t)seed, i);
			int b1 = plan_ab_first(&q, (uint32_t)seed, 10 + i);

			first_a += !b0;
			coins++;
			/* the next block's coin, and the next cell's */
			same += b0 == b1;
			if (i)
				same += b0 == plan_ab_first(&q, (uint32_t)seed,
							    i - 1);
			pairs += 1 + !!i;
		}
	}
	check(first_a > coins * 0.46 && first_a < coins * 0.54,
	      "ab: A first in %d of %d cells' first blocks (a fair coin)",
	      first_a, coins);
	check(same > pairs * 0.46 && same < pairs * 0.54,
	      "ab: the next cell's and the next block's coin agree in %d of "
	      "%d (independent)", same, pairs);
	q.per_pass = 3;
	q.cells = 15;
	check(!plan_ab_order(&q, 42, text, sizeof(text)) &&
	      strlen(text) == 15 && plan_ab_order(&q, 42, text, 15) ==
	      -ENOSPC, "ab: the order as text: %s", text);
	for (i = 0; i < 15; i++)
		bad_text += text[i] != (plan_ab_first(&q, 42, i) ? 'B' : 'A');
	check(!bad_text, "... a letter for each cell of the run order (%d "
	      "wrong)", bad_text);
	q.repeats = 10;
	q.auto_repeats = true;
	check(plan_look(&q, 3) && plan_look(&q, 5) && plan_look(&q, 8) &&
	      plan_look(&q, 10) && !plan_look(&q, 4) && !plan_look(&q, 9) &&
	      plan_nlooks(&q) == 4, "-n auto:10 looks at 3, 5, 8, 10");
	q.auto_repeats = false;
	q.repeats = 7;
	check(plan_nlooks(&q) == 1 && plan_look(&q, 7) && !plan_look(&q, 3),
	      "-n 7 looks once, at the end");
}

/*
 * -n auto's test on results of a known spread: k repeats of Audio/None
 * whose latency figures are each 1 ms times (1 + spread * (-1, 0, 1,
 * ...)); failed repeats measure nothing.
 */
static bool settled_at(int k, double spread, int failed)
{
	static struct result r[12];
	int i, f, lat[8], nlat = plan_lat_decisions(lat, 8);

	memset(r, 0, sizeof(r));
	for (i = 0; i < k + failed; i++) {
		r[i].sim = p.sims[0];
		r[i].load = p.loads[0];
		r[i].status = i < k ? RES_OK : RES_FAILED;
		for (f = 0; f < nlat; f++)
			r[i].v[lat[f]] = 1e6 * (1 + spread * (i % 3 - 1));
	}
	return plan_auto_settled(&p, r, k + failed);
}

static void auto_test(void)
{
	int lat[8], n = plan_lat_decisions(lat, 8), i, ns = 0;

	for (i = 0; i < n; i++)
		ns += figures[lat[i]].unit == FU_NS;
	check(n == 3 && ns == 3, "-n auto judges 3 latency figures (p50, "
	      "p99, max), %d of them in ns", ns);
	check(parse("-W audio -w none -n auto") == 0 && p.per_pass == 1,
	      "a plan of one cell for -n auto (%s)", err);
	check(!settled_at(2, 0, 0), "-n auto: 2 identical repeats are too "
	      "few (3 at least)");
	check(settled_at(3, 0, 0) && settled_at(3, 0.005, 0),
	      "-n auto: 3 repeats within 0.5 %% of each other are settled");
	/* +/-10 %: the half width is t(0.975, 2) 4.3 x 0.1 / sqrt 3 = 25 % */
	check(!settled_at(3, 0.1, 0) && !settled_at(9, 0.1, 0),
	      "-n auto: 3 or 9 repeats 10 %% apart are not (2.5 %% asked)");
	check(!settled_at(2, 0, 1), "-n auto: 2 measured and one failed "
	      "repeat are not settled");
	check(settled_at(0, 0, 3), "-n auto: a cell none of whose 3 repeats "
	      "measured cannot narrow, and does not hold the run");
	check(!settled_at(0, 0, 2), "-n auto: nor is it passed over before "
	      "3 passes");
}

int main(void)
{
	const struct sim_desc *s;
	const struct load_desc *l;
	int rc, repeat, i;

	ab_order();
	auto_test();
	rc = parse("-t 0.5 -W audio -w none -w burn -n 3 -B 5 -N -3 -v");
	check(!rc && p.action == PLAN_RUN, "a run's options parse (%s)", err);
	check(p.cfg.duration_ns == 500000000, "-t 0.5 is 0.5 s in ns");
	check(p.nsims == 1 && !strcmp(name_at(0), "Audio"), "-W audio");
	check(p.nloads == 2 && !strcmp(p.loads[0]->name, "None") &&
	      !strcmp(p.loads[1]->name, "Burn"), "-w none -w burn, in order");
	check(p.repeats == 3 && p.per_pass == 2 && p.cells == 6,
	      "-n 3: 2 cells a pass, 6 in all");
	check(p.cfg.bench_nice == 5 && p.cfg.load_nice == -3 && p.verbose,
	      "-B, -N and -v are stored");

	rc = parse("");
	check(!rc && p.nsims == 4 && p.per_pass == 50,
	      "the default matrix: 4 tasks, 50 cells (%d, %d)", p.nsims,
	      p.per_pass);
	check(p.cfg.duration_ns == 30 * NSEC_PER_SEC && p.repeats == 1 &&
	      !strcmp(p.cfg.dir, "."), "defaults: 30 s, 1 repeat, dir .");
	rc = parse("-C 10 -I 2000 -W custom -w none");
	check(!rc && p.custom && p.cfg.custom_interval_ns == 2000000 &&
	      p.cfg.custom_cpu_pct == 10, "-C 10 -I 2000: Custom, 2 ms");
	rc = parse("--load-threads 3 --time=2 --comment hello --json r.json "
		   "--csv r.csv --dry-run -l 5000");
	check(!rc && p.cfg.load_threads == 3 &&
	      p.cfg.duration_ns == 2 * NSEC_PER_SEC &&
	      !strcmp(p.comment, "hello") && !strcmp(p.json_path, "r.json") &&
	      !strcmp(p.csv_path, "r.csv") && p.dry_run &&
	      p.loops_given && p.cfg.loops_per_ms == 5000,
	      "long options, with = or a space");

	check(!parse("--help -t nonsense") && p.action == PLAN_HELP,
	      "--help wins over what follows it");
	check(!parse("--list") && p.action == PLAN_LIST, "--list");
	check(!parse("--version") && p.action == PLAN_VERSION, "--version");

	refused("-t abc", "option -t: 'abc' is not a number");
	refused("-t 0", "option -t: 0 is out of range (0.1 to 86400)");
	refused("-L 0", "option -L: 0 is out of range (1 to 4096)");
	refused("-L two", "option -L: 'two' is not a whole number");
	refused("-B 20", "option -B: 20 is out of range (-20 to 19)");
	refused("-l 1000 -b", "options -l and -b contradict each other");
	refused("-C 50", "option -C needs -I too");
	refused("-I 1000", "option -I needs -C too");
	refused("-W nosuch", "option -W: unknown task 'nosuch' (see --list)");
	/* a typo: the nearest name, case ignored, a swap one edit */
	refused("-W Audoi", "option -W: unknown task 'Audoi' (did you mean "
		"Audio? see --list)");
	refused("-X gamign", "option -X: unknown task 'gamign' (did you mean "
		"Gaming? see --list)");
	refused("-W modren", "option -W: unknown task 'modren' (did you mean "
		"modern? see --list)");
	refused("-w Brun", "option -w: unknown load 'Brun' (did you mean "
		"Burn? see --list)");
	refused("-w memlaod", "option -w: unknown load 'memlaod' (did you "
		"mean Memload? see --list)");
	/* too far from every name, or too short to guess: no guess */
	refused("-w Bxyz", "option -w: unknown load 'Bxyz' (see --list)");
	refused("-w q", "option -w: unknown load 'q' (see --list)");
	refused("--fial-if p99>1ms", "unknown option --fial-if (did you mean "
		"--fail-if? see --help)");
	refused("--jsno=x.json", "unknown option --jsno=x.json (did you mean "
		"--json? see --help)");
	refused("--bench-polcy fifo", "unknown option --bench-polcy (did you "
		"mean --bench-policy? see --help)");
	check(opt_distance("Audoi", "audio") == 1 &&
	      opt_distance("Brun", "Burn") == 1 &&
	      opt_distance("kitten", "sitting") == 3 &&
	      opt_distance("", "abc") == 3 && opt_distance("ca", "abc") == 3,
	      "opt_distance: a swap is one edit, case ignored (OSA)");
	refused("-w burn -x Burn", "options -w and -x both name load 'Burn'");
	refused("-W custom", "option -W: benchmark 'Custom' needs -C and -I");
	refused("-W video -w video", "no cell to run: a task is never run "
		"against itself as a load");
	refused("--remeasure 2", "option --remeasure needs --remeasure-if");
	refused("--remeasure-if steal>1 --remeasure 11", "option --remeasure: "
		"11 is out of range (1 to 10)");
	refused("--remeasure-if fast", "option --remeasure-if: 'fast': "
		"unknown metric (mean, sd, max, p50, p90, p99, p99.9, cpu, "
		"deadlines, ft_p50, ft_p90, ft_p99, ft_p99_9, ft_max, fps, "
		"low_1pct, low_0_1pct, stutters, steal, irq, softirq, iowait, "
		"psi_cpu, psi_io, psi_memory, ctxt, intr, runq_wait, "
		"voluntary, involuntary, migrations, others_cpu, throttled, "
		"throttled_periods, cgroup_psi_cpu, cgroup_psi_memory, memory_high, "
		"memory_max, oom_kill)");
	refused("--remeasure-if p99>5ms", "option --remeasure-if: 'p99>5ms': "
		"only what else happened in the cell may decide (steal, irq, "
		"softirq, iowait, psi_cpu, psi_io, psi_memory, ctxt, intr, "
		"runq_wait, voluntary, involuntary, migrations, others_cpu, throttled, "
		"throttled_periods, cgroup_psi_cpu, cgroup_psi_memory, memory_high, "
		"memory_max, oom_kill): a condition "
		"on the task's own figures would keep its best draw");
	check(!parse("--remeasure-if steal>1") && p.remeasure_on &&
	      p.remeasure_if.fig == F_INTF_STEAL && p.remeasure_if.op == '>' &&
	      p.remeasure_if.value == 1 && p.remeasure_max == 3,
	      "--remeasure-if steal>1: steal over 1 %%, 3 more at most");
	check(!parse("--remeasure-if psi_cpu>=20 --remeasure 5") &&
	      p.remeasure_if.fig == F_INTF_PSI_CPU && p.remeasure_max == 5,
	      "--remeasure-if psi_cpu>=20 --remeasure 5");
	refused("-t 0x10", "option -t: '0x10' is not a number");
	refused("-t nan", "option -t: 'nan' is not a number");
	refused("-Z", "unknown option -Z (see --help)");
	refused("--nosuch", "unknown option --nosuch (see --help)");
	refused("--json", "option --json needs a value");
	refused("-t", "option -t needs a value");
	refused("stray", "unexpected argument 'stray' (see --help)");
	refused("--fail-if speed>1", "option --fail-if: 'speed>1': unknown "
		"metric (mean, sd, max, p50, p90, p99, p99.9, cpu, "
		"deadlines, ft_p50, ft_p90, ft_p99, ft_p99_9, ft_max, fps, "
		"low_1pct, low_0_1pct, stutters, steal, irq, softirq, iowait, "
		"psi_cpu, psi_io, psi_memory, ctxt, intr, runq_wait, "
		"voluntary, involuntary, migrations, others_cpu, throttled, "
		"throttled_periods, cgroup_psi_cpu, cgroup_psi_memory, memory_high, "
		"memory_max, oom_kill)");
	refused("--cyclic-prio 90", "options for Cyclic are given but "
		"Cyclic does not run (add -W Cyclic)");
	refused("-W cyclic --cyclic-policy deadline", "option --cyclic-policy:"
		" 'deadline': expected fifo, rr, other or auto");
	refused("-W cyclic --cyclic-prio 0", "option --cyclic-prio: 0 is out "
		"of range (1 to 99)");
	refused("-W cyclic --cyclic-interval 100 --dist 2ms", "options for "
		"Cyclic: --dist is wider than ten intervals");
	refused("-W server --server-budget 100 --server-sleep 100", "options "
		"for Server: --server-budget 100 us is not more than the "
		"--server-sleep of 100 us");
	refused("-W server --server-rps 0", "option --server-rps: 0 is out "
		"of range (1 to 1000000)");
	refused("-r --bench-policy rr", "option -r is --bench-policy fifo: it "
		"contradicts --bench-policy rr");
	refused("--bench-slice 300 --bench-policy idle", "option --bench-slice:"
		" a slice is for the fair classes (--bench-policy other or "
		"batch), not idle");
	refused("-W cyclic --cyclic-threads 0", "option --cyclic-threads: '0' "
		"is not all or a number of CPUs from 1 to 128");

	/* How the benchmarked tasks and the loads are scheduled. */
	rc = parse("-W audio -w none");
	check(!rc && p.cfg.bench_policy == POL_OTHER && !p.cfg.rt &&
	      p.cfg.load_policy == POL_OTHER && !p.cfg.bench_slice_ns,
	      "defaults: tasks and loads SCHED_OTHER, the kernel's slice");
	rc = parse("-r -W audio -w none");
	check(!rc && p.cfg.bench_policy == POL_FIFO && p.cfg.rt,
	      "-r is --bench-policy fifo");
	rc = parse("-r --bench-policy FIFO -W audio -w none");
	check(!rc && p.cfg.bench_policy == POL_FIFO, "-r agrees with fifo");
	rc = parse("--bench-policy rr -W audio -w none");
	check(!rc && p.cfg.bench_policy == POL_RR && p.cfg.rt,
	      "rr: a real-time class, figures in us");
	rc = parse("--bench-policy batch --bench-slice 300 --load-policy idle "
		   "-W audio -w none");
	check(!rc && p.cfg.bench_policy == POL_BATCH && !p.cfg.rt &&
	      p.cfg.bench_slice_ns == 300 * NSEC_PER_USEC &&
	      p.cfg.load_policy == POL_IDLE,
	      "batch, a 300 us slice, idle loads");
	rc = parse("--bench-policy deadline -w none");
	check(!rc && p.cfg.bench_policy == POL_DEADLINE && p.cfg.rt &&
	      p.nsims == 3, "deadline: only the periodic tasks by default "
	      "(%d)", p.nsims);
	for (i = 0; i < p.nsims; i++)
		check(p.sims[i]->flags & SIM_PERIODIC, "deadline runs %s, a "
		      "periodic task", name_at(i));
	refused("--bench-policy bogus", "option --bench-policy: 'bogus': "
		"expected other, batch, idle, fifo, rr or deadline");
	refused("--load-policy fifo", "option --load-policy: 'fifo': "
		"expected other, batch or idle");
	refused("--bench-slice 50", "option --bench-slice: 50 is out of "
		"range (100 to 100000)");
	refused("--bench-slice 0.5", "option --bench-slice: '0.5' is not a "
		"whole number");
	refused("-r --bench-policy idle", "option -r is --bench-policy fifo: "
		"it contradicts --bench-policy idle");
	refused("--bench-policy rr --bench-slice 300", "option --bench-slice:"
		" a slice is for the fair classes (--bench-policy other or "
		"batch), not rr");
	refused("--bench-policy idle --bench-slice 300", "option "
		"--bench-slice: a slice is for the fair classes (--bench-policy"
		" other or batch), not idle");
	refused("--bench-policy deadline -W gaming", "option --bench-policy "
		"deadline: 'Gaming' cannot be a deadline task (Audio, Video, X "
		"and Custom can: a period and a CPU need to reserve)");
	refused("--bench-policy deadline -W server -w none", "option "
		"--bench-policy deadline: 'Server' cannot be a deadline task "
		"(Audio, Video, X and Custom can: a period and a CPU need to "
		"reserve)");

	check(!parse("-n auto -W audio -w none") && p.auto_repeats &&
	      p.repeats == AUTO_REPEATS_MAX && p.cells == 10,
	      "-n auto: up to 10 passes");
	check(!parse("-n auto:4 -W audio -w none") && p.auto_repeats &&
	      p.repeats == 4, "-n auto:4: up to 4");
	check(!parse("-n 7") && !p.auto_repeats && p.repeats == 7, "-n 7");
	refused("-n auto:2", "option -n: 'auto:2' is not a number of repeats "
		"or auto[:MAX] with MAX 3 to 100");
	refused("-n autox", "option -n: 'autox' is not a number of repeats or "
		"auto[:MAX] with MAX 3 to 100");
	refused("-n 101", "option -n: 101 is out of range (1 to 100)");

	rc = parse("-W server --server-lock --server-ops 3 -W cyclic "
		   "--cyclic-interval 500");
	check(!rc && p.ngiven == 3 &&
	      !strcmp(p.given[0].name, "server-lock") && !p.given[0].value &&
	      !strcmp(p.given[1].name, "server-ops") &&
	      !strcmp(p.given[1].value, "3") &&
	      !strcmp(p.given[2].name, "cyclic-interval"),
	      "simulators' options are recorded as given (%s)", err);
	check(p.nsims == 2 && !strcmp(name_at(0), "Server") &&
	      !strcmp(name_at(1), "Cyclic"),
	      "-W keeps the table's order of simulators");

	/* Pass 1 runs the matrix forwards, pass 2 backwards, and so on. */
	rc = parse("-W audio -W x -w none -w burn -w x -n 3");
	check(!rc && p.per_pass == 5 && p.cells == 15,
	      "X is not run under X: 5 cells a pass");
	plan_cell(&p, 0, &repeat, &s, &l);
	check(repeat == 1 && !strcmp(s->name, "Audio") &&
	      !strcmp(l->name, "None"), "cell 0: Audio under None, repeat 1");
	plan_cell(&p, 4, &repeat, &s, &l);
	check(repeat == 1 && !strcmp(s->name, "X") && !strcmp(l->name, "Burn"),
	      "cell 4: X under Burn");
	plan_cell(&p, 5, &repeat, &s, &l);
	check(repeat == 2 && !strcmp(s->name, "X") && !strcmp(l->name, "Burn"),
	      "cell 5: pass 2 starts where pass 1 ended");
	plan_cell(&p, 9, &repeat, &s, &l);
	check(repeat == 2 && !strcmp(s->name, "Audio") &&
	      !strcmp(l->name, "None"), "cell 9: pass 2 ends at the start");
	plan_cell(&p, 10, &repeat, &s, &l);
	check(repeat == 3 && !strcmp(s->name, "Audio") &&
	      !strcmp(l->name, "None"), "cell 10: pass 3 forwards again");
	for (i = 0, rc = 0; i < p.cells; i++) {
		plan_cell(&p, i, &repeat, &s, &l);
		rc += !plan_has(s, l);
	}
	check(!rc, "no cell runs a task under itself");
	plan_free(&p);
	return check_done();
}
