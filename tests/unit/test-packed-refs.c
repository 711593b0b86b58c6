/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one packed-refs reader (git/packed-refs.h, invariants 1-3): what git
 * writes is read as git reads it, checked against git itself; anything
 * else is "ask git" (-1), and the ref lookups of git/repo.h then ask git.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "base/fileio.h"
#include "base/strbuf.h"
#include "git/packed-refs.h"
#include "git/refs-files.h"
#include "git/repo.h"
#include "unit-git.h"
#include "unit-tmpdir.h"

#define A "0123456789abcdef0123456789abcdef01234567"
#define B "89abcdef0123456789abcdef0123456789abcdef"

UNIT_GIT_GROUP("pref")

static int parse(struct packed_refs *pr, const char *text, size_t hexlen)
{
	strbuf_reset(&pr->text);
	strbuf_addstr(&pr->text, text);
	return packed_refs_parse(pr, hexlen);
}

static void test_what_git_writes(void **state)
{
	struct packed_refs pr = PACKED_REFS_INIT;
	const struct packed_ref *r;

	(void)state;
	assert_int_equal(
		parse(&pr,
		      "# pack-refs with: peeled fully-peeled sorted \n" A
		      " refs/heads/main\n" B " refs/tags/v1\n^" A "\n" A
		      " refs/tags/v2\n",
		      40),
		0);
	assert_int_equal(pr.traits,
			 PACKED_PEELED | PACKED_FULLY_PEELED | PACKED_SORTED);
	assert_int_equal(pr.nr, 3);
	r = packed_refs_find(&pr, "refs/tags/v1");
	assert_non_null(r);
	assert_string_equal(r->oid, B);
	assert_string_equal(r->peeled, A);
	assert_null(packed_refs_find(&pr, "refs/tags/v2")->peeled);
	assert_null(packed_refs_find(&pr, "refs/tags/v"));
	/* no header, an unknown trait, an empty file, one-level names */
	assert_int_equal(parse(&pr, A " refs/heads/x\n", 40), 0);
	assert_int_equal(pr.traits, 0);
	assert_int_equal(parse(&pr, "# pack-refs with: shiny\n", 40), 0);
	assert_int_equal(pr.nr, 0);
	assert_int_equal(parse(&pr, "", 40), 0);
	assert_int_equal(parse(&pr, A " HEAD\n", 40), 0);
	assert_int_equal(parse(&pr, A A A " refs/heads/x\n", 64), -1);
	packed_refs_release(&pr);
}

static void test_odd_lines_are_left_to_git(void **state)
{
	static const char *const odd[] = {
		"# a comment first\n" A " refs/heads/x\n",
		"# pack-refs with: peeled\n# pack-refs with: peeled\n",
		A " refs/heads/x\n# pack-refs with: peeled\n",
		"^" A "\n" A " refs/heads/x\n",
		A " refs/heads/x\n^" A "\n^" A "\n",
		A " refs/heads/x\n^" A "0\n",
		A " refs/heads/x\n^0123\n",
		A " refs/heads/x\n\n",
		A " refs/heads/x",
		"0123456789ABCDEF0123456789ABCDEF01234567 refs/heads/x\n",
		A "  refs/heads/x\n",
		A "\trefs/heads/x\n",
		A " \n",
		A "\n",
		"garbage\n" A " refs/heads/x\n",
		A " refs/heads/a..b\n",
		A " refs/heads/x.lock\n",
		A " refs/heads/a b\n",
		A " refs/heads/x\r\n",
		A " @\n",
	};
	struct packed_refs pr = PACKED_REFS_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(odd); i++) {
		if (parse(&pr, odd[i], 40) != -1)
			fail_msg("accepted odd packed-refs #%zu: %s", i,
				 odd[i]);
		assert_int_equal(pr.nr, 0);
	}
	/* a NUL inside a line */
	strbuf_reset(&pr.text);
	strbuf_addstr(&pr.text, A " refs/heads/x");
	strbuf_addch(&pr.text, '\0');
	strbuf_addstr(&pr.text, "y\n");
	assert_int_equal(packed_refs_parse(&pr, 40), -1);
	packed_refs_release(&pr);
}

static void write_packed(const char *gitdir, const char *text)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/packed-refs", gitdir);
	assert_int_equal(write_file_atomic(p.buf, text, strlen(text), 0644), 0);
	strbuf_release(&p);
}

static void test_the_file(void **state)
{
	struct packed_refs pr = PACKED_REFS_INIT;
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;

	(void)state;
	strbuf_addf(&p, "%s/file", dir);
	assert_int_equal(mkdir(p.buf, 0700), 0);
	/* missing: no packed refs */
	assert_int_equal(packed_refs_read(&pr, p.buf, 40, 1 << 20), 0);
	assert_int_equal(pr.nr, 0);
	write_packed(p.buf, A " refs/heads/x\n");
	assert_int_equal(packed_refs_read(&pr, p.buf, 40, 1 << 20), 0);
	assert_int_equal(pr.nr, 1);
	/* over the caller's cap */
	assert_int_equal(packed_refs_read(&pr, p.buf, 10, 10), -1);
	assert_int_equal(pr.nr, 0);
	/* a symlink to a good file; a directory */
	strbuf_addf(&t, "%s/link", dir);
	assert_int_equal(mkdir(t.buf, 0700), 0);
	strbuf_addf(&t, "/packed-refs");
	strbuf_addstr(&p, "/packed-refs");
	assert_int_equal(symlink(p.buf, t.buf), 0);
	strbuf_setlen(&t, t.len - strlen("/packed-refs"));
	assert_int_equal(packed_refs_read(&pr, t.buf, 40, 1 << 20), -1);
	strbuf_reset(&t);
	strbuf_addf(&t, "%s/dir/packed-refs", dir);
	assert_int_equal(mkdir_p(t.buf, 0700), 0);
	strbuf_setlen(&t, t.len - strlen("/packed-refs"));
	assert_int_equal(packed_refs_read(&pr, t.buf, 40, 1 << 20), -1);
	packed_refs_release(&pr);
	strbuf_release(&p);
	strbuf_release(&t);
}

/* A repository with branches, a light and an annotated tag, all packed. */
static void make_repo(struct strbuf *repo, const char *name, const char *objfmt)
{
	strbuf_addf(repo, "%s/%s", dir, name);
	assert_int_equal(unit_run_git(git, dir, NULL, "init", "-q", objfmt,
				      repo->buf, NULL),
			 0);
	assert_int_equal(unit_run_git(git, repo->buf, NULL, "-c", "user.name=t",
				      "-c", "user.email=t@t", "commit", "-q",
				      "--allow-empty", "-m", "one", NULL),
			 0);
	assert_int_equal(
		unit_run_git(git, repo->buf, NULL, "branch", "feat/x", NULL),
		0);
	assert_int_equal(
		unit_run_git(git, repo->buf, NULL, "tag", "light", NULL), 0);
	assert_int_equal(unit_run_git(git, repo->buf, NULL, "-c", "user.name=t",
				      "-c", "user.email=t@t", "tag", "-a", "-m",
				      "m", "annot", NULL),
			 0);
	assert_int_equal(
		unit_run_git(git, repo->buf, NULL, "pack-refs", "--all", NULL),
		0);
}

static void same_as_git(const char *objfmt, size_t hexlen)
{
	struct packed_refs pr = PACKED_REFS_INIT;
	struct strbuf repo = STRBUF_INIT, gd = STRBUF_INIT;
	struct strbuf ours = STRBUF_INIT, gits = STRBUF_INIT;

	make_repo(&repo, hexlen == 40 ? "sha1" : "sha256", objfmt);
	strbuf_addf(&gd, "%s/.git", repo.buf);
	assert_int_equal(packed_refs_read(&pr, gd.buf, hexlen, 1 << 20), 0);
	assert_true(pr.traits & PACKED_PEELED);
	for (size_t i = 0; i < pr.nr; i++)
		strbuf_addf(&ours, "%s %s %s\n", pr.v[i].oid, pr.v[i].name,
			    pr.v[i].peeled ? pr.v[i].peeled : "");
	assert_int_equal(
		unit_run_git(git, repo.buf, &gits, "for-each-ref",
			     "--format=%(objectname) %(refname) %(*objectname)",
			     NULL),
		0);
	assert_string_equal(ours.buf, gits.buf);
	assert_int_equal(pr.nr, 4);
	packed_refs_release(&pr);
	strbuf_release(&repo);
	strbuf_release(&gd);
	strbuf_release(&ours);
	strbuf_release(&gits);
}

static void test_same_as_git(void **state)
{
	(void)state;
	assert_non_null(git); /* real git, never a stand-in */
	same_as_git("--object-format=sha1", 40);
	same_as_git("--object-format=sha256", 64);
}

/* refs-files.h's lookup of several refs, none loose: every packed one. */
static void refs_files_lookups(const char *gitdir)
{
	static const char *const refs[] = { "refs/heads/none",
					    "refs/tags/light",
					    "refs/heads/feat/x" };
	struct strbuf out = STRBUF_INIT;
	const char *nl;

	assert_int_equal(
		refs_files_lookup(gitdir, 40, refs, ARRAY_SIZE(refs), &out), 0);
	nl = strchr(out.buf, '\n');
	assert_non_null(nl);
	assert_string_equal(nl + 1 + 41, "refs/heads/feat/x\n");
	assert_true(starts_with(out.buf + 41, "refs/tags/light\n"));
	strbuf_reset(&out);
	assert_int_equal(refs_files_lookup(gitdir, 40,
					   (const char *const[]){ "refs/a..b" },
					   1, &out),
			 -1);
	strbuf_release(&out);
}

/*
 * repo.h's lookups: what the file says where it is git's, git's own answer
 * where it is odd (here git refuses the file: unknown) — never a guess
 * past a line the reader does not know.
 */
static void test_repo_lookups_ask_git_past_odd_lines(void **state)
{
	struct strbuf repo = STRBUF_INIT, gd = STRBUF_INIT, oid = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	struct repo_loc loc;

	(void)state;
	assert_non_null(git);
	make_repo(&repo, "odd", "--object-format=sha1");
	strbuf_addf(&gd, "%s/.git", repo.buf);
	assert_int_equal(repo_discover(repo.buf, &loc), REPO_FOUND);
	assert_int_equal(repo_ref_state(&loc, "refs/tags/light"),
			 REPO_REF_PRESENT);
	assert_int_equal(repo_ref_state(&loc, "refs/tags/none"),
			 REPO_REF_ABSENT);
	assert_int_equal(repo_ref_state(&loc, "refs/tags/a..b"),
			 REPO_REF_ABSENT);
	refs_files_lookups(gd.buf);
	assert_int_equal(
		unit_run_git(git, repo.buf, &oid, "rev-parse", "HEAD", NULL),
		0);
	strbuf_trim(&oid);
	strbuf_addf(
		&text,
		"garbage\n%s refs/remotes/origin/gone\n%s refs/tags/light\n",
		oid.buf, oid.buf);
	write_packed(gd.buf, text.buf);
	assert_int_equal(repo_ref_state(&loc, "refs/tags/light"),
			 REPO_REF_UNKNOWN);
	assert_false(repo_remote_branch_exists(&loc, "gone"));
	/* the same refs, as git writes them */
	strbuf_reset(&text);
	strbuf_addf(&text, "%s refs/remotes/origin/gone\n%s refs/tags/light\n",
		    oid.buf, oid.buf);
	write_packed(gd.buf, text.buf);
	assert_int_equal(repo_ref_state(&loc, "refs/tags/light"),
			 REPO_REF_PRESENT);
	assert_true(repo_remote_branch_exists(&loc, "gone"));
	assert_false(repo_remote_branch_exists(&loc, "feat/x"));
	repo_loc_release(&loc);
	strbuf_release(&repo);
	strbuf_release(&gd);
	strbuf_release(&oid);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_git_writes),
		cmocka_unit_test(test_odd_lines_are_left_to_git),
		cmocka_unit_test(test_the_file),
		cmocka_unit_test(test_same_as_git),
		cmocka_unit_test(test_repo_lookups_ask_git_past_odd_lines),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
