/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/die.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;
	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = st_add(st_add(sb->len, extra), 1);
	bool fresh = !sb->alloc;

	if (want <= sb->alloc)
		return;
	if (fresh)
		sb->buf = NULL;
	if (want < 2 * sb->alloc)
		want = 2 * sb->alloc;
	if (want < 32)
		want = 32;
	sb->buf = xrealloc(sb->buf, want);
	sb->alloc = want;
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (sb->alloc && len >= sb->alloc)
		BUG("strbuf_setlen beyond buffer");
	if (!sb->alloc && len)
		BUG("strbuf_setlen on empty buffer");
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addpath(struct strbuf *sb, const char *dir, const char *name)
{
	strbuf_addstr(sb, dir);
	strbuf_addch(sb, '/');
	strbuf_addstr(sb, name);
}

void strbuf_addu(struct strbuf *sb, unsigned long v)
{
	char digits[3 * sizeof(v)];
	size_t n = sizeof(digits);

	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	strbuf_add(sb, digits + n, sizeof(digits) - n);
}

void strbuf_addhex(struct strbuf *sb, const unsigned char *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	strbuf_grow(sb, st_mult(n, 2));
	for (size_t k = 0; k < n; k++) {
		sb->buf[sb->len++] = digits[p[k] >> 4];
		sb->buf[sb->len++] = digits[p[k] & 15];
	}
	sb->buf[sb->len] = '\0';
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed");
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	strbuf_setlen(sb, sb->len + (size_t)n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

void strbuf_trim(struct strbuf *sb)
{
	size_t i = 0;
	strbuf_rtrim(sb);
	while (i < sb->len && isspace((unsigned char)sb->buf[i]))
		i++;
	if (i) {
		memmove(sb->buf, sb->buf + i, sb->len - i);
		strbuf_setlen(sb, sb->len - i);
	}
}

void strbuf_add_json_str(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	strbuf_addch(sb, '"');
	for (; *p; p++) {
		switch (*p) {
		case '"': strbuf_addstr(sb, "\\\""); break;
		case '\\': strbuf_addstr(sb, "\\\\"); break;
		case '\n': strbuf_addstr(sb, "\\n"); break;
		case '\r': strbuf_addstr(sb, "\\r"); break;
		case '\t': strbuf_addstr(sb, "\\t"); break;
		case '\b': strbuf_addstr(sb, "\\b"); break;
		case '\f': strbuf_addstr(sb, "\\f"); break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				strbuf_addf(sb, "\\u%04x", *p);
			} else if (*p < 0x80) {
				strbuf_addch(sb, *p);
			} else {
				/* a JSON string is UTF-8: a byte that is not
				 * becomes U+FFFD, so no reader drops the record */
				size_t k = utf8_seq_len(p, strnlen((const char *)p, 4));
				if (k) {
					strbuf_add(sb, p, k);
					p += k - 1;
				} else {
					strbuf_addstr(sb, "\\ufffd");
				}
			}
		}
	}
	strbuf_addch(sb, '"');
}

void strbuf_add_shell_quoted(struct strbuf *sb, const char *s)
{
	if (*s && !strpbrk(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~")) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '\'');
}

bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

bool skip_prefix(const char *s, const char *prefix, const char **out)
{
	size_t n = strlen(prefix);
	if (strncmp(s, prefix, n))
		return false;
	*out = s + n;
	return true;
}

bool is_lower_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}
