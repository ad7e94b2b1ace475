// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/study.c - `interbench study`: its options, its files (a directory's
 * *.json) read and checked, the study made and reported by
 * compare/study.c, the exit status.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd/cmd.h"
#include "compare/study.h"
#include "core/resultfile.h"
#include "lib/opt.h"
#include "lib/safefile.h"
#include "lib/system.h"

static const char usage_head[] =
"Usage: interbench study [options] FILE|DIR...\n"
"How much of each cell's variation sits at each level of replication\n"
"(boot, invocation, repeat), from result files of one kernel on one host\n"
"(a DIR: every *.json in it), and the cheapest design that finds a change.\n";

static const char usage_tail[] =
"      --                  the rest are file names\n"
"Each file is one invocation (system.invocation), in the boot it names\n"
"(system.boot_id); its repeats are repeats. Each cell's decision figures\n"
"are split into components by the method of moments for a nested design,\n"
"and the cheapest design a side (boots x invocations x repeats) that finds\n"
"--change at --power is searched, its cost from the files' -t, stamps and\n"
"--boot-cost (doc/effects.txt, \"Boots, invocations, repeats\").\n"
"Exit status: 2 errors (a file not a result, two kernels or hosts, fewer\n"
"than two invocations); 0 otherwise.\n";

static void usage(FILE *f)
{
	fputs(usage_head, f);
	opt_help(f, study_opts, opt_help_width(study_opts, 18));
	fputs(usage_tail, f);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_name(char ***names, int *n, size_t *cap, const char *dir,
		    const char *name)
{
	char **p = *names;
	size_t len;

	if ((size_t)*n == *cap) {
		*cap = *cap ? 2 * *cap : 32;
		p = realloc(*names, *cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		*names = p;
	}
	len = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 1;
	p[*n] = malloc(len);
	if (!p[*n])
		return -ENOMEM;
	snprintf(p[*n], len, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
	(*n)++;
	return 0;
}

/* A directory's *.json, in name order: 0, -ENOENT (none), or -errno. */
static int add_dir(char ***names, int *n, size_t *cap, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int first = *n, r = 0;
	size_t len;

	if (!d)
		return -errno;
	while (!r && (e = readdir(d))) {
		len = strlen(e->d_name);
		if (len > 5 && !strcmp(e->d_name + len - 5, ".json"))
			r = add_name(names, n, cap, dir, e->d_name);
	}
	closedir(d);
	if (r)
		return r;
	if (*n == first)
		return -ENOENT;
	qsort(*names + first, (size_t)(*n - first), sizeof(**names),
	      cmp_names);
	return 0;
}

/* The files named, a directory's expanded: 0, or 2 having said why. */
static int gather(char **argv, int argc, char ***names, int *n)
{
	struct stat st;
	size_t cap = 0;
	int i, r;

	for (i = 0; i < argc; i++) {
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
			r = add_dir(names, n, &cap, argv[i]);
			if (r == -ENOENT) {
				fprintf(stderr, "interbench study: %s: no "
					"*.json in it\n", argv[i]);
				return 2;
			}
		} else {
			r = add_name(names, n, &cap, NULL, argv[i]);
		}
		if (r) {
			fprintf(stderr, "interbench study: %s: %s\n", argv[i],
				strerror(-r));
			return 2;
		}
	}
	return 0;
}

/* --save neither an input nor unwritable: 0, or 2 having said why. */
static int save_ok(const char *save, char **names, int n)
{
	const struct sys_output out = { .opt = "--save", .path = save };
	struct sys_output_fault f;
	char why[PATH_MAX + 128];

	if (!save || !sys_outputs_check(&out, 1, (const char *const *)names,
					n, &f))
		return 0;
	sys_output_fault_text(&out, &f, why, sizeof(why));
	fprintf(stderr, "interbench study: %s\n", why);
	return 2;
}

static int study_files(struct study *s, char **names, int n)
{
	char err[512];
	int i, r;

	s->files = calloc((size_t)n, sizeof(*s->files));
	if (!s->files)
		goto oom;
	for (i = 0; i < n; i++, s->nfiles++)
		if (rf_load(&s->files[i], names[i], err, sizeof(err))) {
			fprintf(stderr, "interbench study: %s\n", err);
			return 2;
		}
	r = study_check(s, err, sizeof(err));
	if (r == -EINVAL) {
		fprintf(stderr, "interbench study: %s\n", err);
		return 2;
	}
	if (r || study_run(s))
		goto oom;
	study_print(s, stdout);
	if (s->o->save && (r = study_save(s, s->o->save))) {
		fflush(stdout);
		fprintf(stderr, "interbench study: cannot write %s: %s\n",
			s->o->save, strerror(-r));
		return 2;
	}
	if (s->o->save)
		safe_file_said(s->o->save, "the variance components, for "
			       "compare --components");
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "interbench study: writing the report: %s\n",
			strerror(errno));
		return 2;
	}
	return 0;
oom:
	fflush(stdout);
	fprintf(stderr, "interbench study: out of memory\n");
	return 2;
}

int study_main(int argc, char **argv)
{
	struct study_opts o = {
		.change = 5, .points = 1, .power = 0.8, .alpha = 0.05,
		.boot_cost = 120,
	};
	struct opt_table tab = { study_opts, &o };
	struct study s = { .o = &o };
	char err[512], **names = NULL;
	bool help = false;
	int rest = argc, i, n = 0, r, status;

	r = opt_parse(&tab, 1, argc, argv, "interbench study ",
		      opt_seen_action, &help, &rest, err, sizeof(err));
	if (r == 1 || help) {
		usage(stdout);
		return fflush(stdout) ? 2 : 0;
	}
	if (r) {
		fprintf(stderr, "interbench study: %s\n", err);
		return 2;
	}
	if (rest >= argc) {
		fprintf(stderr, "interbench study: no file given: a study "
			"takes two or more result files or a directory of "
			"them (see interbench study --help)\n");
		return 2;
	}
	status = gather(argv + rest, argc - rest, &names, &n);
	if (!status)
		status = save_ok(o.save, names, n);
	if (!status)
		status = study_files(&s, names, n);
	study_free(&s);
	for (i = 0; i < s.nfiles; i++)
		rf_free(&s.files[i]);
	free(s.files);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return status;
}
