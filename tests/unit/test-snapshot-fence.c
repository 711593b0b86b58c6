/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for git/snapshot-fence.c: other agents' snapshots, by name. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "git/snapshot-fence.h"

#define OTHER "refs/agentic-git/snapshots/ag2/20261206T080000Z-0-clean"
#define MINE "refs/agentic-git/snapshots/ag1/20261206T080000Z-0-reset"

/* Splits buf on single spaces into v (at most max words). */
static size_t split(char *buf, const char **v, size_t max)
{
	size_t n = 0;

	for (char *t = buf; t && *t && n < max;) {
		char *sp = strchr(t, ' ');
		if (sp)
			*sp++ = '\0';
		v[n++] = t;
		t = sp;
	}
	return n;
}

/* `tmpl` with its one "%s" replaced by `with`. */
static void fill(char *out, size_t len, const char *tmpl, const char *with)
{
	const char *at = strstr(tmpl, "%s");

	assert_non_null(at);
	snprintf(out, len, "%.*s%s%s", (int)(at - tmpl), tmpl, with, at + 2);
}

/* Splits `line` on spaces and judges it for `own`: its words, or (config)
 * the config it carries. */
static enum fence_hit judge_by(const char *own, const char *line, bool config)
{
	char buf[1024];
	const char *v[32];
	size_t n;
	const char *word = NULL;
	struct git_argv ga;
	enum fence_hit hit;

	snprintf(buf, sizeof(buf), "%s", line);
	n = split(buf, v, 32);
	git_argv_parse(&ga, v, n);
	hit = config ? snapshot_fence_config(&ga, NULL, own, &word)
		     : snapshot_fence(&ga, own, &word);
	if (hit)
		assert_non_null(word);
	git_argv_release(&ga);
	return hit;
}

static enum fence_hit judge(const char *own, const char *line)
{
	return judge_by(own, line, false);
}

/* Every way a revision can carry a ref name, for `ref`. */
static const char *const rev_forms[] = {
	"%s",
	"%s:secret.txt",
	"%s~0",
	"^%s",
	"main..%s",
	"%s...main",
	"%s^{tree}",
	"%s@{0}",
	"+%s:refs/heads/copy",
	"%s:refs/heads/copy",
};

static void each_rev_form(const char *own, const char *cmd, const char *ref,
			  enum fence_hit want)
{
	char rev[512], line[1024];

	for (size_t i = 0; i < ARRAY_SIZE(rev_forms); i++) {
		fill(rev, sizeof(rev), rev_forms[i], ref);
		fill(line, sizeof(line), cmd, rev);
		if (judge(own, line) != want)
			fail_msg("%s: want %d for %s", own ? own : "(unbound)",
				 (int)want, line);
	}
}

static const char *const commands[] = {
	"show %s",
	"log --oneline %s",
	"cat-file -p %s",
	"rev-parse %s",
	"diff HEAD %s",
	"archive --format=tar %s",
	"ls-tree %s",
	"branch copy %s",
	"checkout %s -- f",
	"fetch . %s",
	"show-ref --verify %s",
	"for-each-ref --points-at %s refs/heads",
	"for-each-ref --points-at=%s refs/tags",
	"-C sub log %s",
	"merge-base HEAD %s",
	"restore --source %s f",
	"restore --source=%s f",
};

/* Every line of `denied` is refused to ag1, every line of `passed` is not. */
static void expect_for_ag1(const char *const *denied, size_t nd,
			   const char *const *passed, size_t np)
{
	for (size_t i = 0; i < nd; i++)
		if (judge("ag1", denied[i]) == FENCE_NONE)
			fail_msg("not denied: %s", denied[i]);
	for (size_t i = 0; i < np; i++)
		if (judge("ag1", passed[i]) != FENCE_NONE)
			fail_msg("denied: %s", passed[i]);
}

static void test_names_in_every_spelling(void **state)
{
	/* the DWIM'd short name, a doubled slash, the full name */
	static const char *const others[] = {
		OTHER,
		"agentic-git/snapshots/ag2/20261206T080000Z-0-clean",
		"refs//agentic-git//snapshots/ag2/20261206T080000Z-0-clean",
		"refs/agentic-git/snapshots/*/x",
	};

	(void)state;
	for (size_t c = 0; c < ARRAY_SIZE(commands); c++)
		for (size_t o = 0; o < ARRAY_SIZE(others); o++) {
			each_rev_form("ag1", commands[c], others[o],
				      FENCE_NAMED);
			/* an unproven identity has no snapshot of its own */
			each_rev_form(NULL, commands[c], others[o],
				      FENCE_NAMED);
			each_rev_form(NULL, commands[c], MINE, FENCE_NAMED);
			/* its own stay readable */
			each_rev_form("ag1", commands[c], MINE, FENCE_NONE);
			each_rev_form("ag1", commands[c], "main", FENCE_NONE);
		}
	/* a prefix of another agent's name is not the agent's own */
	each_rev_form("ag", "show %s", OTHER, FENCE_NAMED);
	each_rev_form("ag22", "show %s", OTHER, FENCE_NAMED);
}

static void test_prose_is_not_a_name(void **state)
{
	(void)state;
	assert_int_equal(judge("ag1", "commit -m " OTHER), FENCE_NONE);
	assert_int_equal(judge("ag1", "commit --message=" OTHER), FENCE_NONE);
	assert_int_equal(judge("ag1", "log --grep=" OTHER), FENCE_NONE);
	assert_int_equal(judge("ag1", "log --format=%s -- " OTHER), FENCE_NONE);
}

static void test_listings(void **state)
{
	static const char *const denied[] = {
		"for-each-ref",
		"for-each-ref refs/",
		"for-each-ref refs",
		"for-each-ref refs/agentic-git",
		"for-each-ref refs/agentic-git/snapshots/",
		"for-each-ref refs/agentic-git/snapshots/ag2",
		"for-each-ref refs/agentic-git/snapshots/ag1*",
		"for-each-ref refs/**",
		"for-each-ref *",
		"for-each-ref --format=%(refname) refs/heads refs/",
		"show-ref",
		"show-ref --head",
		"show-ref -d",
		"show-ref 20261206T080000Z-0-clean",
		"show-ref ag2/20261206T080000Z-0-clean",
		"show-ref snapshots/ag2/20261206T080000Z-0-clean",
		"ls-remote .",
		"ls-remote . 20261206T080000Z-0-clean",
		"log --glob=refs/agentic-git/*",
		"log --glob refs/*",
		"rev-parse --glob=agentic-git/snapshots",
		"rev-list --glob=*",
		"fetch . refs/agentic-git/*:refs/x/*",
		"fetch . +refs/*:refs/x/*",
	};
	static const char *const passed[] = {
		"for-each-ref refs/heads refs/tags",
		"for-each-ref refs/agentic-git/snapshots/ag1/",
		"for-each-ref refs/agentic-git/snapshots/ag1",
		"for-each-ref refs/remotes/*",
		"show-ref --heads",
		"show-ref --tags",
		"show-ref main",
		"show-ref ag1/20261206T080000Z-0-clean",
		"show-ref snapshots/ag1/20261206T080000Z-0-clean",
		"ls-remote origin",
		"log --glob=refs/agentic-git/snapshots/ag1/*",
		"log --glob=heads/feat/*",
		"fetch origin +refs/heads/*:refs/remotes/origin/*",
		"log --all",
		"add *.c",
	};

	(void)state;
	expect_for_ag1(denied, ARRAY_SIZE(denied), passed, ARRAY_SIZE(passed));
	/* unbound: its "own" listing is another's too */
	assert_int_not_equal(
		judge(NULL, "for-each-ref refs/agentic-git/snapshots/ag1/"),
		FENCE_NONE);
}

/* Found by an attacker's pass over the fence (docs/snapshots.md). */
static enum fence_hit judge_config(const char *own, const char *line)
{
	return judge_by(own, line, true);
}

static void test_red_team(void **state)
{
	static const char *const denied[] = {
		/* :/<text> searches every ref, snapshots among them */
		"show :/clean",
		"checkout :/clean -- f",
		"restore --source=:/clean f",
		"cherry-pick :/clean",
		"log main..:/clean",
		"show ^:/clean",
		/* bundle's --all past its options cannot be narrowed */
		"bundle create x.bundle main --all",
		/* ls-remote of this repository in any spelling */
		"ls-remote ./",
		"ls-remote .//",
		"ls-remote /srv/repo",
		"ls-remote file:///srv/repo",
		"ls-remote -- .",
		"ls-remote . refs/agentic*",
	};
	static const char *const passed[] = {
		"show HEAD^{/fix}",
		"show main:/README.md",
		"ls-remote origin",
		"ls-remote https://example.com/r.git",
		"ls-remote . refs/heads/main",
		"ls-remote --heads .",
		/* flags before --all are not values */
		"rev-list HEAD --not --all",
		"log --remerge-diff --all",
		"rev-parse --symbolic --all",
		"rev-parse --symbolic-full-name --all",
		"log --first-parent --all",
	};

	(void)state;
	expect_for_ag1(denied, ARRAY_SIZE(denied), passed, ARRAY_SIZE(passed));
	/* an option that takes the next word might take --all */
	assert_int_equal(judge("ag1", "log --author --all"), FENCE_LISTED);
	assert_int_equal(judge("ag1", "log -n --all"), FENCE_LISTED);
	/* config that names another agent's snapshot: @{u} becomes it */
	assert_int_equal(judge_config("ag1", "-c branch.feat/a.merge=" OTHER
					     " show @{u}:f"),
			 FENCE_NAMED);
	assert_int_equal(
		judge_config(
			"ag1",
			"-c remote.o.fetch=+refs/agentic-git/*:refs/x/* fetch o"),
		FENCE_NAMED);
	assert_int_equal(
		judge_config("ag1",
			     "--config-env=branch.feat/a.merge=V show @{u}"),
		FENCE_NAMED);
	assert_int_equal(
		judge_config(
			"ag1",
			"-c branch.feat/a.merge=refs/heads/main show @{u}"),
		FENCE_NONE);
	assert_int_equal(judge_config("ag1", "-c branch.feat/a.merge=" MINE
					     " show @{u}"),
			 FENCE_NONE);
	assert_int_equal(
		judge_config("ag1", "--config-env=core.editor=V commit"),
		FENCE_NONE);
}

static size_t narrow(const char *line, size_t *at)
{
	char buf[256];
	const char *v[16];
	size_t n, k;
	struct git_argv ga;

	snprintf(buf, sizeof(buf), "%s", line);
	n = split(buf, v, 16);
	git_argv_parse(&ga, v, n);
	k = snapshot_fence_narrow(&ga, at, 4);
	git_argv_release(&ga);
	return k;
}

static void test_narrow(void **state)
{
	size_t at[4];

	(void)state;
	assert_int_equal(narrow("log --all --format=%s", at), 1);
	assert_int_equal(at[0], 0);
	assert_int_equal(narrow("rev-parse --symbolic --all", at), 1);
	assert_int_equal(at[0], 1);
	assert_int_equal(narrow("log --all main --all", at), 2);
	assert_int_equal(at[1], 2);
	/* --all that is not the revision walker's, or a value */
	assert_int_equal(narrow("fetch --all", at), 0);
	assert_int_equal(narrow("branch --all", at), 0);
	/* `--grep --all`: git may read --all as --grep's value; an
	 * exclusion put before it would be read instead: refused */
	assert_int_equal(judge("ag1", "log --grep --all"), FENCE_LISTED);
	assert_int_equal(judge("ag1", "log --grep=x --all"), FENCE_NONE);
	assert_int_equal(judge("ag1", "log --all --grep x"), FENCE_NONE);
	assert_int_equal(narrow("log main", at), 0);
	/* name-rev's names leave the snapshots out too */
	assert_int_equal(narrow("name-rev --all", at), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_in_every_spelling),
		cmocka_unit_test(test_prose_is_not_a_name),
		cmocka_unit_test(test_listings),
		cmocka_unit_test(test_narrow),
		cmocka_unit_test(test_red_team),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
