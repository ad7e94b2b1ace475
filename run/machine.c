// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/machine.c - the state of the machine that changes latency, read once
 * at the start of a run: the preemption model in force, sched_ext, the
 * kernel command line, cpufreq, cpuidle, hugepages, autogroup, real-time
 * throttling, SMT and virtualisation; and the warnings of what skews
 * results. See system.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/utsname.h>
#include "plan/plan.h"
#include "core/load.h"
#include "lib/procfs.h"
#include "lib/system.h"
#include "run/machine.h"

/* The options of the kernel's command line that change latency. */
static const char *const latency_opts[] = {
	"isolcpus", "nohz_full", "rcu_nocbs", "threadirqs", "preempt",
	"idle", "mitigations", "nohz", "nosmt", "irqaffinity",
	"intel_idle.max_cstate", "processor.max_cstate", NULL,
};

static bool latency_opt(const char *word)
{
	int i;

	for (i = 0; latency_opts[i]; i++) {
		size_t l = strlen(latency_opts[i]);

		if (!strncmp(word, latency_opts[i], l) &&
		    (word[l] == '=' || !word[l]))
			return true;
	}
	return false;
}

/* The latency options of /proc/cmdline into st->cmdline; preempt= too. */
static void read_cmdline(struct machine_state *st, char *preempt, size_t pn)
{
	char line[4096], *tok, *save = NULL;
	size_t used = 0;

	if (procfs_line("/proc/cmdline", line, sizeof(line)))
		return;
	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "--"))
			break;	/* the rest is init's */
		if (!latency_opt(tok))
			continue;
		if (!strncmp(tok, "preempt=", 8))
			snprintf(preempt, pn, "%s", tok + 8);
		used += (size_t)snprintf(st->cmdline + used,
					 used < sizeof(st->cmdline) ?
					 sizeof(st->cmdline) - used : 0,
					 "%s%s", used ? " " : "", tok);
		if (used >= sizeof(st->cmdline))
			break;
	}
}

/* The build's default mode of a PREEMPT_DYNAMIC kernel, or "". */
static void build_default(const struct sysinfo_ib *si, char *buf, size_t n)
{
	static const char *const modes[] = { "NONE", "VOLUNTARY", "LAZY",
					      "" };
	char path[128], line[128];
	FILE *f;
	int i;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/boot/config-%s", si->release);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		for (i = 0; i < 4; i++) {
			char want[64];

			snprintf(want, sizeof(want), "CONFIG_PREEMPT%s%s=y\n",
				 modes[i][0] ? "_" : "", modes[i]);
			if (!strcmp(line, want))
				snprintf(buf, n, "%s", i == 3 ? "full" :
					 i == 2 ? "lazy" : i == 1 ?
					 "voluntary" : "none");
		}
	fclose(f);
}

/*
 * What the build allows (uname's version, /boot/config): "rt", "full",
 * "dynamic, default none"; and a build without PREEMPT in its version
 * is none or voluntary, fixed by the build, as its config says.
 */
static void preempt_build(struct sysinfo_ib *si)
{
	struct machine_state *st = &si->st;
	char def[16];

	build_default(si, def, sizeof(def));
	if (strstr(si->version, "PREEMPT_RT"))
		snprintf(st->preempt_build, sizeof(st->preempt_build), "rt");
	else if (strstr(si->version, "PREEMPT_DYNAMIC"))
		snprintf(st->preempt_build, sizeof(st->preempt_build),
			 "dynamic%s%s", def[0] ? ", default " : "", def);
	else if (strstr(si->version, "PREEMPT "))
		snprintf(st->preempt_build, sizeof(st->preempt_build), "full");
	else
		snprintf(st->preempt_build, sizeof(st->preempt_build), "%s",
			 def[0] ? def : "none or voluntary");
	if (!si->preempt[0] && def[0] && strcmp(st->preempt_source,
						 "debugfs")) {
		snprintf(si->preempt, sizeof(si->preempt), "%s", def);
		snprintf(st->preempt_source, sizeof(st->preempt_source),
			 "build");
	}
	if (!si->preempt[0])
		st->preempt_source[0] = '\0';
}

/*
 * "Dynamic Preempt: none" in the kernel's log (the boot's choice), where
 * the log may be read and still holds it: 0, else -1.
 */
static int boot_log_mode(char *buf, size_t n)
{
	int len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *log, *p, *e;
	int got, ret = -1;

	if (len <= 0 || !(log = malloc((size_t)len + 1)))
		return -1;
	got = klogctl(3, log, len);	/* SYSLOG_ACTION_READ_ALL */
	if (got > 0) {
		log[got] = '\0';
		p = strstr(log, "Dynamic Preempt: ");
		if (p) {
			p += strlen("Dynamic Preempt: ");
			e = p + strcspn(p, " \n");
			snprintf(buf, n, "%.*s", (int)(e - p), p);
			ret = buf[0] ? 0 : -1;
		}
	}
	free(log);
	return ret;
}

/*
 * A PREEMPT_DYNAMIC kernel whose debugfs is not readable: the mode given
 * at boot (preempt=), else the one the kernel logged at boot; else the
 * mode in force is unknown and only the build's default is said.
 */
static void dynamic_mode(struct sysinfo_ib *si, const char *boot)
{
	struct machine_state *st = &si->st;

	si->preempt[0] = '\0';
	st->preempt_source[0] = '\0';
	if (boot[0]) {
		snprintf(si->preempt, sizeof(si->preempt), "%s", boot);
		snprintf(st->preempt_source, sizeof(st->preempt_source),
			 "cmdline");
	} else if (!boot_log_mode(si->preempt, sizeof(si->preempt))) {
		snprintf(st->preempt_source, sizeof(st->preempt_source),
			 "boot log");
	}
}

/* Governor of every CPU: one word when they agree, else per CPU. */
static void read_governors(struct machine_state *st, int cpus)
{
	char path[96], gov[32], first[32] = "";
	size_t used = 0;
	bool same = true;
	int c;

	for (c = 0; c < cpus; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/"
			 "cpufreq/scaling_governor", c);
		if (procfs_line(path, gov, sizeof(gov)))
			snprintf(gov, sizeof(gov), "-");
		if (!c)
			snprintf(first, sizeof(first), "%s", gov);
		same &= !strcmp(first, gov);
		if (used < sizeof(st->governors))
			used += (size_t)snprintf(st->governors + used,
						 sizeof(st->governors) - used,
						 "%s%d:%s", c ? " " : "", c,
						 gov);
	}
	if (same)
		snprintf(st->governors, sizeof(st->governors), "%s",
			 strcmp(first, "-") ? first : "");
}

/* "[madvise]" out of "always [madvise] never". */
static void bracketed(const char *path, char *buf, size_t n)
{
	char line[128], *o, *c;

	buf[0] = '\0';
	if (procfs_line(path, line, sizeof(line)))
		return;
	o = strchr(line, '[');
	c = o ? strchr(o, ']') : NULL;
	if (o && c) {
		*c = '\0';
		snprintf(buf, n, "%s", o + 1);
	}
}

/*
 * x86 CPUs say they run under a hypervisor in their flags; Xen says so in
 * /sys/hypervisor. Elsewhere a guest may pass for bare metal: unknown
 * (-1) unless the flags line was there to read.
 */
static void read_virt(struct machine_state *st)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char *line = NULL;
	size_t n = 0;

	st->vm = -1;
	while (f && getline(&line, &n, f) > 0) {
		if (strncmp(line, "flags", 5))
			continue;
		st->vm = strstr(line, " hypervisor") ? 1 : 0;
		break;
	}
	free(line);
	if (f)
		fclose(f);
	if (!procfs_line("/sys/hypervisor/type", st->hypervisor,
			 sizeof(st->hypervisor)))
		st->vm = 1;
	else if (st->vm == 1)
		procfs_line("/sys/class/dmi/id/sys_vendor", st->hypervisor,
			    sizeof(st->hypervisor));
}

void machine_state_read(struct sysinfo_ib *si)
{
	struct machine_state *st = &si->st;
	char line[64], boot[32] = "";

	read_cmdline(st, boot, sizeof(boot));
	preempt_build(si);
	if (!strcmp(si->preempt, "dynamic"))
		dynamic_mode(si, boot);
	if (!procfs_line("/sys/kernel/sched_ext/state", line, sizeof(line))) {
		if (strcmp(line, "enabled") ||
		    procfs_line("/sys/kernel/sched_ext/root/ops",
				st->sched_ext, sizeof(st->sched_ext)))
			snprintf(st->sched_ext, sizeof(st->sched_ext), "none");
	} else if (access("/sys/kernel/sched_ext", F_OK)) {
		/* no sched_ext in this kernel: nothing can be loaded */
		snprintf(st->sched_ext, sizeof(st->sched_ext), "none");
	}
	procfs_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver",
		    st->cpufreq_driver, sizeof(st->cpufreq_driver));
	read_governors(st, si->cpus_online);
	procfs_line("/sys/devices/system/cpu/cpuidle/current_driver",
		    st->cpuidle_driver, sizeof(st->cpuidle_driver));
	procfs_line("/sys/devices/system/cpu/cpuidle/current_governor",
		    st->cpuidle_governor, sizeof(st->cpuidle_governor));
	if (!st->cpuidle_governor[0])
		procfs_line("/sys/devices/system/cpu/cpuidle/"
			    "current_governor_ro", st->cpuidle_governor,
			    sizeof(st->cpuidle_governor));
	bracketed("/sys/kernel/mm/transparent_hugepage/enabled", st->thp,
		  sizeof(st->thp));
	st->autogroup = -1;
	if (!procfs_line("/proc/sys/kernel/sched_autogroup_enabled", line,
			 sizeof(line)))
		st->autogroup = atoi(line) ? 1 : 0;
	if (!procfs_line("/proc/sys/kernel/sched_rt_runtime_us", line,
			 sizeof(line))) {
		st->have_rt_runtime = true;
		st->rt_runtime_us = atoll(line);
	}
	read_virt(st);
}

/* "512 MiB", "23.4 GiB" */
static void bytes_text(long long b, char *buf, size_t n)
{
	if (b >= 10LL << 30)
		snprintf(buf, n, "%.0f GiB", (double)b / (1 << 30));
	else if (b >= 1LL << 30)
		snprintf(buf, n, "%.1f GiB", (double)b / (1 << 30));
	else
		snprintf(buf, n, "%.0f MiB", (double)b / (1 << 20));
}

/* "v1 cpu:/a cpuset:/ memory:/b", or "/a (v2)" where all agree. */
static void cgroup_where(const struct cgroup_self *cg, char *buf, size_t n)
{
	static const char *const names[CG_CTLS] = { "cpu", "cpuset",
						     "memory" };
	const struct cg_where *a = cg->at;
	size_t used = 0;
	int c;

	if (a[0].version && a[0].version == a[1].version &&
	    a[0].version == a[2].version && !strcmp(a[0].path, a[1].path) &&
	    !strcmp(a[0].path, a[2].path)) {
		snprintf(buf, n, "%s (v%d)", a[0].path, a[0].version);
		return;
	}
	buf[0] = '\0';
	for (c = 0; c < CG_CTLS && used < n; c++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s %s%s%s",
					 c ? ", " : "", names[c],
					 a[c].version ? a[c].path :
					 "not mounted", a[c].version ?
					 (a[c].version == 2 ? " (v2)" :
					  " (v1)") : "", "");
}

/*
 * The run's cgroup and what it can really use, beside what the machine
 * has: every limit, ours or an ancestor's, the tightest named.
 */
static void cgroup_print(const struct sysinfo_ib *si, machine_out out,
			 void *ctx)
{
	const struct cgroup_self *cg = si->cg;
	char where[PATH_MAX], quota[96], mem[64], total[64];
	long long mem_total = si->mem_total_kb * 1024;

	if (!cg || !cg->read)
		return;
	cgroup_where(cg, where, sizeof(where));
	out(ctx, "Cgroup: %s\n", where);
	cgroup_quota_text(cg, quota, sizeof(quota));
	bytes_text(mem_total, total, sizeof(total));
	if (cg->mem_max >= 0)
		bytes_text(cg->mem_max, mem, sizeof(mem));
	out(ctx, "Cgroup limits: %d of %d CPUs usable%s%s%s; ",
	    cg->cpus_usable ? cg->cpus_usable : si->cpus_online,
	    si->cpus_online, cg->cpuset[0] ? " (cpuset " : "", cg->cpuset,
	    cg->cpuset[0] ? ")" : "");
	if (cg->quota_unknown)
		out(ctx, "CPU quota unknown (%s); ", cg->quota_us > 0 ?
		    "a level could not be read, another has one" :
		    "a level could not be read");
	else if (cg->quota_us > 0)
		out(ctx, "CPU quota %.3g CPU (%s at %s%s%s); ",
		    cgroup_quota_cpus(cg), quota, cg->quota_at,
		    cg->nquota > 1 ? "; every quota: " : "",
		    cg->nquota > 1 ? cg->quotas : "");
	else
		out(ctx, "no CPU quota; ");
	if (cg->mem_max >= 0)
		out(ctx, "memory %s of %s (at %s)", mem, total, cg->mem_at);
	else
		out(ctx, "memory not limited (%s)", total);
	if (cg->mem_high >= 0) {
		bytes_text(cg->mem_high, mem, sizeof(mem));
		out(ctx, ", memory.high %s", mem);
	}
	out(ctx, "\n");
	if (cg->unread[0])
		out(ctx, "Cgroup: could not read %s: those limits are "
		    "unknown\n", cg->unread);
}

/* What the run's cgroup will do to it, said before it starts. */
static void cgroup_warnings(const struct sysinfo_ib *si,
			    const struct plan *p, machine_out out, void *ctx)
{
	const struct cgroup_self *cg = si->cg;
	double q;
	int usable;
	bool busy = false;
	char quota[96];
	int i;

	if (!cg)
		return;
	q = cgroup_quota_cpus(cg);
	usable = cg->cpus_usable ? cg->cpus_usable : si->cpus_online;
	for (i = 0; i < p->nloads; i++)
		busy |= !(p->loads[i]->flags & LOAD_IDLE);
	cgroup_quota_text(cg, quota, sizeof(quota));
	if (q > 0 && (q < 1 || (busy && q < usable)))
		out(ctx, "WARNING: cgroup %s's CPU quota is %.3g CPU (%s) of "
		    "%d usable: %s exhausts it, and then every task of the "
		    "run waits, throttled, up to %.0f ms of each %.0f ms "
		    "period; such cells are marked [throttled N %%] and "
		    "their figures include the limit\n", cg->quota_at, q,
		    quota, usable, q < 1 ? "the benchmark with any load" :
		    "a load that keeps every CPU busy",
		    (double)(cg->period_us - cg->quota_us / usable) / 1000,
		    (double)cg->period_us / 1000);
	if (usable < si->cpus_online)
		out(ctx, "Note: the run's cpuset (%s) holds %d of the "
		    "machine's %d CPUs: loads and the benchmark run on "
		    "those\n", cg->cpuset, usable, si->cpus_online);
	if (cg->rt_runtime_us == 0)
		out(ctx, "WARNING: cgroup %s gives real-time tasks no time "
		    "(cpu.rt_runtime_us 0, RT group scheduling): no "
		    "SCHED_FIFO task can run in it\n", cg->at[CG_CPU].path);
}

static const char *or_unknown(const char *s)
{
	return s[0] ? s : "unknown";
}

/* Where the mode in force was read, in words. */
static const char *preempt_from(const struct machine_state *st)
{
	if (!strcmp(st->preempt_source, "build"))
		return "fixed by the build";
	if (!strcmp(st->preempt_source, "debugfs"))
		return "sched/preempt in debugfs";
	if (!strcmp(st->preempt_source, "cmdline"))
		return "preempt= at boot";
	if (!strcmp(st->preempt_source, "boot log"))
		return "the kernel's boot log";
	return "the mode in force cannot be read here: no preempt=, and "
	       "neither debugfs nor the kernel log's Dynamic Preempt line "
	       "readable";
}

void machine_state_print(const struct sysinfo_ib *si, machine_out out,
			 void *ctx)
{
	const struct machine_state *st = &si->st;
	char rt[48], freq[200], idle[96];

	if (!st->have_rt_runtime)
		snprintf(rt, sizeof(rt), "unknown");
	else if (st->rt_runtime_us < 0)
		snprintf(rt, sizeof(rt), "off");
	else
		snprintf(rt, sizeof(rt), "%lld us/s", st->rt_runtime_us);
	out(ctx, "Machine: preempt %s (%s; build %s), sched_ext %s, SMT %s, "
	    "%s\n", or_unknown(si->preempt), preempt_from(st),
	    or_unknown(st->preempt_build),
	    or_unknown(st->sched_ext),
	    si->smt < 0 ? "unknown" : si->smt ? "on" : "off",
	    st->vm < 0 ? "virtual machine unknown" :
	    st->vm ? "virtual machine" : "bare metal");
	/* no driver: the kernel sets no speed (a VM's host, the firmware) */
	if (st->cpufreq_driver[0])
		snprintf(freq, sizeof(freq), "cpufreq %s, governor %s",
			 st->cpufreq_driver, or_unknown(st->governors));
	else
		snprintf(freq, sizeof(freq), "no cpufreq driver%s",
			 st->vm == 1 ? " (a virtual machine)" : "");
	if (st->cpuidle_driver[0] && strcmp(st->cpuidle_driver, "none"))
		snprintf(idle, sizeof(idle), "cpuidle %s, governor %s",
			 st->cpuidle_driver, or_unknown(st->cpuidle_governor));
	else
		snprintf(idle, sizeof(idle), "no cpuidle driver");
	out(ctx, "Machine: %s; %s; THP %s; autogroup %s; RT throttling %s\n",
	    freq, idle, or_unknown(st->thp),
	    st->autogroup < 0 ? "unknown" : st->autogroup ? "on" : "off", rt);
	/* only the options of latency_opts[]: say so */
	out(ctx, "Machine: kernel command line, its latency options: %s\n",
	    st->cmdline[0] ? st->cmdline : "none");
	cgroup_print(si, out, ctx);
}

void machine_warnings(const struct sysinfo_ib *si, const struct plan *p,
		      machine_out out, void *ctx)
{
	const struct machine_state *st = &si->st;

	if (strstr(st->governors, "powersave") ||
	    strstr(st->governors, "ondemand"))
		out(ctx, "WARNING: cpufreq governor %s: the CPU's speed "
		    "changes under the loads, and with it every figure\n",
		    st->governors);
	if (p->cfg.rt && st->have_rt_runtime && st->rt_runtime_us >= 0)
		out(ctx, "WARNING: real-time throttling (sched_rt_runtime_us "
		    "%lld): -r tasks may be stopped for the rest of a second\n",
		    st->rt_runtime_us);
	if (st->autogroup == 1 && (p->cfg.load_nice || p->cfg.bench_nice))
		out(ctx, "WARNING: autogroup is on: nice (-N, -B) weighs "
		    "interbench's tasks among themselves only; against other "
		    "sessions' tasks their whole group is weighed\n");
	if (st->vm == 1)
		out(ctx, "WARNING: a virtual machine%s%s: the host's own work "
		    "(steal) shows up as latency; see each cell's steal\n",
		    st->hypervisor[0] ? " on " : "", st->hypervisor);
	cgroup_warnings(si, p, out, ctx);
	/* the simulators' own (Cyclic's against cyclictest, rt-app's) */
	plan_notes(p, true, out, ctx);
}

/* ---- the machine ---------------------------------------------------- */

static long long meminfo_kb(const char *key)
{
	long long kb;

	return procfs_number("/proc/meminfo", key, &kb) ? -1 : kb;
}

/* The kernel's preemption model, where it can be read. */
static void read_preempt(char *buf, size_t n, const char *version,
			 char *src, size_t sn)
{
	char line[128], *open_p, *close_p;

	buf[0] = '\0';
	snprintf(src, sn, "build");
	/* Dynamic preemption shows the mode in use in parentheses. */
	if (!procfs_line("/sys/kernel/debug/sched/preempt", line,
			 sizeof(line))) {
		open_p = strchr(line, '(');
		close_p = open_p ? strchr(open_p, ')') : NULL;
		if (open_p && close_p) {
			*close_p = '\0';
			snprintf(buf, n, "%s", open_p + 1);
			snprintf(src, sn, "debugfs");
			return;
		}
	}
	if (!procfs_line("/sys/kernel/realtime", line, sizeof(line)) &&
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

/*
 * This process's id: drawn once, so that every file one invocation
 * writes (a run's, ab's A and B) carries the same one. The kernel's
 * random uuid where it has one, else the clock and the pid.
 */
static void machine_invocation(char *buf, size_t n)
{
	static char id[40];

	if (!id[0] && procfs_line("/proc/sys/kernel/random/uuid", id,
				  sizeof(id)))
		snprintf(id, sizeof(id), "%llx-%d",
			 (unsigned long long)now_ns(), (int)getpid());
	snprintf(buf, n, "%s", id);
}

void machine_sysinfo_read(struct sysinfo_ib *si,
			  const struct cgroup_self *cg)
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
	procfs_line("/proc/sys/kernel/random/boot_id", si->boot_id,
		    sizeof(si->boot_id));
	machine_invocation(si->invocation, sizeof(si->invocation));
	if (procfs_field("/proc/cpuinfo", "model name", si->cpu_model,
			 sizeof(si->cpu_model)))
		procfs_field("/proc/cpuinfo", "Hardware", si->cpu_model,
			     sizeof(si->cpu_model));
	si->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	si->smt = -1;
	if (!procfs_line("/sys/devices/system/cpu/smt/active", buf,
			 sizeof(buf)))
		si->smt = atoi(buf) ? 1 : 0;
	procfs_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		    si->governor, sizeof(si->governor));
	read_preempt(si->preempt, sizeof(si->preempt), si->version,
		     si->st.preempt_source, sizeof(si->st.preempt_source));
	machine_state_read(si);
	procfs_line("/sys/devices/system/clocksource/clocksource0/"
		    "current_clocksource", si->clocksource,
		    sizeof(si->clocksource));
	si->mem_total_kb = meminfo_kb("MemTotal");
	si->swap_total_kb = meminfo_kb("SwapTotal");
	si->cg = cg;
}
