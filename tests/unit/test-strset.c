/* SPDX-License-Identifier: Apache-2.0 */
/* The open-addressing string set (base/strset.h). */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include "base/strset.h"

static void test_add_find(void **state)
{
	struct strset s = STRSET_INIT;
	struct strset_entry *e;
	bool added;

	(void)state;
	assert_null(strset_find(&s, "a"));
	e = strset_add(&s, "a", &added);
	assert_true(added);
	assert_int_equal(e->value, 0);
	e->value = 7;
	e = strset_add(&s, "a", &added);
	assert_false(added);
	assert_int_equal(e->value, 7);
	assert_null(strset_find(&s, "b"));
	assert_null(strset_find(&s, ""));
	strset_add(&s, "", &added);
	assert_true(added);
	assert_non_null(strset_find(&s, ""));
	assert_int_equal(s.nr, 2);
	strset_clear(&s);
	assert_int_equal(s.nr, 0);
	assert_null(strset_find(&s, "a"));
	strset_clear(&s); /* twice is fine */
}

/* Many keys through several growths: each found with its value, once. */
static void test_grows(void **state)
{
	struct strset s = STRSET_INIT;
	char k[32];
	bool added;

	(void)state;
	for (size_t i = 0; i < 50000; i++) {
		snprintf(k, sizeof(k), "key-%zu", i);
		strset_add(&s, k, &added)->value = i;
		assert_true(added);
	}
	assert_int_equal(s.nr, 50000);
	assert_true(s.cap >= 2 * s.nr);
	for (size_t i = 0; i < 50000; i++) {
		snprintf(k, sizeof(k), "key-%zu", i);
		assert_int_equal(strset_find(&s, k)->value, i);
		strset_add(&s, k, &added);
		assert_false(added);
	}
	assert_null(strset_find(&s, "key-50000"));
	assert_int_equal(s.nr, 50000);
	strset_clear(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_find),
		cmocka_unit_test(test_grows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
