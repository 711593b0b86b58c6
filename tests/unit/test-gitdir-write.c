/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A new repository written directly (git/gitdir-write.h) and refs read
 * back from files (git/refs-files.h): formats, only-create, fail closed.
 * That git accepts the result is tested end to end (t0712).
 */
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
#include "git/gitdir-write.h"
#include "git/refs-files.h"
#include "unit-tmpdir.h"

#define OID "0123456789abcdef0123456789abcdef01234567"
#define OID2 "1111111111111111111111111111111111111111"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return unit_tmpdir_make(dir, sizeof(dir), "gdw");
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

static void test_sha1_and_sha256(void **state)
{
	struct strbuf gd = STRBUF_INIT;
	struct gitdir_spec s = { .head = "feat/x", .alternates = "/o/objects",
				 .extra_config = "[user]\n\tname = \"a\"\n" };
	char *c;

	(void)state;
	strbuf_addf(&gd, "%s/one", dir);
	s.git_dir = gd.buf;
	assert_int_equal(gitdir_write(&s), 0);
	c = slurp("one/config");
	assert_non_null(strstr(c, "repositoryformatversion = 0\n"));
	assert_non_null(strstr(c, "bare = false\n"));
	assert_null(strstr(c, "objectformat"));
	assert_null(strstr(c, "hooksPath"));
	assert_non_null(strstr(c, "[user]\n\tname = \"a\"\n"));
	free(c);
	c = slurp("one/HEAD");
	assert_string_equal(c, "ref: refs/heads/feat/x\n");
	free(c);
	c = slurp("one/objects/info/alternates");
	assert_string_equal(c, "/o/objects\n");
	free(c);
	strbuf_reset(&gd);
	strbuf_addf(&gd, "%s/two", dir);
	s.git_dir = gd.buf;
	s.bare = true;
	s.objfmt = "sha256";
	s.hooks_path = "/dev/null";
	assert_int_equal(gitdir_write(&s), 0);
	c = slurp("two/config");
	assert_non_null(strstr(c, "repositoryformatversion = 1\n"));
	assert_non_null(strstr(c, "bare = true\n"));
	assert_non_null(strstr(c, "[extensions]\n\tobjectformat = \"sha256\"\n"));
	assert_non_null(strstr(c, "hooksPath = \"/dev/null\"\n"));
	free(c);
	strbuf_release(&gd);
}

static void test_only_creates_and_knows_its_formats(void **state)
{
	struct strbuf gd = STRBUF_INIT;
	struct gitdir_spec s = { .head = "main" };
	char *c;

	(void)state;
	strbuf_addf(&gd, "%s/r", dir);
	s.git_dir = gd.buf;
	s.objfmt = "sha999";
	assert_int_equal(gitdir_write(&s), GITDIR_UNSUPPORTED);
	assert_null(slurp("r/config")); /* nothing written */
	assert_false(gitdir_objfmt_ok("SHA256"));
	assert_true(gitdir_objfmt_ok(NULL));
	s.objfmt = NULL;
	assert_int_equal(gitdir_write(&s), 0);
	assert_int_equal(gitdir_write(&s), -1); /* config exists: refused */
	assert_int_equal(gitdir_put_ref(gd.buf, "refs/heads/main", OID), 0);
	assert_int_equal(gitdir_put_ref(gd.buf, "refs/heads/main", OID2), -1);
	c = slurp("r/refs/heads/main");
	assert_string_equal(c, OID "\n");
	free(c);
	strbuf_release(&gd);
}

static void test_config_quoting(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	gitdir_config_value(&sb, "name", "a \"b\" \\c\td\ne");
	assert_string_equal(sb.buf, "\tname = \"a \\\"b\\\" \\\\c\\td\\ne\"\n");
	strbuf_release(&sb);
}

static void test_refs_list_and_lookup(void **state)
{
	struct strbuf gd = STRBUF_INIT, out = STRBUF_INIT, p = STRBUF_INIT;
	struct gitdir_spec s = { .head = "main" };
	const char *refs[] = { "refs/heads/main", "refs/heads/none", "refs/heads/a/b" };

	(void)state;
	strbuf_addf(&gd, "%s/l", dir);
	s.git_dir = gd.buf;
	assert_int_equal(gitdir_write(&s), 0);
	assert_int_equal(gitdir_put_ref(gd.buf, "refs/heads/main", OID), 0);
	assert_int_equal(gitdir_put_ref(gd.buf, "refs/heads/a/b", OID2), 0);
	assert_int_equal(gitdir_put_ref(gd.buf, "refs/heads/a-b", OID2), 0);
	assert_int_equal(refs_files_list(gd.buf, 40, &out), 0);
	/* strcmp order: "a-b" < "a/b" ('-' < '/') */
	assert_string_equal(out.buf, OID2 " refs/heads/a-b\n" OID2 " refs/heads/a/b\n"
				     OID " refs/heads/main\n");
	strbuf_reset(&out);
	assert_int_equal(refs_files_lookup(gd.buf, 40, refs, 3, &out), 0);
	assert_string_equal(out.buf, OID " refs/heads/main\n" OID2 " refs/heads/a/b\n");
	strbuf_reset(&out);
	assert_int_equal(refs_files_list(gd.buf, 64, &out), -1); /* wrong length */
	strbuf_addf(&p, "%s/packed-refs", gd.buf);
	assert_int_equal(write_file_atomic(p.buf, "# pack-refs\n", 12, 0644), 0);
	strbuf_reset(&out);
	assert_int_equal(refs_files_list(gd.buf, 40, &out), -1); /* packed: git */
	assert_int_equal(out.len, 0);
	strbuf_release(&gd);
	strbuf_release(&out);
	strbuf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sha1_and_sha256, setup, teardown),
		cmocka_unit_test_setup_teardown(test_only_creates_and_knows_its_formats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_quoting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refs_list_and_lookup, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
