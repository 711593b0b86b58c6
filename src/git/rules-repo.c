// SPDX-License-Identifier: Apache-2.0
/*
 * The policy table's rows for the commands that read or write by form, or
 * change what the repository shares (git/rules.h): remote, reflog, notes,
 * sparse-checkout, bisect, rerere, maintenance, worktree, submodule,
 * hash-object, interpret-trailers, fsck, and the reads a flag turns into
 * something else (grep, ls-remote, archive). Pure: no I/O.
 *
 * Invariants:
 *  1. A form reads only when its row names it (an allowlist): a verb, or
 *     the absence of the option that makes it write or run a program.
 *  2. A verb is git's own word for the subcommand (git/optable-data.c),
 *     or, for the scripts git 2.39 still has (submodule, bisect), their
 *     first positional.
 */
#include "base/common.h"
#include <string.h>
#include "git/rules-int.h"

static bool in(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* The verb, or for a script without git's list of its words the first
 * positional (invariant 2). */
static const char *verb_of(const struct git_argv *ga)
{
	return ga->verb ? ga->verb : git_pos(ga, 0);
}

/* ---- remote ---- */

bool remote_reads(const struct git_argv *ga)
{
	static const char *const reads[] = { "show", "get-url", NULL };

	return ga->verb ? in(ga->verb, reads) : !ga->npos;
}

bool remote_check(struct verdict *v, const struct policy_input *in_)
{
	static const char *const urls[] = { "add", "rename",  "remove",
					    "rm",  "set-url", NULL };

	if (!in(in_->ga->verb, urls))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"git remote %s rewrites where the repository fetches from and pushes to (remote.*.url) — agents may not change remotes; push to an existing remote",
		in_->ga->verb);
	return true;
}

/* ---- reflog ---- */

bool reflog_reads(const struct git_argv *ga)
{
	static const char *const reads[] = { "show", "exists", "list", NULL };

	/* no verb, or a ref first: git shows */
	return !ga->verb || in(ga->verb, reads);
}

bool reflog_check(struct verdict *v, const struct policy_input *in_)
{
	static const char *const drops[] = { "expire", "delete", NULL };

	if (!in(in_->ga->verb, drops))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"git reflog %s destroys the recovery history of every branch — not allowed for agents",
		in_->ga->verb);
	return true;
}

/* ---- notes, sparse-checkout, bisect, rerere ---- */

bool notes_reads(const struct git_argv *ga)
{
	static const char *const reads[] = { "list", "show", "get-ref", NULL };

	return ga->verb ? in(ga->verb, reads) : !ga->npos;
}

bool sparse_checkout_reads(const struct git_argv *ga)
{
	return ga->verb && !strcmp(ga->verb, "list");
}

bool bisect_reads(const struct git_argv *ga)
{
	static const char *const reads[] = { "log",   "visualize", "view",
					     "terms", "help",	   NULL };

	return in(verb_of(ga), reads);
}

bool rerere_reads(const struct git_argv *ga)
{
	static const char *const reads[] = { "status", "diff", "remaining",
					     NULL };

	return in(verb_of(ga), reads);
}

/* ---- maintenance ---- */

/* these write the operator's global config and schedule jobs */
bool maintenance_check(struct verdict *v, const struct policy_input *in_)
{
	static const char *const global[] = { "register", "unregister", "start",
					      "stop", NULL };

	if (!in(in_->ga->verb, global))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"git maintenance %s writes the operator's global config (and schedules jobs) — not allowed for agents; git maintenance run works in the repository",
		in_->ga->verb);
	return true;
}

/* ---- worktree ---- */

bool worktree_reads(const struct git_argv *ga)
{
	return ga->verb && !strcmp(ga->verb, "list");
}

bool worktree_deny_any(struct verdict *v, const struct policy_input *in_)
{
	if (worktree_reads(in_->ga))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"worktree lifecycle is session-managed — use `agentic-git run` (or your orchestrator's worktree tool), not raw `git worktree`");
	return true;
}

/* ---- hash-object, interpret-trailers, fsck ---- */

bool hash_object_reads(const struct git_argv *ga)
{
	return !git_opt_on(ga, "-w");
}

bool interpret_trailers_reads(const struct git_argv *ga)
{
	return !git_opt_on(ga, "in-place");
}

bool fsck_reads(const struct git_argv *ga)
{
	return !git_opt_on(ga, "lost-found");
}

/* ---- reads a flag turns into running a program ---- */

/* grep -O<cmd> runs <cmd> (through a shell) on the matching files */
bool grep_reads(const struct git_argv *ga)
{
	const struct git_optuse *u = git_opt_last(ga, "open-files-in-pager");

	return !u || (u->flags & GOPT_NEG);
}

/* --upload-pack/--exec name the program that serves it (a local one
 * runs here): review of d5ccd4a */
bool ls_remote_reads(const struct git_argv *ga)
{
	return !git_opt_on(ga, "upload-pack") && !git_opt_on(ga, "exec");
}

bool archive_reads(const struct git_argv *ga)
{
	return !git_opt_on(ga, "exec");
}

/* ---- submodule (a script in git 2.39: its words by spelling) ---- */

/* [-q|--quiet] [--cached] [status|summary] (reference §3.3.8) */
bool submodule_reads(const struct git_argv *ga)
{
	static const char *const reads[] = { "status", "summary", NULL };

	for (size_t i = 0; i < ga->nopts; i++)
		if (!git_optuse_is(&ga->opts[i], "-q") &&
		    !git_optuse_is(&ga->opts[i], "quiet") &&
		    !git_optuse_is(&ga->opts[i], "cached"))
			return false;
	return ga->npos == 0 || (ga->npos == 1 && in(ga->pos[0], reads));
}

bool submodule_safe(const struct git_argv *ga)
{
	return submodule_reads(ga);
}

/*
 * git submodule add, init, sync, set-url, deinit and update --init write
 * (or remove) submodule.<name>.url and .active in the repository's config,
 * which every checkout of it shares: where the operator's submodules are
 * fetched from, as remote.*.url is for the repository (invariant fuzzer:
 * `submodule add <url> <name>` persisted both keys).
 */
bool submodule_check(struct verdict *v, const struct policy_input *in_)
{
	static const char *const config_w[] = { "add",	   "init",   "sync",
						"set-url", "deinit", NULL };
	const struct git_argv *ga = in_->ga;
	const char *w = git_pos(ga, 0);
	bool update_init = w && !strcmp(w, "update") &&
			   (git_opt_on(ga, "init") || git_opt_on(ga, "-i"));

	if (!in(w, config_w) && !update_init)
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"git submodule %s%s writes submodule.<name>.url into the repository's config, which the operator's checkout shares — agents may not change where submodules come from; git submodule update (without --init) works on the submodules already set up, ask the operator to add or initialise others",
		w, update_init ? " --init" : "");
	return true;
}

/* ---- init, init-db, clone ---- */

/*
 * git init and clone. --separate-git-dir puts a git dir wherever it is
 * told: into the operator's checkout, or, with no directory, it moves the
 * bound repository's own, which every checkout shares (invariant fuzzer:
 * `init-db --separate-git-dir @{-1}` broke every checkout). And init with
 * no directory re-initialises the bound repository: the values of init's
 * options (`init --template x`) are no directory, as git's table says. A
 * directory that is named must be inside the worktree: it is an output
 * path (git/outpaths.c), and hold no repository the agent did not make
 * there: `init-db --shared .` at the worktree's top re-initialised the
 * bound repository and wrote core.sharedRepository into its config
 * (docs/fuzzing.md I22; the facts judge it, reinit_dir).
 */
bool init_check(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;

	if (git_opt_on(ga, "separate-git-dir")) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"git %s --separate-git-dir puts a git dir wherever it is told (with no directory it moves the bound repository's own, which every checkout shares) — not allowed for agents; create new repositories inside your worktree without it: git init <dir>",
			ga->sub);
		return true;
	}
	if (!strcmp(ga->sub, "clone") || ga->npos)
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"re-initialising the bound repository is not allowed (git init copies templates and hooks into it) — create new repositories inside your worktree: git init <dir>");
	return true;
}

/*
 * init and init-db, whatever the target: the directory named holds no
 * repository the agent did not make there (docs/fuzzing.md I22: `init-db
 * --shared .` at the worktree's top rewrote the bound repository's
 * config); and, where the shim does not route the command, no git dir or
 * work tree is named: git init resolves GIT_DIR from inside its
 * <directory>, not from where it runs (review of d5ccd4a: `GIT_DIR=r git
 * init d`, with d/r a link to the shared repository, re-initialised it).
 */
bool init_deny_bound(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;

	if (in->repo->reinit_dir) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"git %s '%s' would re-initialise the repository that is there, which is not one you made inside your worktree (at your worktree's top it is the bound repository every checkout shares: git init rewrites its config and copies templates and hooks into it) — create a new repository in a new directory: git init <dir>",
			ga->sub, in->repo->reinit_dir);
		return true;
	}
	if (in->repo->target != TGT_SAME &&
	    (ga->git_dir || ga->work_tree || in->env->env_repo_override)) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"git %s with GIT_DIR, GIT_WORK_TREE, --git-dir or --work-tree makes or re-initialises the repository they name, resolved from inside its directory — unset them and name a new directory inside your worktree: git init <dir>",
			ga->sub);
		return true;
	}
	return false;
}

/* ---- what git does not have: an external command, an alias ---- */

bool unknown_check(struct verdict *v, const struct policy_input *in_)
{
	const char *sub = in_->ga->sub;

	if (in_->repo->sub_is_external) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"'git %s' is an external command (git-%s): the git it runs itself never meets this guard — not allowed for agents; use git's own commands, or ask the operator",
			sub, sub);
		return true;
	}
	verdict_deny(
		v, "deny", DS_BLOCK,
		"'%s' is not a git command; aliases are not expanded for agents — run the git command it stands for",
		sub);
	return true;
}
