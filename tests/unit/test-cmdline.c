/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one reading of a git command line (git/argv.h, git/cmdline.c): each
 * row is a command line and what git's parse-options makes of it.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>
#include "base/strbuf.h"
#include "git/argv.h"
#include "git/optable.h"

#define MAXW 24

struct line {
	const char *v[MAXW];
	char buf[512];
	struct git_argv ga;
};

static void parse(struct line *l, const char *cmd)
{
	size_t n = 0;

	snprintf(l->buf, sizeof(l->buf), "%s", cmd);
	for (char *p = l->buf; *p && n < MAXW;) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		l->v[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	git_argv_parse(&l->ga, l->v, n);
}

/* "a b c" == the positionals */
static void assert_pos(const struct git_argv *ga, const char *want)
{
	struct strbuf got = STRBUF_INIT;

	for (size_t i = 0; i < ga->npos; i++) {
		if (i)
			strbuf_addch(&got, ' ');
		strbuf_addstr(&got, ga->pos[i]);
	}
	assert_string_equal(got.buf, want);
	strbuf_release(&got);
}

static void test_values_are_no_positionals(void **state)
{
	static const char *const upstream[] = {
		"branch -u feat/up main",
		"branch --set-upstream-to feat/up main",
		"branch --set-upstream-to=feat/up main",
		"branch -ufeat/up main",
		"branch main --set-upstream-to feat/up",
		"branch --set-upstream-t feat/up main",
		"branch -qu feat/up main",
	};
	struct line l;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(upstream); i++) {
		parse(&l, upstream[i]);
		assert_string_equal(git_opt_value(&l.ga, "set-upstream-to"),
				    "feat/up");
		assert_pos(&l.ga, "main");
		assert_null(l.ga.unknown);
		git_argv_release(&l.ga);
	}
	parse(&l, "config -t bool core.filemode false");
	assert_string_equal(git_opt_value(&l.ga, "type"), "bool");
	assert_pos(&l.ga, "core.filemode false");
	git_argv_release(&l.ga);
	/* a value spelled like an option is a value */
	parse(&l, "branch --sort -l foo");
	assert_string_equal(git_opt_value(&l.ga, "sort"), "-l");
	assert_false(git_opt_on(&l.ga, "list"));
	assert_pos(&l.ga, "foo");
	git_argv_release(&l.ga);
	/* and `--` as a value ends nothing (T69) */
	parse(&l, "reset --pathspec-from-file -- --hard");
	assert_string_equal(git_opt_value(&l.ga, "pathspec-from-file"), "--");
	assert_true(git_opt_on(&l.ga, "hard"));
	assert_false(l.ga.dashdash);
	git_argv_release(&l.ga);
}

static void test_clusters_and_negations(void **state)
{
	struct line l;

	(void)state;
	parse(&l, "checkout -qBX");
	assert_true(git_opt_on(&l.ga, "quiet"));
	assert_string_equal(git_opt_value(&l.ga, "-B"), "X");
	assert_pos(&l.ga, "");
	git_argv_release(&l.ga);
	parse(&l, "branch --no-track x");
	assert_non_null(git_opt_last(&l.ga, "track"));
	assert_false(git_opt_on(&l.ga, "track"));
	git_argv_release(&l.ga);
	/* commit's -n is --no-verify: "verify", negated */
	parse(&l, "commit -qn -m x");
	assert_false(git_opt_on(&l.ga, "verify"));
	assert_non_null(git_opt_last(&l.ga, "verify"));
	assert_string_equal(git_opt_value(&l.ga, "message"), "x");
	git_argv_release(&l.ga);
	parse(&l, "clean -ff --no-force -fdx");
	assert_int_equal(git_opt_count(&l.ga, "force"), 1);
	assert_true(git_opt_on(&l.ga, "-x"));
	git_argv_release(&l.ga);
	parse(&l, "format-patch --stdout --no-stdout");
	assert_false(git_opt_on(&l.ga, "stdout"));
	git_argv_release(&l.ga);
}

static void test_abbreviations_and_unknowns(void **state)
{
	struct line l;

	(void)state;
	parse(&l, "reset --har");
	assert_true(git_opt_on(&l.ga, "hard"));
	assert_true(l.ga.opts[0].flags & GOPT_ABBREV);
	assert_null(l.ga.unknown);
	git_argv_release(&l.ga);
	parse(&l, "reset --hardest");
	assert_string_equal(l.ga.unknown, "--hardest");
	git_argv_release(&l.ga);
	/* a prefix of several options is git's error, never one of them */
	parse(&l, "branch --co x");
	assert_true(l.ga.opts[0].flags & GOPT_AMBIGUOUS);
	assert_string_equal(l.ga.unknown, "--co");
	git_argv_release(&l.ga);
	/* format-patch hands what it does not know to the revision parser */
	parse(&l, "format-patch --since=1.day -3 HEAD");
	assert_null(l.ga.unknown);
	git_argv_release(&l.ga);
	/* a command that keeps what it does not know (git's table says so)
	 * expands negations only: --stdou is no option, --no-stdou one */
	parse(&l, "format-patch --stdou -1");
	assert_null(git_opt_last(&l.ga, "stdout"));
	git_argv_release(&l.ga);
	parse(&l, "format-patch --stdout --no-stdou -1");
	assert_non_null(git_opt_last(&l.ga, "stdout"));
	assert_false(git_opt_on(&l.ga, "stdout"));
	git_argv_release(&l.ga);
	/* git's numeric option: -9, and the cluster goes on after it */
	parse(&l, "archive -9v -o x HEAD");
	assert_null(l.ga.unknown);
	assert_true(git_opt_on(&l.ga, "verbose"));
	assert_string_equal(git_opt_value(&l.ga, "output"), "x");
	git_argv_release(&l.ga);
	/* diff options after a command's own (git's revision.c) */
	parse(&l, "log --oneline --output x HEAD");
	assert_string_equal(git_opt_value(&l.ga, "output"), "x");
	assert_pos(&l.ga, "HEAD");
	git_argv_release(&l.ga);
}

static void test_verbs(void **state)
{
	struct line l;

	(void)state;
	parse(&l, "stash");
	assert_string_equal(l.ga.verb, "push");
	assert_true(l.ga.verb_implied);
	git_argv_release(&l.ga);
	parse(&l, "stash -q -- f");
	assert_string_equal(l.ga.verb, "push");
	assert_pos(&l.ga, "f");
	assert_int_equal(l.ga.pos_dd, 0);
	git_argv_release(&l.ga);
	parse(&l, "stash drop stash@{1}");
	assert_string_equal(l.ga.verb, "drop");
	assert_false(l.ga.verb_implied);
	assert_pos(&l.ga, "stash@{1}");
	git_argv_release(&l.ga);
	parse(&l, "notes --ref x add -m y HEAD");
	assert_string_equal(l.ga.verb, "add");
	assert_string_equal(git_opt_value(&l.ga, "ref"), "x");
	assert_string_equal(git_opt_value(&l.ga, "message"), "y");
	assert_pos(&l.ga, "HEAD");
	git_argv_release(&l.ga);
	parse(&l, "reflog HEAD");
	assert_string_equal(l.ga.verb, "show");
	assert_pos(&l.ga, "HEAD");
	git_argv_release(&l.ga);
	parse(&l, "remote -v add o /x");
	assert_string_equal(l.ga.verb, "add");
	assert_pos(&l.ga, "o /x");
	git_argv_release(&l.ga);
	/* a subcommand git reads by hand: its words are positionals */
	parse(&l, "submodule update -i --recursive");
	assert_null(l.ga.verb);
	assert_pos(&l.ga, "update");
	assert_true(git_opt_on(&l.ga, "-i"));
	assert_true(git_opt_on(&l.ga, "recursive"));
	git_argv_release(&l.ga);
}

static void test_dashdash(void **state)
{
	struct line l;

	(void)state;
	parse(&l, "checkout main --");
	assert_pos(&l.ga, "main");
	assert_true(l.ga.dashdash);
	assert_int_equal(l.ga.pos_dd, 1);
	git_argv_release(&l.ga);
	parse(&l, "checkout -- main");
	assert_int_equal(l.ga.pos_dd, 0);
	assert_pos(&l.ga, "main");
	git_argv_release(&l.ga);
	parse(&l, "clean -f --end-of-options -x -- y");
	assert_false(git_opt_on(&l.ga, "-x"));
	assert_pos(&l.ga, "-x y");
	assert_int_equal(l.ga.pos_dd, 1);
	git_argv_release(&l.ga);
	/* grep: the first positional ends the options */
	parse(&l, "grep foo -O");
	assert_pos(&l.ga, "foo -O");
	assert_null(git_opt_last(&l.ga, "open-files-in-pager"));
	git_argv_release(&l.ga);
	/* bundle create: what follows its file is rev-list's */
	parse(&l, "bundle create -q f --all main");
	assert_string_equal(l.ga.verb, "create");
	assert_pos(&l.ga, "f --all main");
	assert_null(l.ga.unknown);
	git_argv_release(&l.ga);
	parse(&l, "grep -Ovi foo");
	assert_string_equal(git_opt_value(&l.ga, "open-files-in-pager"), "vi");
	git_argv_release(&l.ga);
}

static void test_emit(void **state)
{
	static const char *const all[] = { "--exclude=x", NULL };
	struct line l;
	struct strvec out = STRVEC_INIT;
	struct git_insert ins = { 1, all };
	struct git_emit e = { .routed = true, .ins = &ins, .nins = 1 };
	size_t at, end;

	(void)state;
	parse(&l, "-C /x --namespace -C log --oneline --all -- p");
	git_argv_emit(&l.ga, &e, &out, &at, &end);
	assert_int_equal(out.nr, 8);
	assert_string_equal(out.v[0], "--namespace");
	assert_string_equal(out.v[1], "-C");
	assert_string_equal(out.v[2], "log");
	assert_int_equal(at, 3);
	assert_string_equal(out.v[4], "--exclude=x");
	assert_string_equal(out.v[5], "--all");
	assert_int_equal(end, 6);
	assert_string_equal(out.v[end], "--");
	strvec_clear(&out);
	git_argv_release(&l.ga);
	/* clean's dry run: -n, -i, -q out, clusters split, the rest kept */
	{
		static const char *const drop[] = { "dry-run", "interactive",
						    "quiet", NULL };
		parse(&l, "clean -fdxnq -e --x --no-dry-run -- -f p");
		git_argv_push_without(&l.ga, drop, &out);
		assert_int_equal(out.nr, 8);
		assert_string_equal(out.v[0], "-f");
		assert_string_equal(out.v[2], "-x");
		assert_string_equal(out.v[3], "-e");
		assert_string_equal(out.v[4], "--x");
		assert_string_equal(out.v[5], "--");
		assert_string_equal(out.v[6], "-f");
		strvec_clear(&out);
		git_argv_release(&l.ga);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_are_no_positionals),
		cmocka_unit_test(test_clusters_and_negations),
		cmocka_unit_test(test_abbreviations_and_unknowns),
		cmocka_unit_test(test_verbs),
		cmocka_unit_test(test_dashdash),
		cmocka_unit_test(test_emit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
