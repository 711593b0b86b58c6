/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agents/sandbox-probe-cache.h: only a "works" recorded under exactly this
 * key, in a regular file of ours no one else may write, is trusted. Every
 * other file (missing, "fails", another key, damaged, group-writable, a
 * symlink, a FIFO, a directory) is a miss, and reading it never hangs.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <cmocka.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agents/sandbox-probe-cache.h"
#include "base/fileio.h"
#include "base/xalloc.h"

static char root[] = "/tmp/test-probe-cache-XXXXXX";
static char *file;

/* No runtime/ dir: nothing recorded. */
static void reset(void)
{
	char *dir = xstrfmt("%s/runtime", root);

	if (unlink(file) < 0)
		rmdir(file);
	rmdir(dir);
	free(dir);
}

static void put(const char *text, mode_t mode)
{
	reset();
	probe_cache_record("k", false); /* creates runtime/ 0700 */
	unlink(file);
	assert_int_equal(write_file_atomic(file, text, strlen(text), mode), 0);
	assert_int_equal(chmod(file, mode), 0);
}

static void test_key(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	assert_int_equal(probe_cache_key("/bin/sh", &a), 0);
	assert_int_equal(probe_cache_key("/bin/sh", &b), 0);
	assert_string_equal(a.buf, b.buf);
	assert_non_null(strstr(a.buf, "/proc/sys/user/max_user_namespaces="));
	strbuf_reset(&b);
	assert_int_equal(probe_cache_key("/nonexistent/bwrap", &b), -1);
	strbuf_release(&a);
	strbuf_release(&b);
}

static void test_round_trip(void **state)
{
	struct stat st;

	reset();
	assert_false(probe_cache_says_works("key\n"));
	probe_cache_record("key\n", true);
	assert_true(probe_cache_says_works("key\n"));
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_false(probe_cache_says_works("key2\n"));
	assert_false(probe_cache_says_works("key\nmore\n"));
	probe_cache_record("key\n", false);
	assert_false(probe_cache_says_works("key\n"));
}

static void test_untrusted_files(void **state)
{
	static const char works[] =
		"agentic-git sandbox probe v1\nbwrap works\nkey\n";
	char *target;

	put(works, 0600);
	assert_true(probe_cache_says_works("key\n"));
	put(works, 0620);
	assert_false(probe_cache_says_works("key\n"));
	put(works, 0602);
	assert_false(probe_cache_says_works("key\n"));
	put("agentic-git sandbox probe v2\nbwrap works\nkey\n", 0600);
	assert_false(probe_cache_says_works("key\n"));
	put("agentic-git sandbox probe v1\nbwrap works\nkey", 0600);
	assert_false(probe_cache_says_works("key\n"));
	put("", 0600);
	assert_false(probe_cache_says_works("key\n"));
	/* a symlink to a good record is not followed */
	put(works, 0600);
	target = xstrfmt("%s/good", root);
	assert_int_equal(rename(file, target), 0);
	assert_int_equal(symlink(target, file), 0);
	assert_false(probe_cache_says_works("key\n"));
	unlink(file);
	unlink(target);
	free(target);
	/* a FIFO gives nothing at once, a directory is no file */
	assert_int_equal(mkfifo(file, 0600), 0);
	assert_false(probe_cache_says_works("key\n"));
	unlink(file);
	assert_int_equal(mkdir(file, 0700), 0);
	assert_false(probe_cache_says_works("key\n"));
	/* and a record cannot be written over it */
	probe_cache_record("key\n", true);
	assert_false(probe_cache_says_works("key\n"));
	reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_untrusted_files),
	};
	int rc;

	if (!mkdtemp(root))
		return 1;
	setenv("AGENTIC_GIT_HOME", root, 1);
	file = xstrfmt("%s/runtime/sandbox-probe", root);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	reset();
	rmdir(root);
	free(file);
	return rc;
}
