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
 *  - the branch an ended session left (`ended`, git/ended-branches.h),
 *    while it exists: refused (branches outlive sessions);
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
	const struct strvec *ended;  /* ended sessions' branches */
};

bool reftx_judge(const struct reftx_ctx *c, bool exists, const char *new_oid,
		 const char *ref, struct strbuf *why);

/*
 * What a ref resolves to before and after an update, as far as the files
 * show it (git/reftx.h's callers read them: reftx_read_values()).
 */
struct reftx_values {
	char now[65];	    /* its value now (loose, else packed), or "" */
	char packed[65];    /* its value in packed-refs, or "" */
	bool packed_locked; /* packed-refs.lock exists: packed-refs changes */
};

/*
 * Whether an update leaves the ref's value exactly as it is, so that
 * refusing it protects nothing: git's own housekeeping. `git pack-refs`
 * (and so `gc`) writes each loose ref's value into packed-refs — an update
 * to the value the ref already has — and then prunes the loose file — a
 * deletion after which the ref still resolves, from packed-refs, to the
 * same value. A real deletion also rewrites packed-refs, whose lock it
 * holds in `prepared`, and is never kept. Pure.
 */
bool reftx_value_kept(const char *old_oid, const char *new_oid,
		      const struct reftx_values *v);

/*
 * Fills v for `ref` (a refs/ name of the common dir) from <commondir>'s
 * loose ref file and packed-refs, for an object format of hexlen digits.
 * 0, or -1 when the files cannot be read exactly (a symref, an odd file,
 * a packed-refs we do not read): the caller keeps its refusal.
 */
int reftx_read_values(const char *commondir, size_t hexlen, const char *ref,
		      struct reftx_values *v);

#endif
