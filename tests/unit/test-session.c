/* SPDX-License-Identifier: Apache-2.0 */
/* The pure half of sessions (fleet/session-plan.c): names, paths, the
 * agent's environment and the lock name. Invariants from fleet/session.h. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <time.h>
#include <cmocka.h>
#include "base/strbuf.h"
#include "base/strvec.h"
#include "fleet/session.h"

static const unsigned char rnd[6] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab };

static int plan(struct session *s, const char *agent, const char *branch,
		const char *base, const char *home, struct strbuf *err)
{
	time_t t = 1795986422; /* 2026-11-29T21:07:02Z */

	memset(s, 0, sizeof(*s));
	strbuf_reset(err);
	return session_plan(s, agent, branch, base, home, t, rnd, err);
}

static void test_defaults(void **state)
{
	struct session s;
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(plan(&s, NULL, NULL, NULL, "/h", &err), 0);
	assert_string_equal(s.agent, "run-0123456789ab");
	assert_string_equal(s.branch, "agent/run-0123456789ab/20261129-2107");
	assert_string_equal(s.base, "HEAD");
	assert_string_equal(s.worktree,
			    "/h/worktrees/run-0123456789ab/agent/run-0123456789ab/20261129-2107");
	session_release(&s);
	strbuf_release(&err);
}

static void test_refusals(void **state)
{
	struct session s;
	struct strbuf err = STRBUF_INIT;
	const char *bad_agents[] = { "Bad", "../x", "a/b", ".x", "x.", "con", "" };
	const char *bad_branches[] = { "a..b", "-x", "x.lock", "a b", "a:b", "HEAD" };

	/* invariant 1: names are checked before anything else */
	for (size_t i = 0; i < ARRAY_SIZE(bad_agents); i++) {
		assert_int_equal(plan(&s, bad_agents[i], "b", NULL, "/h", &err), 2);
		assert_non_null(strstr(err.buf, "invalid agent name"));
		assert_null(s.worktree);
		session_release(&s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad_branches); i++) {
		assert_int_equal(plan(&s, "ag1", bad_branches[i], NULL, "/h", &err), 2);
		assert_non_null(strstr(err.buf, "invalid branch name"));
		session_release(&s);
	}
	assert_int_equal(plan(&s, "ag1", "b", "--orphan", "/h", &err), 2);
	session_release(&s);
	assert_int_equal(plan(&s, "ag1", "b", NULL, "/a:b", &err), 78);
	assert_non_null(strstr(err.buf, "cannot build a guarded PATH"));
	assert_non_null(strstr(err.buf, "Refusing to launch the agent unguarded"));
	session_release(&s);
	assert_int_equal(plan(&s, "ag1", "b", NULL, "relative", &err), 1);
	session_release(&s);
	strbuf_release(&err);
}

static bool has(const struct strvec *v, const char *entry)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], entry))
			return true;
	return false;
}

static bool has_prefix(const struct strvec *v, const char *prefix)
{
	for (size_t i = 0; i < v->nr; i++)
		if (starts_with(v->v[i], prefix))
			return true;
	return false;
}

static void test_child_env(void **state)
{
	struct session s = { 0 };
	struct strvec env = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *ambient[] = {
		"PATH=/usr/bin:/bin", "HOME=/home/u", "AGENTIC_GIT_BYPASS=1",
		"AGEND_GIT_BYPASS=0", "AGENTIC_GIT_BYPASS_AGENT=ag1",
		"AGEND_GIT_BYPASS_AGENT=ag1", "AGENTIC_GIT_BYPASS_UNTIL=99999999999",
		"AGEND_GIT_BYPASS_UNTIL=9", "AGENTIC_GIT_ALLOW_CANONICAL_MUTATE=1",
		"AGEND_GIT_ALLOW_CANONICAL_MUTATE=1", "AGENTIC_GIT_AGENT=other",
		"AGENTIC_GIT_BYPASSX=kept", NULL,
	};

	assert_int_equal(plan(&s, "ag1", "b", NULL, "/h", &err), 0);
	s.real_git = strdup("/usr/bin/git");
	session_child_env(&s, ambient, &env);
	/* invariant 4 */
	assert_false(has_prefix(&env, "AGENTIC_GIT_BYPASS="));
	assert_false(has_prefix(&env, "AGEND_GIT_BYPASS"));
	assert_false(has_prefix(&env, "AGENTIC_GIT_BYPASS_"));
	assert_false(has_prefix(&env, "AGENTIC_GIT_ALLOW_CANONICAL_MUTATE"));
	assert_false(has_prefix(&env, "AGEND_GIT_ALLOW_CANONICAL_MUTATE"));
	assert_true(has(&env, "AGENTIC_GIT_BYPASSX=kept"));
	assert_true(has(&env, "PATH=/h/bin:/usr/bin:/bin"));
	assert_true(has(&env, "AGENTIC_GIT_AGENT=ag1"));
	assert_false(has(&env, "AGENTIC_GIT_AGENT=other"));
	assert_true(has(&env, "AGENTIC_GIT_HOME=/h"));
	assert_true(has(&env, "AGENTIC_GIT_REAL_GIT=/usr/bin/git"));
	assert_true(has(&env, "AGENTIC_GIT_SNAPSHOTS=1"));
	assert_true(has(&env, "HOME=/home/u"));
	strvec_clear(&env);

	/* an explicit snapshot setting (either name) is left alone */
	const char *legacy[] = { "AGEND_GIT_SNAPSHOTS=0", NULL };
	session_child_env(&s, legacy, &env);
	assert_false(has_prefix(&env, "AGENTIC_GIT_SNAPSHOTS="));
	assert_true(has(&env, "AGEND_GIT_SNAPSHOTS=0"));
	assert_true(has_prefix(&env, "PATH=/h/bin:"));
	strvec_clear(&env);
	session_release(&s);
	strbuf_release(&err);
}

static void test_lock_path(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	/* FNV-1a-64, the reference's check value */
	session_lock_path("/h", "/tmp/probe/repo", &sb);
	assert_string_equal(sb.buf, "/h/locks/wt-4e2ce8bccc88d9cb.lock");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_child_env),
		cmocka_unit_test(test_lock_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
