/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_GIT_WHERE_H
#define AG_GIT_WHERE_H

/**
 * Where git will act for an agent's command, by git's own answer. The
 * shim's own reading of core.worktree, config.worktree, a bare directory's
 * HEAD or the implicit work tree beside a named git dir each disagreed
 * with git somewhere (review of d5ccd4a), and a disagreement let `clean
 * -fdx` reach the operator's checkout. So the shim asks git:
 * `rev-parse --path-format=absolute --git-dir --git-common-dir
 * --show-toplevel`, run as the command will run (its directory, its
 * --git-dir and --work-tree, the caller's environment with its location
 * variables), with no trace written and nothing of the shim's set.
 *
 * One git process, run only for an agent's command that is not routed
 * into its own worktree (facts.c): never on the bound hot path.
 */
#include "base/common.h"
#include "git/argv.h"

struct git_where {
	char *gitdir;	 /* canonical; NULL when git found no repository */
	char *commondir; /* canonical */
	char *top;	 /* the work tree, canonical; NULL when none */
};

/*
 * Asks git (`real_git`, absolute) in `cwd` for ga's repository. Returns 0
 * with `out` filled (gitdir NULL when git found none), -1 when git could
 * not be run or its answer not read. The caller releases `out`.
 */
int git_where_ask(const char *real_git, const char *cwd,
		  const struct git_argv *ga, struct git_where *out);

/* Whether the work tree is where the git dir's `.git` sits: discovery from
 * `top` finds that git dir with that top (a main checkout, or a linked
 * worktree through its .git file). */
bool git_where_natural(const struct git_where *w);

void git_where_release(struct git_where *w);

#endif
