/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/json_priv.h - what json_write.c and json_read.c share, not for
 * the rest of interbench (lib/json.h is the public header).
 */
#ifndef INTERBENCH_JSON_PRIV_H
#define INTERBENCH_JSON_PRIV_H

#include <stddef.h>

/*
 * Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none:
 * the writer escapes what is not, the reader refuses it.
 */
size_t json_utf8_len(const unsigned char *s, size_t n);

#endif
