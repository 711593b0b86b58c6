/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for base/utf8.c (strict UTF-8 before libfyaml). */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
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
		{ "%\x95", 1, 2 },		/* the libfyaml hang */
		{ "ab\ncd\n\xff", 3, 1 },	/* 0xff never appears */
		{ "x\xc0\xaf", 1, 2 },		/* overlong '/' */
		{ "\xe0\x80\xaf", 1, 1 },	/* overlong, 3 bytes */
		{ "\xed\xa0\x80", 1, 1 },	/* surrogate U+D800 */
		{ "\xf4\x90\x80\x80", 1, 1 },	/* above U+10FFFF */
		{ "ok\n\xe2\x82", 2, 1 },	/* truncated at the end */
		{ "\xc3(", 1, 1 },		/* bad continuation */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid_with_position),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
