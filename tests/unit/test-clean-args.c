/* SPDX-License-Identifier: Apache-2.0 */
/* git/clean-args: the dry-run argv for `git clean`, C-quoted paths. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "git/argv.h"
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
	const char *a8[] = { "-ffdx", "--no-dry-run", NULL };
	const char *a9[] = { "-n", "--no-dry-run", "--dry-run", NULL };
	const char *a10[] = { "-fx", "--end-of-options", "-nkeys.log", "-X",
			      NULL };
	const char *a11[] = { "-fi", NULL };

	/* -f stays: given twice, clean deletes nested repositories too;
	 * clusters are split as git splits them */
	expect(a1, "-f -d -x", CLEAN_FORCE | CLEAN_DIRS | CLEAN_IGNORED);
	expect(a2, "-f -d -X -- sub dir -f",
	       CLEAN_FORCE | CLEAN_DIRS | CLEAN_ONLY_IGNORED);
	expect(a3, "--force -e *.keep --exclude x --exclude=y", CLEAN_FORCE);
	expect(a4, "-f -x -e*.o path", CLEAN_FORCE | CLEAN_IGNORED);
	expect(a5, "-f", CLEAN_FORCE | CLEAN_DRY_RUN | CLEAN_INTERACTIVE);
	/* -e takes "-x" as its pattern: not the ignored flag */
	expect(a6, "-d -f -e -x", CLEAN_FORCE | CLEAN_DIRS);
	expect(a7, "-f -f -d --force", CLEAN_FORCE | CLEAN_DIRS);
	/* --no-dry-run would make the dry run delete: dropped */
	expect(a8, "-f -f -d -x", CLEAN_FORCE | CLEAN_DIRS | CLEAN_IGNORED);
	expect(a9, "", CLEAN_DRY_RUN);
	/* after --end-of-options every word is a path, kept as it is */
	expect(a10, "-f -x --end-of-options -nkeys.log -X",
	       CLEAN_FORCE | CLEAN_IGNORED);
	expect(a11, "-f", CLEAN_FORCE | CLEAN_INTERACTIVE);
	/* the last --no-force resets -f: clean deletes nothing */
	{
		const char *a12[] = { "-f", "--no-force", "-d", NULL };
		expect(a12, "-f --no-force -d", CLEAN_DIRS);
	}
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

/* Where clean's options end: an -e value is never its `--`. */
static void test_options_end(void **state)
{
	static const struct {
		const char *args[7];
		size_t end;
		unsigned flags; /* of the options before it */
	} rows[] = {
		{ { "clean", "-f", "--", "-x" }, 1, CLEAN_FORCE },
		{ { "clean", "-e", "--", "-fdx" },
		  3,
		  CLEAN_FORCE | CLEAN_DIRS | CLEAN_IGNORED },
		{ { "clean", "-fe", "--", "--" }, 2, CLEAN_FORCE },
		{ { "clean", "--exclude", "--end-of-options", "-X", "--" },
		  3,
		  CLEAN_ONLY_IGNORED },
		{ { "clean", "-fx", "--end-of-options", "-n" },
		  1,
		  CLEAN_FORCE | CLEAN_IGNORED },
		{ { "clean", "-e--", "--" }, 1, 0 },
		{ { "clean", "-f" }, 1, CLEAN_FORCE },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct git_argv ga;
		size_t n = 0;

		while (n < 7 && rows[i].args[n])
			n++;
		git_argv_parse(&ga, rows[i].args, n);
		if (ga.opts_end != rows[i].end)
			fail_msg("row %zu: options end at %zu, want %zu", i,
				 ga.opts_end, rows[i].end);
		assert_int_equal(clean_flags_of(&ga), rows[i].flags);
		git_argv_release(&ga);
	}
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
		cmocka_unit_test(test_options_end),
		cmocka_unit_test(test_unquote),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
