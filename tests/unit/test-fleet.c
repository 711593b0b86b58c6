/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for dispatch's pure modules: verdict parsing, the targets
 * parser (strictness, positions, keys, shards), the verification helpers
 * (ref snapshot diff, conflict markers, trust-root names) and the audit
 * helpers (prompt elision, env key names).
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "base/spawn.h"
#include "fleet/rundir.h"
#include "fleet/targets.h"
#include "fleet/agent-verdict.h"
#include "fleet/verify.h"
#include "git/pushscan.h"

static void verdict_last_wins_and_strips(void **state)
{
	struct strbuf l = STRBUF_INIT;
	const char *s = "RESOLVED: early\nnoise\n  `ESCALATED: final call`  \n\nbye\n";

	assert_int_equal(agent_verdict_parse(s, strlen(s), &l),
			 AGENT_VERDICT_ESCALATED);
	assert_string_equal(l.buf, "ESCALATED: final call");
	strbuf_reset(&l);
	s = "RESOLVED:\n";
	assert_int_equal(agent_verdict_parse(s, strlen(s), &l),
			 AGENT_VERDICT_RESOLVED);
	assert_string_equal(l.buf, "RESOLVED");
	s = "resolved: lower case\nRESOLVED without colon\nXRESOLVED: no\n";
	assert_int_equal(agent_verdict_parse(s, strlen(s), NULL),
			 AGENT_VERDICT_NONE);
	assert_int_equal(agent_verdict_parse("", 0, NULL), AGENT_VERDICT_NONE);
	s = "RESOLVED: no newline at end";
	assert_int_equal(agent_verdict_parse(s, strlen(s), NULL),
			 AGENT_VERDICT_RESOLVED);
	strbuf_release(&l);
}

static int parse(const char *text, bool json, struct target_list *tl,
		 struct strvec *errs)
{
	return targets_parse(text, strlen(text), "t", json, tl, errs);
}

static bool has(const struct strvec *errs, const char *needle)
{
	for (size_t i = 0; i < errs->nr; i++)
		if (strstr(errs->v[i], needle))
			return true;
	return false;
}

static void targets_strict_with_positions(void **state)
{
	struct target_list tl = TARGET_LIST_INIT;
	struct strvec errs = STRVEC_INIT;

	assert_int_equal(parse("targets:\n  - repo: r\n    head: h\n    base: b\n    extra: 1\n",
			       false, &tl, &errs), -1);
	assert_true(has(&errs, "t:5:5: unknown key 'extra'"));
	strvec_clear(&errs);
	assert_int_equal(parse("targets: {}\n", false, &tl, &errs), -1);
	assert_true(has(&errs, "'targets' must be a list"));
	strvec_clear(&errs);
	assert_int_equal(parse("other: 1\ntargets: []\n", false, &tl, &errs), -1);
	assert_true(has(&errs, "unknown key 'other'"));
	strvec_clear(&errs);
	assert_int_equal(parse("targets:\n  - {repo: r, head: 'a b', base: null}\n",
			       false, &tl, &errs), -1);
	assert_true(has(&errs, "'head' is not a valid branch name"));
	assert_true(has(&errs, "'base' must be a string"));
	strvec_clear(&errs);
	assert_int_equal(parse("{\"targets\": [{\"repo\": \"r\", \"head\": \"h\", \"base\": true}]}",
			       true, &tl, &errs), -1);
	assert_true(has(&errs, "'base' must be a string"));
	strvec_clear(&errs);
	/* a syntax error names libyaml's problem at its 1-based position */
	assert_int_equal(parse("targets:\n  - repo: [a\n", false, &tl, &errs), -1);
	assert_true(has(
		&errs,
		"t:3:1: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at 2:11)"));
	assert_int_equal(tl.nr, 0);
	strvec_clear(&errs);
}

static void targets_keys_and_shards(void **state)
{
	struct target_list tl = TARGET_LIST_INIT;
	struct strvec errs = STRVEC_INIT;
	unsigned k, n;

	assert_int_equal(parse("targets:\n"
			       "  - {repo: /x/svc.git, head: feat/a, base: main}\n"
			       "  - {repo: /y/svc/, head: feat/a, base: main}\n"
			       "  - {repo: /z/q, head: h, base: main, key: mine}\n"
			       "  - {repo: /z/q, head: h2, base: main, verify_command: [/bin/true, x]}\n",
			       false, &tl, &errs), 0);
	assert_int_equal(targets_finish(&tl, &errs), 0);
	assert_string_equal(tl.v[0].key, "svc-feat-a");
	assert_string_equal(tl.v[1].key, "svc-feat-a-2");
	assert_string_equal(tl.v[2].key, "mine");
	assert_int_equal(tl.v[3].verify_command.nr, 2);
	assert_true(target_key_valid("a.b_c-1"));
	assert_false(target_key_valid("../x"));
	assert_false(target_key_valid(".hidden"));
	assert_false(target_key_valid(""));
	assert_int_equal(shard_parse("2/4", &k, &n), 0);
	assert_int_equal(k, 2);
	assert_int_equal(shard_parse("0/4", &k, &n), -1);
	assert_int_equal(shard_parse("5/4", &k, &n), -1);
	assert_int_equal(shard_parse("1/", &k, &n), -1);
	assert_int_equal(shard_parse("x/2", &k, &n), -1);
	targets_shard(&tl, 2, 3); /* positions 1 (and 4, absent) */
	assert_int_equal(tl.nr, 1);
	assert_string_equal(tl.v[0].key, "svc-feat-a-2");
	target_list_release(&tl);
	assert_int_equal(parse("targets:\n  - {repo: r, head: h, base: b, key: k}\n"
			       "  - {repo: r, head: h, base: b, key: k}\n", false, &tl, &errs), 0);
	assert_int_equal(targets_finish(&tl, &errs), -1);
	assert_true(has(&errs, "duplicate target key 'k'"));
	target_list_release(&tl);
	strvec_clear(&errs);
}

static void verify_helpers(void **state)
{
	struct strvec ch = STRVEC_INIT;
	struct strbuf where = STRBUF_INIT;
	const char *before = "a1 refs/heads/feat\nb1 refs/heads/main\nc1 refs/tags/v1\n";
	const char *after = "a2 refs/heads/feat\nb2 refs/heads/main\nd1 refs/heads/new\n";
	const char *diff = "+++ b/src/x.c\n@@ -1 +1 @@\n+<<<<<<< HEAD\n";

	verify_refs_diff(before, after, "refs/heads/feat", &ch);
	assert_int_equal(ch.nr, 3);
	assert_string_equal(ch.v[0], "refs/heads/main");
	assert_string_equal(ch.v[1], "refs/tags/v1");
	assert_string_equal(ch.v[2], "refs/heads/new");
	strvec_clear(&ch);
	verify_refs_diff(before, before, "refs/heads/feat", &ch);
	assert_int_equal(ch.nr, 0);
	assert_true(verify_diff_adds_markers(diff, strlen(diff), &where));
	assert_string_equal(where.buf, "src/x.c");
	diff = "+++ b/a\n+ <<<<<<< not at column 0\n-<<<<<<< removed\n+=======\n";
	assert_false(verify_diff_adds_markers(diff, strlen(diff), NULL));
	assert_true(trust_root_path("a/b/policy.toml"));
	assert_true(trust_root_path(".config-integrity-key"));
	assert_true(trust_root_path("x/fleet_events.jsonl"));
	assert_true(trust_root_path("fleet.yaml"));
	assert_false(trust_root_path("policy.toml.bak"));
	assert_false(trust_root_path("docs/fleet.yml"));
	strbuf_release(&where);
}

static void audit_helpers(void **state)
{
	struct strvec argv = STRVEC_INIT, env = STRVEC_INIT, names = STRVEC_INIT;

	strvec_pushl(&argv, "/bin/agent", "-p", "do it", "--prompt=do it now", NULL);
	argv_elide(&argv, "do it");
	assert_string_equal(argv.v[2], "<prompt:5 chars>");
	assert_string_equal(argv.v[3], "--prompt=<prompt:5 chars> now");
	strvec_pushl(&env, "B=1", "A=2", "B=3", "EMPTY=", NULL);
	env_key_names(&env, &names);
	assert_int_equal(names.nr, 3);
	assert_string_equal(names.v[0], "A");
	assert_string_equal(names.v[1], "B");
	assert_string_equal(names.v[2], "EMPTY");
	assert_int_equal(run_status_severity(RS_PUSHED), 0);
	assert_int_equal(run_status_severity(RS_ESCALATED), 3);
	assert_int_equal(run_status_severity(RS_LEASE_REFUSED), 2);
	strvec_clear(&argv);
	strvec_clear(&env);
	strvec_clear(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verdict_last_wins_and_strips),
		cmocka_unit_test(targets_strict_with_positions),
		cmocka_unit_test(targets_keys_and_shards),
		cmocka_unit_test(verify_helpers),
		cmocka_unit_test(audit_helpers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
