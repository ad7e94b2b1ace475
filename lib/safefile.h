/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safefile.h - how every output file is written (results, reports, the
 * calibration, a trace). It is never opened by its name: it is made new
 * next to it, unnamed (O_TMPFILE: a killed run leaves nothing), or where
 * the filesystem cannot, under a random name (O_EXCL, so a link or file
 * planted there is never opened); written, synced, named and renamed
 * over the name, which replaces whatever was there (a link itself, never
 * what it points to). A reader never sees half a file; a failure leaves
 * the old one.
 *
 *	struct safe_file sf;
 *	int err = safe_file_begin(&sf, path);
 *
 *	if (err)
 *		return err;
 *	fprintf(sf.f, ...);
 *	return safe_file_commit(&sf);	(or safe_file_abort(&sf))
 */
#ifndef INTERBENCH_SAFEFILE_H
#define INTERBENCH_SAFEFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct safe_file {
	char tmp[PATH_MAX + 8];		/* path.XXXXXX: its name, if named */
	bool named;			/* tmp exists (no O_TMPFILE here) */
	const char *path;		/* the name (not copied) */
	FILE *f;			/* write here; NULL once done */
	int fd;				/* f's, for write(); -1 once done */
};

/*
 * fd as a stdio stream (fdopen()'s modes) whose fclose() fails with the
 * errno of the first write that failed, not a bare flag: NULL with errno
 * set. fclose() closes fd.
 */
FILE *stream_keep_errno(int fd, const char *mode);
/*
 * May a file be renamed over path: 0 (absent, a regular file, a link to
 * one or to nothing), -EISDIR, or -ENODEV (a device, FIFO or socket, or
 * a link to one: sys_file_why() says "it is not a regular file").
 */
int safe_file_replaceable(const char *path);
/*
 * Make the new file path.XXXXXX, open as sf->f and sf->fd: 0 or -errno
 * (safe_file_replaceable()'s, checked first).
 */
int safe_file_begin(struct safe_file *sf, const char *path);
/*
 * Flush, sync and close it, then rename it over the name: 0, or -errno
 * (that of the first write to sf->f that failed) with the temporary
 * gone.
 */
int safe_file_commit(struct safe_file *sf);
/* Close and remove the temporary: the name is left as it was. */
void safe_file_abort(struct safe_file *sf);
/*
 * For a file that grows where it is (the CSV): rename it over the name
 * now and leave sf->f open, the caller's to fclose(); neither commit nor
 * abort it then. 0, or -errno with the temporary gone.
 */
int safe_file_publish(struct safe_file *sf);
/* All of buf as the file path, made so in one call: 0 or -errno. */
int safe_file_write(const char *path, const void *buf, size_t len);
/*
 * What every command says on stdout of a file it wrote, once it is
 * whole, in one form: "Wrote PATH (WHAT)".
 */
void safe_file_said(const char *path, const char *what);

/* The name an output that may go to standard output takes for it. */
#define SAFE_STDOUT	"-"
/*
 * A document about to go to standard output (--ktap -): a stream on
 * standard output as it was, and from now on fd 1 is stderr's, line
 * buffered, so that whatever the command and its children print goes to
 * stderr and never into the document. Called before anything is
 * printed; the stream is not inherited by children. NULL, errno set.
 */
FILE *safe_stdout_aside(void);

#endif
