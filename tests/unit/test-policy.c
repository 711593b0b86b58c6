/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table tests for the pure shim modules: argv normalisation, command
 * classification, push refspec guards and policy_decide(). Each row is
 * "command line + situation -> expected verdict" (doas t-permit style).
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>
#include "git/argv.h"
#include "git/classify.h"
#include "git/outpaths.h"
#include "git/config-env.h"
#include "git/policy.h"
#include "git/pushspec.h"

#define MAXW 16

static size_t split(const char *line, const char **out, char *buf, size_t bufsz)
{
	size_t n = 0;
	snprintf(buf, bufsz, "%s", line);
	for (char *p = buf; *p && n < MAXW;) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		out[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	return n;
}

static void test_argv_globals(void **state)
{
	const char *v[MAXW];
	char buf[256];
	struct git_argv ga;
	size_t n = split("-C /x -c a.b=c --no-pager --git-dir=/g --work-tree /w checkout -q main", v, buf, sizeof(buf));

	git_argv_parse(&ga, v, n);
	assert_string_equal(ga.sub, "checkout");
	assert_int_equal(ga.nopts + ga.npos, 2);
	assert_int_equal(ga.nchdirs, 1);
	assert_string_equal(ga.chdirs[0], "/x");
	assert_int_equal(ga.nconfigs, 1);
	assert_string_equal(ga.git_dir, "/g");
	assert_string_equal(ga.work_tree, "/w");
	assert_null(ga.bad_global);
	git_argv_release(&ga);

	n = split("--frob status", v, buf, sizeof(buf));
	git_argv_parse(&ga, v, n);
	assert_string_equal(ga.bad_global, "--frob");
	git_argv_release(&ga);

	/* -C's value is never the subcommand; a trailing -C is bad */
	n = split("-C", v, buf, sizeof(buf));
	git_argv_parse(&ga, v, n);
	assert_null(ga.sub);
	assert_non_null(ga.bad_global);
	git_argv_release(&ga);

	n = split("--version", v, buf, sizeof(buf));
	git_argv_parse(&ga, v, n);
	assert_true(ga.info_only);
	assert_null(ga.sub);
	git_argv_release(&ga);

	/* commit -C <rev> is not a global */
	n = split("commit -C HEAD", v, buf, sizeof(buf));
	git_argv_parse(&ga, v, n);
	assert_int_equal(ga.nchdirs, 0);
	assert_string_equal(ga.sub, "commit");
	git_argv_release(&ga);
}

static void test_config_keys(void **state)
{
	char key[128];
	const char *val;
	const char *bad[] = { "core.hooksPath=x", "CORE.HOOKSPATH=x", "alias.co=checkout",
		"credential.helper=store", "include.path=/x", "includeIf.gitdir:/x.path=y",
		"filter.lfs.smudge=x", "diff.x.textconv=cat", "remote.origin.url=/x",
		"core.sshCommand=x", "core.fsmonitor=x", "url.https://x.insteadOf=y",
		"core.editor=vim", "core.pager=less",
		"remote.origin.fetch=+refs/heads/*:refs/heads/*", "remote.origin.push=+HEAD:main" };
	const char *ok[] = { "user.name=x",	  "core.autocrlf=false",
			     "color.ui=never",	  "core.editor=true",
			     "sequence.editor=:", "core.pager=cat",
			     "diff.renames=true", "core.sshCommand=",
			     "diff.external=",	  "push.default=simple" };

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		val = git_config_split(bad[i], key, sizeof(key));
		if (!git_config_key_dangerous(key) || git_config_value_inert(key, val))
			fail_msg("should be dangerous: %s", bad[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		val = git_config_split(ok[i], key, sizeof(key));
		if (git_config_key_dangerous(key) && !git_config_value_inert(key, val))
			fail_msg("should be allowed: %s", ok[i]);
	}
	/* subsection case is kept, section/variable lowered */
	git_config_split("Remote.Origin.URL=x", key, sizeof(key));
	assert_string_equal(key, "remote.Origin.url");
}

static void test_read_only_forms(void **state)
{
	const char *ro[] = { "status", "log --oneline", "branch", "branch -a -v", "branch --list feat*",
		"branch --contains HEAD", "tag", "tag -l v*", "remote -v", "remote show origin",
		"stash list", "worktree list", "config --get user.name", "config user.name",
		"config --list", "reflog", "reflog show", "submodule", "submodule status",
		"symbolic-ref HEAD", "fetch origin", "hash-object f", "notes list", "" };
	const char *rw[] = { "commit -m x", "branch new", "branch -D x", "tag v1", "tag -d v1",
		"remote add x y", "stash", "stash drop", "worktree add x", "config user.name x",
		"config --unset user.name", "reflog expire --all", "submodule update",
		"submodule status x", "symbolic-ref HEAD refs/heads/x", "clean -n", "gc",
		"hash-object -w f", "bisect start", "notes add -m x", "init", "clone x",
		"frobnicate", "update-ref refs/heads/x HEAD", "branch -u origin/x", "branch -uorigin/x" };
	const char *v[MAXW];
	char buf[256];
	struct git_argv ga;

	for (size_t i = 0; i < ARRAY_SIZE(ro); i++) {
		git_argv_parse(&ga, v, split(ro[i], v, buf, sizeof(buf)));
		if (!git_form_read_only(&ga))
			fail_msg("should be read-only: '%s'", ro[i]);
		git_argv_release(&ga);
	}
	for (size_t i = 0; i < ARRAY_SIZE(rw); i++) {
		git_argv_parse(&ga, v, split(rw[i], v, buf, sizeof(buf)));
		if (git_form_read_only(&ga))
			fail_msg("should be a write: '%s'", rw[i]);
		git_argv_release(&ga);
	}
}

/* a read command told to write a file is a write, snapshotted (I5, I6) */
static void test_output_forms(void **state)
{
	static const struct {
		const char *cmd;
		bool read_only;
		const char *slug;
	} rows[] = {
		{ "archive HEAD", true, NULL },
		{ "format-patch --stdout HEAD~1", true, NULL },
		{ "diff -- -o", true, NULL },
		{ "archive -o f HEAD", false, "archive" },
		{ "archive -vof HEAD", false, "archive" },
		{ "format-patch -o d HEAD~1", false, "format-patch" },
		{ "diff --output=f", false, "diff" },
		{ "log --output f", false, "log" },
		{ "bugreport -o d", false, "bugreport" },
		{ "bugreport", false, "bugreport" },
		{ "diagnose --no-output-directory", false, "diagnose" },
		{ "mailinfo msg patch", false, "mailinfo" },
		{ "mailsplit -od", false, "mailsplit" },
		{ "fetch --depth=1 origin", false, NULL },
		{ "fetch --shallow-since 2000-01-01", false, NULL },
		{ "fetch --unshallow origin", true, NULL },
	};
	const char *v[MAXW];
	char buf[256];
	struct git_argv ga;
	const char *slug;
	bool q;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		git_argv_parse(&ga, v, split(rows[i].cmd, v, buf, sizeof(buf)));
		if (git_form_read_only(&ga) != rows[i].read_only)
			fail_msg("'%s' should be %s", rows[i].cmd,
				 rows[i].read_only ? "read-only" : "a write");
		slug = git_destructive_slug(&ga, &q);
		if (!rows[i].slug != !slug ||
		    (slug && strcmp(slug, rows[i].slug)))
			fail_msg("'%s': snapshot slug %s", rows[i].cmd,
				 slug ? slug : "(none)");
		git_argv_release(&ga);
	}
}

static void test_destructive(void **state)
{
	static const struct {
		const char *cmd;
		const char *slug;
		bool q;
	} rows[] = {
		{ "reset --hard", "reset", false },
		{ "reset --merge", "reset", false },
		{ "reset HEAD~1", NULL, false },
		{ "clean -fd", "clean", false },
		{ "clean -fdx", "clean", true },
		{ "clean -f -X", "clean", true },
		{ "clean -n", NULL, false },
		{ "clean -d", NULL, false },
		{ "checkout -- .", "checkout", false },
		{ "checkout -f other", "checkout", false },
		{ "checkout -b x", NULL, false },
		{ "checkout", NULL, false },
		{ "restore .", "restore", false },
		{ "restore --staged f", NULL, false },
		{ "restore --staged --worktree f", "restore", false },
		{ "switch --discard-changes x", "switch", false },
		{ "switch x", NULL, false },
		{ "stash drop", "stash", false },
		{ "stash clear", "stash", false },
		{ "stash pop", "stash", false },
		{ "stash apply", "stash", false },
		{ "rebase main", "rebase", false },
		{ "merge x", "merge", false },
		{ "cherry-pick a", "cherry-pick", false },
		{ "read-tree -u --reset HEAD", "read-tree", false },
		{ "rm -f x", "rm", false },
		{ "status", NULL, false },
		{ "commit -m x", NULL, false },
		/* a `--` that is an option's value ends no options: git reads a
		 * file named `--` and resets hard (ga->opts_end) */
		{ "reset --pathspec-from-file -- --hard", "reset", false },
		{ "reset -q -- --hard", NULL, false },
		{ "rm --pathspec-from-file -- -f", "rm", false },
		{ "switch --conflict -- --discard-changes x", "switch", false },
		/* an output file, whatever else the form does (seed 33) */
		{ "read-tree --index-output README.md", "read-tree", false },
		{ "checkout-index --prefix=out/ -a", "checkout-index", false },
		{ "stash show --output=x", "stash", false },
		/* destructive by default (issue 33): not known safe */
		{ "sparse-checkout set src", "sparse-checkout", false },
		{ "sparse-checkout reapply", "sparse-checkout", false },
		{ "sparse-checkout list", NULL, false },
		{ "rm x", "rm", false },
		{ "rm -r --cached x", "rm", false },
		{ "revert HEAD", "revert", false },
		{ "apply p.diff", "apply", false },
		{ "apply --check p.diff", NULL, false },
		{ "apply --stat --apply p.diff", "apply", false },
		{ "bisect start", "bisect", false },
		{ "bisect log", NULL, false },
		{ "update-index --force-remove x", "update-index", false },
		{ "submodule update --force", "submodule", false },
		{ "submodule status", NULL, false },
		{ "interpret-trailers --in-place f", "interpret-trailers",
		  false },
		/* known safe: refs, config, objects; add and commit save */
		{ "add .", NULL, false },
		{ "branch -D x", NULL, false },
		{ "update-ref -d refs/heads/x", NULL, false },
		{ "gc", NULL, false },
		{ "push origin x", NULL, false },
		{ "config user.name x", NULL, false },
		{ "fetch origin", NULL, false },
	};
	const char *v[MAXW];
	char buf[256];
	struct git_argv ga;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		bool q;
		const char *s;
		git_argv_parse(&ga, v, split(rows[i].cmd, v, buf, sizeof(buf)));
		s = git_destructive_slug(&ga, &q);
		if ((s == NULL) != (rows[i].slug == NULL) || (s && strcmp(s, rows[i].slug)) ||
		    (s && q != rows[i].q))
			fail_msg("'%s': got %s/%d", rows[i].cmd, s ? s : "(none)", q);
		git_argv_release(&ga);
	}
}

static void test_checkout_analysis(void **state)
{
	static const struct {
		const char *cmd;
		unsigned f0, f1;
		enum co_kind kind;
		const char *target;
	} rows[] = {
		{ "checkout main", TOK_LOCAL_BRANCH, 0, CO_BRANCH, "main" },
		{ "checkout -q main", TOK_LOCAL_BRANCH, 0, CO_BRANCH, "main" },
		{ "checkout -f main", TOK_LOCAL_BRANCH, 0, CO_BRANCH, "main" },
		{ "checkout -b x", 0, 0, CO_CREATE, "x" },
		{ "checkout -B x main", 0, 0, CO_CREATE, "x" },
		{ "checkout --orphan x", 0, 0, CO_CREATE, "x" },
		{ "checkout --detach", 0, 0, CO_DETACH, NULL },
		{ "checkout -", 0, 0, CO_PREVIOUS, "-" },
		{ "checkout @{-1}", TOK_REVLIKE, 0, CO_PREVIOUS, "@{-1}" },
		{ "checkout -- f.txt", 0, 0, CO_FILES, NULL },
		{ "checkout main -- f.txt", 0, 0, CO_FILES, NULL },
		{ "checkout main f.txt", TOK_LOCAL_BRANCH, TOK_PATH, CO_FILES,
		  "main" },
		{ "checkout f.txt", TOK_PATH, 0, CO_FILES, "f.txt" },
		{ "checkout v1.0", TOK_TAG, 0, CO_DETACH, "v1.0" },
		{ "checkout deadbeef", TOK_REVLIKE, 0, CO_DETACH, "deadbeef" },
		{ "checkout feature", TOK_REMOTE_BRANCH, 0, CO_BRANCH,
		  "feature" },
		{ "checkout mystery", 0, 0, CO_BRANCH, "mystery" },
		{ "checkout HEAD", TOK_REVLIKE, 0, CO_NONE, "HEAD" },
		/* a branch named `@` or `HEAD` is switched to (seed 31) */
		{ "switch @", TOK_REVLIKE | TOK_LOCAL_BRANCH, 0, CO_BRANCH,
		  "@" },
		{ "checkout HEAD", TOK_REVLIKE | TOK_LOCAL_BRANCH, 0, CO_BRANCH,
		  "HEAD" },
		{ "checkout @", TOK_REVLIKE, 0, CO_DETACH, "@" },
		{ "switch @", TOK_REVLIKE | TOK_REMOTE_BRANCH, 0, CO_BRANCH,
		  "@" },
		{ "checkout HEAD", TOK_REVLIKE | TOK_REMOTE_BRANCH, 0, CO_NONE,
		  "HEAD" },
		{ "checkout", 0, 0, CO_NONE, NULL },
		{ "checkout --pathspec-from-file=list", 0, 0, CO_FILES, NULL },
		{ "switch x", 0, 0, CO_BRANCH, "x" },
		{ "switch -c x", 0, 0, CO_CREATE, "x" },
		/* --track/--no-track with no name: git names one (I20) */
		{ "switch --no-track feat/a", TOK_LOCAL_BRANCH, 0, CO_CREATE,
		  "a" },
		{ "checkout -t origin/x", 0, 0, CO_CREATE, "x" },
		{ "checkout --track=direct refs/remotes/origin/x", 0, 0,
		  CO_CREATE, "x" },
		{ "switch -c y --track origin/x", 0, 0, CO_CREATE, "y" },
		{ "switch -C x", 0, 0, CO_CREATE, "x" },
		{ "switch --create=x", 0, 0, CO_CREATE, "x" },
		{ "switch -d HEAD~1", 0, 0, CO_DETACH, "HEAD~1" },
		{ "switch -", 0, 0, CO_PREVIOUS, "-" },
		{ "switch f.txt", TOK_PATH, 0, CO_BRANCH, "f.txt" },
		/* a `--` that is an option's value: the options go on */
		{ "switch --conflict -- -c x", 0, 0, CO_CREATE, "x" },
		{ "checkout --conflict -- --detach", 0, 0, CO_DETACH, NULL },
		{ "checkout --conflict -- main", TOK_LOCAL_BRANCH, 0, CO_BRANCH,
		  "main" },
	};
	const char *v[MAXW];
	char buf[256];
	struct git_argv ga;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct co_analysis co;
		unsigned facts[4] = { rows[i].f0, rows[i].f1, 0, 0 };
		git_argv_parse(&ga, v, split(rows[i].cmd, v, buf, sizeof(buf)));
		git_checkout_analyse(&ga, facts, &co);
		if (co.kind != rows[i].kind ||
		    (rows[i].target && (!co.target || strcmp(co.target, rows[i].target))))
			fail_msg("'%s': kind %d target %s", rows[i].cmd, co.kind,
				 co.target ? co.target : "(null)");
		git_argv_release(&ga);
	}
}

static void test_overwrite_source(void **state)
{
	static const struct {
		const char *cmd;
		unsigned f0, f1;
		const char *src; /* the sources, space-separated */
		const char *paths;
	} rows[] = {
		{ "checkout other -- .env", 0, 0, "other", ".env" },
		{ "checkout other .env a", TOK_LOCAL_BRANCH, TOK_PATH, "other",
		  ".env a" },
		{ "checkout -- .env", 0, 0, "", "" },
		{ "checkout .env", TOK_PATH, 0, "", "" },
		{ "checkout -f main", TOK_LOCAL_BRANCH, 0, "main", "" },
		{ "checkout main", TOK_LOCAL_BRANCH, 0, "main", "" },
		{ "checkout -b x main", 0, 0, "", "" },
		{ "restore --source=other .env", 0, 0, "other", ".env" },
		{ "restore -s other -- .env b", 0, 0, "other", ".env b" },
		{ "restore --source other .", 0, 0, "other", "." },
		{ "restore .env", 0, 0, "", "" },
		{ "reset --hard", 0, 0, "HEAD", "" },
		{ "reset --hard other", 0, 0, "other", "" },
		{ "merge --no-edit -m msg other", 0, 0, "other", "" },
		{ "merge --abort", 0, 0, "", "" },
		{ "cherry-pick -x abc", 0, 0, "abc", "" },
		/* the commits land on --onto's tree */
		{ "rebase --onto a b", 0, 0, "a b", "" },
		{ "rebase --onto=a b", 0, 0, "a b", "" },
		{ "rebase --onto a b c", 0, 0, "a b c", "" },
		/* no pathspec: after `--` is a revision (run 10, seed 26) */
		{ "rebase --autostash -- other", 0, 0, "other", "" },
		{ "merge --no-edit -- other", 0, 0, "other", "" },
		{ "cherry-pick -- abc", 0, 0, "abc", "" },
		/* every commit they bring in (run 21, seed 36) */
		{ "merge feat/a other", 0, 0, "feat/a other", "" },
		{ "merge -m msg -s octopus a b c", 0, 0, "a b c", "" },
		{ "cherry-pick a b", 0, 0, "a b", "" },
		{ "cherry-pick a..b", 0, 0, "a b", "" },
		{ "cherry-pick a...b", 0, 0, "a b", "" },
		{ "cherry-pick ..b", 0, 0, "HEAD b", "" },
		{ "cherry-pick ^a b", 0, 0, "b", "" },
		/* a revert writes the parent's version back (issue 33) */
		{ "revert --no-edit abc", 0, 0, "abc abc^", "" },
		{ "revert a..b", 0, 0, "a b a^ b^", "" },
		{ "cherry-pick a^!", 0, 0, "a", "" },
		{ "status", 0, 0, "", "" },
	};
	const char *v[MAXW];
	char buf[256];
	struct git_argv ga;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct strvec paths = STRVEC_INIT;
		struct strbuf got = STRBUF_INIT;
		unsigned facts[8] = { rows[i].f0, rows[i].f1 };
		struct strvec src = STRVEC_INIT;
		struct strbuf srcs = STRBUF_INIT;

		git_argv_parse(&ga, v, split(rows[i].cmd, v, buf, sizeof(buf)));
		git_overwrite_sources(&ga, facts, &src, &paths);
		for (size_t j = 0; j < src.nr; j++)
			strbuf_addf(&srcs, "%s%s", j ? " " : "", src.v[j]);
		for (size_t j = 0; j < paths.nr; j++)
			strbuf_addf(&got, "%s%s", j ? " " : "", paths.v[j]);
		if (strcmp(srcs.buf, rows[i].src) ||
		    strcmp(got.buf, rows[i].paths))
			fail_msg("'%s': sources '%s' paths '%s'", rows[i].cmd,
				 srcs.buf, got.buf);
		strvec_clear(&src);
		strbuf_release(&srcs);
		strvec_clear(&paths);
		strbuf_release(&got);
		git_argv_release(&ga);
	}
}

static bool prot_main(const char *b, void *ctx)
{
	return !strcasecmp(b, "main") || !strcasecmp(b, "master");
}

static void test_push_spec(void **state)
{
	static const struct { const char *cmd; const char *event; } rows[] = {
		{ "push origin feat/a", NULL },
		{ "push origin HEAD", NULL },
		{ "push origin HEAD:feat/a", NULL },
		{ "push origin HEAD:refs/heads/feat/a", NULL },
		{ "push -u origin feat/a", NULL },
		{ "push --force-with-lease origin feat/a", NULL },
		{ "push origin v1.0:refs/tags/v1.0", NULL },
		{ "push origin tag v1", NULL },
		{ "push", NULL },
		{ "push -o ci.skip origin feat/a", NULL },
		{ "push origin main", "deny_protected_ref" },
		{ "push origin HEAD:Main", "deny_protected_ref" },
		{ "push origin :main", "deny_cross_branch_push" },
		{ "push origin feat/b", "deny_cross_branch_push" },
		{ "push origin HEAD:feat/b", "deny_cross_branch_push" },
		{ "push origin +HEAD:feat/b", "deny_force_no_lease" },
		{ "push --force origin feat/a", "deny_force_no_lease" },
		{ "push -uf origin feat/a", "deny_force_no_lease" },
		{ "push --force --force-with-lease origin feat/a", "deny_force_no_lease" },
		{ "push --all origin", "deny_protected_ref" },
		{ "push --mir origin", "deny_protected_ref" },
		{ "push --prune origin", "deny_protected_ref" },
		{ "push origin refs/agentic-git/snapshots/x:refs/heads/feat/a", "deny_snapshot_ref_push" },
		{ "push origin HEAD:refs/heads/*", "deny_protected_ref" },
		{ "push origin --delete feat/a", "deny_cross_branch_push" },
		{ "push origin feat/a :feat/b", "deny_cross_branch_push" },
	};
	const char *v[MAXW];
	char buf[256];
	struct git_argv ga;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct push_spec ps;
		struct strbuf why = STRBUF_INIT;
		const char *ev;
		git_argv_parse(&ga, v, split(rows[i].cmd, v, buf, sizeof(buf)));
		push_spec_parse(&ga, &ps);
		ev = push_spec_check(&ps, "feat/a", "feat/a", prot_main, NULL, &why);
		if ((ev == NULL) != (rows[i].event == NULL) || (ev && strcmp(ev, rows[i].event)))
			fail_msg("'%s': got %s (%s)", rows[i].cmd, ev ? ev : "allowed", why.buf);
		strbuf_release(&why);
		push_spec_release(&ps);
		git_argv_release(&ga);
	}
	/* drift: HEAD not on the assigned branch, no refspec */
	{
		struct push_spec ps;
		struct strbuf why = STRBUF_INIT;
		git_argv_parse(&ga, v, split("push", v, buf, sizeof(buf)));
		push_spec_parse(&ga, &ps);
		assert_string_equal(push_spec_check(&ps, "feat/a", "other", prot_main, NULL, &why),
				    "deny_cross_branch_push");
		strbuf_release(&why);
		push_spec_release(&ps);
		git_argv_release(&ga);
	}
	/* the retry line names remote and branch */
	{
		struct push_spec ps;
		struct strbuf why = STRBUF_INIT;
		git_argv_parse(&ga, v, split("push -f origin feat/x", v, buf, sizeof(buf)));
		push_spec_parse(&ga, &ps);
		push_spec_check(&ps, "feat/x", "feat/x", prot_main, NULL, &why);
		assert_non_null(strstr(why.buf, "git fetch origin feat/x && git push --force-with-lease origin feat/x"));
		strbuf_release(&why);
		push_spec_release(&ps);
		git_argv_release(&ga);
	}
	/* issue 35: the retry is itself allowed: never a protected branch
	 * or another one, but the session's own */
	{
		struct push_spec ps;
		struct strbuf why = STRBUF_INIT;
		git_argv_parse(
			&ga, v,
			split("push --force origin main", v, buf, sizeof(buf)));
		push_spec_parse(&ga, &ps);
		push_spec_check(&ps, "feat/x", "feat/x", prot_main, NULL, &why);
		assert_non_null(strstr(
			why.buf,
			"git fetch origin feat/x && git push --force-with-lease origin feat/x"));
		assert_null(strstr(why.buf, "--force-with-lease origin main"));
		strbuf_release(&why);
		push_spec_release(&ps);
		git_argv_release(&ga);
	}
}

/* ---- policy_decide ---- */

enum who { OPERATOR, UNBOUND, BOUND, BYPASS };

struct row {
	enum who who;
	enum target_kind target;
	const char *cmd;
	enum verdict_kind want;
	const char *event; /* for denies */
	unsigned f0, f1;   /* token facts for pos[0], pos[1] */
};

static void run_row(const struct row *r, struct ag_protected *prot)
{
	const char *v[MAXW];
	char buf[256];
	struct git_argv ga;
	struct policy_env env = { .agent = "ag1", .agent_valid = true, .home = "/h",
				  .snapshots = -1 };
	struct policy_binding bind = { .state = BS_BOUND, .task_id = "t1",
				       .branch = "feat/a", .worktree = "/wt" };
	unsigned facts[MAXW] = { r->f0, r->f1 };
	/* output paths judged inside (test_output_policy() tests the rest) */
	struct policy_repo repo = { .target = r->target,
				    .target_rel = "",
				    .wt_branch = "feat/a",
				    .tok_facts = facts,
				    .outs_judged = true };
	struct policy_input in = { &ga, &env, &bind, &repo, prot, false };
	struct verdict vd;

	if (r->who == OPERATOR) {
		env.agent = "";
		bind.state = BS_NOAGENT;
	} else if (r->who == UNBOUND) {
		bind.state = BS_UNBOUND;
		bind.why_unbound = "no binding";
	} else if (r->who == BYPASS) {
		env.bypass = true;
		env.bypass_layer = "env";
	}
	git_argv_parse(&ga, v, split(r->cmd, v, buf, sizeof(buf)));
	verdict_init(&vd);
	policy_decide(&in, &vd);
	if (vd.kind != r->want ||
	    (r->want == V_DENY && r->event && strcmp(vd.event ? vd.event : "", r->event)))
		fail_msg("who=%d target=%d '%s': got %s %s (%s)", r->who, r->target, r->cmd,
			 verdict_kind_str(vd.kind), vd.event ? vd.event : "", vd.reason.buf);
	if (vd.kind == V_ROUTE) {
		/* routed argv starts with -C /wt and never keeps a foreign -C */
		assert_string_equal(vd.args.v[0], "-C");
		assert_string_equal(vd.args.v[1], "/wt");
		for (size_t i = 2; i < vd.args.nr; i++)
			if (!strcmp(vd.args.v[i], "-C") &&
			    i < ga.words_.sub_idx + 2)
				fail_msg("'%s' kept a -C", r->cmd);
	}
	verdict_release(&vd);
	git_argv_release(&ga);
}

static void test_policy_table(void **state)
{
	static const struct row rows[] = {
		/* operator: everything passes */
		{ OPERATOR, TGT_SAME, "checkout main", V_PASS, NULL,
		  TOK_LOCAL_BRANCH, 0 },
		{ OPERATOR, TGT_SAME, "worktree add x", V_PASS, NULL, 0, 0 },
		/* unbound: read-only allowlist */
		{ UNBOUND, TGT_SAME, "status", V_PASS, NULL, 0, 0 },
		{ UNBOUND, TGT_SAME, "-C /x log", V_PASS, NULL, 0, 0 },
		{ UNBOUND, TGT_SAME, "--no-pager grep x", V_PASS, NULL, 0, 0 },
		{ UNBOUND, TGT_SAME, "commit -m x", V_DENY, "deny", 0, 0 },
		{ UNBOUND, TGT_SAME, "clean -fd", V_DENY, "deny", 0, 0 },
		{ UNBOUND, TGT_SAME, "branch -D x", V_DENY, "deny", 0, 0 },
		{ UNBOUND, TGT_SAME, "gc", V_DENY, "deny", 0, 0 },
		{ UNBOUND, TGT_NONE, "init", V_DENY, "deny", 0, 0 },
		{ UNBOUND, TGT_SAME, "stash list", V_PASS, NULL, 0, 0 },
		/* every agent */
		{ BOUND, TGT_SAME, "--frob status", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "-c core.hooksPath=/dev/null commit -m x",
		  V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "-c core.editor=true rebase --continue",
		  V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "--config-env=alias.x=ENV status", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "--exec-path=/tmp status", V_DENY, "deny", 0,
		  0 },
		{ BOUND, TGT_SAME, "credential fill", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "filter-branch --all", V_DENY, "deny", 0,
		  0 },
		{ BOUND, TGT_SAME, "worktree add /x", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "worktree list", V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "submodule--helper list", V_DENY, "deny", 0,
		  0 },
		/* an interactive tool writes outside (docs/fuzzing.md I16) */
		{ BOUND, TGT_SAME, "difftool --", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "difftool -y -x cat", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_FOREIGN, "mergetool", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_NONE, "difftool --no-index a b", V_DENY, "deny", 0,
		  0 },
		{ UNBOUND, TGT_SAME, "difftool", V_DENY, "deny", 0, 0 },
		{ OPERATOR, TGT_SAME, "mergetool", V_PASS, NULL, 0, 0 },
		/* bound: routing */
		{ BOUND, TGT_SAME, "status", V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "-C /canonical commit -m x", V_ROUTE, NULL,
		  0, 0 },
		{ BOUND, TGT_SAME, "--git-dir=/c/.git --work-tree=/c add .",
		  V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_FOREIGN, "commit -m x", V_PASS, NULL, 0, 0 },
		{ BOUND, TGT_FOREIGN, "push origin x", V_DENY,
		  "deny_cross_branch_push", 0, 0 },
		{ BOUND, TGT_NONE, "init scratch", V_PASS, NULL, 0, 0 },
		{ BOUND, TGT_UNRESOLVED, "commit -m x", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_UNRESOLVED, "log", V_PASS, NULL, 0, 0 },
		/* fence */
		{ BOUND, TGT_SAME, "checkout main", V_DENY, "deny",
		  TOK_LOCAL_BRANCH, 0 },
		{ BOUND, TGT_SAME, "checkout -q main", V_DENY, "deny",
		  TOK_LOCAL_BRANCH, 0 },
		{ BOUND, TGT_SAME, "checkout -b x", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "switch --no-track feat/a", V_DENY, "deny",
		  0, 0 },
		{ BOUND, TGT_SAME, "checkout --detach", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "switch -c x", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "switch -", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "checkout feat/a", V_ROUTE, NULL,
		  TOK_LOCAL_BRANCH, 0 },
		{ BOUND, TGT_SAME, "checkout -- f", V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "checkout main -- f", V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "checkout f", V_ROUTE, NULL, TOK_PATH, 0 },
		/* refs */
		{ BOUND, TGT_SAME, "branch -D main", V_DENY,
		  "deny_protected_ref", 0, 0 },
		{ BOUND, TGT_SAME, "branch -f master HEAD", V_DENY,
		  "deny_protected_ref", 0, 0 },
		{ BOUND, TGT_SAME, "branch -m feat/a other", V_DENY, "deny", 0,
		  0 },
		{ BOUND, TGT_SAME, "branch helper", V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "update-ref refs/heads/main HEAD", V_DENY,
		  "deny_protected_ref", 0, 0 },
		{ BOUND, TGT_SAME, "update-ref refs/heads/other HEAD", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "update-ref refs/heads/feat/a HEAD~1",
		  V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME,
		  "update-ref -d refs/agentic-git/snapshots/ag1/x", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "update-ref --stdin", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "symbolic-ref HEAD refs/heads/main", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "symbolic-ref HEAD refs/heads/feat/a",
		  V_ROUTE, NULL, 0, 0 },
		/* no name: git's usage error, not a crash of the shim (the
		 * generated equivalence test found it) */
		{ BOUND, TGT_SAME, "symbolic-ref -d", V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "symbolic-ref --delete -q", V_ROUTE, NULL, 0,
		  0 },
		{ UNBOUND, TGT_SAME, "symbolic-ref -d", V_PASS, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "fetch origin main:main", V_DENY,
		  "deny_protected_ref", 0, 0 },
		{ BOUND, TGT_SAME, "fetch origin +refs/heads/*:refs/heads/*",
		  V_DENY, "deny_protected_ref", 0, 0 },
		{ BOUND, TGT_SAME, "fetch origin", V_ROUTE, NULL, 0, 0 },
		/* destinations as git expands them, --refmap's too (issue 36) */
		{ BOUND, TGT_SAME, "fetch . feat/a:heads/main", V_DENY,
		  "deny_protected_ref", 0, 0 },
		{ BOUND, TGT_SAME, "pull . feat/a:main", V_DENY,
		  "deny_protected_ref", 0, 0 },
		{ BOUND, TGT_SAME,
		  "fetch origin x --refmap=refs/heads/*:refs/heads/*", V_DENY,
		  "deny_protected_ref", 0, 0 },
		{ BOUND, TGT_SAME, "fetch --stdin origin", V_DENY, "deny", 0,
		  0 },
		{ UNBOUND, TGT_SAME, "fetch --stdin origin", V_DENY, "deny", 0,
		  0 },
		{ UNBOUND, TGT_SAME, "fetch origin main:remotes/o/main", V_PASS,
		  NULL, 0, 0 },
		{ UNBOUND, TGT_SAME, "fetch origin main:heads/x", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME,
		  "fetch --prune . refs/tags/n*:refs/agentic-git*", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "fetch origin x:feat/b", V_ROUTE, NULL, 0,
		  0 },
		{ BOUND, TGT_SAME, "tag -d v1", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "reflog expire --all", V_DENY, "deny", 0,
		  0 },
		{ BOUND, TGT_SAME, "config core.hooksPath /x", V_DENY, "deny",
		  0, 0 },
		{ BOUND, TGT_SAME, "config --global user.name x", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "config user.name x", V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "init", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "co main", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "push origin feat/a", V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "push origin main", V_DENY,
		  "deny_protected_ref", 0, 0 },
		/* bypass passes, even what is otherwise denied */
		{ BYPASS, TGT_SAME, "checkout main", V_PASS, NULL,
		  TOK_LOCAL_BRANCH, 0 },
	};
	struct ag_protected prot;

	ag_protected_init(&prot);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		run_row(&rows[i], &prot);
	ag_protected_release(&prot);
}

/* found by the invariant fuzzer: another checkout's HEAD, the stash, a
 * shallow fetch (I1, I2, I7) */
static void test_fuzzer_findings(void **state)
{
	static const struct row rows[] = {
		{ BOUND, TGT_SAME,
		  "symbolic-ref main-worktree/HEAD refs/heads/o", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME,
		  "symbolic-ref worktrees/b/HEAD refs/heads/feat/a", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "update-ref -d refs/stash", V_DENY, "deny",
		  0, 0 },
		{ BOUND, TGT_SAME, "update-ref refs/stash HEAD", V_ROUTE, NULL,
		  0, 0 },
		{ BOUND, TGT_SAME, "fetch --depth=1 origin", V_DENY, "deny", 0,
		  0 },
		{ BOUND, TGT_SAME, "pull --shallow-exclude v1", V_DENY, "deny",
		  0, 0 },
		{ BOUND, TGT_SAME, "fetch --unshallow origin", V_ROUTE, NULL, 0,
		  0 },
		{ BOUND, TGT_SAME, "stash branch x", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "stash list", V_ROUTE, NULL, 0, 0 },
		/* the bound repository's git dir moved (long run, seed 12) */
		{ BOUND, TGT_SAME, "init-db --separate-git-dir x", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "init --separate-git-dir=/r newdir", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "clone --separate-git-dir /g /o c", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "init --template /t", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "init -b x", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "init -q --template /t newdir", V_ROUTE,
		  NULL, 0, 0 },
		{ BOUND, TGT_SAME, "init -- newdir", V_ROUTE, NULL, 0, 0 },
		/* submodule.<name>.url in the shared config (long run, seed 11) */
		{ BOUND, TGT_SAME, "submodule add /r all", V_DENY, "deny", 0,
		  0 },
		{ BOUND, TGT_SAME, "submodule --quiet add /r", V_DENY, "deny",
		  0, 0 },
		{ BOUND, TGT_SAME, "submodule init", V_DENY, "deny", 0, 0 },
		{ BOUND, TGT_SAME, "submodule sync --recursive", V_DENY, "deny",
		  0, 0 },
		{ BOUND, TGT_SAME, "submodule set-url x /r", V_DENY, "deny", 0,
		  0 },
		{ BOUND, TGT_SAME, "submodule deinit -f x", V_DENY, "deny", 0,
		  0 },
		{ BOUND, TGT_SAME, "submodule update --init", V_DENY, "deny", 0,
		  0 },
		{ BOUND, TGT_SAME, "submodule update -i --recursive", V_DENY,
		  "deny", 0, 0 },
		{ BOUND, TGT_SAME, "submodule update --recursive", V_ROUTE,
		  NULL, 0, 0 },
		{ BOUND, TGT_SAME, "submodule status", V_ROUTE, NULL, 0, 0 },
		{ BOUND, TGT_SAME, "submodule foreach git status", V_ROUTE,
		  NULL, 0, 0 },
	};
	struct ag_protected prot;

	(void)state;
	ag_protected_init(&prot);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		run_row(&rows[i], &prot);
	ag_protected_release(&prot);
}

/* Parses `cmd`, decides with `in` (whose ga is replaced), returns the verdict. */
static void decide(struct policy_input *in, const char *cmd, struct verdict *vd)
{
	static const char *v[MAXW];
	static char buf[256];
	static struct git_argv ga;

	git_argv_release(&ga);
	git_argv_parse(&ga, v, split(cmd, v, buf, sizeof(buf)));
	in->ga = &ga;
	verdict_release(vd);
	verdict_init(vd);
	policy_decide(in, vd);
}

static void test_policy_effects(void **state)
{
	struct policy_env env = { .agent = "ag1", .agent_valid = true, .home = "/h", .snapshots = -1 };
	struct policy_binding bind = { .state = BS_BOUND, .task_id = "t", .branch = "feat/a", .worktree = "/wt" };
	struct policy_repo repo = { .target = TGT_SAME, .target_rel = "src", .rel_exists_in_wt = true };
	struct ag_protected prot;
	struct policy_input in = { NULL, &env, &bind, &repo, &prot, false };
	struct verdict vd;

	verdict_init(&vd);
	ag_protected_init(&prot);
	/* bound: snapshots on by default, relative position kept */
	decide(&in, "clean -fdx", &vd);
	assert_int_equal(vd.kind, V_ROUTE);
	assert_string_equal(vd.route_dir.buf, "/wt/src");
	assert_string_equal(vd.snapshot_slug, "clean");
	assert_true(vd.quarantine);
	/* explicitly off */
	env.snapshots = 0;
	decide(&in, "reset --hard", &vd);
	assert_null(vd.snapshot_slug);
	/* conflict-capable */
	decide(&in, "rebase main", &vd);
	assert_true(vd.conflict_wrap);
	/* bypass: audited, snapshotted */
	env.snapshots = -1;
	env.bypass = true;
	env.bypass_layer = "env";
	decide(&in, "reset --hard", &vd);
	assert_int_equal(vd.kind, V_PASS);
	assert_true(vd.audit_bypass);
	assert_string_equal(vd.snapshot_slug, "reset");
	/* a refused policy.toml protects everything */
	env.bypass = false;
	in.policy_refused = true;
	decide(&in, "push origin feat/a", &vd);
	assert_int_equal(vd.kind, V_DENY);
	assert_string_equal(vd.event, "deny_protected_ref");
	verdict_release(&vd);
	decide(&in, "status", &vd); /* release the parser's state */
	verdict_release(&vd);
	ag_protected_release(&prot);
}

/* a fake environment for config_env_read(): NAME=VALUE pairs */
static const char *const *fake_env;

static const char *fake_get(const char *name)
{
	size_t n = strlen(name);

	for (const char *const *e = fake_env; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

/* A bound agent ag1 in its own worktree /wt, snapshots off: the
 * environment tests' fixture (bound_release() ends it). */
struct bound {
	struct policy_env env;
	struct policy_binding bind;
	struct policy_repo repo;
	struct ag_protected prot;
	struct policy_input in;
	struct verdict vd;
};

static void bound_init(struct bound *b)
{
	*b = (struct bound){
		.env = { .agent = "ag1", .agent_valid = true, .home = "/h" },
		.bind = { .state = BS_BOUND,
			  .task_id = "t",
			  .branch = "feat/a",
			  .worktree = "/wt" },
		.repo = { .target = TGT_SAME,
			  .target_rel = "",
			  .rel_exists_in_wt = true },
	};
	b->in = (struct policy_input){ NULL,	 &b->env,  &b->bind,
				       &b->repo, &b->prot, false };
	verdict_init(&b->vd);
	ag_protected_init(&b->prot);
}

static void bound_release(struct bound *b)
{
	verdict_release(&b->vd);
	decide(&b->in, "status", &b->vd); /* release the parser's state */
	verdict_release(&b->vd);
	ag_protected_release(&b->prot);
}

static void test_env_hooks_off(void **state)
{
	static const char *const gemini[] = {
		"GIT_CONFIG_COUNT=4",
		"GIT_CONFIG_KEY_0=credential.helper",
		"GIT_CONFIG_VALUE_0=",
		"GIT_CONFIG_KEY_1=Core.HooksPath",
		"GIT_CONFIG_VALUE_1=",
		"GIT_CONFIG_KEY_2=core.hooksPath",
		"GIT_CONFIG_VALUE_2=/dev/null",
		"GIT_CONFIG_KEY_3=diff.external",
		"GIT_CONFIG_VALUE_3=",
		NULL
	};
	static const char *const elsewhere[] = {
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.hooksPath",
		"GIT_CONFIG_VALUE_0=/tmp/hooks", NULL
	};
	static const char *const params[] = {
		"GIT_CONFIG_PARAMETERS='core.hooksPath'=''", NULL
	};
	struct bound b;
	struct config_env ce;

	(void)state;
	bound_init(&b);
	b.env.cfg_env = &ce;
	/* off, in any case of the key, "" or /dev/null: dropped, not denied */
	fake_env = gemini;
	config_env_read(&ce, fake_get);
	assert_false(config_env_hooks_off(&ce, 0));
	assert_true(config_env_hooks_off(&ce, 1));
	assert_true(config_env_hooks_off(&ce, 2));
	assert_false(config_env_hooks_off(&ce, 3));
	assert_false(config_env_hooks_off(&ce, 4));
	decide(&b.in, "commit -m x", &b.vd);
	assert_int_not_equal(b.vd.kind, V_DENY);
	assert_true(b.vd.drop_env_hooks_off);
	config_env_release(&ce);
	/* a hooks path of the agent's choosing is judged, and denied */
	fake_env = elsewhere;
	config_env_read(&ce, fake_get);
	assert_false(config_env_hooks_off(&ce, 0));
	decide(&b.in, "commit -m x", &b.vd);
	assert_int_equal(b.vd.kind, V_DENY);
	config_env_release(&ce);
	/* git's own export of -c is judged like -c: denied on a write */
	fake_env = params;
	config_env_read(&ce, fake_get);
	assert_false(config_env_hooks_off(&ce, 0));
	decide(&b.in, "commit -m x", &b.vd);
	assert_int_equal(b.vd.kind, V_DENY);
	assert_false(b.vd.drop_env_hooks_off);
	config_env_release(&ce);
	bound_release(&b);
}

/* A routed clean keeps the session marker with a command-line pattern
 * where its options end, never a pathspec (docs/fuzzing.md I17). */
static void test_clean_keeps_marker(void **state)
{
	static const struct {
		const char *cmd, *want; /* the routed arguments after clean */
	} rows[] = {
		{ "clean -f", "-f -e /.agend-managed" },
		{ "clean -fdx", "-fdx -e /.agend-managed" },
		{ "clean -ffd", "-ffd -e /.agend-managed" },
		{ "clean -fX", "-fX -e !/.agend-managed" },
		{ "clean -f -d -X sub", "-f -d -X sub -e !/.agend-managed" },
		{ "clean -f -- -X", "-f -e /.agend-managed -- -X" },
		{ "clean -f --end-of-options -X",
		  "-f -e /.agend-managed --end-of-options -X" },
		{ "clean -fe -- x", "-fe -- x -e /.agend-managed" },
		{ "clean -f -e -X", "-f -e -X -e /.agend-managed" },
		{ "clean -f --exclude -- -- a",
		  "-f --exclude -- -e /.agend-managed -- a" },
		{ "clean -fx -e !/.agend-managed",
		  "-fx -e !/.agend-managed -e /.agend-managed" },
	};
	struct bound b;
	struct strbuf got = STRBUF_INIT;

	(void)state;
	bound_init(&b);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		decide(&b.in, rows[i].cmd, &b.vd);
		assert_int_equal(b.vd.kind, V_ROUTE);
		strbuf_reset(&got);
		for (size_t k = b.vd.sub_args_at; k < b.vd.args.nr; k++)
			strbuf_addf(&got, "%s%s",
				    k > b.vd.sub_args_at ? " " : "",
				    b.vd.args.v[k]);
		if (strcmp(got.buf, rows[i].want))
			fail_msg("'%s': routed as '%s', want '%s'", rows[i].cmd,
				 got.buf, rows[i].want);
	}
	strbuf_release(&got);
	bound_release(&b);
}

/* A GIT_TRACE* variable that names a file is denied, on a read too; a
 * trace to stderr or a descriptor is not (git's trace.c, tr2_dst.c). */
static void test_env_trace(void **state)
{
	static const struct {
		const char *value;
		bool writes;
	} values[] = {
		{ "/home/op/.bashrc", true },
		{ "/tmp/dir/", true },
		{ "af_unix:/tmp/s", true },
		{ "af_unix:dgram:/s", true },
		{ "1", false },
		{ "2", false },
		{ "true", false },
		{ "7", false },
		{ "0", false },
		{ "false", false },
		{ "", false },
		{ "relative/file", false },
	};
	struct bound b;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		if (git_trace_writes(values[i].value) != values[i].writes)
			fail_msg("'%s': writes %d", values[i].value,
				 !values[i].writes);
	bound_init(&b);
	b.env.trace_var = "GIT_TRACE2_EVENT=/home/op/.profile";
	decide(&b.in, "rev-parse HEAD", &b.vd);
	assert_int_equal(b.vd.kind, V_DENY);
	assert_non_null(strstr(b.vd.reason.buf, "GIT_TRACE2_EVENT=1"));
	assert_non_null(strstr(b.vd.reason.buf, "'/home/op/.profile'"));
	b.bind.state = BS_UNBOUND;
	b.bind.why_unbound = "no binding";
	decide(&b.in, "status", &b.vd);
	assert_int_equal(b.vd.kind, V_DENY);
	b.bind.state = BS_BOUND;
	b.env.trace_var = NULL;
	decide(&b.in, "rev-parse HEAD", &b.vd);
	assert_int_equal(b.vd.kind, V_ROUTE);
	bound_release(&b);
}

/* Output paths (docs/fuzzing.md I5): every spelling git reads is found. */
static void test_output_paths(void **state)
{
	static const struct {
		const char *cmd;
		const char
			*want; /* the paths, '|'-joined; "!" for a bad form */
	} rows[] = {
		{ "status", "" },
		{ "rev-parse HEAD", "" },
		{ "diff -- --output=x", "" },
		{ "archive HEAD", "" },
		{ "grep -o x", "" },
		{ "ls-files -o", "" },
		{ "diff --output-indicator-new=+", "" },
		{ "archive -o /a HEAD", "/a" },
		{ "archive -o/a HEAD", "/a" },
		{ "archive -vo/a HEAD", "/a" },
		{ "archive -vo /a HEAD", "/a" },
		{ "archive --output=/a HEAD", "/a" },
		{ "archive --output /a HEAD", "/a" },
		{ "archive --outp=/a HEAD", "/a" },
		{ "archive --o /a HEAD", "/a" },
		{ "archive -o", "!" },
		{ "diff --output=/a", "/a" },
		/* a prefix of several options: git refuses it, and its value
		 * cannot be told from its next word (fail-closed) */
		{ "diff --out /a", "!" },
		{ "diff --outp=/a", "/a" },
		{ "log --output /a", "/a" },
		{ "show --output=", "!" },
		{ "stash show --output=/a", "/a" },
		{ "range-diff --output=/a a...b", "/a" },
		/* format-patch writes into the working directory unless the
		 * last of --stdout/--no-stdout is --stdout (fuzzing.md I21) */
		{ "format-patch -o /d -1", "/d|." },
		{ "format-patch -o/d -1", "/d|." },
		{ "format-patch --output-directory /d", "/d|." },
		{ "format-patch --output-dir=/d", "/d|." },
		{ "format-patch --output=/f -1", "/f|." },
		{ "format-patch --suffix=/../x -1", "!" },
		{ "format-patch --suffix=.txt -1", "." },
		{ "format-patch -1", "." },
		{ "format-patch --stdout -1", "" },
		{ "format-patch --stdout --no-stdout -1", "." },
		{ "format-patch --no-stdout --stdout -1", "" },
		/* format-patch expands no abbreviation (git's table says so:
		 * it hands what it does not know to the revision parser) */
		{ "format-patch --stdo -1", "." },
		{ "format-patch -- --stdout", "." },
		/* a `--` or `--end-of-options` that is a value ends nothing */
		{ "read-tree --exclude-per-directory -- --index-output=/i HEAD",
		  "/i" },
		{ "read-tree --exclude-per-directory --end-of-options --index-output=/i HEAD",
		  "/i" },
		{ "read-tree -- --index-output=/i", "" },
		{ "read-tree --end-of-options --index-output=/i", "" },
		{ "format-patch -o -- --output=/f", "--|/f|." },
		{ "bugreport -o /d", "/d|." },
		{ "bugreport --output-directory=/d", "/d|." },
		{ "bugreport -s /x", "!" },
		{ "diagnose -o/d", "/d|." },
		/* without -o (or after --no-output-directory): the cwd */
		{ "bugreport", "." },
		{ "bugreport --no-output-directory --diagnose", "." },
		{ "diagnose", "." },
		{ "mailinfo msg /p", "msg|/p" },
		{ "mailinfo -k - /home/x/.gitconfig", "-|/home/x/.gitconfig" },
		{ "mailinfo -- -m /p", "-m|/p" },
		{ "mailsplit -o/d mbox", "/d" },
		{ "mailsplit -o", "!" },
		{ "bundle create /b HEAD", "/b|HEAD" },
		{ "bundle create -q /b HEAD", "/b|HEAD" },
		{ "bundle verify /b", "" },
		{ "fast-export --export-marks=/m HEAD", "/m" },
		{ "fast-export --export-marks /m HEAD", "/m" },
		{ "fast-export --import-marks=/m HEAD", "" },
		{ "read-tree --index-output=/i HEAD", "/i" },
		{ "checkout-index --prefix=/p/ -a", "/p/" },
		{ "commit-graph write --object-dir /o", "/o" },
		{ "merge-file /c b o", "/c|b|o" },
		{ "merge-file -p /c b o", "" },
		{ "pack-objects /base", "/base" },
		{ "pack-objects --stdout", "" },
		{ "index-pack -o /i p.pack", "/i|p.pack" },
		{ "init --separate-git-dir=/g x", "/g|x" },
		/* a new repository's directory (docs/fuzzing.md I15) */
		{ "init x", "x" },
		{ "init", "." },
		{ "init-db /x", "/x" },
		{ "init-db -qb main /x", "/x" }, /* init's table */
		{ "init -q -b main --template /t x", "x" },
		{ "init -bmain x", "x" },
		{ "init -qb main x", "x" },
		{ "init --initial-branch main --object-format sha1 x", "x" },
		{ "init --shared x", "x" },
		{ "init --shared=group x", "x" },
		{ "init --no-separate-git-dir --bare --no-bare /r", "/r" },
		{ "init -- --bare", "--bare" },
		{ "init --template /t", "." },
		{ "clone /r", "." },
		{ "clone /r d", "d" },
		{ "clone -b main --origin up -u x /r d", "d" },
		{ "clone -nb main /r d", "d" },
		{ "clone -c k=v --depth 1 /r", "." },
		{ "clone --recurse-submodules=p -- /r d", "d" },
		{ "clone", "" },
		{ "apply --unsafe-paths p.diff", "!" },
		/* a flag's last use decides, as git reads it (the generated
		 * equivalence test found it) */
		{ "apply --no-unsafe-paths --unsafe-paths p.diff", "!" },
		{ "apply --unsafe-paths --no-unsafe-paths p.diff", "" },
		{ "apply --directory=/r p.diff", "/r" },
	};
	const char *v[MAXW];
	char buf[256];
	struct git_argv ga;
	struct git_outs outs;
	struct strbuf got = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		git_argv_parse(&ga, v, split(rows[i].cmd, v, buf, sizeof(buf)));
		git_output_paths(&ga, &outs);
		strbuf_reset(&got);
		for (size_t k = 0; k < outs.nr; k++) {
			if (outs.v[k].bad) {
				strbuf_reset(&got);
				strbuf_addch(&got, '!');
				break;
			}
			if (k)
				strbuf_addch(&got, '|');
			strbuf_addstr(&got, outs.v[k].path);
		}
		if (strcmp(got.buf, rows[i].want))
			fail_msg("'%s': output paths '%s', want '%s'",
				 rows[i].cmd, got.buf, rows[i].want);
		/* a form that writes is never on the read-only allowlist */
		if (*rows[i].want && git_form_read_only(&ga))
			fail_msg("'%s' counted as read-only", rows[i].cmd);
		git_argv_release(&ga);
	}
	strbuf_release(&got);
}

/* init's directories are new_repo (re-initialised where one exists,
 * fuzzing.md I22); clone's and init's --separate-git-dir are not. */
static void test_output_new_repo(void **state)
{
	static const struct {
		const char *cmd;
		const char *want; /* per output: 'n' new_repo, '-' not */
	} rows[] = {
		{ "init x", "n" },
		{ "init", "n" },
		{ "init-db --shared .", "n" },
		{ "init --separate-git-dir=/g x", "-n" },
		{ "clone /r d", "-" },
		{ "clone /r", "-" },
		{ "archive -o /a HEAD", "-" },
	};
	const char *v[MAXW];
	char buf[256], got[GIT_OUT_MAX + 1];
	struct git_argv ga;
	struct git_outs outs;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		git_argv_parse(&ga, v, split(rows[i].cmd, v, buf, sizeof(buf)));
		git_output_paths(&ga, &outs);
		for (size_t k = 0; k < outs.nr; k++)
			got[k] = outs.v[k].new_repo ? 'n' : '-';
		got[outs.nr] = '\0';
		if (strcmp(got, rows[i].want))
			fail_msg("'%s': new_repo '%s', want '%s'", rows[i].cmd,
				 got, rows[i].want);
		git_argv_release(&ga);
	}
}

/* out_path_judge(): resolved as the kernel will open it. */
static void test_output_judge(void **state)
{
	char tmpl[] = "/tmp/test-policy-XXXXXX";
	char *root = mkdtemp(tmpl);
	struct strbuf wt = STRBUF_INIT, p = STRBUF_INIT, res = STRBUF_INIT;
	static const struct {
		const char *path;
		enum out_state want;
	} rows[] = {
		{ "out.txt", OUTP_INSIDE },
		{ "sub/out.txt", OUTP_INSIDE },
		{ "new/dir/out.txt", OUTP_INSIDE },
		{ "./sub/../out.txt", OUTP_INSIDE },
		{ "../outside.txt", OUTP_OUTSIDE },
		{ "sub/../../outside.txt", OUTP_OUTSIDE },
		{ "/etc/passwd", OUTP_OUTSIDE },
		{ "out-link", OUTP_OUTSIDE },	/* a link inside pointing out */
		{ "dir-link/x", OUTP_OUTSIDE }, /* through a linked directory */
		{ "dangling", OUTP_UNJUDGED },	/* would create its target */
		{ "new/../x", OUTP_UNJUDGED },	/* `..` below a missing dir */
		{ ".git", OUTP_OUTSIDE },
		{ ".git/hooks/pre-commit", OUTP_OUTSIDE },
		{ ".agend-managed", OUTP_OUTSIDE },
		{ "", OUTP_UNJUDGED },
	};
	char *canon;

	(void)state;
	assert_non_null(root);
	strbuf_addf(&wt, "%s/wt", root);
	strbuf_addf(&p, "%s/wt/sub", root);
	assert_int_equal(mkdir(wt.buf, 0700), 0);
	assert_int_equal(mkdir(p.buf, 0700), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/outside.txt", root);
	assert_int_equal(mkdir(p.buf, 0700), 0); /* any kind of file */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/wt/out-link", root);
	assert_int_equal(symlink("../outside.txt", p.buf), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/wt/dir-link", root);
	assert_int_equal(symlink(root, p.buf), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/wt/dangling", root);
	assert_int_equal(symlink("../nowhere", p.buf), 0);
	canon = realpath(wt.buf, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		enum out_state st;
		strbuf_reset(&res);
		st = out_path_judge(rows[i].path, canon, NULL, canon, &res);
		if (st != rows[i].want)
			fail_msg("'%s': state %d, want %d", rows[i].path, st,
				 rows[i].want);
	}
	/* judged from the top too: inside from the directory, outside from
	 * the top (fast-export resolves from the top) */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/sub", canon);
	assert_int_equal(out_path_judge("../x", p.buf, NULL, canon, &res),
			 OUTP_INSIDE);
	assert_int_equal(out_path_judge("../x", p.buf, canon, canon, &res),
			 OUTP_OUTSIDE);
	free(canon);
	for (const char *const *n =
		     (const char *const[]){ "wt/out-link", "wt/dir-link",
					    "wt/dangling", NULL };
	     *n; n++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", root, *n);
		assert_int_equal(unlink(p.buf), 0);
	}
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/wt/sub", root);
	assert_int_equal(rmdir(p.buf), 0);
	assert_int_equal(rmdir(wt.buf), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/outside.txt", root);
	assert_int_equal(rmdir(p.buf), 0);
	assert_int_equal(rmdir(root), 0);
	strbuf_release(&wt);
	strbuf_release(&p);
	strbuf_release(&res);
}

/* policy_decide(): a bound agent's output path outside its worktree, or
 * one the facts did not judge, is denied with where it may write. */
static void test_output_policy(void **state)
{
	struct policy_env env = { .agent = "ag1",
				  .agent_valid = true,
				  .home = "/h",
				  .snapshots = -1 };
	struct policy_binding bind = { .state = BS_BOUND,
				       .task_id = "t",
				       .branch = "feat/a",
				       .worktree = "/wt" };
	struct policy_repo repo = { .target = TGT_SAME, .target_rel = "" };
	struct ag_protected prot;
	struct policy_input in = { NULL, &env, &bind, &repo, &prot, false };
	struct verdict vd;

	(void)state;
	verdict_init(&vd);
	ag_protected_init(&prot);
	/* not judged: fail closed, every target */
	decide(&in, "archive -o/home/op/README.md HEAD", &vd);
	assert_int_equal(vd.kind, V_DENY);
	repo.target = TGT_NONE;
	decide(&in, "diff --no-index --output=/x a b", &vd);
	assert_int_equal(vd.kind, V_DENY);
	repo.target = TGT_FOREIGN;
	decide(&in, "mailinfo - /home/op/.gitconfig", &vd);
	assert_int_equal(vd.kind, V_DENY);
	/* judged outside */
	repo.target = TGT_SAME;
	repo.outs_judged = true;
	repo.out_bad = "/home/op/README.md";
	repo.out_opt = "-o";
	decide(&in, "archive -o/home/op/README.md HEAD", &vd);
	assert_int_equal(vd.kind, V_DENY);
	assert_non_null(strstr(vd.reason.buf, "outside your worktree"));
	assert_non_null(strstr(vd.reason.buf, "/wt"));
	/* judged inside: routed, snapshotted */
	repo.out_bad = NULL;
	decide(&in, "diff --output=out.diff", &vd);
	assert_int_equal(vd.kind, V_ROUTE);
	assert_string_equal(vd.snapshot_slug, "diff");
	/* the hot path names no output path: nothing to judge */
	repo.outs_judged = false;
	decide(&in, "status", &vd);
	assert_int_equal(vd.kind, V_ROUTE);
	/* the operator and a bypass are not judged */
	env.bypass = true;
	env.bypass_layer = "env";
	decide(&in, "archive -o/x HEAD", &vd);
	assert_int_equal(vd.kind, V_PASS);
	verdict_release(&vd);
	decide(&in, "status", &vd);
	verdict_release(&vd);
	ag_protected_release(&prot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_argv_globals),
		cmocka_unit_test(test_config_keys),
		cmocka_unit_test(test_read_only_forms),
		cmocka_unit_test(test_output_forms),
		cmocka_unit_test(test_output_paths),
		cmocka_unit_test(test_output_new_repo),
		cmocka_unit_test(test_output_judge),
		cmocka_unit_test(test_output_policy),
		cmocka_unit_test(test_fuzzer_findings),
		cmocka_unit_test(test_destructive),
		cmocka_unit_test(test_checkout_analysis),
		cmocka_unit_test(test_overwrite_source),
		cmocka_unit_test(test_push_spec),
		cmocka_unit_test(test_policy_table),
		cmocka_unit_test(test_policy_effects),
		cmocka_unit_test(test_env_hooks_off),
		cmocka_unit_test(test_env_trace),
		cmocka_unit_test(test_clean_keeps_marker),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
