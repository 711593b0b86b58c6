/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for base/utf8.c and the JSON writer that relies on it. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include "base/strbuf.h"
#include "base/utf8.h"

static void test_valid(void **state)
{
	static const char *const ok[] = {
		"", "plain ascii\n", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
		"\xed\x9f\xbf", /* U+D7FF */ "\xf4\x8f\xbf\xbf", /* U+10FFFF */
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		assert_true(utf8_valid(ok[i], strlen(ok[i]), NULL, NULL));
	assert_true(utf8_valid("a\0b", 3, NULL, NULL)); /* NUL is valid UTF-8 */
}

static void test_invalid_with_position(void **state)
{
	static const struct {
		const char *s;
		int line, col;
	} bad[] = {
		{ "%\x95", 1, 2 },	      /* docs/fuzzing.md, finding 2 */
		{ "ab\ncd\n\xff", 3, 1 },     /* 0xff never appears */
		{ "x\xc0\xaf", 1, 2 },	      /* overlong '/' */
		{ "\xe0\x80\xaf", 1, 1 },     /* overlong, 3 bytes */
		{ "\xed\xa0\x80", 1, 1 },     /* surrogate U+D800 */
		{ "\xf4\x90\x80\x80", 1, 1 }, /* above U+10FFFF */
		{ "ok\n\xe2\x82", 2, 1 },     /* truncated at the end */
		{ "\xc3(", 1, 1 },	      /* bad continuation */
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int line = 0, col = 0;
		assert_false(utf8_valid(bad[i].s, strlen(bad[i].s), &line, &col));
		assert_int_equal(line, bad[i].line);
		assert_int_equal(col, bad[i].col);
	}
	/* never reads past len: a valid lead byte cut by len is invalid */
	assert_false(utf8_valid("\xc3\xa9", 1, NULL, NULL));
}

/* The audit log never holds a record a JSON reader must drop. */
static void test_json_str_always_utf8(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char all[256];
	json_error_t jerr;
	json_t *j;

	(void)state;
	strbuf_add_json_str(&sb, "a\xff" "b\xc3(c\xe2\x82\xac\xed\xa0\x80.");
	assert_string_equal(sb.buf,
			    "\"a\\ufffdb\\ufffd(c\xe2\x82\xac\\ufffd\\ufffd\\ufffd.\"");
	j = json_loads(sb.buf, JSON_DECODE_ANY, &jerr);
	assert_non_null(j);
	assert_string_equal(json_string_value(j),
			    "a\xef\xbf\xbd" "b\xef\xbf\xbd(c\xe2\x82\xac"
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd.");
	json_decref(j);
	/* every byte value: valid UTF-8, and jansson reads it back */
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	strbuf_reset(&sb);
	strbuf_add_json_str(&sb, all);
	assert_true(utf8_valid(sb.buf, sb.len, NULL, NULL));
	j = json_loads(sb.buf, JSON_DECODE_ANY, &jerr);
	assert_non_null(j);
	json_decref(j);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid_with_position),
		cmocka_unit_test(test_json_str_always_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
