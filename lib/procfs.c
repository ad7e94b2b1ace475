// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/procfs.c - small /proc and /sys files read (see procfs.h): stdio
 * line by line, a line longer than the buffer read on as its
 * continuation, never as a line of its own.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/procfs.h"

int procfs_text(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	size_t got;
	int err;

	buf[0] = '\0';
	if (!f)
		return -errno;
	got = fread(buf, 1, n - 1, f);
	err = ferror(f) ? (errno ? -errno : -EIO) : 0;
	fclose(f);
	buf[err ? 0 : got] = '\0';
	return err;
}

int procfs_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(buf, (int)n, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -EIO;
}

/* Does line start with key and then blanks and a colon? Its value. */
static const char *value_of(const char *line, const char *key)
{
	size_t kl = strlen(key);
	const char *v = line + kl;

	if (strncmp(line, key, kl))
		return NULL;
	v += strspn(v, " \t");
	if (*v != ':')
		return NULL;
	return v + 1 + strspn(v + 1, " \t");
}

int procfs_field(const char *path, const char *key, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	char line[512];
	bool start = true;	/* line begins one of the file's lines */
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *v = start ? value_of(line, key) : NULL;

		start = strchr(line, '\n') != NULL;
		if (!v)
			continue;
		snprintf(buf, n, "%.*s", (int)strcspn(v, "\n"), v);
		err = 0;
		break;
	}
	if (err && ferror(f))
		err = -EIO;
	fclose(f);
	return err;
}

int procfs_number(const char *path, const char *key, long long *v)
{
	char buf[64], *end;
	int err = procfs_field(path, key, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}
