// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-cgroup.c - the run's own cgroup (lib/cgroup.c) read from made-up
 * trees whose truth is known: nested v2 limits (the tightest binds, a
 * root without cpu.max), the counters a cell reads and the figures
 * interference_make() makes of them, a v1 hybrid of three hierarchies,
 * odd input (garbage, a directory, a cgroup that is not there) said
 * once in cg.unread, and a cgroup removed mid-run: unknown, never 0.
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/cgroup.h"
#include "lib/interfere.h"
#include "check.h"

#define NO	CG_NO_LIMIT

static char root[64];		/* the tree of the case running */
static int put_failed;		/* files the fixture could not write */

/* A new, empty tree: 0, or -1 (said). */
static int tree_new(void)
{
	snprintf(root, sizeof(root), "/tmp/ibcgroup.XXXXXX");
	put_failed = 0;
	if (!mkdtemp(root)) {
		check(0, "mkdtemp: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path))
		printf("# could not remove %s: %s\n", path, strerror(errno));
	return 0;
}

/* Remove rel (a file or a whole directory) below the tree's root. */
static void rm_rel(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The tree gone, whatever the checks said. */
static void tree_done(const char *what)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	check(!put_failed && access(root, F_OK) && errno == ENOENT,
	      "%s: fixture written (%d failed) and removed", what, put_failed);
}

/* mkdir -p of rel's directories below root ("a/b/file": a, a/b). */
static void mkdirs(const char *rel, bool last)
{
	char path[PATH_MAX];
	size_t rl = strlen(root);
	char *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + rl + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			put_failed++;
		*p = '/';
	}
	if (last && mkdir(path, 0755) && errno != EEXIST)
		put_failed++;
}

/* Write text to rel below root, its directories made as needed. */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	mkdirs(rel, false);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "we");
	if (!f) {
		put_failed++;
		return;
	}
	if (fputs(text, f) < 0)
		put_failed++;
	if (fclose(f))
		put_failed++;
}

/* rel's path below root, as cgroup_read() makes it. */
static const char *at(const char *rel)
{
	static char buf[4][PATH_MAX];
	static int k;
	char *p = buf[k++ % 4];

	snprintf(p, PATH_MAX, "%s%s", root, rel);
	return p;
}

static int same(const char *got, const char *want)
{
	return !strcmp(got, want);
}

/* A "some ... total=N" line and its "full" one, as /proc/pressure has. */
static void put_psi(const char *rel, unsigned long long total)
{
	char buf[256];

	snprintf(buf, sizeof(buf),
		 "some avg10=0.00 avg60=0.00 avg300=0.00 total=%llu\n"
		 "full avg10=0.00 avg60=0.00 avg300=0.00 total=%llu\n",
		 total, total / 2);
	put(rel, buf);
}

static void put_cpu_stat(const char *rel, unsigned long long periods,
			 unsigned long long throttled, unsigned long long us)
{
	char buf[256];

	snprintf(buf, sizeof(buf),
		 "usage_usec 123456\nuser_usec 100000\nsystem_usec 23456\n"
		 "nr_periods %llu\nnr_throttled %llu\nthrottled_usec %llu\n"
		 "nr_bursts 0\nburst_usec 0\n", periods, throttled, us);
	put(rel, buf);
}

static void put_events(const char *rel, unsigned long long high,
		       unsigned long long max, unsigned long long kills)
{
	char buf[256];

	snprintf(buf, sizeof(buf),
		 "low 0\nhigh %llu\nmax %llu\noom %llu\noom_kill %llu\n"
		 "oom_group_kill 0\n", high, max, kills, kills);
	put(rel, buf);
}

/* Case 1's tree: /ci limits, /ci/job is ours. */
static void put_ci_job(void)
{
	put("proc-self-cgroup", "0::/ci/job\n");
	put("cgroup.controllers", "cpuset cpu io memory pids\n");
	put("cpu.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=7\n");
	put("ci/cpu.max", "40000 100000\n");
	put("ci/memory.max", "536870912\n");
	put("ci/memory.high", "max\n");
	put("ci/job/cpu.max", "max 100000\n");
	put("ci/job/cpu.max.burst", "0\n");
	put("ci/job/cpu.weight", "100\n");
	put("ci/job/cpuset.cpus.effective", "0-1\n");
	put("ci/job/memory.max", "max\n");
	put("ci/job/memory.high", "268435456\n");
}

/* Two readings a second apart, the machine's part unknown. */
static void figures(struct interference *o, const struct cg_counters *a,
		    const struct cg_counters *b, const struct cgroup_self *cg)
{
	struct machine_counters ma, mb;
	struct task_acc t;

	memset(&ma, 0, sizeof(ma));
	memset(&mb, 0, sizeof(mb));
	memset(&t, 0, sizeof(t));
	ma.t_ns = 5000000000ULL;
	mb.t_ns = 6000000000ULL;
	ma.cg = *a;
	mb.cg = *b;
	interference_make(o, &ma, &mb, &t, cg);
}

static void v2_nested(void)
{
	struct cgroup_self cg;
	int c;

	if (tree_new())
		return;
	put_ci_job();
	cgroup_read(&cg, root);
	check(cg.read, "v2: read");
	for (c = 0; c < CG_CTLS; c++)
		check(cg.at[c].version == 2 && same(cg.at[c].path, "/ci/job") &&
		      same(cg.at[c].dir, at("/ci/job")) &&
		      same(cg.at[c].top, root),
		      "v2: controller %d at /ci/job (version %d, path %s)", c,
		      cg.at[c].version, cg.at[c].path);
	check(same(cg.unified, at("/ci/job")) && !cg.unified_root,
	      "v2: unified is ours, not the root (%s)", cg.unified);
	check(cg.quota_us == 40000 && cg.period_us == 100000,
	      "v2: the ancestor's quota binds (%lld/%lld)", cg.quota_us,
	      cg.period_us);
	check(same(cg.quota_at, "/ci"), "v2: quota at /ci (%s)", cg.quota_at);
	check(cg.burst_us == NO, "v2: /ci has no burst (%lld)", cg.burst_us);
	check(cg.nquota == 1 && same(cg.quota_dir[0], at("/ci")),
	      "v2: one quota level, /ci (%d)", cg.nquota);
	check(same(cg.quotas, "/ci 40000/100000"), "v2: quotas '%s'",
	      cg.quotas);
	check_near(cgroup_quota_cpus(&cg), 0.4, 1e-12, "v2: 0.4 CPUs");
	check(cg.weight == 100, "v2: cpu.weight 100 (%lld)", cg.weight);
	check(cg.rt_runtime_us == -2, "v2: no RT group (%lld)",
	      cg.rt_runtime_us);
	check(same(cg.cpuset, "0-1") && cg.cpus_usable == 2,
	      "v2: cpuset '%s', %d usable", cg.cpuset, cg.cpus_usable);
	check(cg.mem_max == 536870912LL && same(cg.mem_at, "/ci"),
	      "v2: memory.max 512 MiB at /ci (%lld at %s)", cg.mem_max,
	      cg.mem_at);
	check(cg.mem_high == 268435456LL, "v2: memory.high 256 MiB (%lld)",
	      cg.mem_high);
	check(cg.nmem == 2 && same(cg.mem_dir[0], at("/ci/job")) &&
	      same(cg.mem_dir[1], at("/ci")),
	      "v2: memory events of /ci/job and /ci (%d levels)", cg.nmem);
	check(same(cg.unread, ""), "v2: nothing unread ('%s')", cg.unread);
	tree_done("v2 nested");
}

static void v2_tighter_child(void)
{
	struct cgroup_self cg;
	struct cg_counters a, b;
	struct interference o;
	char buf[160];

	if (tree_new())
		return;
	put("proc-self-cgroup", "0::/ci/job\n");
	put("cgroup.controllers", "cpuset cpu memory\n");
	put("ci/cpu.max", "200000 100000\n");
	put("ci/job/cpu.max", "50000 100000\n");
	put("ci/job/cpu.max.burst", "10000\n");
	put("ci/job/cpuset.cpus.effective", "0-3\n");
	cgroup_read(&cg, root);
	check(cg.quota_us == 50000 && cg.period_us == 100000 &&
	      same(cg.quota_at, "/ci/job"),
	      "child binds: %lld/%lld at %s", cg.quota_us, cg.period_us,
	      cg.quota_at);
	check(cg.burst_us == 10000, "child binds: its burst (%lld)",
	      cg.burst_us);
	check(cg.nquota == 2, "child binds: two quota levels (%d)", cg.nquota);
	check_near(cgroup_quota_cpus(&cg), 0.5, 1e-12, "child binds: 0.5 CPUs");
	check(same(cg.quotas, "/ci/job 50000/100000, /ci 200000/100000"),
	      "child binds: quotas '%s'", cg.quotas);
	cgroup_quota_text(&cg, buf, sizeof(buf));
	check(same(buf, "cpu.max 50000/100000"), "child binds: '%s'", buf);
	check(same(cg.unread, ""), "child binds: nothing unread ('%s')",
	      cg.unread);

	/* The level that throttled most is named, not the binding one. */
	put_cpu_stat("ci/job/cpu.stat", 10, 1, 1000);
	put_cpu_stat("ci/cpu.stat", 10, 1, 1000);
	cgroup_counters_read(&cg, &a);
	put_cpu_stat("ci/job/cpu.stat", 20, 2, 101000);
	put_cpu_stat("ci/cpu.stat", 20, 7, 401000);
	cgroup_counters_read(&cg, &b);
	figures(&o, &a, &b, &cg);
	check_near(o.cg_throttled_pct, 10.0, 1e-9,
		   "child binds: /ci's 0.4 s of 1 s x 4 CPUs");
	check_near(o.cg_throttled_periods, 6, 0, "child binds: /ci's periods");
	check(same(o.throttled_by, "/ci: cpu.max 200000/100000"),
	      "child binds: throttled by '%s'", o.throttled_by);
	tree_done("v2 tighter child");
}

static void v2_counters(void)
{
	struct cgroup_self cg;
	struct cg_counters a, b;
	struct interference o;

	if (tree_new())
		return;
	put_ci_job();
	put_cpu_stat("ci/cpu.stat", 10, 4, 200000);
	/* not a quota level: never read */
	put_cpu_stat("ci/job/cpu.stat", 99, 99, 99000000);
	put_psi("ci/job/cpu.pressure", 1000);
	put_psi("ci/job/memory.pressure", 2000);
	put_events("ci/job/memory.events.local", 5, 0, 0);
	/* the hierarchical one counts the children's too: not read */
	put_events("ci/job/memory.events", 500, 500, 500);
	put_events("ci/memory.events.local", 0, 1, 0);
	cgroup_read(&cg, root);
	cgroup_counters_read(&cg, &a);
	check(a.have_cpu && a.throttled_ns[0] == 200000000ULL &&
	      a.nr_throttled[0] == 4,
	      "counters: /ci's cpu.stat in ns (%d, %llu, %llu)", a.have_cpu,
	      (unsigned long long)a.throttled_ns[0],
	      (unsigned long long)a.nr_throttled[0]);
	check(a.have_psi[0] && a.psi_us[0] == 1000 && a.have_psi[1] &&
	      a.psi_us[1] == 2000, "counters: our PSI, 'some' totals");
	check(a.have_mem && a.have_high && a.mem_high == 5 &&
	      a.mem_max == 1 && a.oom_kill == 0,
	      "counters: memory.events.local of both levels (%llu %llu %llu)",
	      (unsigned long long)a.mem_high, (unsigned long long)a.mem_max,
	      (unsigned long long)a.oom_kill);

	put_cpu_stat("ci/cpu.stat", 30, 9, 700000);
	put_cpu_stat("ci/job/cpu.stat", 199, 199, 199000000);
	put_psi("ci/job/cpu.pressure", 251000);
	put_psi("ci/job/memory.pressure", 52000);
	put_events("ci/job/memory.events.local", 12, 0, 1);
	put_events("ci/memory.events.local", 0, 4, 0);
	cgroup_counters_read(&cg, &b);
	figures(&o, &a, &b, &cg);
	check_near(o.cg_throttled_pct, 25.0, 1e-9,
		   "figures: 0.5 s throttled of 1 s x 2 CPUs");
	check_near(o.cg_throttled_periods, 5, 0, "figures: throttled periods");
	check(same(o.throttled_by, "/ci: cpu.max 40000/100000"),
	      "figures: throttled by '%s'", o.throttled_by);
	check_near(o.cg_psi_cpu_some_pct, 25.0, 1e-9,
		   "figures: cgroup cpu PSI");
	check_near(o.cg_psi_memory_some_pct, 5.0, 1e-9,
		   "figures: cgroup memory PSI");
	check_near(o.cg_memory_high, 7, 0, "figures: memory.high events");
	check_near(o.cg_memory_max, 3, 0, "figures: memory.max events");
	check_near(o.cg_oom_kills, 1, 0, "figures: OOM kills");
	check(isnan(o.steal_pct) && isnan(o.psi_cpu_some_pct) &&
	      isnan(o.ctxt_per_s) && isnan(o.task_runq_wait_pct),
	      "figures: the machine's and the task's unknown (NaN)");
	tree_done("v2 counters");
}

static void v1_hybrid(void)
{
	struct cgroup_self cg;
	struct cg_counters a, b;
	struct interference o;
	char buf[160];
	int c;

	if (tree_new())
		return;
	put("proc-self-cgroup",
	    "4:memory:/m\n3:cpuset:/\n2:cpu,cpuacct:/a/b\n0::/\n");
	put("cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
	put("cpu,cpuacct/cpu.cfs_period_us", "100000\n");
	put("cpu,cpuacct/a/cpu.cfs_quota_us", "30000\n");
	put("cpu,cpuacct/a/cpu.cfs_period_us", "100000\n");
	put("cpu,cpuacct/a/b/cpu.cfs_quota_us", "-1\n");
	put("cpu,cpuacct/a/b/cpu.cfs_period_us", "100000\n");
	put("cpu,cpuacct/a/b/cpu.shares", "512\n");
	put("cpu,cpuacct/a/b/cpu.rt_runtime_us", "0\n");
	put("cpu,cpuacct/a/b/cpu.rt_period_us", "1000000\n");
	put("cpuset/cpuset.cpus", "0-3\n");
	put("cpuset/cpuset.effective_cpus", "\n");
	put("memory/memory.limit_in_bytes", "9223372036854771712\n");
	put("memory/m/memory.limit_in_bytes", "9223372036854771712\n");
	mkdirs("pids/m", true);
	cgroup_read(&cg, root);
	for (c = 0; c < CG_CTLS; c++)
		check(cg.at[c].version == 1, "v1: controller %d is v1 (%d)", c,
		      cg.at[c].version);
	check(same(cg.at[CG_CPU].dir, at("/cpu,cpuacct/a/b")) &&
	      same(cg.at[CG_CPU].top, at("/cpu,cpuacct")) &&
	      same(cg.at[CG_CPU].path, "/a/b"),
	      "v1: cpu at /a/b (%s)", cg.at[CG_CPU].dir);
	check(same(cg.at[CG_CPUSET].dir, at("/cpuset")) &&
	      same(cg.at[CG_MEMORY].dir, at("/memory/m")),
	      "v1: cpuset at its root, memory at /m");
	check(same(cg.unified, ""), "v1: no v2 directory ('%s')", cg.unified);
	check(cg.quota_us == 30000 && cg.period_us == 100000 &&
	      same(cg.quota_at, "/a") && cg.nquota == 1,
	      "v1: quota %lld/%lld at %s (%d levels)", cg.quota_us,
	      cg.period_us, cg.quota_at, cg.nquota);
	cgroup_quota_text(&cg, buf, sizeof(buf));
	check(same(buf, "cpu.cfs_quota_us 30000/100000"), "v1: '%s'", buf);
	check(cg.weight == 512, "v1: cpu.shares 512 (%lld)", cg.weight);
	check(cg.rt_runtime_us == 0 && cg.rt_period_us == 1000000,
	      "v1: RT group 0/%lld (%lld)", cg.rt_period_us, cg.rt_runtime_us);
	check(same(cg.cpuset, "0-3") && cg.cpus_usable == 4,
	      "v1: empty effective_cpus, cpuset.cpus '%s' (%d usable)",
	      cg.cpuset, cg.cpus_usable);
	check(cg.mem_max == NO && cg.mem_high == NO && cg.nmem == 1,
	      "v1: 9223372036854771712 is no limit (%lld, %d levels)",
	      cg.mem_max, cg.nmem);
	check(same(cg.unread, ""), "v1: nothing unread ('%s')", cg.unread);

	put("cpu,cpuacct/a/cpu.stat",
	    "nr_periods 10\nnr_throttled 2\nthrottled_time 1000000\n");
	put("memory/m/memory.failcnt", "3\n");
	put("memory/m/memory.oom_control",
	    "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
	cgroup_counters_read(&cg, &a);
	put("cpu,cpuacct/a/cpu.stat",
	    "nr_periods 20\nnr_throttled 5\nthrottled_time 201000000\n");
	put("memory/m/memory.failcnt", "10\n");
	put("memory/m/memory.oom_control",
	    "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
	cgroup_counters_read(&cg, &b);
	check(!b.have_psi[0] && !b.have_psi[1] && b.have_mem && !b.have_high,
	      "v1 counters: no PSI, memory without high");
	figures(&o, &a, &b, &cg);
	check_near(o.cg_throttled_pct, 5.0, 1e-9,
		   "v1 figures: 0.2 s (ns) of 1 s x 4 CPUs");
	check_near(o.cg_throttled_periods, 3, 0, "v1 figures: periods");
	check(same(o.throttled_by, "/a: cpu.cfs_quota_us 30000/100000"),
	      "v1 figures: throttled by '%s'", o.throttled_by);
	check_near(o.cg_memory_max, 7, 0, "v1 figures: failcnt");
	check_near(o.cg_oom_kills, 1, 0, "v1 figures: OOM kills");
	check(isnan(o.cg_memory_high) && isnan(o.cg_psi_cpu_some_pct),
	      "v1 figures: no memory.high, no PSI (NaN)");
	tree_done("v1 hybrid");
}

static void odd_input(void)
{
	struct cgroup_self cg;
	struct cg_counters a, b;
	struct interference o;

	/* garbage and a directory: unknown, said, no crash */
	if (!tree_new()) {
		put("proc-self-cgroup", "0::/a\n");
		put("cgroup.controllers", "cpu memory\n");
		put("a/cpu.max", "lots\n");
		put("a/memory.high", "\n");
		mkdirs("a/memory.max", true);
		cgroup_read(&cg, root);
		check(cg.quota_us == NO && cg.nquota == 0,
		      "garbage: cpu.max 'lots' is no quota (%lld, %d)",
		      cg.quota_us, cg.nquota);
		check(strstr(cg.unread, "cpu.max (not understood)") != NULL,
		      "garbage: cpu.max named ('%s')", cg.unread);
		check(cg.mem_max == NO && cg.mem_high == NO,
		      "garbage: memory limits unknown (%lld, %lld)",
		      cg.mem_max, cg.mem_high);
		check(strstr(cg.unread, "memory.max (Is a directory)") != NULL,
		      "directory: memory.max named ('%s')", cg.unread);
		check(strstr(cg.unread, "memory.high (not understood)") != NULL,
		      "empty: memory.high named ('%s')", cg.unread);
		check(cg.at[CG_CPUSET].version == 0 &&
		      cg.cpus_usable == cg.cpus_machine && same(cg.cpuset, ""),
		      "garbage: no cpuset controller, the machine's CPUs");
		check(cg.quota_unknown, "garbage: the quota is unknown, so "
		      "is its throttling");
		tree_done("garbage");
	}

	/* half a cpu.max, and one with no period */
	if (!tree_new()) {
		put("proc-self-cgroup", "0::/a/b\n");
		put("cgroup.controllers", "cpu\n");
		put("a/cpu.max", "40000\n");
		put("a/b/cpu.max", "40000 x\n");
		cgroup_read(&cg, root);
		check(cg.quota_us == NO && cg.nquota == 0 &&
		      strstr(cg.unread, "cpu.max (not understood)") != NULL,
		      "half a cpu.max: no quota, named ('%s')", cg.unread);
		tree_done("half a cpu.max");
	}

	/* "max" everywhere: no quota can throttle, known 0 */
	if (!tree_new()) {
		put("proc-self-cgroup", "0::/ci/job\n");
		put("cgroup.controllers", "cpu memory\n");
		put("ci/cpu.max", "max 100000\n");
		put("ci/job/cpu.max", "max 100000\n");
		put_cpu_stat("ci/job/cpu.stat", 1, 1, 1);
		put_events("ci/job/memory.events.local", 0, 0, 0);
		cgroup_read(&cg, root);
		cgroup_counters_read(&cg, &a);
		put_cpu_stat("ci/job/cpu.stat", 2, 2, 500000);
		cgroup_counters_read(&cg, &b);
		figures(&o, &a, &b, &cg);
		check(cg.quota_us == NO && cg.nquota == 0 &&
		      same(cg.quotas, ""), "max: no quota (%lld, %d)",
		      cg.quota_us, cg.nquota);
		check(cgroup_quota_cpus(&cg) == 0, "max: 0 CPUs (no quota)");
		check(o.cg_throttled_pct == 0 && o.cg_throttled_periods == 0 &&
		      same(o.throttled_by, ""),
		      "max: throttled 0 %% (%g), 0 periods, by nobody",
		      o.cg_throttled_pct);
		check(o.cg_memory_max == 0 && o.cg_memory_high == 0,
		      "max: memory events known, 0");
		check(same(cg.unread, ""), "max: nothing unread ('%s')",
		      cg.unread);
		tree_done("max everywhere");
	}

	/* our cgroup's directory is not there */
	if (!tree_new()) {
		char want[PATH_MAX + 32];

		put("proc-self-cgroup", "0::/gone\n");
		put("cgroup.controllers", "cpu memory\n");
		cgroup_read(&cg, root);
		check(cg.at[CG_CPU].version == 0 &&
		      cg.at[CG_MEMORY].version == 0,
		      "gone: not read (%d, %d)", cg.at[CG_CPU].version,
		      cg.at[CG_MEMORY].version);
		snprintf(want, sizeof(want), "%s (%s)", at("/gone"),
			 strerror(ENOENT));
		check(same(cg.unread, want), "gone: said once ('%s')",
		      cg.unread);
		check(cg.quota_us == NO && cg.mem_max == NO && cg.nmem == 0,
		      "gone: no limits");
		cgroup_counters_read(&cg, &a);
		figures(&o, &a, &a, &cg);
		check(isnan(o.cg_throttled_pct) && isnan(o.cg_memory_max) &&
		      isnan(o.cg_psi_cpu_some_pct),
		      "gone: figures unknown (NaN), not 0");
		tree_done("gone");
	}

	/* a v1 cgroup that is not there: that controller only */
	if (!tree_new()) {
		put("proc-self-cgroup", "3:memory:/nope\n2:cpu,cpuacct:/\n");
		put("cpu,cpuacct/cpu.shares", "1024\n");
		mkdirs("memory", true);
		cgroup_read(&cg, root);
		check(cg.at[CG_CPU].version == 1 &&
		      cg.at[CG_MEMORY].version == 0 &&
		      cg.at[CG_CPUSET].version == 0,
		      "v1 gone: cpu read, memory not (%d, %d)",
		      cg.at[CG_CPU].version, cg.at[CG_MEMORY].version);
		check(cg.weight == 1024 && strstr(cg.unread, "/memory/nope ("),
		      "v1 gone: cpu.shares %lld, '%s'", cg.weight, cg.unread);
		tree_done("v1 gone");
	}

	/* no proc-self-cgroup at all */
	if (!tree_new()) {
		put("cgroup.controllers", "cpu memory\n");
		put("cpu.max", "10000 100000\n");
		cgroup_read(&cg, root);
		check(cg.read && cg.at[CG_CPU].version == 0 &&
		      cg.at[CG_CPUSET].version == 0 &&
		      cg.at[CG_MEMORY].version == 0 && cg.quota_us == NO &&
		      cg.weight == NO && same(cg.unified, ""),
		      "no proc-self-cgroup: nothing read");
		cgroup_counters_read(&cg, &a);
		figures(&o, &a, &a, &cg);
		check(isnan(o.cg_throttled_pct) && isnan(o.cg_memory_max),
		      "no proc-self-cgroup: figures unknown (NaN)");
		tree_done("no proc-self-cgroup");
	}

	/* ours is the root: PSI is the machine's, not read here */
	if (!tree_new()) {
		put("proc-self-cgroup", "0::/\n");
		put("cgroup.controllers", "cpu\n");
		put_psi("cpu.pressure", 1000);
		cgroup_read(&cg, root);
		cgroup_counters_read(&cg, &a);
		check(cg.unified_root && same(cg.unified, root) &&
		      !a.have_psi[0] && cg.nquota == 0,
		      "root: no quota, its PSI left to the machine's");
		tree_done("root");
	}
}

static void removed(void)
{
	struct cgroup_self cg;
	struct cg_counters a, b, c;
	struct interference o;

	if (tree_new())
		return;
	put_ci_job();
	put_cpu_stat("ci/cpu.stat", 10, 4, 200000);
	put_psi("ci/job/cpu.pressure", 1000);
	put_psi("ci/job/memory.pressure", 1000);
	put_events("ci/job/memory.events.local", 0, 0, 0);
	put_events("ci/memory.events.local", 0, 0, 0);
	cgroup_read(&cg, root);
	cgroup_counters_read(&cg, &a);
	check(a.have_cpu && a.have_mem && a.have_psi[0],
	      "removed: counters read at the start");

	rm_rel("ci/cpu.stat");
	cgroup_counters_read(&cg, &b);
	check(!b.have_cpu && b.have_mem,
	      "removed: the quota level's cpu.stat gone, cpu unknown");
	figures(&o, &a, &b, &cg);
	check(isnan(o.cg_throttled_pct) && isnan(o.cg_throttled_periods) &&
	      same(o.throttled_by, ""),
	      "removed: throttling unknown (NaN, got %g), not 0",
	      o.cg_throttled_pct);
	check_near(o.cg_memory_max, 0, 0, "removed: memory still known");

	rm_rel("ci");
	cgroup_counters_read(&cg, &c);
	check(!c.have_cpu && !c.have_mem && !c.have_psi[0] && !c.have_psi[1],
	      "removed: the whole cgroup gone, nothing read");
	figures(&o, &a, &c, &cg);
	check(isnan(o.cg_throttled_pct) && isnan(o.cg_psi_cpu_some_pct) &&
	      isnan(o.cg_psi_memory_some_pct) && isnan(o.cg_memory_high) &&
	      isnan(o.cg_memory_max) && isnan(o.cg_oom_kills),
	      "removed: every cgroup figure unknown (NaN)");
	tree_done("removed");
}

int main(void)
{
	v2_nested();
	v2_tighter_child();
	v2_counters();
	v1_hybrid();
	odd_input();
	removed();
	return check_done();
}
