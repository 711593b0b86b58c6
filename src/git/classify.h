/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CLASSIFY_H
#define AG_CLASSIFY_H

/**
 * What a git command line does: pure functions over struct git_argv.
 *
 * - the subcommand's class (read-only, local mutation, push, …);
 * - whether a particular form is provably read-only (the unbound allowlist);
 * - whether it destroys work-tree state, and the snapshot slug;
 * - checkout/switch analysis: which branch (if any) it would move to.
 */
#include "base/common.h"
#include "base/strvec.h"
#include "git/argv.h"

enum sub_class {
	SC_UNKNOWN = 0, /* not a git builtin: external command or alias */
	SC_READ,	/* never writes repository state */
	SC_FORMS,	/* read or write depending on its arguments */
	SC_LOCAL,	/* writes local repository state */
	SC_CREATE,	/* creates a new repository (init, clone) */
	SC_PUSH,
	SC_CHECKOUT, /* checkout, switch */
	SC_WORKTREE,
	SC_HELPER,    /* submodule--helper */
	SC_FORBIDDEN, /* never for agents: filter-branch, replace, credential… */
	SC_TOOL,      /* an interactive tool: difftool, mergetool */
};

enum sub_class git_sub_class(const char *sub);

/* True when this exact form only reads (the unbound agents' allowlist). */
bool git_form_read_only(const struct git_argv *ga);

/*
 * True when ga's subcommand only reads whatever git makes of its spelling
 * (status, log, rev-parse…: an abbreviation cannot turn them into a
 * write; their output paths are found in every spelling), so git need
 * not be told to refuse abbreviations: the hot path stays as it was.
 * False for the reads a flag decides (grep's -O, --upload-pack,
 * format-patch's --stdout) and for every other subcommand.
 */
bool git_read_whatever_spelling(const struct git_argv *ga);

/*
 * The snapshot slug when the command can destroy work-tree or stash state
 * (reference §5.2 plus our additions), else NULL. *quarantine is set for
 * `clean -x`/`-X` (ignored files would be deleted).
 */
const char *git_destructive_slug(const struct git_argv *ga, bool *quarantine);

/* rebase, merge, pull, cherry-pick, revert, am: can stop in a conflict. */
bool git_conflict_capable(const char *sub);

/* Per-token facts the shim gathers for checkout/switch/restore arguments. */
enum tok_fact {
	TOK_LOCAL_BRANCH = 1 << 0,  /* refs/heads/<tok> exists */
	TOK_REMOTE_BRANCH = 1 << 1, /* refs/remotes/<remote>/<tok> exists */
	TOK_PATH = 1 << 2,	    /* exists as a path in the target tree */
	TOK_REVLIKE = 1 << 3,	    /* HEAD, a hex id, rev syntax (~ ^ @ :) */
	TOK_TAG = 1 << 4,	    /* refs/tags/<tok> exists */
};

enum co_kind {
	CO_NONE,	/* nothing happens (bare `git checkout`) */
	CO_FILES,	/* file checkout: restores paths, never moves HEAD */
	CO_BRANCH,	/* moves HEAD to branch `target` */
	CO_CREATE,	/* creates branch `target` (-b/-B/-c/-C/--orphan) and moves to it */
	CO_DETACH,	/* detaches HEAD (--detach, a tag/commit, `-`) */
	CO_PREVIOUS,	/* `-` / @{-1}: the previous branch */
};

struct co_analysis {
	enum co_kind kind;
	const char *target; /* branch or rev (points into argv), may be NULL */
	bool force;	    /* -f/--force/--discard-changes */
};

/*
 * Analyses checkout/switch (git/rules-tree.c). `facts[i]` describes
 * ga->pos[i] (may be NULL, meaning "nothing known", which is treated
 * fail-closed as a ref).
 */
void git_checkout_analyse(const struct git_argv *ga, const unsigned *facts,
			  struct co_analysis *out);

/*
 * The tree-ishes a destructive form writes files from, when it can
 * overwrite an ignored file with their version, onto `sources`: `checkout
 * <tree-ish> [--] <paths>`, a forced checkout/switch to a branch or
 * commit, `restore --source=<tree-ish>`, `reset --hard/--merge/--keep
 * [<commit>]` (HEAD when none is named), every commit a merge,
 * cherry-pick or rebase names (both ends of a range). Its pathspec goes
 * onto `paths`. Nothing otherwise (the index as source holds no ignored
 * file). (git/overwrite-source.c)
 */
void git_overwrite_sources(const struct git_argv *ga, const unsigned *facts,
			   struct strvec *sources, struct strvec *paths);

/* Whether `s` is one of the NULL-terminated `list`. */
bool git_word_in(const char *s, const char *const *list);

#endif
