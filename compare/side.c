// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/side.c - a side of a comparison as several result files, and the
 * level they are replicated at (side.h says why); whether the sides were
 * scheduled alike (cmp_same_policies, compare.h).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "compare/compare.h"

/* A latency or rate this small is taken as this (as verdict.c does). */
#define POOL_LOG_FLOOR	1e-3

const char *cmp_level_plural(enum cmp_level l)
{
	static const char *const plural[CL_LEVELS] = {
		[CL_REPEAT] = "repeats", [CL_INVOCATION] = "invocations",
		[CL_BOOT] = "boots",
	};

	return plural[l];
}

/* ---- pooling a side's files into its units --------------------------- */

/*
 * The unit repeat k of file f belongs to at level: its boot's or its
 * process's id; a file that records none is a unit of its own. Two units
 * are one when their keys are.
 */
struct unit_key {
	const char *id;
	int file, repeat;
};

static struct unit_key key_of(const struct result_file *f, int file,
			      int repeat, enum cmp_level level)
{
	struct unit_key k = { NULL, file, -1 };

	if (level == CL_BOOT)
		k.id = f->boot_id;
	else if (level == CL_INVOCATION)
		k.id = f->invocation;
	else
		k.repeat = repeat;
	return k;
}

static bool same_key(const struct unit_key *a, const struct unit_key *b)
{
	if (a->id && b->id)
		return !strcmp(a->id, b->id);
	return !a->id && !b->id && a->file == b->file && a->repeat == b->repeat;
}

/* How a figure's values over a unit's repeats make the unit's one. */
enum pool_how { POOL_GEO, POOL_MEAN, POOL_SUM };

static enum pool_how pool_how(int fig)
{
	switch (figures[fig].unit) {
	case FU_COUNT:
		return POOL_SUM;	/* frames, frames met: the counts */
	case FU_PCT:
		return POOL_MEAN;	/* compared in points */
	default:
		return POOL_GEO;	/* compared as ratios: on logs */
	}
}

/* The pooled value of n values by how: NaN if none (a sum: if any is). */
static double pooled(const double *v, int n, enum pool_how how)
{
	double sum = 0;
	int i, k = 0;

	for (i = 0; i < n; i++) {
		if (isnan(v[i])) {
			if (how == POOL_SUM)
				return NAN;
			continue;
		}
		sum += how == POOL_GEO ? log(v[i] > POOL_LOG_FLOOR ? v[i] :
					     POOL_LOG_FLOOR) : v[i];
		k++;
	}
	if (!k)
		return NAN;
	if (how == POOL_SUM)
		return sum;
	return how == POOL_GEO ? exp(sum / k) : sum / k;
}

/* One unit: the repeats reps[0..n-1] made into out (numbered num). */
static int pool_unit(const struct ok_repeat *const *reps, int n, int num,
		     double *tmp, struct ok_repeat *out)
{
	size_t nh = 0, i;
	int f, k;

	memset(out, 0, sizeof(*out));
	out->repeat = num;
	out->res = reps[0]->res;
	for (f = 0; f < F_COUNT; f++) {
		for (k = 0; k < n; k++)
			tmp[k] = reps[k]->v[f];
		out->v[f] = pooled(tmp, n, pool_how(f));
	}
	for (f = 0; f < WORK_KINDS; f++) {
		for (k = 0; k < n; k++)
			tmp[k] = reps[k]->work[f];
		out->work[f] = pooled(tmp, n, POOL_GEO);
	}
	/* the frames of all its repeats: the counted rows count them all */
	for (k = 0; k < n; k++)
		nh += reps[k]->nhist;
	out->hist = calloc(nh + 1, sizeof(*out->hist));
	if (!out->hist)
		return -ENOMEM;
	for (k = 0; k < n; k++)
		for (i = 0; i < reps[k]->nhist; i++)
			out->hist[out->nhist++] = reps[k]->hist[i];
	return 0;
}

/* Cell bench/load of out, added if new: its index, or -ENOMEM. */
static int pool_cell(struct result_file *out, const char *bench,
		     const char *load)
{
	struct file_cell *c;
	size_t i;

	for (i = 0; i < out->n_cells; i++)
		if (!strcmp(out->cells[i].bench, bench) &&
		    !strcmp(out->cells[i].load, load))
			return (int)i;
	c = grow_array(out->cells, &out->cap_cells, out->n_cells,
		       sizeof(*out->cells));
	if (!c)
		return -ENOMEM;
	out->cells = c;
	c = &out->cells[out->n_cells];
	memset(c, 0, sizeof(*c));
	c->bench = bench;
	c->load = load;
	return (int)out->n_cells++;
}

/* Every unit of cell (bench, load) over the files, pooled into c. */
static int pool_cell_units(const struct result_file *files, int n,
			   enum cmp_level level, struct file_cell *c,
			   const struct ok_repeat **reps, double *tmp,
			   struct unit_key *keys, size_t maxk)
{
	size_t nk = 0, u, i;
	int f, k, err;

	/* the units, in the order they first appear */
	for (f = 0; f < n; f++) {
		struct file_cell *fc = rf_find_cell(&files[f], c->bench,
						    c->load);

		for (i = 0; fc && i < fc->n_ok; i++) {
			struct unit_key key = key_of(&files[f], f, (int)i,
						     level);

			for (u = 0; u < nk && !same_key(&keys[u], &key); u++)
				;
			if (u == nk && nk < maxk)
				keys[nk++] = key;
		}
	}
	c->ok = calloc(nk + 1, sizeof(*c->ok));
	if (!c->ok)
		return -ENOMEM;
	c->cap_ok = nk + 1;
	for (u = 0; u < nk; u++) {
		for (f = 0, k = 0; f < n; f++) {
			struct file_cell *fc = rf_find_cell(&files[f], c->bench,
							    c->load);

			for (i = 0; fc && i < fc->n_ok; i++) {
				struct unit_key key = key_of(&files[f], f,
							     (int)i, level);

				if (same_key(&keys[u], &key))
					reps[k++] = &fc->ok[i];
			}
		}
		err = pool_unit(reps, k, (int)u + 1, tmp, &c->ok[c->n_ok]);
		if (err)
			return err;
		c->n_ok++;
	}
	return 0;
}

/* The most ok repeats of a cell over the files together. */
static size_t total_repeats(const struct result_file *files, int n)
{
	size_t total = 0, i;
	int f;

	for (f = 0; f < n; f++)
		for (i = 0; i < files[f].n_cells; i++)
			total += files[f].cells[i].n_ok;
	return total;
}

/* id if every file has it the same, else NULL. */
static const char *common_id(const struct result_file *files, int n,
			     bool boot)
{
	const char *id = boot ? files[0].boot_id : files[0].invocation;
	int f;

	for (f = 1; f < n && id; f++) {
		const char *o = boot ? files[f].boot_id : files[f].invocation;

		if (!o || strcmp(o, id))
			return NULL;
	}
	return id;
}

int cmp_pool(const struct result_file *files, int n, enum cmp_level level,
	     struct result_file *out)
{
	size_t total = total_repeats(files, n), i;
	const struct ok_repeat **reps = calloc(total + 1, sizeof(*reps));
	struct unit_key *keys = calloc(total + 1, sizeof(*keys));
	double *tmp = calloc(total + 1, sizeof(*tmp));
	int f, c, err = 0;

	memset(out, 0, sizeof(*out));
	if (!reps || !keys || !tmp) {
		err = -ENOMEM;
		goto out;
	}
	/* what the side says of itself is its first file's (one kernel) */
	out->path = files[0].path;
	out->doc = files[0].doc;
	out->version = files[0].version;
	out->kernel = files[0].kernel;
	out->tag = files[0].tag;
	out->started = files[0].started;
	out->boot_id = common_id(files, n, true);
	out->invocation = common_id(files, n, false);
	for (f = 0; f < n; f++) {
		if (files[f].interrupted && !out->interrupted)
			out->interrupted = files[f].interrupted;
		for (i = 0; i < files[f].n_cells; i++) {
			c = pool_cell(out, files[f].cells[i].bench,
				      files[f].cells[i].load);
			if (c < 0) {
				err = c;
				goto out;
			}
		}
	}
	for (i = 0; i < out->n_cells && !err; i++)
		err = pool_cell_units(files, n, level, &out->cells[i], reps,
				      tmp, keys, total + 1);
out:
	free(reps);
	free(keys);
	free(tmp);
	if (err)
		cmp_pool_free(out);
	return err;
}

void cmp_pool_free(struct result_file *out)
{
	size_t i, k;

	for (i = 0; i < out->n_cells; i++) {
		for (k = 0; k < out->cells[i].n_ok; k++)
			free(out->cells[i].ok[k].hist);
		free(out->cells[i].ok);
	}
	free(out->cells);
	memset(out, 0, sizeof(*out));
}

/* ---- a side's files --------------------------------------------------- */

static int add_path(struct cmp_side *s, const char *p, size_t len)
{
	char **np;

	if (s->nfiles == SIDE_MAX_FILES)
		return -E2BIG;
	np = realloc(s->paths, ((size_t)s->nfiles + 1) * sizeof(*np));
	if (!np)
		return -ENOMEM;
	s->paths = np;
	s->paths[s->nfiles] = strndup(p, len);
	if (!s->paths[s->nfiles])
		return -ENOMEM;
	s->nfiles++;
	return 0;
}

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       !strcmp(d->d_name + n - 5, ".json");
}

/* The names arg stands for: a directory's *.json, a comma list, a file. */
static int expand(struct cmp_side *s, const char *arg, char *err, size_t n)
{
	struct dirent **names;
	struct stat st;
	const char *p, *comma;
	int i, k, r = 0;

	if (!stat(arg, &st) && S_ISDIR(st.st_mode)) {
		k = scandir(arg, &names, json_name, alphasort);
		if (k < 0) {
			snprintf(err, n, "%s: %s", arg, strerror(errno));
			return -errno;
		}
		for (i = 0; i < k; i++) {
			char path[4096];
			int len = snprintf(path, sizeof(path), "%s%s%s", arg,
					   arg[strlen(arg) - 1] == '/' ? "" :
					   "/", names[i]->d_name);

			if (!r)
				r = len < (int)sizeof(path) ?
				    add_path(s, path, strlen(path)) :
				    -ENAMETOOLONG;
			free(names[i]);
		}
		free(names);
		if (!r && !s->nfiles)
			r = -ENOENT;
		if (r)
			snprintf(err, n, "%s: %s", arg, r == -ENOENT ?
				 "a directory with no result file (*.json) "
				 "in it" : r == -E2BIG ? "more than 1000 "
				 "result files in one side" : strerror(-r));
		return r;
	}
	/* a name that exists is a file, commas and all */
	if (!strchr(arg, ',') || !stat(arg, &st))
		return add_path(s, arg, strlen(arg));
	for (p = arg; !r; p = comma + 1) {
		comma = strchr(p, ',');
		if (!comma)
			comma = p + strlen(p);
		if (comma == p) {
			snprintf(err, n, "%s: an empty name in a list of "
				 "files (a side is FILE,FILE,...)", arg);
			return -EINVAL;
		}
		r = add_path(s, p, (size_t)(comma - p));
		if (!*comma)
			break;
	}
	if (r)
		snprintf(err, n, "%s: %s", arg, r == -E2BIG ? "more than 1000 "
			 "result files in one side" : strerror(-r));
	return r;
}

/* Distinct ids among the files (a file without one counts alone). */
static int distinct(const struct result_file *f, int n, bool boot)
{
	int i, k, count = 0;

	for (i = 0; i < n; i++) {
		const char *id = boot ? f[i].boot_id : f[i].invocation;

		for (k = 0; id && k < i; k++) {
			const char *o = boot ? f[k].boot_id : f[k].invocation;

			if (o && !strcmp(o, id))
				break;
		}
		count += !id || k == i;
	}
	return count;
}

/* One side is one kernel, and each process's file is in it once. */
static int side_check(const struct cmp_side *s, char *err, size_t n)
{
	int i, k;

	for (i = 1; i < s->nfiles; i++) {
		const struct result_file *a = &s->files[0], *b = &s->files[i];

		if (a->kernel && b->kernel && strcmp(a->kernel, b->kernel)) {
			snprintf(err, n, "%s: %s (%s) and %s (%s) were "
				 "measured on different kernels: a side is "
				 "one kernel", s->arg, a->path, a->kernel,
				 b->path, b->kernel);
			return -EINVAL;
		}
	}
	for (i = 0; i < s->nfiles; i++)
		for (k = 0; k < i; k++)
			if (s->files[i].invocation && s->files[k].invocation &&
			    !strcmp(s->files[i].invocation,
				    s->files[k].invocation)) {
				snprintf(err, n, "%s: %s and %s come from one "
					 "invocation (one process): a side "
					 "takes each process's file once",
					 s->arg, s->files[k].path,
					 s->files[i].path);
				return -EINVAL;
			}
	return 0;
}

void cmp_side_count(struct cmp_side *s)
{
	size_t c;
	int i;

	s->unknown = false;
	s->units[CL_REPEAT] = 0;
	for (i = 0; i < s->nfiles; i++) {
		s->unknown |= !s->files[i].boot_id || !s->files[i].invocation;
		for (c = 0; c < s->files[i].n_cells; c++)
			if ((int)s->files[i].cells[c].n_ok > s->units[CL_REPEAT])
				s->units[CL_REPEAT] =
					(int)s->files[i].cells[c].n_ok;
	}
	s->units[CL_BOOT] = distinct(s->files, s->nfiles, true);
	s->units[CL_INVOCATION] = distinct(s->files, s->nfiles, false);
	s->use = &s->files[0];
}

int cmp_side_open(struct cmp_side *s, const char *arg, char *err, size_t n)
{
	int i, r;

	memset(s, 0, sizeof(*s));
	s->arg = arg;
	r = expand(s, arg, err, n);
	if (r)
		return r;
	s->files = calloc((size_t)s->nfiles, sizeof(*s->files));
	if (!s->files) {
		snprintf(err, n, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < s->nfiles; i++) {
		r = rf_load(&s->files[i], s->paths[i], err, n);
		if (r)
			return r;
	}
	cmp_side_count(s);
	return side_check(s, err, n);
}

void cmp_side_free(struct cmp_side *s)
{
	int i;

	if (s->use == &s->merged)
		cmp_pool_free(&s->merged);
	for (i = 0; s->files && i < s->nfiles; i++)
		rf_free(&s->files[i]);
	for (i = 0; i < s->nfiles; i++)
		free(s->paths[i]);
	free(s->files);
	free(s->paths);
	memset(s, 0, sizeof(*s));
}

/* ---- the level of replication ----------------------------------------- */

/* Does every id of a's files (boots or processes) appear in b's? */
static bool ids_within(const struct cmp_side *a, const struct cmp_side *b,
		       bool boot)
{
	int i, k;

	for (i = 0; i < a->nfiles; i++) {
		const char *id = boot ? a->files[i].boot_id :
			a->files[i].invocation;

		for (k = 0; k < b->nfiles; k++) {
			const char *o = boot ? b->files[k].boot_id :
				b->files[k].invocation;

			if (id && o && !strcmp(id, o))
				break;
		}
		if (k == b->nfiles)
			return false;
	}
	return true;
}

static bool same_ids(const struct cmp_side *a, const struct cmp_side *b,
		     bool boot)
{
	return ids_within(a, b, boot) && ids_within(b, a, boot);
}

/*
 * The highest level at which any two sides differ; a file without ids
 * may be of any boot, so then the boot.
 */
static enum cmp_level differ_level(const struct cmp_side *s, int n)
{
	enum cmp_level l = CL_REPEAT;
	int i, k;

	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++) {
			if (s[i].unknown || s[k].unknown ||
			    !same_ids(&s[i], &s[k], true))
				return CL_BOOT;
			if (!same_ids(&s[i], &s[k], false))
				l = CL_INVOCATION;
		}
	return l;
}

static bool comp_has(const struct components *c, enum cmp_level l)
{
	size_t i;

	for (i = 0; c && i < c->n; i++)
		if (!isnan(c->e[i].var[l]))
			return true;
	return false;
}

/* The note of a side with one unit of the level the sides differ at. */
static void say(struct cmp_replication *r)
{
	static const char *const who[CL_LEVELS] = {
		[CL_BOOT] = "the kernel's", [CL_INVOCATION] = "the change's",
	};
	char what[200], then[64];
	size_t used = 0;
	int l;

	if (!r->one_a_side)
		return;
	if (r->unknown)
		snprintf(what, sizeof(what), "one file a side, and the files "
			 "do not record their boot: a boot's or a process's "
			 "own effect cannot be told from the change's");
	else if (r->differ == CL_BOOT && r->unit == CL_REPEAT)
		snprintf(what, sizeof(what), "one boot a side: a boot's own "
			 "effect cannot be told from the kernel's");
	else
		snprintf(what, sizeof(what), "one %s a side: a%s %s's own "
			 "effect cannot be told from %s",
			 r->differ == CL_BOOT ? "boot" : "invocation",
			 r->differ == CL_BOOT ? "" : "n",
			 r->differ == CL_BOOT ? "boot" : "invocation",
			 who[r->differ]);
	then[0] = '\0';
	for (l = r->unit + 1; l <= (int)r->differ; l++)
		if (r->added[l])
			used += (size_t)snprintf(then + used, sizeof(then) -
						 used, "%s%s", used ? " and " :
						 "", cmp_level_names[l]);
	if (used)
		snprintf(r->note, sizeof(r->note), "%s; this machine's "
			 "measured %s component%s added (%s)", what, then,
			 strstr(then, " and ") ? "s are" : " is",
			 r->comp->path);
	else
		snprintf(r->note, sizeof(r->note), "%s; the verdict assumes "
			 "there is none%s", what, r->comp ? " (the components "
			 "file has none measured)" : " (interbench study "
			 "measures it: --components)");
}

int cmp_sides_replicate(struct cmp_side *s, int n, struct cmp_replication *r)
{
	const struct components *comp = r->comp;
	int i, l, err;

	memset(r, 0, sizeof(*r));
	r->comp = comp;
	for (i = 0; i < n; i++)
		r->unknown |= s[i].unknown;
	r->differ = differ_level(s, n);
	r->unit = r->differ;
	/* a side with one unit of a level cannot replicate at it */
	for (;;) {
		bool one = false;

		for (i = 0; i < n && r->unit > CL_REPEAT; i++)
			one |= s[i].units[r->unit] < 2;
		if (!one || r->unit == CL_REPEAT)
			break;
		r->one_a_side = true;
		r->unit--;
	}
	for (l = r->unit + 1; l <= (int)r->differ; l++) {
		r->add[l] = true;
		r->added[l] = comp_has(comp, (enum cmp_level)l);
	}
	say(r);
	for (i = 0; i < n; i++) {
		if (s[i].nfiles == 1 && r->unit == CL_REPEAT) {
			s[i].use = &s[i].files[0];
			continue;
		}
		err = cmp_pool(s[i].files, s[i].nfiles, r->unit,
			       &s[i].merged);
		if (err)
			return err;
		s[i].merged.path = s[i].arg;
		s[i].use = &s[i].merged;
	}
	return 0;
}

/* ---- the sides' scheduling ------------------------------------------- */

/*
 * How a file's tasks and loads were scheduled, as one line; files from
 * before --bench-policy have only "rt" (then fifo, else other).
 */
static void sched_text(const struct result_file *rf, char *buf, size_t n)
{
	const struct rf_settings *set = &rf->set;
	char slice[32] = "", group[48] = "";

	if (isfinite(set->bench_slice_us))
		snprintf(slice, sizeof(slice), " slice %g us",
			 set->bench_slice_us);
	/* files from before --load-group had them in interbench's group */
	if (set->load_group && strcmp(set->load_group, "same"))
		snprintf(group, sizeof(group), " in their own %s%s%.0f",
			 set->load_group,
			 isfinite(set->load_cpu_weight) ? " weight " : "",
			 isfinite(set->load_cpu_weight) ?
			 set->load_cpu_weight : 0);
	snprintf(buf, n, "tasks %s%s, loads %s%s", set->bench_policy ?:
		 set->rt == 1 ? "fifo" : "other", slice,
		 set->load_policy ?: "other", group);
}

int cmp_same_policies(const struct result_file *files, int nfiles,
		      const struct compare_options *o)
{
	char a[96], b[96];
	int i;

	sched_text(&files[0], a, sizeof(a));
	for (i = 1; i < nfiles; i++) {
		sched_text(&files[i], b, sizeof(b));
		if (strcmp(a, b) && !o->any_policy && !o->ab_id) {
			fprintf(stderr, "interbench compare: %s (%s) and %s "
				"(%s) were scheduled differently: not "
				"comparable (--allow-policies compares them)\n",
				files[0].path, a, files[i].path, b);
			return -EINVAL;
		} else if (strcmp(a, b)) {
			printf("note: %s: %s; %s: %s\n", files[0].path, a,
			       files[i].path, b);
		}
	}
	return 0;
}
