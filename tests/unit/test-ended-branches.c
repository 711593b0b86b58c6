/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for git/ended-branches.c: ended sessions' branches. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "base/fileio.h"
#include "git/ended-branches.h"
#include "unit-tmpdir.h"

static char home[64];

static int setup(void **state)
{
	(void)state;
	return unit_tmpdir_make(home, sizeof(home), "ended");
}

static int teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(home);
}

static size_t count(const char *common, const char *branch)
{
	struct strvec b = STRVEC_INIT, a = STRVEC_INIT;
	size_t n = 0;

	assert_int_equal(ended_branches_read(home, common, &b, &a), 0);
	assert_int_equal(b.nr, a.nr);
	for (size_t i = 0; i < b.nr; i++)
		n += !strcmp(b.v[i], branch);
	strvec_clear(&b);
	strvec_clear(&a);
	return n;
}

static void test_record_and_read(void **state)
{
	char path[128];

	(void)state;
	/* no records yet: nothing, no error */
	assert_int_equal(count("/r/.git", "feat/a"), 0);
	assert_int_equal(
		ended_branch_record(home, "alice", "/r/.git", "feat/a"), 0);
	assert_int_equal(
		ended_branch_record(home, "alice", "/r/.git", "feat/a"), 0);
	assert_int_equal(
		ended_branch_record(home, "alice", "/s/.git", "feat/s"), 0);
	assert_int_equal(ended_branch_record(home, "bob", "/r/.git", "feat/b"),
			 0);
	/* invariant 3: once; invariant 2: only this repository's */
	assert_int_equal(count("/r/.git", "feat/a"), 1);
	assert_int_equal(count("/r/.git", "feat/b"), 1);
	assert_int_equal(count("/r/.git", "feat/s"), 0);
	assert_int_equal(count("/s/.git", "feat/s"), 1);
	assert_int_equal(count("/r/.gi", "feat/a"), 0);
	/* bad input is refused and writes nothing */
	assert_int_equal(ended_branch_record(home, "../x", "/r/.git", "y"), -1);
	assert_int_equal(ended_branch_record(home, "carol", "rel", "y"), -1);
	assert_int_equal(ended_branch_record(home, "carol", "/r\t/.git", "y"),
			 -1);
	assert_int_equal(ended_branch_record(home, "carol", "/r/.git", "a..b"),
			 -1);
	assert_int_equal(count("/r/.git", "y"), 0);
	/* invariant 1: a symlinked record is not followed, an odd line is
	 * skipped, a name that is no agent's is not read */
	snprintf(path, sizeof(path), "%s/ended/dave", home);
	assert_int_equal(symlink("alice", path), 0);
	assert_int_equal(ended_branch_record(home, "dave", "/r/.git", "z"), -1);
	snprintf(path, sizeof(path), "%s/ended/erin", home);
	{
		const char *d =
			"/r/.git\tfeat/ok\n/r/.git\t..bad\n/r/.git feat/no\n";
		assert_int_equal(write_file_atomic(path, d, strlen(d), 0600),
				 0);
	}
	assert_int_equal(count("/r/.git", "feat/ok"), 1);
	assert_int_equal(count("/r/.git", "feat/no"), 0);
	assert_int_equal(count("/r/.git", "feat/a"),
			 1); /* not twice via dave */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_and_read),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
