// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/cgroup.c - the run's own cgroup and its limits (see cgroup.h).
 *
 * Where each controller is comes from /proc/self/mountinfo (a v1 mount
 * whose options name it, else the v2 hierarchy if its root offers it)
 * and /proc/self/cgroup (our path in each). The limits are read from our
 * directory up to the root we can see: in a container with its own
 * cgroup namespace that root is the container's, and what is set above
 * it cannot be seen (doc/farms.txt).
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/cgroup.h"
#include "lib/procfs.h"

static const char *const ctl_names[CG_CTLS] = { "cpu", "cpuset", "memory" };

/* A v1 value this large is no limit (memory.limit_in_bytes' "max"). */
#define V1_NO_LIMIT	(1LL << 62)

/* Does the comma-separated list hold word? */
static bool in_list(const char *list, const char *word)
{
	size_t l = strlen(word);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, word, l) && (p[l] == ',' || !p[l] ||
					     p[l] == '\n' || p[l] == ' '))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/* Does the blank-separated list (cgroup.controllers) hold word? */
static bool in_words(const char *list, const char *word)
{
	size_t l = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') &&
		    (!p[l] || p[l] == ' ' || p[l] == '\n'))
			return true;
		p += l;
	}
	return false;
}

/* Name file (dir/name) in cg->unread once, with why. */
static void unread(struct cgroup_self *cg, const char *name, int err)
{
	size_t at = strlen(cg->unread), l = strlen(name);
	const char *p = cg->unread;

	/* each name once: "cpu.max" is not "cpu.max.burst" */
	while ((p = strstr(p, name))) {
		if ((p == cg->unread || p[-1] == ' ') && p[l] == ' ')
			return;
		p += l;
	}
	if (at >= sizeof(cg->unread) - 1)
		return;
	snprintf(cg->unread + at, sizeof(cg->unread) - at, "%s%s (%s)",
		 at ? ", " : "", name, err ? strerror(err) : "not understood");
}

/*
 * A small file of dir: 0, -ENOENT (not there: no such limit at that
 * level), or another -errno, said once in cg->unread when cg is given.
 */
static int text_of(struct cgroup_self *cg, const char *dir, const char *name,
		   char *buf, size_t n)
{
	char path[PATH_MAX + 64];
	int e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	e = procfs_text(path, buf, n);
	if (e && e != -ENOENT && cg)
		unread(cg, name, -e);
	return e;
}

/*
 * A number, or "max" (CG_NO_LIMIT): 0; -ENOENT absent; -EINVAL (said)
 * when it is neither.
 */
static int number_of(struct cgroup_self *cg, const char *dir,
		     const char *name, long long *v)
{
	char buf[64], *end;
	int e = text_of(cg, dir, name, buf, sizeof(buf));

	*v = CG_NO_LIMIT;
	if (e)
		return e;
	if (!strcmp(buf, "max\n") || !strcmp(buf, "max"))
		return 0;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n')) {
		*v = CG_NO_LIMIT;
		if (cg)
			unread(cg, name, 0);
		return -EINVAL;
	}
	return 0;
}

/*
 * cpu.max, "max 100000" or "40000 100000": 0, or -1 when it is neither
 * (both then CG_NO_LIMIT).
 */
static int cpu_max(const char *text, long long *q, long long *p)
{
	const char *s = text + 4;
	char *end;

	*q = *p = CG_NO_LIMIT;
	if (strncmp(text, "max ", 4)) {
		*q = strtoll(text, &end, 10);
		if (end == text || *end != ' ' || *q <= 0)
			goto bad;
		s = end + 1;
	}
	*p = strtoll(s, &end, 10);
	if (end == s || *p <= 0 || (*end && *end != '\n'))
		goto bad;
	return 0;
bad:
	*q = *p = CG_NO_LIMIT;
	return -1;
}

/* "key N" of a flat-keyed file (cpu.stat, memory.events): 0 or -1. */
static int keyed(const char *text, const char *key, uint64_t *v)
{
	size_t l = strlen(key);
	const char *p = text;
	unsigned long long x;

	while (p && *p) {
		if (!strncmp(p, key, l) && p[l] == ' ' &&
		    sscanf(p + l, "%llu", &x) == 1) {
			*v = x;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* ---- where the controllers are --------------------------------------- */

/* Our path in /proc/self/cgroup's line for ctl ("" for v2's "0::"). */
static bool own_path(const char *selfcg, const char *ctl, char *buf, size_t n)
{
	const char *line = selfcg;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char l[512], *a, *b;

		snprintf(l, sizeof(l), "%.*s", (int)len, line);
		line = nl ? nl + 1 : NULL;
		a = strchr(l, ':');
		b = a ? strchr(a + 1, ':') : NULL;
		if (!b)
			continue;
		*b = '\0';
		/* v2's line is "0::/path"; v1's "4:memory:/path" */
		if (ctl[0] ? in_list(a + 1, ctl) : !a[1]) {
			snprintf(buf, n, "%s", b + 1);
			return true;
		}
	}
	return false;
}

/* dir = mount point + our path below the mount's root. */
static void place(struct cg_where *w, const char *mnt, const char *mroot,
		  const char *path, int version)
{
	const char *rel = path;
	size_t rl = strlen(mroot);

	if (strcmp(mroot, "/") && !strncmp(path, mroot, rl) &&
	    (path[rl] == '/' || !path[rl]))
		rel = path + rl;
	w->version = version;
	snprintf(w->path, sizeof(w->path), "%s", path);
	snprintf(w->top, sizeof(w->top), "%s", mnt);
	snprintf(w->dir, sizeof(w->dir), "%s%s", mnt,
		 strcmp(rel, "/") ? rel : "");
}

static bool has_file(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

/*
 * Is our v2 directory the hierarchy's real root, whose pressure is the
 * machine's? The top of a cgroup namespace (a container's) is a cgroup
 * of its own: only the real root has no cgroup.type.
 */
static bool is_root(const struct cg_where *u)
{
	return !strcmp(u->dir, u->top) && !has_file(u->dir, "cgroup.type");
}

/* mountinfo's octal escapes ("\040" a blank) in s, in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				    (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/* The real machine's mounts, from /proc/self/mountinfo. */
static void find_mounts(struct cgroup_self *cg, const char *selfcg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct cg_where u;
	char *line = NULL, path[256];
	size_t n = 0;
	int c;

	while (f && getline(&line, &n, f) > 0) {
		char root[PATH_MAX], mnt[PATH_MAX], type[32], opts[512];
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root,
				    mnt) != 2 ||
		    sscanf(dash + 3, "%31s %*s %511s", type, opts) != 2)
			continue;
		unescape(root);
		unescape(mnt);
		if (!strcmp(type, "cgroup2")) {
			if (cg->unified[0] || !own_path(selfcg, "", path,
							sizeof(path)))
				continue;
			place(&u, mnt, root, path, 2);
			snprintf(cg->unified, sizeof(cg->unified), "%s", u.dir);
			cg->unified_root = is_root(&u);
			for (c = 0; c < CG_CTLS; c++) {
				char ctls[256];

				if (cg->at[c].version ||
				    text_of(NULL, mnt, "cgroup.controllers",
					    ctls, sizeof(ctls)) ||
				    !in_words(ctls, ctl_names[c]))
					continue;
				/* v2 holds it unless a v1 mount comes later */
				cg->at[c] = u;
				cg->at[c].version = 2;
			}
			continue;
		}
		if (strcmp(type, "cgroup"))
			continue;
		for (c = 0; c < CG_CTLS; c++)
			if (in_list(opts, ctl_names[c]) &&
			    own_path(selfcg, ctl_names[c], path, sizeof(path)))
				place(&cg->at[c], mnt, root, path, 1);
	}
	free(line);
	if (f)
		fclose(f);
}

/* A made-up tree at root (cgroup.h), for the tests. */
static void fixture_mounts(struct cgroup_self *cg, const char *root,
			   const char *selfcg)
{
	char ctls[256], path[256], mnt[PATH_MAX];
	DIR *d;
	struct dirent *e;
	int c;

	if (!text_of(NULL, root, "cgroup.controllers", ctls, sizeof(ctls))) {
		if (!own_path(selfcg, "", path, sizeof(path)))
			return;
		for (c = 0; c < CG_CTLS; c++)
			if (in_words(ctls, ctl_names[c]))
				place(&cg->at[c], root, "/", path, 2);
		snprintf(cg->unified, sizeof(cg->unified), "%s%s", root,
			 strcmp(path, "/") ? path : "");
		cg->unified_root = !strcmp(path, "/") && access(cg->unified,
								   F_OK) == 0 &&
				   !has_file(cg->unified, "cgroup.type");
		return;
	}
	d = opendir(root);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(mnt, sizeof(mnt), "%s/%s", root, e->d_name);
		for (c = 0; c < CG_CTLS; c++)
			if (in_list(e->d_name, ctl_names[c]) &&
			    own_path(selfcg, ctl_names[c], path, sizeof(path)))
				place(&cg->at[c], mnt, "/", path, 1);
	}
	if (d)
		closedir(d);
}

/* ---- the limits -------------------------------------------------------- */

/*
 * The directories from ours up to the root we see, ours first: their
 * count. A path that leaves top (a mount below our cgroup) stops there.
 */
static int levels(struct cgroup_self *cg, const struct cg_where *w,
		  char (*dir)[PATH_MAX])
{
	size_t tl = strlen(w->top);
	int n = 0;

	if (!w->version)
		return 0;
	snprintf(dir[0], PATH_MAX, "%s", w->dir);
	for (n = 1; n < CG_LEVELS; n++) {
		char *slash;

		if (strlen(dir[n - 1]) <= tl)
			break;
		memcpy(dir[n], dir[n - 1], PATH_MAX);
		slash = strrchr(dir[n], '/');
		if (!slash || (size_t)(slash - dir[n]) < tl)
			break;
		*slash = '\0';
	}
	/* deeper than we keep: the levels above are not read, and said */
	if (n == CG_LEVELS && strlen(dir[n - 1]) > tl) {
		unread(cg, "the levels above the 16th", ENAMETOOLONG);
		cg->quota_unknown = true;
	}
	return n;
}

/* A level's path as the hierarchy names it: "/" for its root. */
static const char *level_name(const struct cg_where *w, const char *dir)
{
	const char *rel = dir + strlen(w->top);

	return *rel ? rel : "/";
}

static void read_cpu(struct cgroup_self *cg)
{
	const struct cg_where *w = &cg->at[CG_CPU];
	char (*dir)[PATH_MAX] = calloc(CG_LEVELS, PATH_MAX), buf[64];
	size_t used = 0;
	int i, n = dir ? levels(cg, w, dir) : 0;

	for (i = 0; i < n; i++) {
		long long q = CG_NO_LIMIT, p = CG_NO_LIMIT, b = CG_NO_LIMIT;

		if (w->version == 2) {
			int e = text_of(cg, dir[i], "cpu.max", buf,
					sizeof(buf));

			/* a quota we cannot read: its throttling unknown */
			if (e) {
				cg->quota_unknown |= e != -ENOENT;
				continue;
			}
			if (cpu_max(buf, &q, &p)) {
				unread(cg, "cpu.max", 0);
				cg->quota_unknown = true;
				continue;
			}
			number_of(cg, dir[i], "cpu.max.burst", &b);
		} else {
			int e = number_of(cg, dir[i], "cpu.cfs_quota_us", &q);

			if (!e)
				e = number_of(cg, dir[i], "cpu.cfs_period_us",
					      &p);
			cg->quota_unknown |= e && e != -ENOENT;
			number_of(cg, dir[i], "cpu.cfs_burst_us", &b);
		}
		if (q <= 0 || p <= 0)
			continue;
		cg->lquota[cg->nquota][0] = q;
		cg->lquota[cg->nquota][1] = p;
		snprintf(cg->quota_dir[cg->nquota++], PATH_MAX, "%s", dir[i]);
		if (used < sizeof(cg->quotas))
			used += (size_t)snprintf(cg->quotas + used,
						 sizeof(cg->quotas) - used,
						 "%s%s %lld/%lld", used ? ", " :
						 "", level_name(w, dir[i]), q, p);
		/* the tightest share of a CPU binds */
		if (cg->quota_us < 0 ||
		    (double)q / (double)p <
		    (double)cg->quota_us / (double)cg->period_us) {
			cg->quota_us = q;
			cg->period_us = p;
			cg->burst_us = b;
			snprintf(cg->quota_at, sizeof(cg->quota_at), "%s",
				 level_name(w, dir[i]));
		}
	}
	if (n) {
		number_of(cg, dir[0], w->version == 2 ? "cpu.weight" :
			  "cpu.shares", &cg->weight);
		if (w->version == 1 &&
		    !number_of(cg, dir[0], "cpu.rt_runtime_us",
			       &cg->rt_runtime_us))
			number_of(cg, dir[0], "cpu.rt_period_us",
				  &cg->rt_period_us);
		else
			cg->rt_runtime_us = -2;
	}
	free(dir);
}

/* A CPU list ("0-3,6") into out: 0, or -1 when it is not one. */
static int cpu_list(const char *list, cpu_set_t *out)
{
	const char *p = list;

	CPU_ZERO(out);
	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a, c;

		if (end == p)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (c = a; c <= b && c >= 0 && c < CPU_SETSIZE; c++)
			CPU_SET(c, out);
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* CPUs in a list, and those also in set (when given); -1: not a list. */
static int list_count(const char *list, const cpu_set_t *set)
{
	cpu_set_t in;

	if (cpu_list(list, &in))
		return -1;
	if (set)
		CPU_AND(&in, &in, set);
	return CPU_COUNT(&in);
}

/* The online CPUs into set: 0, or -1 where the list cannot be read. */
static int online_cpus(cpu_set_t *set)
{
	char buf[4096];

	CPU_ZERO(set);
	if (text_of(NULL, "/sys/devices/system/cpu", "online", buf,
		    sizeof(buf)))
		return -1;
	return cpu_list(buf, set);
}

/*
 * The cgroup's CPUs: its cpuset's, online (a made-up tree's as listed),
 * not our affinity, which -u or taskset narrow further.
 */
static void read_cpuset(struct cgroup_self *cg, bool real)
{
	const struct cg_where *w = &cg->at[CG_CPUSET];
	static const char *const names[] = {
		"cpuset.cpus.effective", "cpuset.effective_cpus", "cpuset.cpus",
	};
	cpu_set_t on;
	bool have_on = real && !online_cpus(&on);
	char buf[4096];
	int i, k;

	cg->cpus_machine = (int)sysconf(_SC_NPROCESSORS_ONLN);
	cg->cpus_usable = cg->cpus_machine;
	for (i = w->version == 2 ? 0 : 1; w->version && i < 3; i++) {
		if (text_of(cg, w->dir, names[i], buf, sizeof(buf)))
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		/* v1's effective_cpus of an unset cpuset is empty */
		if (!buf[0])
			continue;
		k = list_count(buf, have_on ? &on : NULL);
		if (k < 0) {
			unread(cg, names[i], 0);
			return;
		}
		snprintf(cg->cpuset, sizeof(cg->cpuset), "%.*s",
			 (int)sizeof(cg->cpuset) - 1, buf);
		cg->cpus_usable = k;
		return;
	}
}

static void read_memory(struct cgroup_self *cg)
{
	const struct cg_where *w = &cg->at[CG_MEMORY];
	char (*dir)[PATH_MAX] = calloc(CG_LEVELS, PATH_MAX);
	int i, n = dir ? levels(cg, w, dir) : 0;

	for (i = 0; i < n; i++) {
		long long m = CG_NO_LIMIT, h = CG_NO_LIMIT;

		if (w->version == 2) {
			number_of(cg, dir[i], "memory.max", &m);
			number_of(cg, dir[i], "memory.high", &h);
		} else {
			number_of(cg, dir[i], "memory.limit_in_bytes", &m);
		}
		if (m >= V1_NO_LIMIT)
			m = CG_NO_LIMIT;
		if (h >= V1_NO_LIMIT)
			h = CG_NO_LIMIT;
		/* ours always; an ancestor when it limits */
		if (i && m < 0 && h < 0)
			continue;
		cg->lmem[cg->nmem] = h >= 0 && (m < 0 || h < m) ? h : m;
		snprintf(cg->mem_dir[cg->nmem++], PATH_MAX, "%s", dir[i]);
		if (m >= 0 && (cg->mem_max < 0 || m < cg->mem_max)) {
			cg->mem_max = m;
			snprintf(cg->mem_at, sizeof(cg->mem_at), "%s",
				 level_name(w, dir[i]));
		}
		if (h >= 0 && (cg->mem_high < 0 || h < cg->mem_high))
			cg->mem_high = h;
	}
	free(dir);
}

void cgroup_read(struct cgroup_self *cg, const char *root)
{
	char selfcg[4096];
	int c;

	memset(cg, 0, sizeof(*cg));
	cg->read = true;
	cg->quota_us = cg->period_us = cg->burst_us = CG_NO_LIMIT;
	cg->weight = cg->rt_period_us = CG_NO_LIMIT;
	cg->rt_runtime_us = -2;
	cg->mem_max = cg->mem_high = CG_NO_LIMIT;
	cg->cpus_machine = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (text_of(cg, root ? root : "/proc/self",
		    root ? "proc-self-cgroup" : "cgroup", selfcg,
		    sizeof(selfcg)))
		return;
	if (root)
		fixture_mounts(cg, root, selfcg);
	else
		find_mounts(cg, selfcg);
	for (c = 0; c < CG_CTLS; c++)
		if (cg->at[c].version && access(cg->at[c].dir, F_OK)) {
			unread(cg, cg->at[c].dir, errno);
			cg->at[c].version = 0;
		}
	read_cpu(cg);
	read_cpuset(cg, !root);
	read_memory(cg);
}

double cgroup_quota_cpus(const struct cgroup_self *cg)
{
	return cg->quota_us > 0 && cg->period_us > 0 ?
	       (double)cg->quota_us / (double)cg->period_us : 0;
}

void cgroup_quota_text(const struct cgroup_self *cg, char *buf, size_t n)
{
	if (cg->quota_us <= 0)
		snprintf(buf, n, "no CPU quota");
	else
		snprintf(buf, n, "%s %lld/%lld",
			 cg->at[CG_CPU].version == 2 ? "cpu.max" :
			 "cpu.cfs_quota_us", cg->quota_us, cg->period_us);
}

void cgroup_level_text(const struct cgroup_self *cg, int k, char *buf,
		       size_t n)
{
	const struct cg_where *w = &cg->at[CG_CPU];

	snprintf(buf, n, "%s: %s %lld/%lld", level_name(w, cg->quota_dir[k]),
		 w->version == 2 ? "cpu.max" : "cpu.cfs_quota_us",
		 cg->lquota[k][0], cg->lquota[k][1]);
}

long long cgroup_mem_room(const struct cgroup_self *cg)
{
	long long room = CG_NO_LIMIT, used;
	int i;

	for (i = 0; i < cg->nmem; i++) {
		char stat[8192];
		uint64_t cache = 0;
		bool v2 = cg->at[CG_MEMORY].version == 2;

		if (cg->lmem[i] < 0 ||
		    number_of(NULL, cg->mem_dir[i], v2 ? "memory.current" :
			      "memory.usage_in_bytes", &used) || used < 0)
			continue;
		/* the page cache it can drop is room, as MemAvailable says */
		if (!text_of(NULL, cg->mem_dir[i], "memory.stat", stat,
			     sizeof(stat)) &&
		    !keyed(stat, v2 ? "inactive_file" : "total_inactive_file",
			   &cache) && (long long)cache <= used)
			used -= (long long)cache;
		used = cg->lmem[i] > used ? cg->lmem[i] - used : 0;
		if (room < 0 || used < room)
			room = used;
	}
	return room;
}

/* ---- what the limits did ----------------------------------------------- */

void cgroup_counters_read(const struct cgroup_self *cg,
			  struct cg_counters *c)
{
	static const char *const psi[2] = { "cpu.pressure", "memory.pressure" };
	bool v2 = cg->at[CG_CPU].version == 2;
	char buf[512];
	int i;

	memset(c, 0, sizeof(*c));
	c->have_cpu = cg->read;
	for (i = 0; i < cg->nquota; i++) {
		uint64_t t = 0;

		if (text_of(NULL, cg->quota_dir[i], "cpu.stat", buf,
			    sizeof(buf)) ||
		    keyed(buf, "nr_throttled", &c->nr_throttled[i]) ||
		    keyed(buf, v2 ? "throttled_usec" : "throttled_time", &t)) {
			c->have_cpu = false;
			continue;
		}
		c->throttled_ns[i] = v2 ? t * 1000 : t;
	}
	for (i = 0; i < 2 && cg->unified[0] && !cg->unified_root; i++) {
		unsigned long long t;

		if (!text_of(NULL, cg->unified, psi[i], buf, sizeof(buf)) &&
		    sscanf(buf, "some avg10=%*f avg60=%*f avg300=%*f "
			   "total=%llu", &t) == 1) {
			c->have_psi[i] = true;
			c->psi_us[i] = t;
		}
	}
	c->have_mem = cg->at[CG_MEMORY].version && cg->nmem;
	c->have_high = cg->at[CG_MEMORY].version == 2;
	for (i = 0; i < cg->nmem && c->have_mem; i++) {
		uint64_t h = 0, m = 0, k = 0;

		if (cg->at[CG_MEMORY].version == 2) {
			/* .local: each level's own, not its children's */
			if ((text_of(NULL, cg->mem_dir[i], "memory.events.local",
				     buf, sizeof(buf)) &&
			     (i || text_of(NULL, cg->mem_dir[i],
					   "memory.events", buf,
					   sizeof(buf)))) ||
			    keyed(buf, "high", &h) || keyed(buf, "max", &m)) {
				c->have_mem = false;
				break;
			}
			keyed(buf, "oom_kill", &k);
		} else {
			if (text_of(NULL, cg->mem_dir[i], "memory.failcnt",
				    buf, sizeof(buf))) {
				c->have_mem = false;
				break;
			}
			m = strtoull(buf, NULL, 10);
			/* v1's oom_kill counts the children's: ours only */
			if (!i && !text_of(NULL, cg->mem_dir[i],
					   "memory.oom_control", buf,
					   sizeof(buf)))
				keyed(buf, "oom_kill", &k);
		}
		c->mem_high += h;
		c->mem_max += m;
		c->oom_kill += k;
	}
}
