// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan/plan.c - the plan a command line makes: the simulators and loads it
 * runs (the matrix), their options checked together, and the order of
 * the cells (see cli.h).
 */
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "plan/plan.h"
#include "lib/policy.h"
#include "lib/base.h"
#include "core/sim.h"
#include "core/load.h"
#include "simulators/simulators.h"
#include "loads/loads.h"

bool ptr_in(const void *const *v, int n, const void *p)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == p)
			return true;
	return false;
}

int plan_init(struct plan *p)
{
	cpu_set_t set;
	int i;

	memset(p, 0, sizeof(*p));
	p->cfg.duration_ns = 30 * NSEC_PER_SEC;
	/* What we may use: a cgroup's cpuset or taskset's, not the machine */
	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set)) {
		p->cfg.cpus = CPU_COUNT(&set);
		while (!CPU_ISSET(p->cfg.uni_cpu, &set))
			p->cfg.uni_cpu++;
	} else {
		p->cfg.cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	}
	if (p->cfg.cpus < 1)
		p->cfg.cpus = 1;
	p->cfg.load_threads = p->cfg.cpus;
	p->cfg.load_weight = LG_WEIGHT_DEFAULT;
	p->repeats = 1;
	p->trace_frames = 3;
	p->remeasure_max = 3;
	snprintf(p->cfg.dir, sizeof(p->cfg.dir), ".");
	for (i = 0; i < MAX_ITEMS && simulators[i]; i++) {
		const struct sim_desc *s = simulators[i];

		if (!s->opts_size)
			continue;
		p->sim_opts[i] = calloc(1, s->opts_size);
		if (!p->sim_opts[i])
			return -ENOMEM;
		if (s->opts_init)
			s->opts_init(p->sim_opts[i], &p->cfg);
	}
	return 0;
}

void plan_free(struct plan *p)
{
	int i;

	for (i = 0; i < MAX_ITEMS; i++) {
		/* what a block holds, e.g. RtApp's files (cli.c read them) */
		if (p->sim_opts[i] && simulators[i]->opts_free)
			simulators[i]->opts_free(p->sim_opts[i]);
		free(p->sim_opts[i]);
		p->sim_opts[i] = NULL;
	}
	for (i = 0; i < p->nlate; i++)
		free(p->late[i].buf);
	p->nlate = 0;
}

const void *plan_sim_opts(const struct plan *p, const struct sim_desc *s)
{
	int i;

	for (i = 0; i < MAX_ITEMS && simulators[i]; i++)
		if (simulators[i] == s)
			return p->sim_opts[i];
	return NULL;
}

bool plan_has(const struct sim_desc *sim, const struct load_desc *load)
{
	return load->sim != sim || (load->flags & LOAD_UNDER_SELF);
}

void plan_notes(const struct plan *p, bool start, out_fn out, void *ctx)
{
	struct sim_notes_in in = {
		.cfg = &p->cfg,
		.start = start,
		.dma_given = p->dma_given,
	};
	int i;

	for (i = 0; simulators[i]; i++) {
		if (!simulators[i]->notes)
			continue;
		in.task = ptr_in((const void **)p->sims, p->nsims,
				 simulators[i]);
		in.opts = plan_sim_opts(p, simulators[i]);
		simulators[i]->notes(&in, out, ctx);
	}
}

bool plan_traced(const struct plan *p, int repeat)
{
	int pass = repeat - 1;

	if (!p->trace)
		return false;
	return !p->trace_alternate || (pass % 2 == 0) == (pass / 2 % 2 == 0);
}

/* Pass k runs the matrix forwards when k is even, backwards when odd. */
void plan_cell(const struct plan *p, int i, int *repeat,
	       const struct sim_desc **sim, const struct load_desc **load)
{
	int pass = i / p->per_pass, k = 0, si, li;

	i %= p->per_pass;
	if (pass % 2)
		i = p->per_pass - 1 - i;
	*repeat = pass + 1;
	for (si = 0; si < p->nsims; si++)
		for (li = 0; li < p->nloads; li++) {
			if (!plan_has(p->sims[si], p->loads[li]))
				continue;
			if (k++ == i) {
				*sim = p->sims[si];
				*load = p->loads[li];
				return;
			}
		}
}

/* Is s in the matrix by default (no -W)? */
static bool sim_by_default(const struct plan *p, const struct sim_desc *s)
{
	/* Only a periodic task has a runtime and period to reserve. */
	if (p->cfg.bench_policy == POL_DEADLINE && !(s->flags & SIM_PERIODIC))
		return false;
	return !((s->flags & SIM_CUSTOM) && !p->custom) &&
	       !(s->flags & SIM_NAMED);
}

static int build_lists(struct plan *p, char *err, size_t n)
{
	const struct picks *pk = &p->picks;
	int i;

	for (i = 0; i < pk->nws; i++)
		if (ptr_in((const void **)pk->skip_sim, pk->nxs,
			    pk->want_sim[i])) {
			snprintf(err, n, "options -W and -X both name benchmark"
				 " '%s'", pk->want_sim[i]->name);
			return -EINVAL;
		}
	for (i = 0; i < pk->nwl; i++)
		if (ptr_in((const void **)pk->skip_load, pk->nxl,
			    pk->want_load[i])) {
			snprintf(err, n, "options -w and -x both name load "
				 "'%s'", pk->want_load[i]->name);
			return -EINVAL;
		}
	for (i = 0; simulators[i]; i++) {
		const struct sim_desc *s = simulators[i];

		if (pk->nws ? !ptr_in((const void **)pk->want_sim, pk->nws, s)
			    : !sim_by_default(p, s))
			continue;
		if (ptr_in((const void **)pk->skip_sim, pk->nxs, s))
			continue;
		if ((s->flags & SIM_CUSTOM) && !p->custom) {
			snprintf(err, n, "option -W: benchmark '%s' needs -C "
				 "and -I", s->name);
			return -EINVAL;
		}
		if (p->cfg.bench_policy == POL_DEADLINE &&
		    !(s->flags & SIM_PERIODIC)) {
			snprintf(err, n, "option --bench-policy deadline: "
				 "'%s' cannot be a deadline task (Audio, Video, "
				 "X and Custom can: a period and a CPU need to "
				 "reserve)", s->name);
			return -EINVAL;
		}
		p->sims[p->nsims++] = s;
	}
	for (i = 0; loads[i]; i++) {
		const struct load_desc *l = loads[i];

		if (pk->nwl ? !ptr_in((const void **)pk->want_load, pk->nwl, l)
			    : ((l->flags & LOAD_CUSTOM) && !p->custom) ||
			      (l->flags & LOAD_NAMED))
			continue;
		if (ptr_in((const void **)pk->skip_load, pk->nxl, l))
			continue;
		if ((l->flags & LOAD_CUSTOM) && !p->custom) {
			snprintf(err, n, "option -w: load '%s' needs -C and -I",
				 l->name);
			return -EINVAL;
		}
		p->loads[p->nloads++] = l;
	}
	if (!p->nsims) {
		snprintf(err, n, "options -W/-X leave no benchmark to run");
		return -EINVAL;
	}
	if (!p->nloads) {
		snprintf(err, n, "options -w/-x leave no load to run against");
		return -EINVAL;
	}
	return 0;
}

/* Can s run as a load? */
static bool sim_is_load(const struct sim_desc *s)
{
	int i;

	for (i = 0; loads[i]; i++)
		if (loads[i]->sim == s)
			return true;
	return false;
}

/* Does s run, benchmarked or as a load? */
static bool sim_runs(const struct plan *p, const struct sim_desc *s)
{
	int i;

	for (i = 0; i < p->nloads; i++)
		if (p->loads[i]->sim == s)
			return true;
	return ptr_in((const void **)p->sims, p->nsims, s);
}

/* A simulator's options only make sense if it runs, and together. */
static int check_sim_opts(struct plan *p, char *err, size_t n)
{
	char why[160];
	int i;

	for (i = 0; simulators[i]; i++) {
		const struct sim_desc *s = simulators[i];

		if (!s->opts)
			continue;
		if (p->sim_opts_given[i] && !sim_runs(p, s)) {
			snprintf(err, n, "options for %s are given but %s does "
				 "not run (add -W %s%s%s)", s->name, s->name,
				 s->name, sim_is_load(s) ? " or -w " : "",
				 sim_is_load(s) ? s->name : "");
			return -EINVAL;
		}
		why[0] = '\0';
		if (s->opts_check && s->opts_check(p->sim_opts[i], why,
						   sizeof(why))) {
			snprintf(err, n, "options for %s: %s", s->name, why);
			return -EINVAL;
		}
	}
	return 0;
}

static int count_cells(struct plan *p, char *err, size_t n)
{
	int si, li;

	p->per_pass = 0;
	for (si = 0; si < p->nsims; si++)
		for (li = 0; li < p->nloads; li++)
			p->per_pass += plan_has(p->sims[si], p->loads[li]);
	if (!p->per_pass) {
		snprintf(err, n, "no cell to run: a task is never run against "
			 "itself as a load");
		return -EINVAL;
	}
	p->cells = p->per_pass * p->repeats;
	return 0;
}

int plan_build(struct plan *p, char *err, size_t n)
{
	if (build_lists(p, err, n) || check_sim_opts(p, err, n))
		return -EINVAL;
	return count_cells(p, err, n);
}

/*
 * A simulator named with an argument (-W name:ARG, -w name:ARG: RtApp's
 * rtapp:FILE), ARG given or not, as val names it; NULL when val names
 * none such. *arg is ARG, or "".
 */
static const struct sim_desc *arg_sim(const char *val, const char **arg)
{
	size_t k;
	int i;

	for (i = 0; simulators[i]; i++) {
		if (!simulators[i]->take)
			continue;
		k = strlen(simulators[i]->name);
		if (strncasecmp(val, simulators[i]->name, k) ||
		    (val[k] && val[k] != ':'))
			continue;
		*arg = val[k] ? val + k + 1 : "";
		return simulators[i];
	}
	return NULL;
}

/* s's option block in p (plan_init made it). */
static void *sim_block(struct plan *p, const struct sim_desc *s)
{
	int i;

	for (i = 0; simulators[i] && simulators[i] != s; i++)
		;
	return p->sim_opts[i];
}

/*
 * ARG is read and checked now (RtApp's file: so that a file outside the
 * subset stops the run before anything starts), one as a task and one
 * as a load; recorded in the settings (sim_options) by what take says
 * of it (RtApp: the file's name, size and checksum), so compare sees
 * two workloads differ.
 */
static int take_arg(struct plan *p, const struct sim_desc *s,
		    const char *arg, bool load, char *err, size_t n)
{
	const char *ident;
	char key[32];
	int e, i;

	for (i = 0; i < (int)sizeof(key) - 1 && s->name[i]; i++)
		key[i] = (char)tolower((unsigned char)s->name[i]);
	key[i] = '\0';
	if (!*arg) {
		snprintf(err, n, "%s %s runs %s: %s %s:%s", load ? "load" :
			 "benchmark", s->name, s->arg_what, load ? "-w" : "-W",
			 key, s->arg_name);
		return -EINVAL;
	}
	e = s->take(sim_block(p, s), arg, load, &ident, err, n);
	if (e)
		return e;
	if (p->ngiven < MAX_ITEMS) {
		p->given[p->ngiven].name = s->arg_key[load];
		p->given[p->ngiven++].value = ident;
	}
	return 0;
}

const struct sim_desc *plan_take_arg(struct plan *p, const char *val,
				     bool load, int *e, char *err, size_t n)
{
	const struct sim_desc *s;
	const char *arg;

	s = arg_sim(val, &arg);
	if (s)
		*e = take_arg(p, s, arg, load, err, n);
	return s;
}
