/* SPDX-License-Identifier: Apache-2.0 */
/* git/clean-args: the dry-run argv for `git clean`, C-quoted paths. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "git/clean-args.h"

static void expect(const char *const *in, const char *joined, unsigned flags)
{
	struct strvec out = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	unsigned got;

	assert_int_equal(clean_dry_run_args(in, &out, &got), 0);
	for (size_t i = 0; i < out.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", out.v[i]);
	assert_string_equal(sb.buf, joined);
	assert_int_equal(got, flags);
	strvec_clear(&out);
	strbuf_release(&sb);
}

static void test_dry_run_args(void **state)
{
	const char *a1[] = { "-fdx", NULL };
	const char *a2[] = { "-f", "-d", "-X", "--", "sub dir", "-f", NULL };
	const char *a3[] = { "--force", "-q", "-e", "*.keep", "--exclude", "x", "--exclude=y", NULL };
	const char *a4[] = { "-fxe*.o", "path", NULL };
	const char *a5[] = { "-nfi", "--dry-run", "--interactive", NULL };
	const char *a6[] = { "-df", "-e", "-x", NULL };

	const char *a7[] = { "-ffd", "--force", NULL };

	/* -f stays: given twice, clean deletes nested repositories too */
	expect(a1, "-fdx", CLEAN_FORCE | CLEAN_DIRS | CLEAN_IGNORED);
	expect(a2, "-f -d -X -- sub dir -f",
	       CLEAN_FORCE | CLEAN_DIRS | CLEAN_ONLY_IGNORED);
	expect(a3, "--force -e *.keep --exclude x --exclude=y", CLEAN_FORCE);
	expect(a4, "-fx -e*.o path", CLEAN_FORCE | CLEAN_IGNORED);
	expect(a5, "-f", CLEAN_FORCE);
	/* -e takes "-x" as its pattern: not the ignored flag */
	expect(a6, "-df -e -x", CLEAN_FORCE | CLEAN_DIRS);
	expect(a7, "-ffd --force", CLEAN_FORCE | CLEAN_DIRS);
}

static void test_dry_run_missing_value(void **state)
{
	const char *a1[] = { "-fe", NULL };
	const char *a2[] = { "-f", "--exclude", NULL };
	struct strvec out = STRVEC_INIT;
	unsigned f;

	assert_int_equal(clean_dry_run_args(a1, &out, &f), -1);
	assert_int_equal(clean_dry_run_args(a2, &out, &f), -1);
	strvec_clear(&out);
	assert_int_equal(clean_dry_run_args(NULL, &out, &f), 0);
	assert_int_equal(out.nr, 0);
}

static void test_unquote(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *q1 = "\"n \\303\\251 w\\t\\\"q\\\"\\\\.txt\"";

	assert_int_equal(unquote_c_path("plain name", 10, &sb), 0);
	assert_string_equal(sb.buf, "plain name");
	strbuf_reset(&sb);
	assert_int_equal(unquote_c_path(q1, strlen(q1), &sb), 0);
	assert_string_equal(sb.buf, "n \xc3\xa9 w\t\"q\"\\.txt");
	strbuf_reset(&sb);
	assert_int_equal(unquote_c_path("\"a\\nb/\"", 7, &sb), 0);
	assert_string_equal(sb.buf, "a\nb/");
	strbuf_reset(&sb);
	assert_int_equal(unquote_c_path("\"open", 5, &sb), -1);
	strbuf_reset(&sb);
	assert_int_equal(unquote_c_path("\"\\9\"", 4, &sb), -1);
	strbuf_reset(&sb);
	assert_int_equal(unquote_c_path("\"x\"tail", 7, &sb), -1);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dry_run_args),
		cmocka_unit_test(test_dry_run_missing_value),
		cmocka_unit_test(test_unquote),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
