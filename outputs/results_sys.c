// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/results_sys.c - the JSON's system object (results.h): the
 * machine, the state of it that changes latency (machine.c), and the
 * run's own cgroup with its limits (cgroup.h).
 */
#include <string.h>
#include "outputs/results.h"
#include "plan/plan.h"
#include "lib/json.h"
#include "core/schema.h"
#include "run/machine.h"

/* The keys of core/schema.h's lists: system, cgroup. */
#define YK(name)	RF_KEY(system, name)
#define GK(name)	RF_KEY(cgroup, name)

/* The state of the machine that changes latency (machine.c). */
static void json_machine(struct jw *w, const struct machine_state *st)
{
	jw_str_or_null(w, YK(preempt_source), st->preempt_source);
	jw_str_or_null(w, YK(preempt_build), st->preempt_build);
	jw_str_or_null(w, YK(sched_ext), st->sched_ext);
	jw_str(w, YK(cmdline_latency), st->cmdline);
	jw_str_or_null(w, YK(cpufreq_driver), st->cpufreq_driver);
	jw_str_or_null(w, YK(cpufreq_governors), st->governors);
	jw_str_or_null(w, YK(cpuidle_driver), st->cpuidle_driver);
	jw_str_or_null(w, YK(cpuidle_governor), st->cpuidle_governor);
	jw_str_or_null(w, YK(transparent_hugepages), st->thp);
	if (st->autogroup < 0)
		jw_null(w, YK(autogroup));
	else
		jw_bool(w, YK(autogroup), st->autogroup);
	if (!st->have_rt_runtime)
		jw_null(w, YK(sched_rt_runtime_us));
	else
		jw_int(w, YK(sched_rt_runtime_us), st->rt_runtime_us);
	if (st->vm < 0)
		jw_null(w, YK(virtual_machine));
	else
		jw_bool(w, YK(virtual_machine), st->vm);
	jw_str_or_null(w, YK(hypervisor), st->hypervisor);
}

/*
 * The run's own cgroup (cgroup.h): where it is and the limits it ran
 * under, the tightest of ours and our ancestors'. compare lists what
 * differs, as for any setting.
 */
static void json_cgroup(struct jw *w, const struct sysinfo_ib *si)
{
	/* each controller's version and path, in CG_CTLS's order */
	static const char *const keys[CG_CTLS][2] = {
		{ GK(cpu_version), GK(cpu_path) },
		{ GK(cpuset_version), GK(cpuset_path) },
		{ GK(memory_version), GK(memory_path) },
	};
	const struct cgroup_self *cg = si->cg;
	int c;

	if (!cg || !cg->read) {
		jw_null(w, YK(cgroup));
		return;
	}
	jw_obj_begin(w, YK(cgroup));
	for (c = 0; c < CG_CTLS; c++) {
		if (cg->at[c].version)
			jw_int(w, keys[c][0], cg->at[c].version);
		else
			jw_null(w, keys[c][0]);
		jw_str_or_null(w, keys[c][1], cg->at[c].version ?
			       cg->at[c].path : "");
	}
	jw_int_or_null(w, GK(cpu_quota_us), cg->quota_us);
	jw_int_or_null(w, GK(cpu_period_us),
		       cg->quota_us < 0 ? -1 : cg->period_us);
	jw_int_or_null(w, GK(cpu_burst_us),
		       cg->quota_us < 0 ? -1 : cg->burst_us);
	jw_str_or_null(w, GK(cpu_quota_at), cg->quota_at);
	if (cg->quota_us > 0)
		jw_num(w, GK(cpu_quota_cpus), cgroup_quota_cpus(cg));
	else
		jw_null(w, GK(cpu_quota_cpus));
	jw_str_or_null(w, GK(cpu_quotas), cg->quotas);
	jw_int_or_null(w, cg->at[CG_CPU].version == 2 ?
		       GK(cpu_weight) : GK(cpu_shares),
		 cg->weight);
	jw_int_or_null(w, GK(rt_runtime_us), cg->rt_runtime_us < -1 ? -1 :
		 cg->rt_runtime_us);
	jw_str_or_null(w, GK(cpuset_cpus), cg->cpuset);
	jw_int_or_null(w, GK(cpus_usable),
		       cg->cpus_usable ? cg->cpus_usable : -1);
	jw_int_or_null(w, GK(memory_max_bytes), cg->mem_max);
	jw_int_or_null(w, GK(memory_high_bytes), cg->mem_high);
	jw_str_or_null(w, GK(memory_limit_at), cg->mem_at);
	jw_str_or_null(w, GK(unread), cg->unread);
	jw_obj_end(w);
}

void results_system(struct jw *w, const struct results_info *ri)
{
	const struct sysinfo_ib *si = ri->sys;

	jw_obj_begin(w, K_SYSTEM);
	jw_str(w, YK(sysname), si->sysname);
	jw_str(w, YK(release), si->release);
	jw_str(w, YK(version), si->version);
	jw_str(w, YK(machine), si->machine);
	jw_str(w, YK(hostname), si->hostname);
	jw_str_or_null(w, YK(boot_id), si->boot_id);
	jw_str_or_null(w, YK(invocation), si->invocation);
	jw_str_or_null(w, YK(cpu_model), si->cpu_model);
	jw_int(w, YK(cpus_online), si->cpus_online);
	if (si->smt < 0)
		jw_null(w, YK(smt));
	else
		jw_bool(w, YK(smt), si->smt);
	jw_str_or_null(w, YK(governor), si->governor);
	jw_str_or_null(w, YK(preempt), si->preempt);
	jw_str_or_null(w, YK(clocksource), si->clocksource);
	jw_int_or_null(w, YK(mem_total_kb), si->mem_total_kb);
	jw_int_or_null(w, YK(swap_total_kb), si->swap_total_kb);
	json_machine(w, &si->st);
	json_cgroup(w, si);
	jw_bool(w, YK(realtime_ok), ri->plan->cfg.rt_ok);
	jw_obj_end(w);
}

