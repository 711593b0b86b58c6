/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for base/yaml-guard.c (the pre-check in front of libfyaml). */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include "base/yaml-guard.h"

static const char *guard(const char *s, size_t len, int *line, int *col)
{
	*line = *col = 0;
	return yaml_guard(s, len, line, col);
}

/* Texts both formats may hold: a '?' in them is text, not an indicator. */
static void test_allowed(void **state)
{
	static const char *const ok[] = {
		"",
		"agents:\n  claude:\n    argv: [claude, -p]\n",
		"k: what? yes\n",
		"k: '? quoted'\n",
		"k: \"? quoted\"\n",
		"k: 'it''s ? fine'\n",
		"k: \"a \\\" ? b\"\n",
		"k: \"multi\n  ? line\n  quoted\"\n",
		"k: 'multi\n? line'\n",
		"k: |\n  ? literal\n  text\nnext: 1\n",
		"k: >-\n  ? folded\n\n  ? more\n",
		"- k: |\n    ? in a list\n  other: 2\n",
		"k: |2\n   ? explicit indent\n",
		"k: !!str |\n  ? tagged\n",
		"--- |\n? a whole document\n",
		"k: v # ? a comment\n# ? a comment line\n",
		"k: a#? not a comment, not a key\n",
		"k: [a, b?, c]\n",
		"k: {a: b, c: \"? d\"}\n",
		"{\"targets\": [{\"repo\": \"r\", \"head\": \"h\", \"base\": \"b\"}]}",
		"{\"a\":\"x, ? y\",\"b\":[\"? z\"]}",
		"k: ?x\n",
		"%YAML 1.2\n---\nk: v\n",
		"k: v\r\n",
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		int line, col;
		const char *why = guard(ok[i], strlen(ok[i]), &line, &col);
		if (why)
			fail_msg("refused #%zu at %d:%d: %s", i, line, col, why);
	}
}

/* Explicit keys, including every shape that crashed libfyaml 0.7.12. */
static void test_explicit_keys(void **state)
{
	static const struct {
		const char *s;
		int line, col;
	} bad[] = {
		{ "? -e:\t? - r", 1, 1 },	/* the fuzz finding */
		{ "? a:\t- r", 1, 1 },
		{ "- ? a:\t- r", 1, 3 },
		{ "x: y\n? a:\t- r", 2, 1 },
		{ "k:\n  ? a:\t- r", 2, 3 },
		{ "?\n  a:\t- r", 1, 1 },
		{ "?", 1, 1 },
		{ "k: ? a", 1, 4 },
		{ "[? a]", 1, 2 },
		{ "{ a: b, ? c }", 1, 9 },
		/* a block scalar ends where its indentation does */
		{ "- k: |\n    x\n  ? a:\t- r", 3, 3 },
		{ "k: |\n    x\n  ? a", 3, 3 },
		{ "k: |4\n  ? a", 2, 3 },
		{ "k: |\n  x\n---\n? a", 4, 1 },
		/* a quoted scalar ends at its quote */
		{ "k: 'a''b'\n? c", 2, 1 },
		{ "k: \"a\\\"\"\n? c", 2, 1 },
		/* a plain scalar continued on a '? ' line: refused, to be safe */
		{ "k: a\n  ? b", 2, 3 },
		/* a tab before the '?' */
		{ "\t? a", 1, 2 },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int line, col;
		const char *why = guard(bad[i].s, strlen(bad[i].s), &line, &col);
		if (!why)
			fail_msg("allowed #%zu: %s", i, bad[i].s);
		assert_non_null(strstr(why, "explicit keys"));
		assert_int_equal(line, bad[i].line);
		assert_int_equal(col, bad[i].col);
	}
}

static void test_encoding(void **state)
{
	static const struct {
		const char *s;
		size_t len;
		const char *why;
		int line, col;
	} bad[] = {
		{ "a: 1\nb: \xff", 9, "not valid UTF-8 text", 2, 4 },
		{ "a: 1\nbc\0d", 9, "contains a NUL byte", 2, 3 },
		{ "a: 1\n\0", 6, "contains a NUL byte", 2, 1 },
		/* a '?' after the NUL is never reached: the NUL is the reason */
		{ "a\0? b", 5, "contains a NUL byte", 1, 2 },
	};
	int line, col;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *why = guard(bad[i].s, bad[i].len, &line, &col);
		assert_non_null(why);
		assert_string_equal(why, bad[i].why);
		assert_int_equal(line, bad[i].line);
		assert_int_equal(col, bad[i].col);
	}
	/* never reads past len: the '?' beyond it is not seen */
	assert_null(guard("k: v\n? a", 5, &line, &col));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_explicit_keys),
		cmocka_unit_test(test_encoding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
