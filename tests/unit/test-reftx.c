/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for git/reftx.c: what the reference-transaction hook refuses. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include "git/reftx.h"

#define Z "0000000000000000000000000000000000000000"
#define A "1111111111111111111111111111111111111111"

static bool judge(const struct reftx_ctx *c, bool exists, const char *new,
		  const char *ref)
{
	struct strbuf why = STRBUF_INIT;
	bool ok = reftx_judge(c, exists, new, ref, &why);

	/* a refusal always says why; an allowed update says nothing */
	assert_true(ok ? why.len == 0 : why.len > 0);
	strbuf_release(&why);
	return ok;
}

static void test_reftx_rules(void **state)
{
	struct ag_protected prot;
	struct strvec others = STRVEC_INIT;
	struct reftx_ctx c = { .agent = "ag1", .branch = "feat/a",
			       .protected = &prot, .others = &others };

	(void)state;
	ag_protected_init(&prot);
	strvec_push(&others, "feat/b");
	/* its own work */
	assert_true(judge(&c, true, A, "refs/heads/feat/a"));
	assert_true(judge(&c, true, A, "HEAD"));
	assert_true(judge(&c, false, A, "refs/heads/scratch"));
	assert_true(judge(&c, true, A, "refs/remotes/origin/main"));
	assert_true(judge(&c, false, A, "refs/tags/v2"));
	assert_true(judge(&c, true, Z, "refs/stash"));
	assert_true(judge(&c, false, A, "refs/agentic-git/snapshots/ag1/20990101T000000Z-0-reset"));
	/* not its own */
	assert_false(judge(&c, true, A, "refs/heads/main"));
	assert_false(judge(&c, false, A, "refs/heads/master"));
	assert_false(judge(&c, true, Z, "refs/heads/MAIN"));
	assert_false(judge(&c, true, A, "refs/heads/feat/b"));
	assert_false(judge(&c, true, A, "main-worktree/HEAD"));
	assert_false(judge(&c, true, A, "worktrees/x/HEAD"));
	assert_false(judge(&c, true, A, "refs/tags/v1"));
	assert_false(judge(&c, true, Z, "refs/tags/v1"));
	assert_false(judge(&c, false, A, "refs/replace/" A));
	/* the safety net: never moved, deleted, or written for another */
	assert_false(judge(&c, true, A, "refs/agentic-git/snapshots/ag1/x"));
	assert_false(judge(&c, true, Z, "refs/agentic-git/snapshots/ag1/x"));
	assert_false(judge(&c, false, A, "refs/agentic-git/snapshots/ag10/x"));
	assert_false(judge(&c, false, A, "refs/agentic-git/snapshots/ag2/x"));
	assert_false(judge(&c, false, A, "refs/agentic-git/sessions/ag1/feat/a"));
	/* a refused policy.toml protects every branch but its own */
	c.policy_refused = true;
	assert_false(judge(&c, false, A, "refs/heads/scratch"));
	assert_true(judge(&c, true, A, "refs/heads/feat/a"));
	strvec_clear(&others);
	ag_protected_release(&prot);
}

/* Branches outlive sessions: an ended session's branch, while it exists */
static void test_reftx_ended(void **state)
{
	struct ag_protected prot;
	struct strvec ended = STRVEC_INIT;
	struct reftx_ctx c = { .agent = "ag1",
			       .branch = "feat/a",
			       .protected = &prot,
			       .ended = &ended };

	(void)state;
	ag_protected_init(&prot);
	strvec_push(&ended, "feat/old");
	strvec_push(&ended, "feat/a"); /* resumed: its own again */
	assert_false(judge(&c, true, Z, "refs/heads/feat/old"));
	assert_false(judge(&c, true, A, "refs/heads/feat/old"));
	/* the operator deleted it: the name is free again */
	assert_true(judge(&c, false, A, "refs/heads/feat/old"));
	assert_true(judge(&c, true, Z, "refs/heads/feat/a"));
	assert_true(judge(&c, true, A, "refs/heads/feat/older"));
	strvec_clear(&ended);
	ag_protected_release(&prot);
}

static void test_value_kept(void **state)
{
	const char *X = A, *Y = "2222222222222222222222222222222222222222";
	struct reftx_values v = { .packed_locked = false };

	(void)state;
	/* pack-refs writes a loose ref's own value into packed-refs */
	snprintf(v.now, sizeof(v.now), "%s", X);
	assert_true(reftx_value_kept(Z, X, &v));
	assert_true(reftx_value_kept(X, X, &v));
	assert_false(reftx_value_kept(Z, Y, &v)); /* a move */
	assert_false(reftx_value_kept(Y, X, &v)); /* git would refuse */
	/* then prunes the loose file: packed-refs has the same value */
	snprintf(v.packed, sizeof(v.packed), "%s", X);
	assert_true(reftx_value_kept(X, Z, &v));
	assert_true(reftx_value_kept(Z, Z, &v));
	/* a real deletion rewrites packed-refs, under its lock */
	v.packed_locked = true;
	assert_false(reftx_value_kept(X, Z, &v));
	v.packed_locked = false;
	/* a loose value newer than the packed one: deleting it moves the ref */
	snprintf(v.packed, sizeof(v.packed), "%s", Y);
	assert_false(reftx_value_kept(X, Z, &v));
	/* not in packed-refs at all: a deletion */
	v.packed[0] = '\0';
	assert_false(reftx_value_kept(X, Z, &v));
	/* a ref we could not read is never kept */
	v.now[0] = '\0';
	assert_false(reftx_value_kept(Z, Z, &v));
	assert_false(reftx_value_kept(Z, X, &v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reftx_rules),
		cmocka_unit_test(test_reftx_ended),
		cmocka_unit_test(test_value_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
