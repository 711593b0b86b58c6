/* SPDX-License-Identifier: Apache-2.0 */
/* git/snapshot-name: ref names, same-second ordering, commit metadata. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "git/snapshot-name.h"

static void test_build_parse(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct snapshot_name n;

	assert_int_equal(snapshot_ref_build(&sb, "ag1", 1796000000, 3, "cherry-pick"), 0);
	assert_string_equal(sb.buf, "refs/agentic-git/snapshots/ag1/20261130T005320Z-3-cherry-pick");
	assert_int_equal(snapshot_ref_parse(sb.buf, &n), 0);
	assert_string_equal(n.agent, "ag1");
	assert_string_equal(n.stamp, "20261130T005320Z");
	assert_int_equal(n.seq, 3);
	assert_string_equal(n.slug, "cherry-pick");
	assert_int_equal(snapshot_stamp_time(n.stamp), 1796000000);
	snapshot_name_release(&n);
	strbuf_release(&sb);
}

static void test_build_rejects(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(snapshot_ref_build(&sb, "../x", 0, 0, "reset"), -1);
	assert_int_equal(snapshot_ref_build(&sb, "a b", 0, 0, "reset"), -1);
	assert_int_equal(snapshot_ref_build(&sb, "ag1", 0, 0, "Reset"), -1);
	assert_int_equal(snapshot_ref_build(&sb, "ag1", 0, 0, "re/set"), -1);
	assert_int_equal(snapshot_ref_build(&sb, "ag1", 0, 0, ""), -1);
	assert_int_equal(snapshot_ref_build(&sb, "ag1", 0, SNAPSHOT_SEQ_MAX + 1, "reset"), -1);
	assert_int_equal(sb.len, 0);
	assert_int_equal(snapshot_ref_build(&sb, "noagent", 0, 0, "reset"), 0);
	assert_string_equal(snapshot_who(NULL), "noagent");
	assert_string_equal(snapshot_who(""), "noagent");
	assert_string_equal(snapshot_who("ag2"), "ag2");
	strbuf_release(&sb);
}

static void test_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"refs/heads/main",
		"refs/agentic-git/snapshots/ag1",
		"refs/agentic-git/snapshots/ag1/20261130T005320Z-0",
		"refs/agentic-git/snapshots/ag1/20261130T005320Z--reset",
		"refs/agentic-git/snapshots/ag1/20261130T005320Z-01-reset",
		"refs/agentic-git/snapshots/ag1/20261130X003320Z-0-reset",
		"refs/agentic-git/snapshots/ag1/x/20261130T005320Z-0-reset",
		"refs/agentic-git/snapshots/../20261130T005320Z-0-reset",
		"refs/agentic-git/snapshots/ag1/20261130T005320Z-x-reset",
		"refs/agentic-git/snapshots/ag1/20261130T005320Z-9999999-reset",
	};
	struct snapshot_name n;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(snapshot_ref_parse(bad[i], &n), -1);
		assert_null(n.agent);
	}
}

static void test_seq_tie_break(void **state)
{
	static const char *const refs[] = {
		"refs/agentic-git/snapshots/ag1/20261130T005320Z-0-reset",
		"refs/agentic-git/snapshots/ag1/20261130T005320Z-1-clean",
		"refs/agentic-git/snapshots/ag2/20261130T005320Z-7-reset",
		"refs/agentic-git/snapshots/ag1/20261130T005319Z-9-reset",
		"refs/heads/main",
	};
	struct snapshot_name a, b, c;

	/* across slugs, per agent, per second */
	assert_int_equal(snapshot_next_seq(refs, ARRAY_SIZE(refs), "ag1", "20261130T005320Z"), 2);
	assert_int_equal(snapshot_next_seq(refs, ARRAY_SIZE(refs), "ag2", "20261130T005320Z"), 8);
	assert_int_equal(snapshot_next_seq(refs, ARRAY_SIZE(refs), "ag3", "20261130T005320Z"), 0);
	assert_int_equal(snapshot_next_seq(refs, ARRAY_SIZE(refs), "ag1", "20261130T005321Z"), 0);
	/* newest first: later second wins, then higher seq, whatever the slug */
	assert_int_equal(snapshot_ref_parse(refs[0], &a), 0);
	assert_int_equal(snapshot_ref_parse(refs[1], &b), 0);
	assert_int_equal(snapshot_ref_parse(refs[3], &c), 0);
	assert_true(snapshot_name_cmp_newest(&b, &a) < 0);
	assert_true(snapshot_name_cmp_newest(&a, &b) > 0);
	assert_true(snapshot_name_cmp_newest(&a, &c) < 0);
	/* seq 10 sorts after seq 9 numerically, not as text */
	snapshot_name_release(&c);
	assert_int_equal(snapshot_ref_parse("refs/agentic-git/snapshots/ag1/20261130T005320Z-10-reset", &c), 0);
	assert_true(snapshot_name_cmp_newest(&c, &b) < 0);
	snapshot_name_release(&a);
	snapshot_name_release(&b);
	snapshot_name_release(&c);
}

static void test_meta_roundtrip(void **state)
{
	struct snapshot_meta m = SNAPSHOT_META_INIT, p = SNAPSHOT_META_INIT;
	struct strbuf sb = STRBUF_INIT;

	m.op = strdup("clean");
	m.agent = strdup("ag1");
	m.worktree = strdup("/tmp/we ird\\path\nx");
	m.head = strdup("abc");
	m.quarantine = strdup("/h/quarantine/ag1/x");
	m.branch = strdup("refs/heads/feat/a");
	strvec_push(&m.stashes, "s1");
	strvec_push(&m.stashes, "s2");
	snapshot_meta_render(&m, &sb);
	assert_true(starts_with(sb.buf, "clean snapshot\n\nAgentic-Snapshot-Op: clean\n"));
	assert_int_equal(snapshot_meta_parse(sb.buf, &p), 0);
	assert_string_equal(p.worktree, "/tmp/we ird\\path\nx");
	assert_string_equal(p.head, "abc");
	assert_null(p.index);
	assert_string_equal(p.quarantine, "/h/quarantine/ag1/x");
	assert_string_equal(p.branch, "refs/heads/feat/a");
	assert_null(p.kept);
	assert_int_equal(p.stashes.nr, 2);
	assert_string_equal(p.stashes.v[1], "s2");
	snapshot_meta_release(&p);
	assert_int_equal(snapshot_meta_parse("reset snapshot\n", &p), -1);
	snapshot_meta_release(&p);
	/* a tip-only snapshot's */
	assert_int_equal(
		snapshot_meta_parse(
			"branch-delete snapshot\n\nAgentic-Snapshot-Op: branch-delete\nAgentic-Snapshot-Kept: refs/heads/x\n",
			&p),
		0);
	assert_string_equal(p.kept, "refs/heads/x");
	snapshot_meta_release(&p);
	snapshot_meta_release(&m);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_parse),
		cmocka_unit_test(test_build_rejects),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_seq_tie_break),
		cmocka_unit_test(test_meta_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
