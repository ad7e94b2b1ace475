// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/rtapp/rtapp_check.c - an rt-app workload checked whole, once
 * rtapp_parse.c has read every key, and against the machine it is to run
 * on: what would wait for ever, what rt-app does without a lock, the
 * mutexes each phase takes and gives back, the CPUs, taskgroups and
 * io_device it names; and what it asks of the CPUs.
 */
#include <errno.h>
#include <mntent.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/policy.h"
#include "simulators/rtapp/rtapp.h"
#include "simulators/rtapp/rtapp_priv.h"

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* "tasks.T" or "tasks.T.phases.P": where a phase's message points. */
static void phase_key(char *buf, size_t n, const struct rtapp_task *t,
		      const struct rtapp_phase *ph)
{
	snprintf(buf, n, "tasks.%s%s%s", t->name, ph->name[0] ?
		 ".phases." : "", ph->name);
}

/* A non-unique timer ref in two tasks, or in a task of instances. */
static int check_timers(struct rp *p)
{
	const struct rtapp_wl *wl = p->wl;
	const struct rtapp_task *t, *u;
	char key[256];
	int i, j, k, m;

	for (i = 0; i < wl->ntask; i++) {
		t = &wl->task[i];
		for (k = 0; k < t->ntimer; k++) {
			bool shared = t->instance > 1;

			if (starts(t->timer_ref[k], "unique"))
				continue;
			for (j = 0; j < wl->ntask && !shared; j++)
				for (u = &wl->task[j], m = 0; j != i &&
				     m < u->ntimer; m++)
					shared |= !strcmp(u->timer_ref[m],
							  t->timer_ref[k]);
			if (!shared)
				continue;
			rp_key(key, sizeof(key), "tasks", t->name);
			return rp_refuse(p, key, "timer '%s' is shared by "
					 "several threads, which rt-app does "
					 "without a lock: give each its own (a "
					 "ref starting \"unique\")",
					 t->timer_ref[k]);
		}
	}
	return 0;
}

/* Does task k have an event of type (any, if type < 0) on resource r? */
static bool uses(const struct rtapp_task *t, int type, int res, bool dep)
{
	const struct rtapp_event *e;
	int j, i;

	for (j = 0; j < t->nphase; j++)
		for (i = 0; i < t->phase[j].nev; i++) {
			e = &t->phase[j].ev[i];
			if (e->type == (enum rtapp_ev)type &&
			    (dep ? e->dep : e->res) == res)
				return true;
		}
	return false;
}

/* A barrier one thread alone uses would wait for ever. */
static int check_barriers(struct rp *p)
{
	const struct rtapp_wl *wl = p->wl;
	int b, k, users, from;

	for (b = 0; b < wl->nbarrier; b++) {
		for (k = 0, users = 0, from = -1; k < wl->ntask; k++)
			if (uses(&wl->task[k], RTE_BARRIER, b, false)) {
				users += wl->task[k].instance;
				from = from < 0 ? k : from;
			}
		if (users < 2)
			return rp_refuse(p, "tasks", "barrier '%s' is used by "
					 "one thread only (%s): it would wait "
					 "for ever", wl->barrier[b].name,
					 wl->task[from].name);
	}
	return 0;
}

/*
 * A condition waited on (wait, sync, suspend) that nothing wakes
 * (signal, broad, sync, resume) would wait for ever; one woken that
 * nothing waits on is most likely a misspelt name.
 */
static int check_conds(struct rp *p)
{
	const struct rtapp_wl *wl = p->wl;
	const char *name;
	bool waits, wakes;
	int c, k;

	for (c = 0; c < wl->ncond; c++) {
		waits = wakes = false;
		for (k = 0; k < wl->ntask; k++) {
			const struct rtapp_task *t = &wl->task[k];

			waits |= uses(t, RTE_WAIT, c, false) ||
				 uses(t, RTE_SYNC, c, false) ||
				 uses(t, RTE_SUSPEND, c, false);
			wakes |= uses(t, RTE_SIGNAL, c, false) ||
				 uses(t, RTE_BROAD, c, false) ||
				 uses(t, RTE_SYNC, c, false) ||
				 uses(t, RTE_RESUME, c, false);
		}
		name = wl->cond[c];
		if (waits && !wakes)
			return rp_refuse(p, "tasks", "'%s' is waited on (suspend,"
					 " wait or sync) and no thread wakes it "
					 "(resume, signal, broad or sync): it "
					 "would wait for ever", name);
		if (wakes && !waits)
			return rp_refuse(p, "tasks", "'%s' is woken (resume, "
					 "signal or broad) and no thread waits "
					 "on it (suspend, wait or sync)", name);
	}
	return 0;
}

/*
 * The mutexes a phase takes: as pthread mutexes, a wait or sync needs
 * its mutex held, suspend and resume take the mutex of their name, a
 * thread must not take one it holds nor give back one it does not; and
 * interbench needs each phase to give back what it took, so that a
 * thread that stops mid-phase knows what it holds.
 */
static int check_locks(struct rp *p, const struct rtapp_task *t)
{
	const struct rtapp_wl *wl = p->wl;
	const struct rtapp_event *e;
	char key[256];
	int j, i, h, nheld, held[RTAPP_MAX_HELD];

	for (j = 0; j < t->nphase; j++) {
		phase_key(key, sizeof(key), t, &t->phase[j]);
		nheld = 0;
		for (i = 0; i < t->phase[j].nev; i++) {
			e = &t->phase[j].ev[i];
			for (h = 0; h < nheld; h++)
				if ((e->type == RTE_LOCK ||
				     e->type == RTE_UNLOCK) ?
				    held[h] == e->res : held[h] == e->dep)
					break;
			switch (e->type) {
			case RTE_LOCK:
				if (h < nheld)
					return rp_refuse(p, key, "lock '%s' "
						"while holding it: the thread "
						"would wait for itself",
						wl->mutex[e->res]);
				if (nheld == RTAPP_MAX_HELD)
					return rp_refuse(p, key, "more than %d "
						"mutexes held at once",
						RTAPP_MAX_HELD);
				held[nheld++] = e->res;
				break;
			case RTE_UNLOCK:
				if (h == nheld)
					return rp_refuse(p, key, "unlock '%s', "
						"which it does not hold",
						wl->mutex[e->res]);
				held[h] = held[--nheld];
				break;
			case RTE_WAIT:
			case RTE_SYNC:
				if (h == nheld)
					return rp_refuse(p, key, "%s on '%s' "
						"needs its mutex '%s' locked "
						"first (pthread_cond_wait)",
						e->type == RTE_WAIT ? "wait" :
						"sync", wl->cond[e->res],
						wl->mutex[e->dep]);
				break;
			case RTE_SUSPEND:
			case RTE_RESUME:
				if (h < nheld)
					return rp_refuse(p, key, "%s '%s' while "
						"holding the mutex '%s', which "
						"it locks: the thread would "
						"wait for itself",
						e->type == RTE_SUSPEND ?
						"suspend" : "resume",
						wl->cond[e->res],
						wl->mutex[e->dep]);
				break;
			default:
				break;
			}
		}
		if (nheld)
			return rp_refuse(p, key, "locks '%s' and does not "
					 "unlock it in the same phase: "
					 "interbench needs each phase to give "
					 "back what it takes",
					 wl->mutex[held[0]]);
	}
	return 0;
}

/* "0-1,3": the set, for messages. */
static void set_text(const cpu_set_t *s, char *buf, size_t n)
{
	int c, from = -1, used = 0;

	buf[0] = '\0';
	for (c = 0; c <= CPU_SETSIZE && (size_t)used < n; c++) {
		bool in = c < CPU_SETSIZE && CPU_ISSET(c, s);

		if (in && from < 0)
			from = c;
		if (in || from < 0)
			continue;
		used += snprintf(buf + used, n - (size_t)used, "%s%d", used ?
				 "," : "", from);
		if (c - 1 > from && (size_t)used < n)
			used += snprintf(buf + used, n - (size_t)used, "-%d",
					 c - 1);
		from = -1;
	}
}

static int cpus_in(struct rp *p, const char *key, const cpu_set_t *want,
		   const cpu_set_t *allowed, const char *why)
{
	int c;

	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, want) && !CPU_ISSET(c, allowed))
			break;
	if (c == CPU_SETSIZE)
		return 0;
	return rp_refuse(p, key, "CPU %d is not one interbench may use: %s",
			 c, why);
}

int rtapp_check_cpus(const struct rtapp_wl *wl, const cpu_set_t *allowed,
		     const char *why, char *err, size_t n)
{
	struct rp p = { .name = wl->path, .err = err, .n = n,
			.wl = (struct rtapp_wl *)wl };
	char key[300];
	int i, j, r = 0;

	for (i = 0; i < wl->ntask && !r; i++) {
		const struct rtapp_task *t = &wl->task[i];

		snprintf(key, sizeof(key), "tasks.%s.cpus", t->name);
		if (t->has_cpus)
			r = cpus_in(&p, key, &t->cpus, allowed, why);
		for (j = 0; j < t->nphase && !r; j++) {
			phase_key(key, sizeof(key) - 8, t, &t->phase[j]);
			strcat(key, ".cpus");
			if (t->phase[j].has_cpus)
				r = cpus_in(&p, key, &t->phase[j].cpus,
					    allowed, why);
		}
	}
	return r;
}

/* Where rt-app would make its taskgroups: cgroup v1's cpu controller. */
static int check_taskgroups(struct rp *p)
{
	const struct rtapp_wl *wl = p->wl;
	struct mntent *m;
	char dir[RTAPP_PATH] = "";
	FILE *f;
	int i, j;

	for (i = 0; i < wl->ntask; i++) {
		const struct rtapp_task *t = &wl->task[i];
		bool tg = t->tg >= 0;

		for (j = 0; j < t->nphase; j++)
			tg |= t->phase[j].tg >= 0;
		if (tg && t->policy != POL_OTHER)
			return rp_refuse(p, "tasks", "%s is %s in a taskgroup: "
					 "rt-app puts only SCHED_OTHER threads "
					 "in taskgroups", t->name,
					 policy_kernel_name(t->policy));
	}
	if (!wl->ntg)
		return 0;
	f = setmntent("/proc/mounts", "re");
	while (f && (m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup") && hasmntopt(m, "cpu")) {
			snprintf(dir, sizeof(dir), "%s", m->mnt_dir);
			break;
		}
	if (f)
		endmntent(f);
	if (!dir[0])
		return rp_refuse(p, "tasks", "taskgroup '%s': rt-app makes "
				 "taskgroups in cgroup v1's cpu controller, "
				 "and this kernel has none mounted", wl->tg[0]);
	if (access(dir, W_OK))
		return rp_refuse(p, "tasks", "taskgroup '%s': making a group in "
				 "%s needs root", wl->tg[0], dir);
	return 0;
}

/*
 * io_device, when an iorun writes it: rt-app opens it to write (making a
 * file that is not there), so a character device such as /dev/null or a
 * regular file; never through a link, never a disk's block device.
 */
static int check_io(struct rp *p)
{
	const struct rtapp_wl *wl = p->wl;
	struct stat st;

	if (!wl->io)
		return 0;
	if (lstat(wl->io_device, &st)) {
		if (errno == ENOENT)
			return 0;	/* made at the run, as rt-app makes it */
		return rp_refuse(p, "global.io_device", "%s: %s",
				 wl->io_device, strerror(errno));
	}
	if (S_ISCHR(st.st_mode) || S_ISREG(st.st_mode))
		return 0;
	return rp_refuse(p, "global.io_device", "%s is %s: iorun writes a "
			 "character device (such as /dev/null) or a regular "
			 "file", wl->io_device, S_ISLNK(st.st_mode) ? "a link" :
			 S_ISBLK(st.st_mode) ? "a block device" :
			 S_ISDIR(st.st_mode) ? "a directory" :
			 "neither a device nor a file");
}

/*
 * What a thread asks of a CPU, from one pass of its phases: its run and
 * runtime over the time the pass takes at least (its timers' periods, or
 * its runs and sleeps). Unknown (-1) for a thread another one paces (a
 * suspend, wait, sync or barrier, and no timer).
 */
static double demand(const struct rtapp_task *t)
{
	const struct rtapp_event *e;
	double busy = 0, span = 0, b, s, tm;
	int j, i;

	if (t->woken && !t->periodic)
		return -1;
	for (j = 0; j < t->nphase; j++) {
		const struct rtapp_phase *ph = &t->phase[j];
		double w = ph->loop < 0 ? 1 : (double)ph->loop;

		for (i = 0, b = s = tm = 0; i < ph->nev; i++) {
			e = &ph->ev[i];
			b += e->type == RTE_RUN || e->type == RTE_RUNTIME ?
			     (double)e->ns : 0;
			s += e->type == RTE_SLEEP ? (double)e->ns : 0;
			tm += e->type == RTE_TIMER ? (double)e->ns : 0;
		}
		busy += w * b;
		span += w * (tm > b + s ? tm : b + s);
		if (ph->loop < 0)
			break;	/* the phases after it never come */
	}
	return span > 0 ? busy / span : busy > 0 ? 1 : 0;
}

int rtapp_ncpus(const struct rtapp_wl *wl, const cpu_set_t *allowed)
{
	cpu_set_t all;
	int i, j;

	CPU_ZERO(&all);
	for (i = 0; i < wl->ntask; i++) {
		const struct rtapp_task *t = &wl->task[i];
		bool everywhere = !t->has_cpus;

		if (t->has_cpus)
			CPU_OR(&all, &all, &t->cpus);
		for (j = 0; j < t->nphase; j++) {
			if (t->phase[j].has_cpus)
				CPU_OR(&all, &all, &t->phase[j].cpus);
			else if (!t->has_cpus)
				everywhere = true;
		}
		if (everywhere)
			CPU_OR(&all, &all, allowed);
	}
	CPU_AND(&all, &all, allowed);
	return CPU_COUNT(&all);
}

static void add_demand(struct rtapp_wl *wl)
{
	int i;

	for (i = 0; i < wl->ntask; i++) {
		struct rtapp_task *t = &wl->task[i];

		t->demand = demand(t);
		if (t->demand > 0)
			wl->demand += t->demand * t->instance;
		wl->demand_partial |= t->demand < 0;
	}
}

int rtapp_check(struct rp *p)
{
	struct rtapp_wl *wl = p->wl;
	char have[128], why[160];
	cpu_set_t mine;
	int i, j, k, r;

	for (i = 0; i < wl->ntask; i++)
		for (j = 0; j < wl->task[i].nphase; j++)
			for (k = 0; k < wl->task[i].phase[j].nev; k++) {
				enum rtapp_ev e = wl->task[i].phase[j].ev[k].type;

				wl->task[i].woken |= e == RTE_SUSPEND ||
					e == RTE_WAIT || e == RTE_SYNC ||
					e == RTE_BARRIER;
			}
	r = check_timers(p);
	if (!r)
		r = check_barriers(p);
	if (!r)
		r = check_conds(p);
	for (i = 0; i < wl->ntask && !r; i++)
		r = check_locks(p, &wl->task[i]);
	if (!r && sched_getaffinity(0, sizeof(mine), &mine))
		r = rp_refuse(p, "tasks", "sched_getaffinity: %s",
			      strerror(errno));
	if (!r) {
		set_text(&mine, have, sizeof(have));
		snprintf(why, sizeof(why), "this machine gives it CPUs %s",
			 have);
		r = rtapp_check_cpus(wl, &mine, why, p->err, p->n);
	}
	if (!r)
		r = check_taskgroups(p);
	if (!r)
		r = check_io(p);
	if (!r)
		add_demand(wl);
	return r;
}
