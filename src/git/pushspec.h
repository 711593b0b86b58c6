/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PUSHSPEC_H
#define AG_PUSHSPEC_H

/**
 * `git push` argument analysis: pure, no I/O. The first line, for the
 * clear message; the guards on what git really pushes (git/pushguard.h)
 * follow.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "git/argv.h"

struct push_spec {
	const char *remote;	     /* first positional or NULL */
	const char *const *refspecs; /* the rest, as given (the parse's) */
	size_t nrefspecs;
	const char *bulk_flag; /* --all/--mirror/--prune, as spelled */
	bool delete_flag;
	bool bare_force; /* --force, -f, a +refspec */
	bool lease;	 /* --force-with-lease / --force-if-includes */
	bool tags;
	const char *remote_prog; /* --receive-pack/--exec, as spelled */
	struct strbuf bulk_spelled, prog_spelled; /* owned: what the two
						     above point at */
};

void push_spec_parse(const struct git_argv *ga, struct push_spec *ps);
void push_spec_release(struct push_spec *ps);

/*
 * Checks a bound agent's push against its assigned branch. `current` is the
 * branch checked out in the worktree (NULL when detached). Returns NULL when
 * allowed; otherwise the event name, with the reason appended to `why`.
 * `is_protected` answers whether a branch name is protected.
 */
const char *push_spec_check(const struct push_spec *ps, const char *assigned,
			    const char *current,
			    bool (*is_protected)(const char *branch, void *ctx),
			    void *ctx, struct strbuf *why);

#endif
