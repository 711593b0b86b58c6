/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_TIP_H
#define AG_SNAPSHOT_TIP_H

/**
 * Restore covers the tip (PRODUCT.md §5): a snapshot records the commit
 * HEAD was at and the branch it was on (Agentic-Snapshot-Head, -Branch);
 * a tip-only snapshot (git/reftx-keep.h) the ref whose tip it kept
 * (-Kept). When that ref no longer points there, `snapshots restore` says
 * so and prints the command that puts it back, and `restore --head` does.
 *
 * snapshot_tip_read() finds where the ref points now and where it is
 * checked out (git, in the restore's work tree); snapshot_tip_plan() is
 * pure: what --head may do, or why it must not:
 *  1. nothing to do when the ref points where the snapshot says;
 *  2. refused when the snapshot names no branch (taken detached, or
 *     before snapshots recorded one), or the ref is checked out in
 *     another work tree (moving it there would leave that work tree's
 *     index and files behind);
 *  3. a snapshot of files goes back onto its own branch only: refused
 *     when this work tree is on another branch, or detached;
 *  4. the branch checked out here moves with `reset --mixed` (its index
 *     follows, the work tree is the restore's), any other (a tip-only
 *     snapshot's, deleted or not checked out) with `update-ref` against
 *     the value read, so a ref that moved meanwhile is not overwritten.
 *
 * Strings in struct snapshot_tip are owned (snapshot_tip_release()).
 * Functions return 0, or -1 with `err` set to a one-line reason.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "git/snapshot-list.h"

struct snapshot_tip {
	const char *ref;  /* refs/heads/<b> (borrowed from the snapshot), or
			     NULL when it records none */
	const char *want; /* the commit it recorded (borrowed), or NULL */
	bool kept;	  /* a tip-only snapshot */
	char *now;	  /* where ref points now, "" when it does not exist */
	char *here;	  /* the ref checked out in this work tree, or NULL */
	char *elsewhere;  /* another work tree that has ref checked out */
};
#define SNAPSHOT_TIP_INIT \
	{                 \
		0         \
	}

/* Reads the tip of `s` in the repository of `gitdir`, work tree `top`. */
int snapshot_tip_read(const char *real_git, const char *gitdir, const char *top,
		      const struct snapshot_info *s, struct snapshot_tip *t,
		      struct strbuf *err);

/* Whether the ref does not point where the snapshot recorded. */
bool snapshot_tip_moved(const struct snapshot_tip *t);

enum tip_plan { TIP_NOTHING, TIP_RESET, TIP_UPDATE_REF, TIP_REFUSED };
/* Invariants 1-4; TIP_REFUSED with the reason in `why`. Pure. */
enum tip_plan snapshot_tip_plan(const struct snapshot_tip *t,
				struct strbuf *why);

/* Carries out a plan of TIP_RESET or TIP_UPDATE_REF. */
int snapshot_tip_move(const char *real_git, const char *gitdir, const char *top,
		      const struct snapshot_tip *t, enum tip_plan plan,
		      struct strbuf *err);

/* The short name of a refs/heads/ ref (the ref itself otherwise). */
const char *snapshot_tip_short(const char *ref);

void snapshot_tip_release(struct snapshot_tip *t);

#endif
