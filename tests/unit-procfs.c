// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-procfs.c - the small-file reader (lib/procfs.c) on fixtures in a
 * temporary directory, in /proc's and /sys's formats: a missing file, an
 * empty one, a last line without its newline, a key absent, a key only
 * inside a long line (never a line's start), a long first line cut.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/procfs.h"
#include "check.h"

static char dir[64];

/* dir/name holding text: its path (static, the last one made). */
static const char *put(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f || fputs(text, f) < 0 || fclose(f))
		check(0, "cannot write %s", path);
	return path;
}

static void missing(void)
{
	char buf[32] = "x", path[128];
	long long v;

	snprintf(path, sizeof(path), "%s/none", dir);
	check(procfs_line(path, buf, sizeof(buf)) == -ENOENT && !buf[0],
	      "a missing file's line: -ENOENT, empty");
	check(procfs_field(path, "k", buf, sizeof(buf)) == -ENOENT,
	      "a missing file's field: -ENOENT");
	check(procfs_number(path, "k", &v) == -ENOENT,
	      "a missing file's number: -ENOENT");
}

static void empty(void)
{
	const char *p = put("empty", "");
	char buf[32];
	long long v;

	check(procfs_line(p, buf, sizeof(buf)) == -EIO && !buf[0],
	      "an empty file's line: -EIO");
	check(procfs_field(p, "k", buf, sizeof(buf)) == -ENOENT,
	      "an empty file has no field");
	p = put("blank", "\nsecond\n");
	check(procfs_line(p, buf, sizeof(buf)) == -EIO,
	      "a blank first line: -EIO");
	check(procfs_number(put("word", "k: many\n"), "k", &v) == -EINVAL,
	      "a field that is no number: -EINVAL");
}

/* A whole small file: as it is, newlines kept, cut to the buffer. */
static void whole(void)
{
	char buf[8] = "x", path[128];

	snprintf(path, sizeof(path), "%s/none", dir);
	check(procfs_text(path, buf, sizeof(buf)) == -ENOENT && !buf[0],
	      "a missing file's text: -ENOENT, empty");
	check(!procfs_text(put("max", "max 100000\n"), buf, sizeof(buf)) &&
	      !strcmp(buf, "max 100"), "a file's text, cut to the buffer");
	check(!procfs_text(put("two", "0-1\n"), buf, sizeof(buf)) &&
	      !strcmp(buf, "0-1\n"), "a file's text, its newline kept");
	check(!procfs_text(put("none", ""), buf, sizeof(buf)) && !buf[0],
	      "an empty file's text: \"\"");
}

static void no_newline(void)
{
	char buf[32];
	long long v = 0;
	int e;
	const char *p = put("uuid", "0a1b-2c3d");

	e = procfs_line(p, buf, sizeof(buf));
	check(!e && !strcmp(buf, "0a1b-2c3d"),
	      "a line without its newline: %s", buf);
	p = put("status", "Name:\tx\nvoluntary_ctxt_switches:\t42");
	e = procfs_number(p, "voluntary_ctxt_switches", &v);
	check(!e && v == 42,
	      "the last field, no newline: %lld", v);
}

static void keys(void)
{
	const char *p = put("meminfo", "MemTotal:       16303036 kB\n"
			    "MemFree:         1000 kB\n"
			    "nonvoluntary_ctxt_switches: 7\n"
			    "model name\t: Some CPU @ 2.0GHz\n"
			    "se.nr_migrations                 :     3\n");
	char buf[64];
	long long v = 0;
	int e;

	e = procfs_number(p, "MemTotal", &v);
	check(!e && v == 16303036,
	      "MemTotal in kB: %lld", v);
	e = procfs_number(p, "se.nr_migrations", &v);
	check(!e && v == 3,
	      "blanks before the colon: %lld", v);
	e = procfs_field(p, "model name", buf, sizeof(buf));
	check(!e && !strcmp(buf, "Some CPU @ 2.0GHz"),
	      "a tab before the colon: %s", buf);
	check(procfs_number(p, "MemAvailable", &v) == -ENOENT,
	      "a key absent: -ENOENT");
	check(procfs_number(p, "voluntary_ctxt_switches", &v) == -ENOENT,
	      "a key is matched at a line's start only");
	check(procfs_number(p, "Mem", &v) == -ENOENT,
	      "a key is matched whole, not as a prefix");
	e = procfs_field(p, "MemFree", buf, 4);
	check(!e && !strcmp(buf, "100"),
	      "a value cut to the buffer: %s", buf);
}

static void long_lines(void)
{
	char text[3000], buf[16];
	long long v = 0;
	const char *p;
	int e;

	/* "Key: 5" sits where the reader's buffer would cut the line */
	memset(text, 'a', sizeof(text));
	memcpy(text + 511, "Key: 5 ", 7);
	snprintf(text + 2000, sizeof(text) - 2000, "\nKey: 9\n");
	p = put("long", text);
	e = procfs_number(p, "Key", &v);
	check(!e && v == 9,
	      "a key inside a long line is not a line's: %lld", v);
	e = procfs_line(p, buf, sizeof(buf));
	check(!e && strlen(buf) == 15,
	      "a long first line cut to the buffer (%zu)", strlen(buf));
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ibprocfs.XXXXXX");
	if (!mkdtemp(dir)) {
		check(0, "mkdtemp: %s", strerror(errno));
		return check_done();
	}
	missing();
	empty();
	whole();
	no_newline();
	keys();
	long_lines();
	/* the fixtures: each file put() made, then the directory */
	{
		static const char *const made[] = { "empty", "blank", "word",
			"uuid", "status", "meminfo", "long" };
		char path[128];
		size_t i;

		for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
			unlink(path);
		}
		rmdir(dir);
	}
	return check_done();
}
