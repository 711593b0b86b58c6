/* SPDX-License-Identifier: Apache-2.0 */
/* git/repo-probe: what a repository's config says about the formats our
 * own code reads and writes, and that doubt always goes to git (inv. 1, 2). */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/strvec.h"
#include "git/repo-probe.h"
#include "unit-tmpdir.h"

static struct repo_probe parse(const char *text)
{
	struct repo_probe p = { 0 };

	repo_probe_config(&p, text, strlen(text), PROBE_LEVEL_REPO, NULL);
	return p;
}

static void test_plain_repository_is_ours(void **state)
{
	struct repo_probe p = parse("[core]\n\trepositoryformatversion = 0\n"
				    "\tfilemode = true\n\tbare = false\n"
				    "[remote \"origin\"]\n\turl = /x\n"
				    "[branch \"main\"]\n\tremote = origin\n");

	(void)state;
	assert_int_equal(p.flags, 0);
	assert_int_equal(p.version, 0);
	assert_true(repo_probe_refs_ours(&p));
	assert_true(repo_probe_objects_ours(&p));
	assert_true(repo_probe_index_ours(&p));
	assert_int_equal(repo_probe_hexlen(&p), 40);
	p = parse("");
	assert_true(repo_probe_objects_ours(&p));
}

static void test_object_formats(void **state)
{
	struct repo_probe p = parse("[core]\n\trepositoryformatversion = 1\n"
				    "[extensions]\n\tobjectformat = sha256\n");

	(void)state;
	/* sha256: refs and the index are read, objects are git's to write */
	assert_int_equal(p.objfmt, PROBE_SHA256);
	assert_true(repo_probe_refs_ours(&p));
	assert_true(repo_probe_index_ours(&p));
	assert_false(repo_probe_objects_ours(&p));
	assert_int_equal(repo_probe_hexlen(&p), 64);
	/* names are case-insensitive, values are not */
	p = parse("[Extensions]\n\tObjectFormat = \"sha1\"\n");
	assert_int_equal(p.objfmt, PROBE_SHA1);
	p = parse("[extensions]\n\tobjectformat = SHA256\n");
	assert_false(repo_probe_refs_ours(&p));
	assert_false(repo_probe_index_ours(&p));
	assert_int_equal(repo_probe_hexlen(&p), 0);
	assert_int_equal(repo_probe_objfmt_of(NULL), PROBE_SHA1);
	assert_int_equal(repo_probe_objfmt_of("sha256"), PROBE_SHA256);
	assert_int_equal(repo_probe_objfmt_of("blake3"), PROBE_OBJFMT_OTHER);
}

static void test_ref_storage_and_unknown_extensions(void **state)
{
	struct repo_probe p = parse("[core]\n\trepositoryformatversion = 1\n"
				    "[extensions]\n\trefStorage = reftable\n");

	(void)state;
	assert_true(p.flags & PROBE_REFS_OTHER);
	assert_false(repo_probe_refs_ours(&p));
	assert_false(repo_probe_ref_writes_ours(&p));
	assert_true(repo_probe_objects_ours(&p)); /* objects are the same */
	p = parse("[extensions]\n\trefstorage = files\n");
	assert_true(repo_probe_objects_ours(&p));
	/* one git added after us: git refuses it (v1) or ignores it (v0);
	 * either way it is git's */
	p = parse("[core]\n\trepositoryformatversion = 1\n"
		  "[extensions]\n\tcompatObjectFormat = sha256\n");
	assert_true(p.flags & PROBE_UNKNOWN_EXT);
	assert_false(repo_probe_refs_ours(&p));
	assert_false(repo_probe_index_ours(&p));
	/* the ones that change no format we touch */
	p = parse("[extensions]\n\tpreciousObjects = true\n"
		  "\tpartialClone = origin\n\tnoop = x\n");
	assert_true(repo_probe_objects_ours(&p));
	p = parse("[extensions]\n\tworktreeConfig = true\n");
	assert_true(p.flags & PROBE_WORKTREE_CONFIG);
	assert_true(repo_probe_objects_ours(&p));
	p = parse("[extensions]\n\tworktreeConfig = false\n");
	assert_false(p.flags & PROBE_WORKTREE_CONFIG);
	/* a newer repository format */
	p = parse("[core]\n\trepositoryformatversion = 2\n");
	assert_true(p.flags & PROBE_FORMAT_NEWER);
	assert_false(repo_probe_refs_ours(&p));
}

static void test_index_and_sharing(void **state)
{
	struct repo_probe p = parse("[core]\n\tsplitIndex = true\n");

	(void)state;
	assert_false(repo_probe_index_ours(&p));
	assert_true(repo_probe_objects_ours(&p));
	p = parse("[index]\n\tsparse = true\n");
	assert_false(repo_probe_index_ours(&p));
	p = parse("[index]\n\tsparse\n"); /* a bare name is true */
	assert_false(repo_probe_index_ours(&p));
	p = parse("[index]\n\tsparse = false\n[core]\n\tsplitindex = no\n");
	assert_true(repo_probe_index_ours(&p));
	/* git adjusts the modes it writes: ours would differ */
	static const char *const shared[] = { "group", "true",	    "all",
					      "world", "everybody", "0660",
					      "1" };
	for (size_t i = 0; i < ARRAY_SIZE(shared); i++) {
		char cfg[64];
		snprintf(cfg, sizeof(cfg), "[core]\n\tsharedRepository = %s\n",
			 shared[i]);
		p = parse(cfg);
		assert_true(p.flags & PROBE_SHARED);
		assert_false(repo_probe_objects_ours(&p));
		assert_false(repo_probe_ref_writes_ours(&p));
		assert_false(repo_probe_files_ours(&p));
		assert_true(repo_probe_refs_ours(&p));
	}
	/* git logs every ref it creates: a loose ref of ours would have none */
	p = parse("[core]\n\tlogAllRefUpdates = always\n");
	assert_false(repo_probe_ref_writes_ours(&p));
	assert_true(repo_probe_objects_ours(&p));
	assert_true(repo_probe_refs_ours(&p));
	p = parse("[core]\n\tlogAllRefUpdates = true\n");
	assert_true(repo_probe_ref_writes_ours(&p));
	p = parse("[core]\n\tsharedRepository = umask\n");
	assert_false(p.flags & PROBE_SHARED);
	p = parse("[core]\n\tsharedrepository = false\n");
	assert_false(p.flags & PROBE_SHARED);
}

static void test_syntax(void **state)
{
	/* comments, quotes, escapes, continuations, a key after a header */
	struct repo_probe p =
		parse("# top\n; also\n[core] splitIndex = \"tr\"ue # c\n"
		      "[extensions]\n\trefstorage = fi\\\nles ; c\n"
		      "[core \"sub\"]\n\tsplitindex = true\n"
		      "[index]\tsparse = \"false\"\n");

	(void)state;
	assert_int_equal(p.flags, PROBE_SPLIT_INDEX);
	/* a subsection is another key (core.sub.splitindex) */
	p = parse("[core \"x\"]\n\tsharedrepository = group\n");
	assert_int_equal(p.flags, 0);
	/* an include could set anything: not ours */
	static const char *const odd[] = {
		"[include]\n\tpath = other\n",
		"[includeIf \"gitdir:/x/\"]\n\tpath = other\n",
		"[core\n",
		"[core \"x]\n",
		"[core]\n\t=x\n",
		"[core]\n\ta = \"x\n",
		"[core]\n\ta = x\\q\n",
		"[core]\n\trepositoryformatversion = one\n",
		"[core]\n\trepositoryformatversion\n",
		"[core]\n\ta b\n",
		"[core]\n\ta = x\\",
	};
	for (size_t i = 0; i < ARRAY_SIZE(odd); i++) {
		p = parse(odd[i]);
		assert_true(p.flags & PROBE_ODD);
		assert_false(repo_probe_refs_ours(&p));
		assert_false(repo_probe_index_ours(&p));
		assert_false(repo_probe_objects_ours(&p));
	}
	p = (struct repo_probe){ 0 };
	repo_probe_config(&p, "[core]\n\0", 8, PROBE_LEVEL_REPO, NULL);
	assert_true(p.flags & PROBE_ODD);
}

static void test_levels_and_includes(void **state)
{
	struct strvec inc = STRVEC_INIT;
	struct repo_probe p = { 0 };
	const char *other = "[core]\n\trepositoryformatversion = 5\n"
			    "\tsharedRepository = group\n"
			    "[extensions]\n\tobjectformat = blake3\n";
	const char *incs = "[include]\n\tpath = a.inc\n"
			   "[includeIf \"gitdir:/x/\"]\n\tpath = ~/b.inc\n"
			   "[includeIf \"onbranch:main\"]\n\tcondition = x\n";

	(void)state;
	/* git reads the format and extensions from the repository's config
	 * only: elsewhere they change nothing, the other keys do */
	repo_probe_config(&p, other, strlen(other), PROBE_LEVEL_OTHER, NULL);
	assert_int_equal(p.flags, PROBE_SHARED);
	assert_int_equal(p.objfmt, PROBE_SHA1);
	/* includes are handed back, conditions or not */
	p = (struct repo_probe){ 0 };
	repo_probe_config(&p, incs, strlen(incs), PROBE_LEVEL_REPO, &inc);
	assert_int_equal(p.flags, 0);
	assert_int_equal(inc.nr, 2);
	assert_string_equal(inc.v[0], "a.inc");
	assert_string_equal(inc.v[1], "~/b.inc");
	strvec_clear(&inc);
	p = parse("[include]\n\tpath\n");
	assert_true(p.flags & PROBE_ODD);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_get_reads_and_rereads(void **state)
{
	char dir[64], sub[128];
	const struct repo_probe *p;

	(void)state;
	assert_int_equal(unit_tmpdir_make(dir, sizeof(dir), "probe"), 0);
	/* the operator's files: none but ours */
	snprintf(sub, sizeof(sub), "%s/global", dir);
	setenv("GIT_CONFIG_GLOBAL", sub, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	snprintf(sub, sizeof(sub), "%s/objects", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	/* no config at all: git's defaults */
	p = repo_probe_get(dir, NULL);
	assert_true(repo_probe_objects_ours(p));
	put(dir, "config", "[core]\n\trepositoryformatversion = 0\n");
	assert_true(repo_probe_objects_ours(repo_probe_get(dir, NULL)));
	/* the config changes (another size): read again */
	put(dir, "config",
	    "[core]\n\trepositoryformatversion = 1\n"
	    "[extensions]\n\trefstorage = reftable\n");
	assert_false(repo_probe_refs_ours(repo_probe_get(dir, NULL)));
	put(dir, "config", "[core]\n");
	assert_true(repo_probe_refs_ours(repo_probe_get(dir, NULL)));
	/* a reftable directory, whatever the config says */
	snprintf(sub, sizeof(sub), "%s/reftable", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_false(repo_probe_refs_ours(repo_probe_get(dir, NULL)));
	assert_int_equal(rmdir(sub), 0);
	assert_true(repo_probe_refs_ours(repo_probe_get(dir, NULL)));
	/* worktreeConfig brings in config.worktree */
	put(dir, "config", "[extensions]\n\tworktreeconfig = true\n");
	put(dir, "config.worktree", "[core]\n\tsplitindex = true\n");
	assert_false(repo_probe_index_ours(repo_probe_get(dir, NULL)));
	/* a setgid objects directory: a shared repository */
	snprintf(sub, sizeof(sub), "%s/objects", dir);
	put(dir, "config", "[core]\n\tbare = false\n");
	assert_int_equal(chmod(sub, 02775), 0);
	assert_false(repo_probe_objects_ours(repo_probe_get(dir, NULL)));
	/* an included file is read too, and read again when it changes */
	chmod(sub, 0755);
	put(dir, "config", "[include]\n\tpath = more.inc\n");
	put(dir, "more.inc", "[core]\n\tlogallrefupdates = true\n");
	assert_true(repo_probe_ref_writes_ours(repo_probe_get(dir, NULL)));
	put(dir, "more.inc", "[core]\n\tlogallrefupdates = always\n");
	assert_false(repo_probe_ref_writes_ours(repo_probe_get(dir, NULL)));
	/* an include that cannot be followed: nothing is ours */
	put(dir, "config", "[include]\n\tpath = ~nobody/x\n");
	assert_false(repo_probe_refs_ours(repo_probe_get(dir, NULL)));
	/* the operator's global file */
	put(dir, "config", "[core]\n");
	assert_true(repo_probe_objects_ours(repo_probe_get(dir, NULL)));
	put(dir, "global", "[core]\n\tsharedrepository = group\n");
	assert_false(repo_probe_objects_ours(repo_probe_get(dir, NULL)));
	put(dir, "global", "[core]\n\tsharedrepository = umask\n");
	assert_true(repo_probe_objects_ours(repo_probe_get(dir, NULL)));
	/* a relative or missing name: nothing is ours */
	assert_false(repo_probe_refs_ours(repo_probe_get("relative", NULL)));
	assert_false(repo_probe_refs_ours(repo_probe_get(NULL, NULL)));
	assert_int_equal(unit_tmpdir_remove(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_repository_is_ours),
		cmocka_unit_test(test_object_formats),
		cmocka_unit_test(test_ref_storage_and_unknown_extensions),
		cmocka_unit_test(test_index_and_sharing),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_levels_and_includes),
		cmocka_unit_test(test_get_reads_and_rereads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
