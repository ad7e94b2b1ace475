/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulators/rtapp/rtapp_read.h - rt-app's grammar as text: a file as workgen
 * reads it into a JSON tree (rtapp_read.c), for rtapp_parse.c. Private to
 * the RtApp files.
 */
#ifndef INTERBENCH_RTAPP_READ_H
#define INTERBENCH_RTAPP_READ_H

#include <stddef.h>
#include "lib/json.h"

/*
 * The file at path, whole: 0 with *text (malloc'd, NUL-terminated) and
 * *len, or -errno with one line in err naming the file.
 */
int rtapp_read_file(const char *path, char **text, size_t *len, char *err,
		    size_t n);

/*
 * len bytes of text in rt-app's grammar into *root (json_free it), as
 * workgen and rt-app's JSON reader take it: C comments, a comma before a
 * closing bracket, a bare "suspend" key (no value), repeated keys in one
 * object (numbered as workgen numbers them: the second "run" becomes
 * "run1"), an empty suspend filled with its thread's name. 0, or -EINVAL
 * (-ENOMEM) with one line in err naming the file (name) and the place.
 */
int rtapp_read(const char *text, size_t len, const char *name,
	       struct jval **root, char *err, size_t n);

#endif
