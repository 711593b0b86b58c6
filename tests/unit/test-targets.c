/* SPDX-License-Identifier: Apache-2.0 */
/*
 * targets_finish() (fleet/targets.h) at scale: 100,000 targets (the file's
 * limit) finish, keys unique; and its answers — derived keys, the
 * duplicate messages and their order — are those of the pairwise scan it
 * replaced, kept here as the reference on small lists.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include "base/strbuf.h"
#include "base/strset.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "fleet/targets.h"

/* The quadratic original, as the reference: given keys' duplicates. */
static int reference_dups(const struct target_list *tl, struct strvec *errors)
{
	int bad = 0;

	for (size_t i = 0; i < tl->nr; i++)
		for (size_t j = 0; j < i; j++)
			if (tl->v[i].key_given && tl->v[j].key_given &&
			    !strcmp(tl->v[i].key, tl->v[j].key)) {
				strvec_pushf(
					errors,
					"duplicate target key '%s' (line %d and line %d)",
					tl->v[i].key, tl->v[j].line,
					tl->v[i].line);
				bad = 1;
			}
	return bad ? -1 : 0;
}

static void add(struct target_list *tl, const char *repo, const char *head,
		const char *key, int line)
{
	struct strvec errs = STRVEC_INIT;

	assert_int_equal(targets_add(tl, repo, head, "main", key, &errs), 0);
	tl->v[tl->nr - 1].line = line;
	strvec_clear(&errs);
}

static void test_duplicates_in_order(void **state)
{
	struct target_list tl = TARGET_LIST_INIT;
	struct strvec errs = STRVEC_INIT, want = STRVEC_INIT;
	static const char *const keys[] = { "k", "x", "k", NULL,
					    "x", "k", "y", "k" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		add(&tl, "/r/app", "h", keys[i], (int)(3 * i + 2));
	assert_int_equal(reference_dups(&tl, &want), -1);
	assert_int_equal(targets_finish(&tl, &errs), -1);
	assert_int_equal(errs.nr, want.nr);
	for (size_t i = 0; i < errs.nr; i++)
		assert_string_equal(errs.v[i], want.v[i]);
	assert_string_equal(errs.v[0],
			    "duplicate target key 'k' (line 2 and line 8)");
	assert_int_equal(errs.nr, 7); /* k: 1+2+3 pairs, x: 1 */
	target_list_release(&tl);
	strvec_clear(&errs);
	strvec_clear(&want);
}

/* Derived keys: the first of base, base-2, base-3 ... free, given keys
 * anywhere in the list counting as taken. */
static void test_derived_keys(void **state)
{
	struct target_list tl = TARGET_LIST_INIT;
	struct strvec errs = STRVEC_INIT;
	static const char *const want[] = {
		"app-h",   "app-h-2", "app-h-3",   "app-h-5", "app-h-4",
		"app-h-6", "other-h", "app-h-2-2", "app-h-7",
	};

	(void)state;
	add(&tl, "/r/app", "h", NULL, 1);
	add(&tl, "/r/app.git", "h", NULL, 2);
	add(&tl, "/s/app/", "h", NULL, 3);
	add(&tl, "/r/app", "h", NULL, 4);
	add(&tl, "/r/app", "h", "app-h-4", 5);
	add(&tl, "/r/app", "h", NULL, 6);
	add(&tl, "/r/other", "h", NULL, 7);
	add(&tl, "/r/app", "h-2", NULL, 8);
	add(&tl, "/r/app", "h", NULL, 9);
	assert_int_equal(targets_finish(&tl, &errs), 0);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_string_equal(tl.v[i].key, want[i]);
	target_list_release(&tl);
	strvec_clear(&errs);
}

/*
 * 100,000 targets of one repository and head (every key derived from one
 * base) with given keys among them: the pairwise scan took minutes here
 * (bench figure in the commit); this one finishes, keys unique.
 */
static void test_at_the_limit(void **state)
{
	struct target_list tl = TARGET_LIST_INIT;
	struct strvec errs = STRVEC_INIT;
	struct strset seen = STRSET_INIT;
	char key[32];
	bool added;

	(void)state;
	for (size_t i = 0; i < TARGETS_MAX; i++) {
		snprintf(key, sizeof(key), "app-main-%zu", i + 10);
		add(&tl, "/r/app.git", "main", i % 1000 == 999 ? key : NULL,
		    (int)i + 1);
	}
	assert_int_equal(targets_finish(&tl, &errs), 0);
	assert_int_equal(errs.nr, 0);
	assert_string_equal(tl.v[0].key, "app-main");
	assert_string_equal(tl.v[1].key, "app-main-2");
	for (size_t i = 0; i < tl.nr; i++) {
		strset_add(&seen, tl.v[i].key, &added);
		assert_true(added);
	}
	target_list_release(&tl);
	strset_clear(&seen);
	strvec_clear(&errs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duplicates_in_order),
		cmocka_unit_test(test_derived_keys),
		cmocka_unit_test(test_at_the_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
