/* SPDX-License-Identifier: Apache-2.0 */
/* real_dir_path: the same answer as realpath(3), by a shorter way. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/path.h"
#include "unit-tmpdir.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return unit_tmpdir_make(dir, sizeof(dir), "path");
}


static int teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(dir);
}

static char *in(const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	assert_non_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Both ways give the same string, or both fail. */
static void same_as_realpath(const char *path)
{
	char *want = realpath(path, NULL), *got = real_dir_path(path);

	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
	free(want);
	free(got);
}

static void test_dirs_links_files(void **state)
{
	char *d = in("a/b/c"), *l = in("link"), *f = in("a/file"),
	     *viadots = in("a/b/../b/c"), *vialink = in("link/c");
	char *ab = in("a/b"), *a = in("a");

	(void)state;
	assert_int_equal(mkdir(a, 0700), 0);
	assert_int_equal(mkdir(ab, 0700), 0);
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(symlink("a/b", l), 0);
	close(open(f, O_WRONLY | O_CREAT, 0600));
	same_as_realpath(d);
	same_as_realpath(viadots);
	same_as_realpath(vialink);
	same_as_realpath(l);
	same_as_realpath(f);	   /* not a directory: realpath's answer */
	same_as_realpath(dir);
	same_as_realpath("/");
	{
		char *missing = in("nope/x");
		same_as_realpath(missing); /* both NULL */
		free(missing);
	}
	free(d), free(l), free(f), free(viadots), free(vialink);
	free(ab), free(a);
}

/* A directory really named "… (deleted)" is not mistaken for a removed
 * one: realpath answers, with the full name. */
static void test_deleted_suffix(void **state)
{
	char *odd = in("x (deleted)");

	(void)state;
	assert_int_equal(mkdir(odd, 0700), 0);
	same_as_realpath(odd);
	free(odd);
}

/* same_real_path: symlinks and dot-dot resolved; NULL or a missing path
 * is never "the same", not even as itself. */
static void test_same_real_path(void **state)
{
	char *a = in("s"), *b = in("s/t"), *l = in("sl"), *viadots = in("s/t/.."),
	     *missing = in("none");

	(void)state;
	assert_int_equal(mkdir(a, 0700), 0);
	assert_int_equal(mkdir(b, 0700), 0);
	assert_int_equal(symlink("s", l), 0);
	assert_true(same_real_path(a, a));
	assert_true(same_real_path(a, l));
	assert_true(same_real_path(viadots, a));
	assert_false(same_real_path(a, b));
	assert_false(same_real_path(missing, missing));
	assert_false(same_real_path(NULL, a));
	assert_false(same_real_path(a, NULL));
	free(a), free(b), free(l), free(viadots), free(missing);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirs_links_files),
		cmocka_unit_test(test_deleted_suffix),
		cmocka_unit_test(test_same_real_path),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
