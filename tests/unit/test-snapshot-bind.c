/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The commit the sync files for a snapshot a cage wrote
 * (fleet/snapshot-bind.h): numbers in comments are its invariants.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "fleet/snapshot-bind.h"
#include "git/snapshot-name.h"

#define OID_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define OID_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define OID_C "cccccccccccccccccccccccccccccccccccccccc"
#define REF "refs/agentic-git/snapshots/a1/20261206T080000Z-0-reset-hard"

static const struct snapshot_bind b = {
	.agent = "a1",
	.worktree = "/home/op/.agentic-git/worktrees/a1/feat/x",
	.hexlen = 40,
	.who = "run",
};

/* 1, 2: the forged claims are gone, the checkable rest kept */
static void test_forged_message(void **state)
{
	static const char obj[] =
		"tree " OID_A "\n"
		"parent " OID_B "\n"
		"author Mallory <m@example.com> 1765008000 +0100\n"
		"committer Mallory <m@example.com> 1765008000 +0100\n"
		"gpgsig -----BEGIN PGP SIGNATURE-----\n"
		" forged\n"
		"encoding ISO-8859-1\n"
		"\n"
		"reset-hard snapshot\n\n"
		"Agentic-Snapshot-Op: reset-hard\n"
		"Agentic-Snapshot-Agent: ag2\n"
		"Agentic-Snapshot-Worktree: /home/op/.agentic-git/worktrees/ag2/feat/b\n"
		"Agentic-Snapshot-Head: " OID_C "\n"
		"Agentic-Snapshot-Index: not-an-oid\n"
		"Agentic-Snapshot-Branch: refs/heads/feat/b\n"
		"Agentic-Snapshot-Kept: refs/heads/../x\n"
		"Agentic-Snapshot-Stash: " OID_B "\n"
		"Agentic-Snapshot-Stash: short\n";
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(
		snapshot_bind_commit(&b, REF, obj, sizeof(obj) - 1, &out), 0);
	assert_string_equal(
		out.buf,
		"tree " OID_A "\n"
		"parent " OID_B "\n"
		"author agentic-git <agentic-git@localhost> 1765008000 +0000\n"
		"committer agentic-git <agentic-git@localhost> 1765008000 +0000\n"
		"\n"
		"reset-hard snapshot\n\n"
		"Agentic-Snapshot-Op: reset-hard\n"
		"Agentic-Snapshot-Agent: a1\n"
		"Agentic-Snapshot-Worktree: /home/op/.agentic-git/worktrees/a1/feat/x\n"
		"Agentic-Snapshot-Head: " OID_C "\n"
		"Agentic-Snapshot-Branch: refs/heads/feat/b\n"
		"Agentic-Snapshot-Stash: " OID_B "\n");
	strbuf_release(&out);
}

/* 2: no metadata at all: the op is the ref's */
static void test_plain_commit(void **state)
{
	static const char obj[] = "tree " OID_A "\n"
				  "author x <x> 1 +0000\n"
				  "committer x <x> 1 +0000\n\n"
				  "commit one\n";
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(
		snapshot_bind_commit(&b, REF, obj, sizeof(obj) - 1, &out), 0);
	assert_non_null(strstr(out.buf, "\n\nreset-hard snapshot\n\n"
					"Agentic-Snapshot-Op: reset-hard\n"
					"Agentic-Snapshot-Agent: a1\n"));
	assert_null(strstr(out.buf, "parent "));
	strbuf_release(&out);
}

/* 3: another agent's ref, a name that is no snapshot's, no tree */
static void test_refused(void **state)
{
	static const char obj[] = "tree " OID_A "\n\nx snapshot\n";
	static const char notree[] = "parent " OID_B "\n\nx snapshot\n";
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(
		snapshot_bind_commit(
			&b,
			"refs/agentic-git/snapshots/ag2/20261206T080000Z-0-reset-hard",
			obj, sizeof(obj) - 1, &out),
		-1);
	assert_int_equal(
		snapshot_bind_commit(&b, "refs/agentic-git/snapshots/a1/mine",
				     obj, sizeof(obj) - 1, &out),
		-1);
	assert_int_equal(
		snapshot_bind_commit(&b, REF, notree, sizeof(notree) - 1, &out),
		-1);
	/* headers only, no message */
	assert_int_equal(snapshot_bind_commit(&b, REF, obj, 46, &out), -1);
	assert_int_equal(out.len, 0);
	strbuf_release(&out);
}

/* 4: a stamp past the clock (and its skew) is a forged order */
static void test_future(void **state)
{
	static const char obj[] = "tree " OID_A "\n\nx snapshot\n";
	struct snapshot_bind at = b;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	at.now = snapshot_stamp_time("20261206T080000Z");
	assert_true(at.now > 0);
	assert_int_equal(
		snapshot_bind_commit(&at, REF, obj, sizeof(obj) - 1, &out), 0);
	strbuf_reset(&out);
	/* the skew's edge, then one second past it */
	assert_int_equal(
		snapshot_bind_commit(
			&at,
			"refs/agentic-git/snapshots/a1/20261206T081000Z-0-reset-hard",
			obj, sizeof(obj) - 1, &out),
		0);
	strbuf_reset(&out);
	assert_int_equal(
		snapshot_bind_commit(
			&at,
			"refs/agentic-git/snapshots/a1/20261206T081001Z-0-reset-hard",
			obj, sizeof(obj) - 1, &out),
		-2);
	assert_int_equal(
		snapshot_bind_commit(
			&at,
			"refs/agentic-git/snapshots/a1/20991231T235959Z-7-reset",
			obj, sizeof(obj) - 1, &out),
		-2);
	assert_int_equal(out.len, 0);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forged_message),
		cmocka_unit_test(test_plain_commit),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_future),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
