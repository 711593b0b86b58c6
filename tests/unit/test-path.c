/* SPDX-License-Identifier: Apache-2.0 */
/* real_dir_path: the same answer as realpath(3), by a shorter way; and the
 * printf-free string building the shim's hot path uses. */
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
#include "base/strbuf.h"
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

/* A name longer than real_dir_path's first buffer takes the second. */
static void test_long_name(void **state)
{
	char comp[101];
	char *p = in("");
	size_t n;

	(void)state;
	memset(comp, 'd', sizeof(comp) - 1);
	comp[sizeof(comp) - 1] = '\0';
	for (int i = 0; i < 4; i++) {
		char *next = path_join(p, comp);
		assert_int_equal(mkdir(next, 0700), 0);
		free(p);
		p = next;
	}
	n = strlen(p);
	assert_true(n > 400);
	same_as_realpath(p);
	free(p);
}

static void test_string_building(void **state)
{
	static const struct { const char *a, *b, *want; } joins[] = {
		{ "a", "b", "a/b" },	{ "a/", "b", "a/b" },	{ "/", "b", "/b" },
		{ "", "b", "b" },	{ "a", "/b", "/b" },	{ "a", "", "a" },
		{ "a//", "b", "a//b" },
	};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(joins); i++) {
		char *got = path_join(joins[i].a, joins[i].b);
		assert_string_equal(got, joins[i].want);
		free(got);
	}
	strbuf_addpath(&sb, "/home", "x.toml");
	assert_string_equal(sb.buf, "/home/x.toml");
	strbuf_reset(&sb);
	strbuf_addpath(&sb, "", "");
	assert_string_equal(sb.buf, "/");
	strbuf_reset(&sb);
	strbuf_addu(&sb, 0);
	strbuf_addch(&sb, ' ');
	strbuf_addu(&sb, 7);
	strbuf_addch(&sb, ' ');
	strbuf_addu(&sb, 1000000);
	strbuf_addch(&sb, ' ');
	strbuf_addu(&sb, ULONG_MAX);
	assert_string_equal(sb.buf, "0 7 1000000 18446744073709551615");
	strbuf_reset(&sb);
	strbuf_addhex(&sb, (const unsigned char *)"\x00\x0f\xa5\xff", 4);
	strbuf_addhex(&sb, (const unsigned char *)"", 0);
	assert_string_equal(sb.buf, "000fa5ff");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirs_links_files),
		cmocka_unit_test(test_deleted_suffix),
		cmocka_unit_test(test_same_real_path),
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_string_building),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
