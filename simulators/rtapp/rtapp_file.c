// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulators/rtapp/rtapp_file.c - an rt-app file as a whole, the
 * reader's front (rtapp_parse(), rtapp_parse_text()): its text read as
 * workgen reads it (rtapp_read.c), its top level, "global" and
 * "resources" here, its tasks by rtapp_parse.c, then the workload whole
 * checked (rtapp_check.c). Last of the reader in the folder's order
 * (rtapp.h): it calls the three, none of them calls it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base.h"
#include "lib/json.h"
#include "lib/policy.h"
#include "simulators/rtapp/rtapp.h"
#include "simulators/rtapp/rtapp_priv.h"
#include "simulators/rtapp/rtapp_read.h"

/* ---- global and resources ------------------------------------------- */

/*
 * The global keys rt-app 1.0 reads. Honoured: default_policy, pi_enabled
 * (priority inheritance on the mutexes), io_device and mem_buffer_size
 * (mem and iorun). Read and left, as they do not change what the threads
 * do: duration (-t governs), calibration (interbench's own: "run" is
 * this machine's time), logdir, log_basename, log_size, gnuplot, ftrace
 * (rt-app's own logs, plots and trace markers: interbench writes none,
 * and has --trace), lock_pages (the benchmark's memory is locked anyway),
 * cumulative_slack (rt-app's log only). Any other key rt-app ignores, and
 * so do we, with a note.
 */
static int global_key(struct rp *p, const char *key, const char *k,
		      const struct jval *v, int *def_policy)
{
	static const char *const flags[] = {
		"gnuplot", "lock_pages", "cumulative_slack", "ftrace",
		"pi_enabled", NULL
	};
	struct rtapp_wl *wl = p->wl;
	long long x = 0;
	int i, r;

	if (!strcmp(k, "default_policy"))
		return rp_policy(p, key, v, def_policy);
	if (!strcmp(k, "duration"))
		return rp_whole(p, key, v, -1, 1000000000, &x);
	if (!strcmp(k, "calibration")) {
		if (v->type == J_NUM)
			return rp_whole(p, key, v, 1, 1000000000, &x);
		if (v->type != J_STR || strncmp(v->str, "CPU", 3))
			return rp_refuse(p, key, "must be ns per loop or "
					 "\"CPUn\"");
		return 0;
	}
	if (!strcmp(k, "logdir") || !strcmp(k, "log_basename"))
		return v->type == J_STR ? 0 :
		       rp_refuse(p, key, "must be a string");
	if (!strcmp(k, "log_size"))
		return v->type == J_STR ? 0 : rp_whole(p, key, v, 0, 1 << 20, &x);
	if (!strcmp(k, "io_device")) {
		if (v->type != J_STR || !v->str[0] || !rp_printable(v->str) ||
		    strlen(v->str) >= RTAPP_PATH)
			return rp_refuse(p, key, "must be a path of at most "
					 "%d characters", RTAPP_PATH - 1);
		snprintf(wl->io_device, sizeof(wl->io_device), "%s", v->str);
		return 0;
	}
	if (!strcmp(k, "mem_buffer_size")) {
		r = rp_whole(p, key, v, 1, RTAPP_MEMBUF_MAX, &x);
		wl->membuf = (uint64_t)x;
		return r ? rp_refuse(p, key, "must be a whole number of bytes "
				     "from 1 to %d (interbench's most: each "
				     "thread's buffer is locked in memory)",
				     RTAPP_MEMBUF_MAX) : 0;
	}
	for (i = 0; flags[i] && strcmp(k, flags[i]); i++)
		;
	if (flags[i]) {
		if (!strcmp(k, "ftrace") && v->type == J_STR)
			return 0;	/* later rt-app: a list of categories */
		if (v->type != J_BOOL)
			return rp_refuse(p, key, "must be true or false");
		if (!strcmp(k, "pi_enabled"))
			wl->pi = v->b;
		return 0;
	}
	rp_note(p, key, "rt-app 1.0 does not read it: ignored");
	return 0;
}

static int parse_global(struct rp *p, const struct jval *g, int *def_policy)
{
	char key[256];
	size_t j;
	int r;

	if (g->type != J_OBJ)
		return rp_refuse(p, "global", "must be an object");
	for (j = 0; j < g->n; j++) {
		rp_key(key, sizeof(key), "global", g->keys[j]);
		r = global_key(p, key, g->keys[j], &g->items[j], def_policy);
		if (r)
			return r;
	}
	return 0;
}

/*
 * "resources": rt-app keeps it for old files, each entry { "type": T }
 * making a resource the events would make anyway; what else an entry
 * holds it does not read. Mutexes and conditions are made here (unused
 * ones cost nothing); the other types are made for nothing.
 */
static int parse_resources(struct rp *p, const struct jval *res)
{
	static const char *const types[] = {
		"mutex", "wait", "signal", "broadcast", "sync", "sleep", "run",
		"timer", NULL
	};
	struct rtapp_wl *wl = p->wl;
	char key[256];
	const struct jval *ty;
	size_t j, m;
	int i, r;

	if (res->type != J_OBJ)
		return rp_refuse(p, "resources", "must be an object");
	for (j = 0; j < res->n; j++) {
		rp_key(key, sizeof(key), "resources", res->keys[j]);
		ty = json_get(&res->items[j], "type");
		for (i = 0; ty && ty->type == J_STR && types[i] &&
		     strcmp(ty->str, types[i]); i++)
			;
		if (res->items[j].type != J_OBJ || !ty || ty->type != J_STR ||
		    !types[i] || strlen(res->keys[j]) >= RTAPP_NAME ||
		    !rp_printable(res->keys[j]))
			return rp_refuse(p, key, "must be { \"type\": T }, T "
					 "one of mutex, wait, signal, "
					 "broadcast, sync, sleep, run, timer; "
					 "its name at most %d characters",
					 RTAPP_NAME - 1);
		r = 0;
		if (!strcmp(ty->str, "mutex"))
			r = rp_name_index(&wl->mutex, &wl->nmutex,
					  res->keys[j]);
		else if (!strcmp(ty->str, "wait"))
			r = rp_name_index(&wl->cond, &wl->ncond, res->keys[j]);
		if (r < 0)
			return r;
		for (m = 0; m < res->items[j].n; m++)
			if (strcmp(res->items[j].keys[m], "type")) {
				char k2[256];

				rp_key(k2, sizeof(k2), key,
				       res->items[j].keys[m]);
				rp_note(p, k2, "rt-app 1.0 reads only a "
					"resource's type: ignored");
			}
	}
	return 0;
}

/* ---- the whole ------------------------------------------------------- */

static int parse_root(struct rp *p, const struct jval *root)
{
	struct rtapp_wl *wl = p->wl;
	const struct jval *tasks = NULL, *global = NULL, *res = NULL;
	int def_policy = POL_OTHER, r = 0;
	size_t j;

	if (root->type != J_OBJ)
		return rp_refuse(p, "(top)", "the file must be a JSON object");
	for (j = 0; j < root->n; j++) {
		const char *k = root->keys[j];

		if (!strcmp(k, "tasks"))
			tasks = &root->items[j];
		else if (!strcmp(k, "global"))
			global = &root->items[j];
		else if (!strcmp(k, "resources"))
			res = &root->items[j];
		else
			rp_note(p, k, "rt-app reads only tasks, global and "
				"resources: ignored");
	}
	if (!tasks || tasks->type != J_OBJ || !tasks->n)
		return rp_refuse(p, "tasks", "the file needs \"tasks\": an "
				 "object of one or more threads");
	if (global)
		r = parse_global(p, global, &def_policy);
	if (!r && res)
		r = parse_resources(p, res);
	if (r)
		return r;
	wl->task = calloc(tasks->n, sizeof(*wl->task));
	if (!wl->task)
		return -ENOMEM;
	for (j = 0; j < tasks->n && !r; j++) {
		struct rtapp_task *t = &wl->task[wl->ntask++];

		r = rp_task(p, tasks->keys[j], &tasks->items[j], def_policy,
			       t);
		if (r)
			break;
		wl->nthreads += t->instance;
		if (t->periodic)
			wl->nperiodic += t->instance;
		if (wl->nthreads > RTAPP_MAX_THREADS)
			r = rp_refuse(p, "tasks", "more than %d threads, "
				      "instances counted", RTAPP_MAX_THREADS);
	}
	return r;
}

/* FNV-1a, 32 bits: enough to tell two files apart in a result. */
static uint32_t fnv1a(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

int rtapp_parse_text(const char *text, size_t len, const char *name,
		     struct rtapp_wl **out, char *err, size_t n)
{
	struct rp p = { .name = name, .err = err, .n = n };
	struct jval *root = NULL;
	const char *base = strrchr(name, '/');
	int r;

	*out = NULL;
	p.wl = calloc(1, sizeof(*p.wl));
	if (!p.wl) {
		snprintf(err, n, "%s: out of memory", name);
		return -ENOMEM;
	}
	r = rtapp_read(text, len, name, &root, err, n);
	if (r) {
		rtapp_free(p.wl);
		return r;
	}
	snprintf(p.wl->path, sizeof(p.wl->path), "%s", name);
	snprintf(p.wl->file, sizeof(p.wl->file), "%s", base ? base + 1 : name);
	p.wl->bytes = len;
	p.wl->fnv = fnv1a(text, len);
	snprintf(p.wl->ident, sizeof(p.wl->ident), "%s (%llu bytes, fnv1a "
		 "%08x)", name, (unsigned long long)len, p.wl->fnv);
	p.wl->membuf = RTAPP_MEMBUF_DEFAULT;
	snprintf(p.wl->io_device, sizeof(p.wl->io_device), "/dev/null");
	r = parse_root(&p, root);
	if (!r)
		r = rtapp_check(&p);
	json_free(root);
	if (r == -ENOMEM)
		snprintf(err, n, "%s: out of memory", name);
	if (r) {
		rtapp_free(p.wl);
		return r;
	}
	*out = p.wl;
	return 0;
}

int rtapp_parse(const char *path, struct rtapp_wl **out, char *err, size_t n)
{
	char *text;
	size_t len;
	int r;

	*out = NULL;
	r = rtapp_read_file(path, &text, &len, err, n);
	if (r)
		return r;
	r = rtapp_parse_text(text, len, path, out, err, n);
	free(text);
	return r;
}

int rtapp_opts_read(void *opts, const char *path, bool load,
		    const char **ident, char *err, size_t n)
{
	struct rtapp_opts *o = opts;
	const struct rtapp_wl **slot = load ? &o->load : &o->task;
	struct rtapp_wl *wl;
	int e;

	if (*slot) {
		snprintf(err, n, "one rt-app file as a %s per run (%s is "
			 "already one)", load ? "load" : "task",
			 (*slot)->path);
		return -EINVAL;
	}
	e = rtapp_parse(path, &wl, err, n);
	if (e)
		return e;
	*slot = wl;
	*ident = wl->ident;
	return 0;
}

int rtapp_opts_check_cpus(const void *opts, const cpu_set_t *allowed,
			  const char *why, char *err, size_t n)
{
	const struct rtapp_opts *o = opts;
	const struct rtapp_wl *wl[2] = { o->task, o->load };
	int i, e;

	for (i = 0; i < 2; i++)
		if (wl[i] && (e = rtapp_check_cpus(wl[i], allowed, why, err,
						   n)))
			return e;
	return 0;
}

void rtapp_opts_free(void *opts)
{
	struct rtapp_opts *o = opts;

	rtapp_free((struct rtapp_wl *)o->task);
	rtapp_free((struct rtapp_wl *)o->load);
	o->task = o->load = NULL;
}

void rtapp_free(struct rtapp_wl *wl)
{
	int i, j;

	if (!wl)
		return;
	for (i = 0; i < wl->ntask; i++) {
		for (j = 0; j < wl->task[i].nphase; j++)
			free(wl->task[i].phase[j].ev);
		free(wl->task[i].phase);
	}
	free(wl->task);
	free(wl->barrier);
	free(wl->cond);
	free(wl->mutex);
	free(wl->tg);
	free(wl);
}
