/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for base/inert.c: the escape form, and its invariants (inert.c
 * items 1-3) over every byte value, every pair of bytes and generated UTF-8.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include "base/inert.h"
#include "base/strbuf.h"
#include "base/utf8.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1; /* upper case is not the form */
}

static void add_utf8(struct strbuf *sb, uint32_t cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, 0xc0 | (cp >> 6));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, 0xe0 | (cp >> 12));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3f));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	} else {
		strbuf_addch(sb, 0xf0 | (cp >> 18));
		strbuf_addch(sb, 0x80 | ((cp >> 12) & 0x3f));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3f));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	}
}

/*
 * The one reading of the escape form (inert.h): returns false when a
 * backslash does not start exactly one of \\, \xHH, \uHHHH.
 */
static bool decode(const char *s, size_t len, struct strbuf *out)
{
	for (size_t i = 0; i < len; i++) {
		int d = 0, n;

		if (s[i] != '\\') {
			strbuf_addch(out, s[i]);
			continue;
		}
		if (i + 1 >= len)
			return false;
		if (s[i + 1] == '\\') {
			strbuf_addch(out, '\\');
			i++;
			continue;
		}
		n = s[i + 1] == 'x' ? 2 : s[i + 1] == 'u' ? 4 : 0;
		if (!n || i + 2 + (size_t)n > len)
			return false;
		for (int k = 0; k < n; k++) {
			int h = hexval(s[i + 2 + k]);
			if (h < 0)
				return false;
			d = d * 16 + h;
		}
		if (n == 2)
			strbuf_addch(out, d);
		else
			add_utf8(out, (uint32_t)d);
		i += 1 + (size_t)n;
	}
	return true;
}

static bool cp_forbidden(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* Invariants 1-3 for one input; returns nothing, asserts. */
static void check_one(const void *in, size_t len, unsigned flags)
{
	struct strbuf sb = STRBUF_INIT, back = STRBUF_INIT;
	const unsigned char *o;

	strbuf_addstr(&sb, "<");
	strbuf_add_inert_mem(&sb, in, len, flags);
	strbuf_addstr(&sb, ">");
	o = (const unsigned char *)sb.buf;
	assert_int_equal(strlen(sb.buf), sb.len); /* no NUL either */
	assert_true(utf8_valid(sb.buf, sb.len, NULL, NULL));
	for (size_t i = 0; i < sb.len;) {
		size_t k = utf8_seq_len(o + i, sb.len - i);
		uint32_t cp = o[i];

		if (k > 1) {
			cp = o[i] & (0xff >> (k + 1));
			for (size_t j = 1; j < k; j++)
				cp = (cp << 6) | (o[i + j] & 0x3f);
		}
		if (cp < 0x20 || cp == 0x7f)
			assert_true((cp == '\n' && (flags & INERT_KEEP_NL)) ||
				    (cp == '\t' && (flags & INERT_KEEP_TAB)));
		assert_false(cp_forbidden(cp));
		i += k;
	}
	assert_true(decode(sb.buf + 1, sb.len - 2, &back));
	assert_int_equal(back.len, len);
	assert_memory_equal(back.buf, in, len);
	strbuf_release(&sb);
	strbuf_release(&back);
}

static void expect(const char *in, unsigned flags, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_inert(&sb, in, flags);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_forms(void **state)
{
	(void)state;
	expect("plain name/with-dash_1.txt", 0, "plain name/with-dash_1.txt");
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0,
	       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	expect("\x1b]0;owned\x07", 0, "\\x1b]0;owned\\x07"); /* OSC title */
	expect("\x1b[2J\x1b[H", 0, "\\x1b[2J\\x1b[H");	     /* clear */
	expect("deny\rallow", 0, "deny\\x0dallow");
	expect("a\nb\tc", 0, "a\\x0ab\\x09c");
	expect("a\nb\tc\r", INERT_KEEP_NL, "a\nb\\x09c\\x0d");
	expect("a\nb\tc", INERT_KEEP_NL | INERT_KEEP_TAB, "a\nb\tc");
	expect("del\x7f", 0, "del\\x7f");
	expect("\xc2\x9b"
	       "2J",
	       0, "\\u009b2J"); /* C1 CSI as UTF-8 */
	expect("\x9b"
	       "2J",
	       0, "\\x9b2J"); /* C1 CSI as a raw byte */
	expect("evil\xe2\x80\xaetxt.exe", 0, "evil\\u202etxt.exe");
	expect("\xe2\x81\xa6x\xe2\x81\xa9", 0, "\\u2066x\\u2069");
	expect("\xe2\x80\x8f\xd8\x9c\xe2\x80\xa8", 0, "\\u200f\\u061c\\u2028");
	expect("\xff\xc3(", 0, "\\xff\\xc3(");
	expect("\xed\xa0\x80", 0, "\\xed\\xa0\\x80"); /* a surrogate */
	/* a real backslash cannot pass for an escape */
	expect("name\\x1b", 0, "name\\\\x1b");
	expect("\\", 0, "\\\\");
	expect(NULL, 0, "");
}

static void test_every_byte_and_pair(void **state)
{
	unsigned char b[3];

	(void)state;
	for (int i = 0; i < 256; i++) {
		b[0] = (unsigned char)i;
		check_one(b, 1, 0);
		check_one(b, 1, INERT_KEEP_NL | INERT_KEEP_TAB);
		for (int j = 0; j < 256; j++) {
			b[1] = (unsigned char)j;
			check_one(b, 2, 0);
			b[2] = 0x80 | (unsigned char)(j & 0x3f);
			check_one(b, 3, INERT_KEEP_NL);
		}
	}
}

/*
 * Every code point U+0000..U+10FFFF (surrogates as their raw bytes): inert,
 * and every printable one passes as it is (nothing more is escaped).
 */
static void test_every_code_point(void **state)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	for (uint32_t cp = 0; cp <= 0x10ffff; cp++) {
		bool plain = cp >= 0x20 && cp != 0x7f && cp != '\\' &&
			     !cp_forbidden(cp) && (cp < 0xd800 || cp > 0xdfff);

		strbuf_reset(&sb);
		strbuf_reset(&out);
		add_utf8(&sb, cp);
		check_one(sb.buf, sb.len, 0);
		strbuf_add_inert_mem(&out, sb.buf, sb.len, 0);
		if (plain)
			assert_string_equal(out.buf, sb.buf);
		else
			assert_int_equal(out.buf[0], '\\');
	}
	strbuf_release(&sb);
	strbuf_release(&out);
}

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random strings mixing valid UTF-8 (controls favoured) and stray bytes. */
static void test_generated(void **state)
{
	static const uint32_t hot[] = { 0x1b,	'\\',	'\r',	'\n',
					'\t',	0x7f,	0x85,	0x9b,
					0x202e, 0x2066, 0x2069, 'x',
					'u',	'0',	'a',	0x200f };
	struct strbuf sb = STRBUF_INIT;
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int round = 0; round < 20000; round++) {
		size_t n = rng_next(&seed) % 24;

		strbuf_reset(&sb);
		for (size_t i = 0; i < n; i++) {
			uint64_t r = rng_next(&seed);
			switch (r % 4) {
			case 0:
				strbuf_addch(&sb, (int)((r >> 8) & 0xff));
				break;
			case 1:
				add_utf8(&sb, hot[(r >> 8) % ARRAY_SIZE(hot)]);
				break;
			case 2:
				add_utf8(&sb, (uint32_t)((r >> 8) % 0x110000));
				break;
			default:
				add_utf8(&sb, (uint32_t)((r >> 8) % 0x3000));
			}
		}
		check_one(sb.buf, sb.len, (unsigned)(round % 4));
	}
	strbuf_release(&sb);
}

static void test_printf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *volatile null_str = NULL; /* no compile-time warning */

	(void)state;
	strbuf_addf_inert(&sb, "[%s] %d %5zu|%-6s|%6s|%.3s|%c%%\n", "a\x1b[2Jb",
			  -42, (size_t)7, "x\r", "y",
			  "ab\x1b"
			  "cd",
			  '\x07');
	assert_string_equal(
		sb.buf,
		"[a\\x1b[2Jb] -42     7|x\\x0d |     y|ab\\x1b|\\x07%\n");
	strbuf_reset(&sb);
	strbuf_addf_inert(&sb, "%*s|%-*s|%.*s|%lu %llx %ld %s", 4, "ab", 3, "c",
			  2, "xyz", 1ul, 255ull, -3l, null_str);
	assert_string_equal(sb.buf, "  ab|c  |xy|1 ff -3 (null)");
	strbuf_reset(&sb);
	strbuf_addf_inert(&sb, "%*s|%05d|%.2f|%hd", -3, "z", 42, 1.5,
			  (short)-5);
	assert_string_equal(sb.buf, "z  |00042|1.50|-5");
	strbuf_release(&sb);
}

/* One stream cut at every place, fed through the chunk form: the same. */
static void feed_chunks(const char *in, size_t len, size_t chunk,
			struct strbuf *out)
{
	struct strbuf carry = STRBUF_INIT;

	for (size_t off = 0; off < len; off += chunk) {
		size_t n = len - off < chunk ? len - off : chunk, used;

		strbuf_add(&carry, in + off, n);
		used = strbuf_add_inert_chunk(out, carry.buf, carry.len,
					      INERT_KEEP_NL);
		assert_true(carry.len - used <= 3);
		memmove(carry.buf, carry.buf + used, carry.len - used);
		strbuf_setlen(&carry, carry.len - used);
	}
	strbuf_add_inert_mem(out, carry.buf, carry.len, INERT_KEEP_NL);
	strbuf_release(&carry);
}

static void test_chunks(void **state)
{
	struct strbuf in = STRBUF_INIT, whole = STRBUF_INIT, cut = STRBUF_INIT;
	uint64_t seed = 0x2545f4914f6cdd1dull;

	(void)state;
	for (int round = 0; round < 3000; round++) {
		size_t n = rng_next(&seed) % 16;

		strbuf_reset(&in);
		for (size_t i = 0; i < n; i++) {
			uint64_t r = rng_next(&seed);
			if (r % 3)
				add_utf8(&in, (uint32_t)((r >> 8) % 0x110000));
			else
				strbuf_addch(&in, (int)((r >> 8) & 0xff));
		}
		strbuf_reset(&whole);
		strbuf_add_inert_mem(&whole, in.buf, in.len, INERT_KEEP_NL);
		for (size_t chunk = 1; chunk <= 5; chunk++) {
			strbuf_reset(&cut);
			feed_chunks(in.buf, in.len, chunk, &cut);
			assert_int_equal(cut.len, whole.len);
			assert_memory_equal(cut.buf, whole.buf, whole.len);
		}
	}
	strbuf_release(&in);
	strbuf_release(&whole);
	strbuf_release(&cut);
}

/* A patch's content: backslashes kept, every control still escaped. */
static void test_keep_backslash(void **state)
{
	const unsigned flags =
		INERT_KEEP_NL | INERT_KEEP_TAB | INERT_KEEP_BACKSLASH;

	(void)state;
	expect("+\tprintf(\"%s\\n\", x);\n", flags,
	       "+\tprintf(\"%s\\n\", x);\n");
	expect("+\x1b[2J\r\xe2\x80\xae\\x1b\n", flags,
	       "+\\x1b[2J\\x0d\\u202e\\x1b\n");
}

AG_PRINTF(3, 4)
static void addf_flags(struct strbuf *sb, unsigned flags, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf_inert_flags(sb, flags, fmt, ap);
	va_end(ap);
}

static void test_printf_flags(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	addf_flags(&sb, INERT_KEEP_NL, "[%s|%-4s]", "a\nb\x1b", "\n");
	assert_string_equal(sb.buf, "[a\nb\\x1b|\n   ]");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_every_byte_and_pair),
		cmocka_unit_test(test_every_code_point),
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_printf),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_keep_backslash),
		cmocka_unit_test(test_printf_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
