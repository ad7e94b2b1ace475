/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/procfs.h - the small text files of /proc and /sys (and the tests'
 * fixtures in their format), read the few ways interbench reads them:
 * the whole, the first line, a "key: value" field, a field's number. Each opens,
 * reads and closes the file: never on the sampling path.
 */
#ifndef INTERBENCH_PROCFS_H
#define INTERBENCH_PROCFS_H

#include <stddef.h>

/*
 * The whole file, as it is (newlines kept), cut to n - 1 bytes: 0 (an
 * empty file is ""), or -errno. For a file of a value or two, such as a
 * cgroup's cpu.max.
 */
int procfs_text(const char *path, char *buf, size_t n);

/*
 * The first line, without its newline, cut to n - 1 bytes: 0, -EIO when
 * it is empty (no line, or a blank one), or -errno.
 */
int procfs_line(const char *path, char *buf, size_t n);

/*
 * The value of the line "key: value" (blanks may stand between key and
 * colon, as /proc/cpuinfo's "model name\t: ..."), without the blanks
 * before it and its newline, cut to n - 1 bytes: 0, -ENOENT when no
 * line has the key, or -errno. Keys are matched at a line's start only,
 * however long the line before.
 */
int procfs_field(const char *path, const char *key, char *buf, size_t n);

/*
 * The number the first such line of key starts with ("MemTotal: 8 kB"
 * is 8): 0, -ENOENT (no line of key), -EINVAL (not a number), -errno.
 */
int procfs_number(const char *path, const char *key, long long *v);

#endif
