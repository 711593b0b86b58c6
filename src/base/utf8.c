/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Strict UTF-8 validation.
 *
 * Invariants:
 *  1. MUST NOT read past buf + len (the input is not NUL-terminated).
 *  2. MUST refuse overlong forms, UTF-16 surrogates (U+D800..U+DFFF), code
 *     points above U+10FFFF and truncated sequences.
 */
#include "base/utf8.h"

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t need;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 2;
	else if (c >= 0xe0 && c <= 0xef)
		need = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < need || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < need; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return need;
}

bool utf8_valid(const char *buf, size_t len, int *line, int *col)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t i = 0, bol = 0;
	int ln = 1;

	while (i < len) {
		size_t k = utf8_seq_len(s + i, len - i);
		if (!k) {
			if (line)
				*line = ln;
			if (col)
				*col = (int)(i - bol) + 1;
			return false;
		}
		if (s[i] == '\n') {
			ln++;
			bol = i + 1;
		}
		i += k;
	}
	return true;
}
