/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for git/stash-map.c: reading an agent's git stash. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include "git/argv.h"
#include "git/stash-map.h"

/* `git stash <args>`, read as the shim reads it: parsed once (git/argv.h) */
static void parse(struct stash_plan *p, const char *const *args)
{
	static const char *words[16];
	struct git_argv ga;
	size_t n = 0;

	words[0] = "stash";
	while (args[n] && n + 2 < ARRAY_SIZE(words)) {
		words[n + 1] = args[n];
		n++;
	}
	stash_plan_release(p);
	*p = (struct stash_plan)STASH_PLAN_INIT;
	git_argv_parse(&ga, words, n + 1);
	stash_map_parse(&ga, p);
	git_argv_release(&ga);
}

static void test_entry_of(void **state)
{
	unsigned long n = 99;

	(void)state;
	assert_true(stash_entry_of("stash@{3}", &n) && n == 3);
	assert_true(stash_entry_of("refs/stash@{12}", &n) && n == 12);
	assert_true(stash_entry_of("2", &n) && n == 2);
	assert_true(stash_entry_of("stash", &n) && n == 0);
	assert_true(stash_entry_of("refs/stash", &n) && n == 0);
	assert_false(stash_entry_of("stash@{}", &n));
	assert_false(stash_entry_of("stash@{-1}", &n));
	assert_false(stash_entry_of("stash@{1.day.ago}", &n));
	assert_false(stash_entry_of("stash@{1}x", &n));
	assert_false(stash_entry_of("HEAD", &n));
	assert_false(stash_entry_of("1234567890123", &n));
	assert_false(stash_entry_of("refs/worktree/agentic-git/stash@{0}", &n));
}

static void test_verbs(void **state)
{
	struct stash_plan p = STASH_PLAN_INIT;

	(void)state;
	parse(&p, (const char *[]){ NULL });
	assert_int_equal(p.verb, STASH_PUSH);
	parse(&p, (const char *[]){ "-u", "-m", "x", NULL });
	assert_int_equal(p.verb, STASH_PUSH);
	parse(&p, (const char *[]){ "save", "msg", NULL });
	assert_int_equal(p.verb, STASH_PUSH);
	parse(&p, (const char *[]){ "pop", "--index", "stash@{2}", NULL });
	assert_int_equal(p.verb, STASH_POP);
	assert_true(p.entry_given && p.entry == 2);
	assert_int_equal(p.opts.nr, 1);
	assert_string_equal(p.opts.v[0], "--index");
	assert_null(p.bad);
	parse(&p, (const char *[]){ "drop", NULL });
	assert_int_equal(p.verb, STASH_DROP);
	assert_false(p.entry_given);
	assert_int_equal(p.entry, 0);
	/* what cannot be mapped */
	parse(&p, (const char *[]){ "drop", "1", "2", NULL });
	assert_non_null(p.bad);
	parse(&p, (const char *[]){ "pop", "HEAD", NULL });
	assert_non_null(p.bad);
	/* apply and show take a stash commit by id, as git does */
	parse(&p, (const char *[]){ "apply", "abc123", NULL });
	assert_null(p.bad);
	assert_string_equal(p.rev, "abc123");
	parse(&p, (const char *[]){ "show", "-p", "--", "1", NULL });
	assert_true(p.entry_given && p.entry == 1);
	parse(&p, (const char *[]){ "store", "-m", "m", "-q", "c0ffee", NULL });
	assert_int_equal(p.verb, STASH_STORE);
	assert_string_equal(p.commit, "c0ffee");
	assert_string_equal(p.message, "m");
	parse(&p, (const char *[]){ "store", "--message=m2", NULL });
	assert_non_null(p.bad);
	parse(&p, (const char *[]){ "store", "--bogus", "c", NULL });
	assert_non_null(p.bad);
	parse(&p, (const char *[]){ "list", "--stat", NULL });
	assert_int_equal(p.verb, STASH_LIST);
	assert_int_equal(p.opts.nr, 1);
	parse(&p, (const char *[]){ "branch", "b", NULL });
	assert_int_equal(p.verb, STASH_OTHER);
	parse(&p, (const char *[]){ "create", NULL });
	assert_int_equal(p.verb, STASH_CREATE);
	stash_plan_release(&p);
}

/* Every spelling git reads alike is one plan (issue 36: one reading). */
static void test_spellings(void **state)
{
	struct stash_plan p = STASH_PLAN_INIT;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		const char *const *forms[] = {
			(const char *[]){ "store", "-m", "m", "c0ffee", NULL },
			(const char *[]){ "store", "-mm", "c0ffee", NULL },
			(const char *[]){ "store", "--message=m", "c0ffee",
					  NULL },
			(const char *[]){ "store", "c0ffee", "--message", "m",
					  NULL },
		};
		parse(&p, forms[i]);
		assert_null(p.bad);
		assert_string_equal(p.commit, "c0ffee");
		assert_string_equal(p.message, "m");
	}
	/* -q anywhere, alone or in a cluster, is quiet; --no-quiet undoes */
	parse(&p, (const char *[]){ "pop", "stash@{1}", "--quiet", NULL });
	assert_true(p.quiet && p.entry == 1);
	parse(&p, (const char *[]){ "drop", "-q", NULL });
	assert_true(p.quiet);
	parse(&p, (const char *[]){ "drop", "-q", "--no-quiet", NULL });
	assert_false(p.quiet);
	parse(&p, (const char *[]){ "drop", NULL });
	assert_false(p.quiet);
	/* `git stash -q` and `git stash` push; a word git does not know is
	 * git's */
	parse(&p, (const char *[]){ "-q", NULL });
	assert_int_equal(p.verb, STASH_PUSH);
	parse(&p, (const char *[]){ "--", "f", NULL });
	assert_int_equal(p.verb, STASH_PUSH);
	parse(&p, (const char *[]){ "bogus", NULL });
	assert_int_equal(p.verb, STASH_OTHER);
	/* apply's options keep their words; the entry is not one of them */
	parse(&p, (const char *[]){ "apply", "--index", "-q", "1", NULL });
	assert_int_equal(p.opts.nr, 2);
	assert_string_equal(p.opts.v[0], "--index");
	assert_string_equal(p.opts.v[1], "-q");
	assert_true(p.entry_given && p.entry == 1);
	/* list hands its words to git log */
	parse(&p, (const char *[]){ "list", "-n", "2", "--stat", NULL });
	assert_int_equal(p.opts.nr, 3);
	assert_string_equal(p.opts.v[0], "-n");
	stash_plan_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_of),
		cmocka_unit_test(test_verbs),
		cmocka_unit_test(test_spellings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
