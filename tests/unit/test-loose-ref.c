/* SPDX-License-Identifier: Apache-2.0 */
/* Creating a snapshot ref as a loose file: only creates, only valid names. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/strbuf.h"
#include "git/loose-ref.h"
#include "unit-tmpdir.h"

#define OID "0123456789abcdef0123456789abcdef01234567"
#define OID2 "1111111111111111111111111111111111111111"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return unit_tmpdir_make(dir, sizeof(dir), "lref");
}

static int teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(dir);
}

static char *slurp(const char *rel)
{
	return unit_slurp(dir, rel);
}

static void test_creates_once(void **state)
{
	char *c;

	(void)state;
	assert_int_equal(loose_ref_create(dir, "refs/agentic-git/snapshots/a/x", OID),
			 LOOSE_REF_CREATED);
	c = slurp("refs/agentic-git/snapshots/a/x");
	assert_string_equal(c, OID "\n");
	free(c);
	/* never replaced */
	assert_int_equal(loose_ref_create(dir, "refs/agentic-git/snapshots/a/x", OID2),
			 LOOSE_REF_EXISTS);
	c = slurp("refs/agentic-git/snapshots/a/x");
	assert_string_equal(c, OID "\n");
	free(c);
	c = slurp("refs/agentic-git/snapshots/a/x.lock");
	assert_null(c);
}

static void test_a_held_lock_is_respected(void **state)
{
	char p[128];
	FILE *f;

	(void)state;
	assert_int_equal(loose_ref_create(dir, "refs/agentic-git/snapshots/a/y", OID),
			 LOOSE_REF_CREATED); /* makes the directories */
	snprintf(p, sizeof(p), "%s/refs/agentic-git/snapshots/a/z.lock", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(loose_ref_create(dir, "refs/agentic-git/snapshots/a/z", OID),
			 LOOSE_REF_EXISTS);
	unlink(p);
}

static void test_bad_input_is_left_to_git(void **state)
{
	static const char *const bad_refs[] = {
		"heads/x", "refs/a/../b", "refs/a//b", "refs/a/", "refs/.a",
		"refs/a/x.lock", "refs/a b", "refs/a~1", "refs/a^", "refs/a:b",
		"refs/a?", "refs/a*", "refs/a[", "refs/a\\b", "refs/a\x7f",
	};
	static const char *const bad_oids[] = {
		"", "0123", OID "0", "0123456789ABCDEF0123456789ABCDEF01234567",
		"g123456789abcdef0123456789abcdef01234567",
	};
	char rt[96];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_refs); i++)
		assert_int_equal(loose_ref_create(dir, bad_refs[i], OID),
				 LOOSE_REF_UNSUPPORTED);
	for (size_t i = 0; i < ARRAY_SIZE(bad_oids); i++)
		assert_int_equal(loose_ref_create(dir, "refs/x/ok", bad_oids[i]),
				 LOOSE_REF_UNSUPPORTED);
	assert_int_equal(loose_ref_create("relative", "refs/x/ok", OID),
			 LOOSE_REF_UNSUPPORTED);
	assert_int_equal(loose_ref_create(NULL, "refs/x/ok", OID),
			 LOOSE_REF_UNSUPPORTED);
	/* a reftable repository: git decides */
	snprintf(rt, sizeof(rt), "%s/reftable", dir);
	assert_int_equal(mkdir(rt, 0700), 0);
	assert_int_equal(loose_ref_create(dir, "refs/x/ok", OID),
			 LOOSE_REF_UNSUPPORTED);
	rmdir(rt);
	assert_null(slurp("refs/x/ok"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_creates_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_held_lock_is_respected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input_is_left_to_git, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
