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

/* The state of the machine that changes latency (machine.c). */
static void json_machine(struct jw *w, const struct machine_state *st)
{
	jw_str_or_null(w, "preempt_source", st->preempt_source);
	jw_str_or_null(w, "preempt_build", st->preempt_build);
	jw_str_or_null(w, "sched_ext", st->sched_ext);
	jw_str(w, "cmdline_latency", st->cmdline);
	jw_str_or_null(w, "cpufreq_driver", st->cpufreq_driver);
	jw_str_or_null(w, "cpufreq_governors", st->governors);
	jw_str_or_null(w, "cpuidle_driver", st->cpuidle_driver);
	jw_str_or_null(w, "cpuidle_governor", st->cpuidle_governor);
	jw_str_or_null(w, "transparent_hugepages", st->thp);
	if (st->autogroup < 0)
		jw_null(w, "autogroup");
	else
		jw_bool(w, "autogroup", st->autogroup);
	if (!st->have_rt_runtime)
		jw_null(w, "sched_rt_runtime_us");
	else
		jw_int(w, "sched_rt_runtime_us", st->rt_runtime_us);
	if (st->vm < 0)
		jw_null(w, "virtual_machine");
	else
		jw_bool(w, "virtual_machine", st->vm);
	jw_str_or_null(w, "hypervisor", st->hypervisor);
}

/*
 * The run's own cgroup (cgroup.h): where it is and the limits it ran
 * under, the tightest of ours and our ancestors'. compare lists what
 * differs, as for any setting.
 */
static void json_cgroup(struct jw *w, const struct sysinfo_ib *si)
{
	static const char *const keys[CG_CTLS] = { "cpu_path", "cpuset_path",
						    "memory_path" };
	const struct cgroup_self *cg = si->cg;
	int c;

	if (!cg || !cg->read) {
		jw_null(w, "cgroup");
		return;
	}
	jw_obj_begin(w, "cgroup");
	for (c = 0; c < CG_CTLS; c++) {
		char k[32];

		snprintf(k, sizeof(k), "%.*s_version",
			 (int)(strchr(keys[c], '_') - keys[c]), keys[c]);
		if (cg->at[c].version)
			jw_int(w, k, cg->at[c].version);
		else
			jw_null(w, k);
		jw_str_or_null(w, keys[c], cg->at[c].version ?
			       cg->at[c].path : "");
	}
	jw_int_or_null(w, "cpu_quota_us", cg->quota_us);
	jw_int_or_null(w, "cpu_period_us", cg->quota_us < 0 ? -1 : cg->period_us);
	jw_int_or_null(w, "cpu_burst_us", cg->quota_us < 0 ? -1 : cg->burst_us);
	jw_str_or_null(w, "cpu_quota_at", cg->quota_at);
	if (cg->quota_us > 0)
		jw_num(w, "cpu_quota_cpus", cgroup_quota_cpus(cg));
	else
		jw_null(w, "cpu_quota_cpus");
	jw_str_or_null(w, "cpu_quotas", cg->quotas);
	jw_int_or_null(w, cg->at[CG_CPU].version == 2 ? "cpu_weight" : "cpu_shares",
		 cg->weight);
	jw_int_or_null(w, "rt_runtime_us", cg->rt_runtime_us < -1 ? -1 :
		 cg->rt_runtime_us);
	jw_str_or_null(w, "cpuset_cpus", cg->cpuset);
	jw_int_or_null(w, "cpus_usable", cg->cpus_usable ? cg->cpus_usable : -1);
	jw_int_or_null(w, "memory_max_bytes", cg->mem_max);
	jw_int_or_null(w, "memory_high_bytes", cg->mem_high);
	jw_str_or_null(w, "memory_limit_at", cg->mem_at);
	jw_str_or_null(w, "unread", cg->unread);
	jw_obj_end(w);
}

void results_system(struct jw *w, const struct results_info *ri)
{
	const struct sysinfo_ib *si = ri->sys;

	jw_obj_begin(w, K_SYSTEM);
	jw_str(w, "sysname", si->sysname);
	jw_str(w, "release", si->release);
	jw_str(w, "version", si->version);
	jw_str(w, "machine", si->machine);
	jw_str(w, "hostname", si->hostname);
	jw_str_or_null(w, K_BOOT_ID, si->boot_id);
	jw_str_or_null(w, K_INVOCATION, si->invocation);
	jw_str_or_null(w, "cpu_model", si->cpu_model);
	jw_int(w, "cpus_online", si->cpus_online);
	if (si->smt < 0)
		jw_null(w, "smt");
	else
		jw_bool(w, "smt", si->smt);
	jw_str_or_null(w, "governor", si->governor);
	jw_str_or_null(w, "preempt", si->preempt);
	jw_str_or_null(w, "clocksource", si->clocksource);
	jw_int_or_null(w, "mem_total_kb", si->mem_total_kb);
	jw_int_or_null(w, "swap_total_kb", si->swap_total_kb);
	json_machine(w, &si->st);
	json_cgroup(w, si);
	jw_bool(w, "realtime_ok", ri->plan->cfg.rt_ok);
	jw_obj_end(w);
}

