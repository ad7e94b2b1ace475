// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/interfere.c - the counters of interference (see interfere.h): the
 * benchmarked task's threads from /proc/thread-self, the machine from
 * /proc/stat and /proc/pressure. Each is read twice a cell, so plain
 * stdio is cheap enough and never on the sampling path.
 */
#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include "lib/interfere.h"
#include "lib/base.h"
#include "lib/procfs.h"

int thread_schedstat(uint64_t *run_ns, uint64_t *wait_ns)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	if (n != 2)
		return -1;
	*run_ns = run;
	*wait_ns = wait;
	return 0;
}

void task_acc_add_self(struct task_acc *acc)
{
	uint64_t run, wait;
	long long v, iv, mig;

	if (!thread_schedstat(&run, &wait)) {
		__atomic_fetch_add(&acc->run_ns, run, __ATOMIC_RELAXED);
		__atomic_fetch_add(&acc->wait_ns, wait, __ATOMIC_RELAXED);
	} else {
		__atomic_fetch_add(&acc->no_schedstat, 1, __ATOMIC_RELAXED);
	}
	if (!procfs_number("/proc/thread-self/status",
			   "voluntary_ctxt_switches", &v) && v >= 0)
		__atomic_fetch_add(&acc->vcsw, (uint64_t)v, __ATOMIC_RELAXED);
	if (!procfs_number("/proc/thread-self/status",
			   "nonvoluntary_ctxt_switches", &iv) && iv >= 0)
		__atomic_fetch_add(&acc->ivcsw, (uint64_t)iv,
				   __ATOMIC_RELAXED);
	/* Only kernels with scheduler debugging have /proc/.../sched. */
	if (!procfs_number("/proc/thread-self/sched", "se.nr_migrations",
			   &mig) && mig >= 0)
		__atomic_fetch_add(&acc->migrations, (uint64_t)mig,
				   __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(&acc->no_migrations, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&acc->threads, 1, __ATOMIC_RELAXED);
}

static void read_stat(struct machine_counters *m)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[512];
	int got = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long *j = (unsigned long long *)m->jif;

		if (!strncmp(line, "cpu ", 4))
			got += sscanf(line + 4, "%llu %llu %llu %llu %llu "
				      "%llu %llu %llu", &j[0], &j[1], &j[2],
				      &j[3], &j[4], &j[5], &j[6], &j[7]) == 8;
		else if (!strncmp(line, "ctxt ", 5))
			got += sscanf(line + 5, "%llu",
				      (unsigned long long *)&m->ctxt) == 1;
		else if (!strncmp(line, "intr ", 5))
			got += sscanf(line + 5, "%llu",
				      (unsigned long long *)&m->intr) == 1;
	}
	fclose(f);
	m->have_stat = got == 3;
}

void machine_read(struct machine_counters *m, const struct cgroup_self *cg)
{
	static const char *const psi[3] = {
		"/proc/pressure/cpu", "/proc/pressure/io",
		"/proc/pressure/memory",
	};
	int i;

	memset(m, 0, sizeof(*m));
	m->t_ns = now_ns();
	read_stat(m);
	for (i = 0; i < 3; i++) {
		FILE *f = fopen(psi[i], "re");
		unsigned long long t;

		if (!f)
			continue;
		/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=N" */
		if (fscanf(f, "some avg10=%*f avg60=%*f avg300=%*f total=%llu",
			   &t) == 1) {
			m->have_psi[i] = true;
			m->psi_us[i] = t;
		}
		fclose(f);
	}
	if (cg)
		cgroup_counters_read(cg, &m->cg);
}

/* The busy ticks of the CPUs in set, from /proc/stat's "cpuN" lines. */
static int busy_ticks(const cpu_set_t *set, uint64_t *ticks)
{
	FILE *f = fopen("/proc/stat", "re");
	unsigned long long j[7];
	char line[512];
	int cpu, got = 0;

	*ticks = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3) || line[3] == ' ' ||
		    sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu",
			   &cpu, &j[0], &j[1], &j[2], &j[3], &j[4], &j[5],
			   &j[6]) != 8 || cpu < 0 || cpu >= CPU_SETSIZE ||
		    !CPU_ISSET(cpu, set))
			continue;
		/* user nice system [idle iowait] irq softirq */
		*ticks += j[0] + j[1] + j[2] + j[5] + j[6];
		got++;
	}
	if (f)
		fclose(f);
	return got ? 0 : -1;
}

#define PF_KTHREAD_FLAG	0x00200000	/* /proc/PID/stat's flags */

/*
 * One pass over /proc: the kernel threads' CPU time, and the load group's
 * with the children it reaped. A task that came and went between two
 * reads is not here: it is the others'.
 */
static void scan_tasks(struct cpu_use *u, int load_pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		unsigned long long ut, st, cut, cst, flags;
		char path[300], buf[1024], *p;
		int pgrp;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f);
		fclose(f);
		/* after "(comm)", which may hold blanks and parentheses */
		if (!p || !(p = strrchr(buf, ')')) ||
		    sscanf(p + 2, "%*c %*d %d %*d %*d %*d %llu %*u %*u %*u "
			   "%*u %llu %llu %llu %llu", &pgrp, &flags, &ut, &st,
			   &cut, &cst) != 6)
			continue;
		if (flags & PF_KTHREAD_FLAG)
			u->kthread_ticks += ut + st;
		else if (load_pgid > 0 && pgrp == load_pgid)
			u->load_ticks += ut + st + cut + cst;
	}
	if (d)
		closedir(d);
}

static uint64_t tv_ns(const struct timeval *a, const struct timeval *b)
{
	return (uint64_t)(a->tv_sec + b->tv_sec) * NSEC_PER_SEC +
	       (uint64_t)(a->tv_usec + b->tv_usec) * 1000;
}

void cpu_use_read(struct cpu_use *u, int load_pgid)
{
	struct rusage self, kids;
	cpu_set_t set;

	memset(u, 0, sizeof(*u));
	if (sched_getaffinity(0, sizeof(set), &set) ||
	    busy_ticks(&set, &u->busy_ticks) ||
	    getrusage(RUSAGE_SELF, &self) ||
	    getrusage(RUSAGE_CHILDREN, &kids))
		return;
	u->cpus = CPU_COUNT(&set);
	u->self_ns = tv_ns(&self.ru_utime, &self.ru_stime);
	u->children_ns = tv_ns(&kids.ru_utime, &kids.ru_stime);
	scan_tasks(u, load_pgid);
	u->ok = true;
}

double cpu_use_others_pct(const struct cpu_use *a, const struct cpu_use *b,
			  double secs)
{
	double hz = (double)sysconf(_SC_CLK_TCK), busy, ours;

	if (!a->ok || !b->ok || secs <= 0 || hz <= 0 || !b->cpus)
		return NAN;
	busy = ((double)b->busy_ticks - (double)a->busy_ticks) / hz;
	ours = ((double)b->kthread_ticks - (double)a->kthread_ticks +
		(double)b->load_ticks - (double)a->load_ticks) / hz +
	       ((double)b->self_ns - (double)a->self_ns +
		(double)b->children_ns - (double)a->children_ns) /
	       NSEC_PER_SEC;
	/* ticks against ns: it can read a little below 0, and says so */
	return 100 * (busy - ours) / (secs * b->cpus);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : NAN;
}

/*
 * What the cgroup's limits did between a and b: the quota level that
 * throttled most, its throttled time over the cell's CPU time (throttled
 * time is summed over the CPUs, as steal is).
 */
static void cgroup_make(struct interference *o, const struct cg_counters *a,
			const struct cg_counters *b,
			const struct cgroup_self *cg, double secs)
{
	double *psi[2] = { &o->cg_psi_cpu_some_pct,
			   &o->cg_psi_memory_some_pct };
	uint64_t most = 0;
	bool back = false;
	int i, k = -1;

	o->cg_throttled_pct = o->cg_throttled_periods = NAN;
	o->cg_psi_cpu_some_pct = o->cg_psi_memory_some_pct = NAN;
	o->cg_memory_high = o->cg_memory_max = o->cg_oom_kills = NAN;
	o->throttled_by[0] = '\0';
	if (!cg || !cg->read || secs <= 0)
		return;
	/* a counter that went back: the cgroup was made anew mid-cell */
	for (i = 0; a->have_cpu && b->have_cpu && i < cg->nquota; i++)
		back |= b->throttled_ns[i] < a->throttled_ns[i] ||
			b->nr_throttled[i] < a->nr_throttled[i];
	if (a->have_cpu && b->have_cpu && !back && cg->at[CG_CPU].version &&
	    !cg->quota_unknown) {
		for (i = 0; i < cg->nquota; i++)
			if (b->throttled_ns[i] - a->throttled_ns[i] > most ||
			    k < 0) {
				most = b->throttled_ns[i] - a->throttled_ns[i];
				k = i;
			}
		o->cg_throttled_pct = 100.0 * (double)most / 1e9 / secs /
				      (cg->cpus_usable ? cg->cpus_usable : 1);
		o->cg_throttled_periods = k < 0 ? 0 :
			(double)(b->nr_throttled[k] - a->nr_throttled[k]);
		if (k >= 0)
			cgroup_level_text(cg, k, o->throttled_by,
					  sizeof(o->throttled_by));
	}
	for (i = 0; i < 2; i++)
		if (a->have_psi[i] && b->have_psi[i] &&
		    b->psi_us[i] >= a->psi_us[i])
			*psi[i] = (double)(b->psi_us[i] - a->psi_us[i]) / 1e4 /
				  secs;
	if (a->have_mem && b->have_mem && b->mem_high >= a->mem_high &&
	    b->mem_max >= a->mem_max && b->oom_kill >= a->oom_kill) {
		if (b->have_high)
			o->cg_memory_high = (double)(b->mem_high - a->mem_high);
		o->cg_memory_max = (double)(b->mem_max - a->mem_max);
		o->cg_oom_kills = (double)(b->oom_kill - a->oom_kill);
	}
}

void interference_make(struct interference *o,
		       const struct machine_counters *a,
		       const struct machine_counters *b,
		       const struct task_acc *t,
		       const struct cgroup_self *cg)
{
	double secs = (double)(b->t_ns - a->t_ns) / NSEC_PER_SEC;
	double *psi[3] = { &o->psi_cpu_some_pct, &o->psi_io_some_pct,
			   &o->psi_memory_some_pct };
	uint64_t d[8], all = 0;
	int i;

	o->steal_pct = o->irq_pct = o->softirq_pct = o->iowait_pct = NAN;
	o->ctxt_per_s = o->intr_per_s = NAN;
	if (a->have_stat && b->have_stat && secs > 0) {
		for (i = 0; i < 8; i++) {
			d[i] = b->jif[i] - a->jif[i];
			all += d[i];
		}
		o->iowait_pct = pct(d[4], all);
		o->irq_pct = pct(d[5], all);
		o->softirq_pct = pct(d[6], all);
		o->steal_pct = pct(d[7], all);
		o->ctxt_per_s = (double)(b->ctxt - a->ctxt) / secs;
		o->intr_per_s = (double)(b->intr - a->intr) / secs;
	}
	/* The share of the cell's wall time some task stalled on each. */
	for (i = 0; i < 3; i++)
		*psi[i] = a->have_psi[i] && b->have_psi[i] && secs > 0 ?
			  (double)(b->psi_us[i] - a->psi_us[i]) / 1e4 / secs :
			  NAN;
	cgroup_make(o, &a->cg, &b->cg, cg, secs);
	o->others_cpu_pct = cpu_use_others_pct(&a->use, &b->use, secs);
	o->task_runq_wait_pct = o->task_voluntary_switches = NAN;
	o->task_involuntary_switches = o->task_migrations = NAN;
	if (!t->threads)
		return;
	/* Of the time its threads wanted a CPU, the share they waited. */
	if (!t->no_schedstat)
		o->task_runq_wait_pct = pct(t->wait_ns, t->wait_ns + t->run_ns);
	o->task_voluntary_switches = (double)t->vcsw;
	o->task_involuntary_switches = (double)t->ivcsw;
	if (!t->no_migrations)
		o->task_migrations = (double)t->migrations;
}
