/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare/sweep_page.h - the page of a sweep (`interbench sweep`'s
 * document, schema interbench-sweep/1): its candidates' verdicts, a
 * forest of their changes against the base, drawn from the document
 * alone, as report draws a result file. A renderer: it judges nothing.
 */
#ifndef INTERBENCH_SWEEP_PAGE_H
#define INTERBENCH_SWEEP_PAGE_H

#include <stddef.h>
#include "lib/json.h"

#define SWEEP_PAGE_SCHEMA	"interbench-sweep/1"

/*
 * Is path a sweep document: 1 and *doc (json_free() it) if it is, else
 * 0 and *doc NULL (not one, or not readable: a result file's reader then
 * says what it is).
 */
int sweep_page_read(const char *path, struct jval **doc);
/*
 * doc's shape: every key the page reads of its type, or null where it
 * may be; 0, or -EINVAL with what is wrong ("candidates[1].\"name\" is
 * missing, not text").
 */
int sweep_page_check(const struct jval *doc, char *what, size_t n);
/*
 * The page of doc (read from doc_path) as html_path, made whole or not
 * at all: 0, or -errno with a line in why ("DOC: not a sweep document:
 * WHAT" for a document of the wrong shape).
 */
int sweep_page_write(const struct jval *doc, const char *doc_path,
		     const char *html_path, char *why, size_t n);

/*
 * sweep_check.c: path, as the document gives it (from where the sweep
 * ran), as a link from the page in directory dir ("../d.base.json"),
 * into buf; path itself when either cannot be resolved. sweep_page_dir:
 * the real directory of html_path into dir, "" when unknown.
 */
const char *sweep_page_href(const char *dir, const char *path, char *buf,
			    size_t n);
void sweep_page_dir(const char *html_path, char *dir, size_t n);

#endif
