/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for git/config-includes.c: what a repository's config
 * includes, read-only in agentic-git's own git's cage. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "base/path.h"
#include "base/strvec.h"
#include "git/config-includes.h"
#include "unit-tmpdir.h"

static void put(const char *dir, const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool has(const struct strvec *v, const char *dir, const char *rel)
{
	char p[512];
	char *real;
	bool found = false;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	real = real_path(p);
	for (size_t i = 0; real && i < v->nr; i++)
		found = found || !strcmp(v->v[i], real);
	free(real);
	return found;
}

static void test_targets(void **state)
{
	char dir[256], cfg[300], home[300];
	struct strvec v = STRVEC_INIT;

	(void)state;
	assert_int_equal(unit_tmpdir_make(dir, sizeof(dir), "cfginc"), 0);
	snprintf(home, sizeof(home), "%s/home", dir);
	assert_int_equal(mkdir(home, 0700), 0);
	put(dir, "config",
	    "[core]\n\tbare = false\n"
	    "[include]\n\tpath = rel.inc\n"
	    "[includeIf \"gitdir:/x/\"]\n\tpath = \"~/home.inc\"\n"
	    "[include]\n\tPath = missing.inc\n"
	    "[other]\n\tpath = not-an-include\n");
	put(dir, "rel.inc", "[include]\n\tpath = nested.inc\n");
	put(dir, "nested.inc", "[core]\n\tsharedRepository = group\n");
	put(home, "home.inc", "[user]\n\tname = x\n");
	put(dir, "not-an-include", "");
	snprintf(cfg, sizeof(cfg), "%s/config", dir);
	config_include_targets(cfg, home, &v);
	assert_true(has(&v, dir, "rel.inc"));
	assert_true(has(&v, dir, "nested.inc")); /* an include's include */
	assert_true(has(&v, home, "home.inc"));	 /* ~/ is HOME */
	assert_false(has(&v, dir, "not-an-include"));
	assert_int_equal(v.nr, 3); /* a missing file is not named */
	strvec_clear(&v);
	/* an include of itself stops at the depth limit */
	put(dir, "config", "[include]\n\tpath = config\n");
	config_include_targets(cfg, home, &v);
	assert_true(v.nr >= 1 && v.nr <= 6);
	strvec_clear(&v);
	/* no file: nothing */
	config_include_targets("/nonexistent/config", home, &v);
	assert_int_equal(v.nr, 0);
	unit_tmpdir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_targets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
