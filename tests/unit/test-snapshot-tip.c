/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for git/snapshot-tip.c: what restore --head may do. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include "git/snapshot-tip.h"

#define X "1111111111111111111111111111111111111111"
#define Y "2222222222222222222222222222222222222222"

static enum tip_plan plan(const char *ref, bool kept, const char *now,
			  const char *here, const char *elsewhere)
{
	struct snapshot_tip t = { .ref = ref,
				  .want = X,
				  .kept = kept,
				  .now = (char *)now,
				  .here = (char *)here,
				  .elsewhere = (char *)elsewhere };
	struct strbuf why = STRBUF_INIT;
	enum tip_plan p = snapshot_tip_plan(&t, &why);

	/* a refusal always says why, and only a refusal */
	assert_true(p == TIP_REFUSED ? why.len > 0 : why.len == 0);
	strbuf_release(&why);
	return p;
}

static void test_plan(void **state)
{
	const char *a = "refs/heads/feat/a", *b = "refs/heads/other";

	(void)state;
	/* 1: where the snapshot says */
	assert_int_equal(plan(a, false, X, a, NULL), TIP_NOTHING);
	/* 2: no branch recorded; checked out elsewhere */
	assert_int_equal(plan(NULL, false, Y, a, NULL), TIP_REFUSED);
	assert_int_equal(plan(a, false, Y, NULL, "/w2"), TIP_REFUSED);
	assert_int_equal(plan(a, true, Y, b, "/w2"), TIP_REFUSED);
	/* 3: a snapshot of files onto its own branch only */
	assert_int_equal(plan(a, false, Y, b, NULL), TIP_REFUSED);
	assert_int_equal(plan(a, false, Y, NULL, NULL), TIP_REFUSED);
	assert_int_equal(plan(a, false, "", b, NULL), TIP_REFUSED);
	/* 4: reset here, update-ref elsewhere (a tip-only snapshot's) */
	assert_int_equal(plan(a, false, Y, a, NULL), TIP_RESET);
	assert_int_equal(plan(a, true, Y, a, NULL), TIP_RESET);
	assert_int_equal(plan(a, true, Y, b, NULL), TIP_UPDATE_REF);
	assert_int_equal(plan(a, true, "", b, NULL), TIP_UPDATE_REF);
	assert_int_equal(plan(a, true, "", NULL, NULL), TIP_UPDATE_REF);
	assert_string_equal(snapshot_tip_short(a), "feat/a");
	assert_string_equal(snapshot_tip_short("refs/tags/v1"), "refs/tags/v1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
