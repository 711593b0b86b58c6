/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_STRBUF_H
#define AG_STRBUF_H

/**
 * A growable, always NUL-terminated byte buffer (git's strbuf).
 *
 *   struct strbuf sb = STRBUF_INIT;
 *   strbuf_addf(&sb, "%s/%s", a, b);
 *   use(sb.buf);
 *   strbuf_release(&sb);
 *
 * `buf` is never NULL. The buffer owns its memory; strbuf_detach() hands it
 * to the caller. Allocation failures die.
 */
#include "base/common.h"
#include <stdarg.h>

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
static inline void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
/*
 * "dir/name", as strbuf_addf(sb, "%s/%s", dir, name) would add it, and an
 * unsigned number in decimal: the shim's hot path builds its paths with
 * these, so that it never runs printf's machinery (its code and its deep
 * stack are page faults on every git call; docs/architecture.md).
 */
void strbuf_addpath(struct strbuf *sb, const char *dir, const char *name);
void strbuf_addu(struct strbuf *sb, unsigned long v);
/* `n` bytes as lowercase hex, two digits each (git's object ids). */
void strbuf_addhex(struct strbuf *sb, const unsigned char *p, size_t n);
AG_PRINTF(2, 3) void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
AG_PRINTF(2, 0) void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_trim(struct strbuf *sb);
void strbuf_rtrim(struct strbuf *sb);
/*
 * Appends s as a JSON string literal (with quotes), escaping as needed;
 * always valid UTF-8: each byte of s that is not part of a valid UTF-8
 * sequence is written as \ufffd (U+FFFD).
 */
void strbuf_add_json_str(struct strbuf *sb, const char *s);
/* Appends s quoted for a POSIX shell (single quotes), for display only. */
void strbuf_add_shell_quoted(struct strbuf *sb, const char *s);

bool starts_with(const char *s, const char *prefix);
bool ends_with(const char *s, const char *suffix);
/* The first n bytes of s are lower-case hex digits (a NUL among them: no). */
bool is_lower_hex(const char *s, size_t n);
/* If s starts with prefix, sets *out past it and returns true. */
bool skip_prefix(const char *s, const char *prefix, const char **out);

#endif
