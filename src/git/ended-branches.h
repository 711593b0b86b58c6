/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_ENDED_BRANCHES_H
#define AG_ENDED_BRANCHES_H

/**
 * Branches outlive sessions (PRODUCT.md §5): the branch a session worked
 * on stays protected from other agents after `end` removed the session,
 * until the operator deletes it. `end` records it here; the session
 * hooks' reference-transaction lock (git/reftx.h) and the shim's facts
 * read it back.
 *
 * The record: <home>/ended/<agent>, one line per branch the agent's
 * sessions left, `<common dir>\t<branch>\n` (the repository's canonical
 * common git dir, the branch's short name).
 *
 * Invariants:
 *  1. A record only ever protects more: a line that does not parse, a
 *     file that is not ours to read (a symlink, not a regular file, over
 *     ENDED_MAX bytes) is skipped, never taken for a permission.
 *  2. Only the lines of the asking repository count (its common dir):
 *     a branch name means nothing in another repository.
 *  3. Writing appends one line with O_APPEND|O_NOFOLLOW to a regular
 *     file of mode 0600, once per (repository, branch).
 *
 * Strings are borrowed; ended_branches_read() appends owned copies.
 * Functions return 0, or -1 with errno set.
 */
#include "base/common.h"
#include "base/strvec.h"

#define ENDED_DIR "ended"
#define ENDED_MAX (1u << 20)

/* Records that `agent`'s session left `branch` in the repository of
 * `commondir` (canonical). */
int ended_branch_record(const char *home, const char *agent,
			const char *commondir, const char *branch);

/*
 * Appends to `branches` every branch an ended session left in the
 * repository of `commondir`, and the agent that left it to `agents` (same
 * index; `agents` may be NULL). A home without records is 0.
 */
int ended_branches_read(const char *home, const char *commondir,
			struct strvec *branches, struct strvec *agents);

#endif
