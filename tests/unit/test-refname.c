/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one ref-name validator (base/refname.h) against git itself: every
 * generated name is put to `git check-ref-format` and our answer must be
 * git's, for a full ref, with --allow-onelevel, and as a branch
 * (refs/heads/<name>). ag_branch_name_valid() must never accept what
 * `git check-ref-format --branch` refuses, and refuses on top only its
 * named rules ('-' start, "@", "HEAD", over 255 bytes).
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "agentic-git/core.h"
#include "base/refname.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "unit-git.h"
#include "unit-tmpdir.h"

UNIT_GIT_GROUP("refname")

/* Pieces the names are made of: each rule's edge, odd bytes, non-ASCII. */
static const char *const atoms[] = {
	"a",	    "b.c",   ".",    "..",   "/",  "//",   "@",	   "{",
	"@{",	    ".lock", "lock", "*",    "?",  "[",	   "\\",   " ",
	"~",	    "^",     ":",    "\x01", "\n", "\x1f", "\x7f", "\x80",
	"\xc3\xa9", "\xff",  "-",    "HEAD", "x.", "}",	   "!",	   "\"",
};

/* Whole names: the ends, the lone '@', very long ones. */
static void fixed_names(struct strvec *v)
{
	static const char *const fixed[] = {
		"@",
		"@@",
		"a@",
		"@a",
		"a/@",
		"@/a",
		"refs/heads/@",
		"refs/@{x}",
		"refs/a@{",
		"refs/a.lock",
		"refs/a.lock/b",
		"refs/a/.b",
		"refs/a./b",
		"refs/a.",
		"refs/.",
		"refs/..",
		"refs/a/",
		"/refs/a",
		"refs//a",
		"refs/a..b",
		"refs/a.b",
		"refs/lock",
		"refs/.lock",
		"refs/x.LOCK",
		"refs/a/b/c/d/e",
		"HEAD",
		"FETCH_HEAD",
		"refs",
		"refs/*",
		"refs/heads/main",
		"main",
		"a.lock",
		".a",
		"a.",
		NULL,
	};
	struct strbuf sb = STRBUF_INIT;
	size_t lens[] = { 255, 256, 300, 4000 };

	strvec_pushv(v, fixed);
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		strbuf_reset(&sb);
		while (sb.len < lens[i])
			strbuf_addch(&sb, 'a' + (char)(sb.len % 26));
		strbuf_setlen(&sb, lens[i]);
		strvec_push(v, sb.buf);
		strvec_pushf(v, "refs/heads/%s", sb.buf);
		for (size_t j = 20; j < sb.len; j += 40)
			sb.buf[j] = '/';
		strvec_pushf(v, "refs/heads/%s", sb.buf);
	}
	strbuf_release(&sb);
}

/*
 * names: the atoms, every pair of them, the fixed names; inner: every pair
 * inside a longer ref, at a component's end ("refs/x<a><b>").
 */
static void generated_names(struct strvec *names, struct strvec *inner)
{
	for (size_t i = 0; i < ARRAY_SIZE(atoms); i++)
		strvec_push(names, atoms[i]);
	for (size_t i = 0; i < ARRAY_SIZE(atoms); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(atoms); j++) {
			strvec_pushf(names, "%s%s", atoms[i], atoms[j]);
			if (inner)
				strvec_pushf(inner, "refs/x%s%s", atoms[i],
					     atoms[j]);
		}
	}
	fixed_names(names);
}

/* `git check-ref-format [opt] <name>`: true when git accepts it. */
static bool git_accepts(const char *opt, const char *prefix, const char *name)
{
	struct strbuf arg = STRBUF_INIT;
	int status;

	strbuf_addf(&arg, "%s%s", prefix, name);
	status = opt ? unit_run_git(git, dir, NULL, "check-ref-format", opt,
				    arg.buf, NULL)
		     : unit_run_git(git, dir, NULL, "check-ref-format", arg.buf,
				    NULL);
	if (status != 0 && status != 1)
		fail_msg("git check-ref-format exited %d for '%s'", status,
			 arg.buf);
	strbuf_release(&arg);
	return status == 0;
}

static void expect_same(const char *what, const char *name, bool ours,
			bool gits)
{
	if (ours != gits)
		fail_msg("%s '%s' (%zu bytes): ours %s, git %s", what, name,
			 strlen(name), ours ? "accepts" : "refuses",
			 gits ? "accepts" : "refuses");
}

static void test_same_as_git(void **state)
{
	struct strvec names = STRVEC_INIT, inner = STRVEC_INIT;
	size_t checked = 0;

	(void)state;
	assert_non_null(git); /* real git, never a stand-in */
	generated_names(&names, &inner);
	for (size_t i = 0; i < names.nr; i++) {
		const char *n = names.v[i];
		/* one level allowed: every name git can be given */
		if (*n && *n != '-') {
			expect_same("one-level ref", n,
				    refname_valid(n, REFNAME_ONELEVEL),
				    git_accepts("--allow-onelevel", "", n));
			checked++;
		}
		/* a full ref: the atoms (most fail the two-level rule) and
		 * every name with a '/'; check-ref-format reads a leading '-'
		 * as an option, so those are checked after refs/heads/ only */
		if (*n && *n != '-' &&
		    (i < ARRAY_SIZE(atoms) || strchr(n, '/'))) {
			expect_same("ref", n, refname_valid(n, 0),
				    git_accepts(NULL, "", n));
			checked++;
		}
		expect_same("branch", n, refname_valid(n, REFNAME_BRANCH),
			    git_accepts(NULL, "refs/heads/", n));
		checked++;
	}
	for (size_t i = 0; i < inner.nr; i++, checked++)
		expect_same("ref", inner.v[i], refname_valid(inner.v[i], 0),
			    git_accepts(NULL, "", inner.v[i]));
	print_message("%zu names, %zu answers compared with git\n",
		      names.nr + inner.nr, checked);
	strvec_clear(&names);
	strvec_clear(&inner);
}

/* ag_branch_name_valid() = git's rules + its named reserved ones. */
static void test_branch_names_within_git(void **state)
{
	struct strvec names = STRVEC_INIT;
	const char *why;

	(void)state;
	generated_names(&names, NULL);
	for (size_t i = 0; i < names.nr; i++) {
		const char *n = names.v[i];
		bool reserved = *n == '-' || !strcmp(n, "@") ||
				!strcmp(n, "HEAD") || strlen(n) > 255;
		bool ours = ag_branch_name_valid(n, &why);
		if (ours && !git_accepts("--branch", "", n))
			fail_msg(
				"branch '%s': ours accepts, git --branch refuses",
				n);
		if (!reserved)
			expect_same("branch name", n, ours,
				    refname_valid(n, REFNAME_BRANCH));
		else if (ours)
			fail_msg("branch '%s': a reserved name accepted", n);
	}
	strvec_clear(&names);
}

static void test_reasons(void **state)
{
	(void)state;
	assert_null(refname_problem("refs/heads/a", 0));
	assert_string_equal(refname_problem("refs/a..b", 0),
			    "must not contain '..'");
	assert_string_equal(refname_problem("refs/a@{b", 0),
			    "must not contain '@{'");
	assert_string_equal(refname_problem("refs/a.lock", 0),
			    "components must not end with '.lock'");
	assert_string_equal(refname_problem("heads", 0),
			    "must have at least two components (refs/...)");
	assert_null(refname_problem("heads", REFNAME_ONELEVEL));
	assert_string_equal(refname_problem("@", REFNAME_ONELEVEL),
			    "must not be '@'");
	assert_null(refname_problem("@", REFNAME_BRANCH));
	assert_string_equal(refname_problem(NULL, 0), "must not be empty");
	assert_false(refname_valid("", REFNAME_BRANCH));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_same_as_git),
		cmocka_unit_test(test_branch_names_within_git),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
