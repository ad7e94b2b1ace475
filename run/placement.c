// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/placement.c - where the loads live (see placement.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include "run/placement.h"
#include "lib/procfs.h"
#include "lib/base.h"
#include "lib/system.h"

#define CG2_ROOT	"/sys/fs/cgroup"
#define CG1_CPU		"/sys/fs/cgroup/cpu"
#define CGROUP2_MAGIC	0x63677270
#define GROUP_PREFIX	"interbench-"

/* Does the file at path hold word among its blank-separated words? */
static bool has_word(const char *path, const char *word)
{
	char buf[512], *save = NULL, *w;
	bool found = false;

	if (procfs_line(path, buf, sizeof(buf)))
		return false;
	for (w = strtok_r(buf, " ", &save); w && !found;
	     w = strtok_r(NULL, " ", &save))
		found = !strcmp(w, word);
	return found;
}

/* rmdir, again for up to 2 s while the last loads finish leaving. */
static int remove_dir(const char *dir)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int i;

	for (i = 0; i < 100; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&ts, NULL);
	}
	return -EBUSY;
}

/* Groups of runs that are gone (a SIGKILL): removed if empty. */
static void remove_stale(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX + 256], proc[64];
		long pid;
		char *end;

		if (strncmp(e->d_name, GROUP_PREFIX, strlen(GROUP_PREFIX)))
			continue;
		pid = strtol(e->d_name + strlen(GROUP_PREFIX), &end, 10);
		snprintf(proc, sizeof(proc), "/proc/%ld", pid);
		if ((*end && *end != '-') || pid <= 0 || !access(proc, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, e->d_name);
		rmdir(path);
	}
	if (d)
		closedir(d);
}

/* Where a group can be made: 2 (v2, cpu enabled), 1 (v1 cpu), 0 none. */
static int hierarchy(void)
{
	struct statfs sf;

	if (!statfs(CG2_ROOT, &sf) && sf.f_type == CGROUP2_MAGIC)
		return has_word(CG2_ROOT "/cgroup.subtree_control", "cpu") ?
		       2 : 0;
	return access(CG1_CPU "/cpu.shares", F_OK) ? 0 : 1;
}

int placement_setup(struct placement *pl, char *err, size_t n)
{
	const char *root;
	char file[PATH_MAX + 32], val[32];
	int e;

	pl->version = 0;
	pl->dir[0] = pl->procs[0] = '\0';
	snprintf(pl->what, sizeof(pl->what), "%s",
		 load_group_names[pl->group]);
	if (pl->group != LG_CGROUP)
		return 0;
	pl->version = hierarchy();
	if (!pl->version) {
		snprintf(err, n, "--load-group cgroup: no cgroup hierarchy "
			 "with the cpu controller (cgroup v2 at %s with cpu in "
			 "cgroup.subtree_control, or v1 at %s)", CG2_ROOT,
			 CG1_CPU);
		return -ENOTSUP;
	}
	root = pl->version == 2 ? CG2_ROOT : pl->own[0] ? pl->own : CG1_CPU;
	remove_stale(root);
	snprintf(pl->dir, sizeof(pl->dir), "%s/" GROUP_PREFIX "%d%s%c", root,
		 (int)getpid(), pl->tag ? "-" : "", pl->tag);
	if (mkdir(pl->dir, 0755)) {
		e = -errno;
		snprintf(err, n, "--load-group cgroup: cannot make %s: %s",
			 pl->dir, strerror(-e));
		pl->dir[0] = '\0';
		return e;
	}
	if (pl->version == 2) {
		snprintf(file, sizeof(file), "%s/cpu.weight", pl->dir);
		snprintf(val, sizeof(val), "%u", pl->weight);
	} else {
		snprintf(file, sizeof(file), "%s/cpu.shares", pl->dir);
		snprintf(val, sizeof(val), "%u", pl->weight * 1024 / 100 < 2 ?
			 2 : pl->weight * 1024 / 100);
	}
	e = sys_write_file(file, val);
	if (e) {
		snprintf(err, n, "--load-group cgroup: cannot write %s to "
			 "%s: %s", val, file, strerror(-e));
		placement_remove(pl);
		return e;
	}
	snprintf(pl->procs, sizeof(pl->procs), "%s/cgroup.procs", pl->dir);
	snprintf(pl->what, sizeof(pl->what), "cgroup v%d %s, %s %s%s%s%s",
		 pl->version, pl->dir, pl->version == 2 ? "cpu.weight" :
		 "cpu.shares", val, pl->version == 2 && pl->own[0] ?
		 " (outside the run's cgroup " : "", pl->version == 2 ?
		 pl->own : "", pl->version == 2 && pl->own[0] ?
		 ": its limits do not bind the loads)" : "");
	return 0;
}

int placement_join(const struct placement *pl)
{
	if (pl->group == LG_SESSION)
		return setsid() < 0 ? -errno : 0;
	if (pl->group == LG_CGROUP && pl->procs[0])
		return sys_write_file(pl->procs, "0");
	return 0;
}

void placement_remove(struct placement *pl)
{
	if (!pl->dir[0])
		return;
	remove_dir(pl->dir);
	pl->dir[0] = '\0';
}
