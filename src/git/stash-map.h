/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_STASH_MAP_H
#define AG_STASH_MAP_H

/**
 * Per-session stash (PRODUCT.md §5): a bound agent's `git stash` entries
 * are its own. git 2.39 keeps one `refs/stash` for a whole repository
 * (per-worktree refs are HEAD, refs/bisect/, refs/worktree/ and
 * refs/rewritten/ only), and `git stash` names it in its code. So the
 * shim maps an agent's stash commands onto a per-worktree ref of its
 * session's worktree, STASH_SESSION_REF, whose reflog is the stack:
 *
 *  - push/save (and `git stash` alone): git's own push, under a lock
 *    (one at a time in the repository), then its new entry moves from
 *    refs/stash to the session's ref and refs/stash is put back as it
 *    was;
 *  - list, show, apply, pop, drop, clear, store: on the session's ref
 *    (`stash@{N}`, `N`, `stash`, `refs/stash@{N}` name its entry N);
 *  - create: no ref; branch: the policy's (a branch move).
 *
 * Other worktrees' sessions never see the ref (`--all` and for-each-ref
 * list only their own worktree's refs/worktree/), and cannot pop or drop
 * from it. This module is pure: it reads the command line into a plan;
 * cmd/shim-stash.c carries it out.
 */
#include "base/common.h"
#include "base/strvec.h"

struct git_argv;

#define STASH_SESSION_REF "refs/worktree/agentic-git/stash"

enum stash_verb {
	STASH_PUSH,
	STASH_LIST,
	STASH_SHOW,
	STASH_APPLY,
	STASH_POP,
	STASH_DROP,
	STASH_CLEAR,
	STASH_STORE,
	STASH_CREATE,
	STASH_OTHER, /* branch, or a word git does not know: git's */
};

struct stash_plan {
	enum stash_verb verb;
	struct strvec opts;  /* the verb's own options and arguments, the
				   entry and the store's commit left out */
	unsigned long entry; /* the session's entry N (0 when not given) */
	bool entry_given;
	const char *rev;     /* apply/show: a revision that names no entry
				   (a stash commit by id), passed as it is */
	const char *commit;  /* store: the commit */
	const char *message; /* store: -m, or NULL */
	bool quiet;	     /* -q, --quiet */
	const char *bad;     /* why the command cannot be mapped, or NULL */
};
#define STASH_PLAN_INIT             \
	{                           \
		.opts = STRVEC_INIT \
	}

/*
 * Reads `git stash …` from its parse (git/argv.h: the verb, its options,
 * its positionals) into `p`. p->bad says what is wrong (a second entry,
 * a revision drop or pop cannot take, a store without a commit).
 */
void stash_map_parse(const struct git_argv *ga, struct stash_plan *p);

/*
 * The entry a stash revision names: `stash@{N}`, `refs/stash@{N}`, `N`
 * (git's shorthand), `stash` or `refs/stash` (N = 0). false for anything
 * else.
 */
bool stash_entry_of(const char *arg, unsigned long *n);

void stash_plan_release(struct stash_plan *p);

#endif
