/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_RESTORE_H
#define AG_SNAPSHOT_RESTORE_H

/**
 * Restoring a snapshot (git/snapshot-list.h reads them).
 *
 * snapshot_restore() is non-destructive (invariants):
 *  1. MUST NOT delete or change a path the snapshot does not hold (files
 *     created after the snapshot are left alone).
 *  2. MUST save the current state first, as a snapshot of the caller's
 *     agent, and MUST abort without touching anything when that fails.
 *  3. MUST pass paths as literal NUL-separated pathspecs on stdin, never on
 *     the command line.
 *  4. MUST leave the restored paths unstaged unless asked for --staged.
 *
 * Ownership: results own their strings (restore_result_release()).
 * Functions return 0 or -1 with `err` set to a one-line reason.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "git/snapshot-list.h"
#include "git/snapshot-tip.h"

struct restore_opts {
	const char *real_git;
	const char *dir;   /* where to restore (its subtree only) */
	const char *agent; /* the caller's agent (pre-restore snapshot) */
	const char *home;
	const struct snapshot_info *snap;
	bool staged;
	bool saved; /* the caller saved the current state already
		       (snapshot_restore_save(), once for a batch) */
	bool head;  /* also put the snapshot's branch back where the
		       snapshot recorded it (git/snapshot-tip.h) */
};

struct restore_result {
	size_t paths;	    /* work-tree paths written */
	size_t quarantined; /* paths moved back from the quarantine */
	size_t kept;	    /* quarantined paths left (they exist again) */
	size_t stashes;	    /* stash entries stored back */
	bool unstage_failed;
	struct strbuf pre_ref; /* the pre-restore snapshot, "" if none */
	/* the snapshot's branch: where it points now (read before the
	 * restore), and whether --head moved it */
	struct snapshot_tip tip;
	bool tip_moved;
};
#define RESTORE_RESULT_INIT                                      \
	{                                                        \
		.pre_ref = STRBUF_INIT, .tip = SNAPSHOT_TIP_INIT \
	}

/*
 * Invariant 2 on its own: saves the current state where o->dir stands as
 * a snapshot of o->agent. 0 with `ref` set ("" when there was nothing to
 * save), or -1 with `err` set.
 */
int snapshot_restore_save(const struct restore_opts *o, struct strbuf *ref,
			  struct strbuf *err);

/*
 * With o->head: whether the snapshot's branch may be put back
 * (snapshot_tip_plan()); -1 with the reason in `err` when not. Nothing
 * is changed either way: a batch asks before its first step.
 */
int snapshot_restore_head_check(const struct restore_opts *o,
				struct strbuf *err);

/*
 * 0 (r->paths etc. say what happened; all zero: nothing to do) or -1.
 * With o->head the branch moves first (after the save), and a refusal
 * changes nothing.
 */
int snapshot_restore(const struct restore_opts *o, struct restore_result *r,
		     struct strbuf *err);
void restore_result_release(struct restore_result *r);

#endif
