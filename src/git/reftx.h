/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_GIT_REFTX_H
#define AG_GIT_REFTX_H

/**
 * The lock behind the argv policy (PRODUCT.md §4, "enforcement where git
 * decides"): what the session's reference-transaction hook refuses in the
 * `prepared` state, whichever command caused the update (fetch, a symref,
 * fast-import, update-ref, branch, real git called directly). Pure.
 *
 * For the agent of the session whose worktree the transaction runs in:
 *  - its own branch, HEAD and pseudo-refs, remote-tracking refs, new
 *    branches and new tags, refs/stash and refs/notes: allowed;
 *  - a protected branch (`protected`, or every branch but its own when
 *    `policy_refused`), another agent's branch (`others`): refused;
 *  - anything under refs/agentic-git/ except creating a ref of its own
 *    under refs/agentic-git/snapshots/<agent>/ (the safety net grows,
 *    never moves or shrinks): refused;
 *  - moving or deleting a tag, anything under refs/replace/, another
 *    checkout's per-worktree refs (main-worktree/…, worktrees/…): refused.
 *
 * reftx_judge() returns true when the update may go ahead, else false with
 * a one-line reason in `why`. `exists`: whether the ref exists now (git
 * passes a zero old value for an update that named no old value, so the
 * hook reads the ref itself: in `prepared` it still holds its old value).
 */
#include "base/common.h"
#include "agentic-git/core.h"
#include "base/strbuf.h"
#include "base/strvec.h"

struct reftx_ctx {
	const char *agent;	/* the session's agent */
	const char *branch;	/* its assigned branch (short name) */
	const struct ag_protected *protected;
	bool policy_refused;
	const struct strvec *others; /* other sessions' branches */
};

bool reftx_judge(const struct reftx_ctx *c, bool exists, const char *new_oid,
		 const char *ref, struct strbuf *why);

#endif
