/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_UTF8_H
#define AG_UTF8_H

/**
 * Strict UTF-8 validation (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF). Pure, no allocation.
 *
 * Used by the JSON writer (base/strbuf.h) and by the YAML layer
 * (base/yaml-doc.c), which refuses text that is not UTF-8 with its position.
 */
#include "base/common.h"

/*
 * Returns true when buf[0..len) is valid UTF-8. Otherwise returns false and,
 * when the pointers are non-NULL, sets *line and *col (both 1-based, col in
 * bytes) of the first invalid byte.
 */
bool utf8_valid(const char *buf, size_t len, int *line, int *col);

/* Length of the one valid sequence at s (at most n bytes, n >= 1), or 0. */
size_t utf8_seq_len(const unsigned char *s, size_t n);

#endif
