/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_REFTX_KEEP_H
#define AG_REFTX_KEEP_H

/**
 * Ref deletions and force-moves in a session (PRODUCT.md §5, "branches
 * outlive sessions"), for the session's reference-transaction hook:
 * every one journaled with its old id, and a branch tip that no other ref
 * holds afterwards kept under refs/agentic-git/snapshots/<agent>/.
 *
 * git gives the hook a zero old value for an update that named none
 * (`branch -D` deletes in a batch that names none, `branch -f` moves
 * without one), and once `committed` runs the ref no longer has it. So in
 * `prepared` the hook reads such refs itself (their value is still there)
 * into a state file of the git process that runs the transaction,
 * `<gitdir>/agentic-git-reftx-<pidns>-<git's pid>`, which `committed`
 * reads back. git deletes a ref in two transactions (packed-refs, then
 * the loose file), each running the hook; the state says the deletion
 * was journaled once already.
 *
 * A tip-only snapshot is a commit of agentic-git's whose tree is empty
 * and whose parent is the dropped tip, its message naming the ref
 * (Agentic-Snapshot-Kept) and the tip (Agentic-Snapshot-Head): it keeps
 * the commits reachable, holds no files (a restore writes none), and
 * `snapshots restore --head` puts the ref back (git/snapshot-tip.h).
 *
 * Invariants:
 *  1. MUST NOT change the transaction: nothing here refuses, and a
 *     failure only warns (the journal and the tip are best effort; the
 *     lock is reftx_judge()).
 *  2. A tip is kept only when `git rev-list <tip> --not <new values>
 *     --all` (every ref but the updated ones, HEAD with them when it
 *     points at one) still lists a commit: no ref, snapshots included,
 *     holds it.
 *  3. The state file is written with O_NOFOLLOW (mode 0600) and read
 *     bounded; lines that do not parse are ignored. Stale ones (their git
 *     is gone) are removed by the next `prepared` in that git dir.
 *
 * Lines are git's "<old> <new> <ref>". Strings are borrowed.
 */
#include "base/common.h"
#include "base/strvec.h"

struct repo_loc;

struct reftx_keep {
	const char *real_git;
	const struct repo_loc *loc; /* the worktree the hook runs in */
	const char *agent;	    /* the session's agent */
	const char *home;	    /* for the snapshot_taken event */
	/* the transaction only adds commits on top of each tip (a commit
	 * that does not amend): nothing can be dropped */
	bool grows_only;
};

/* Whether reftx_keep_prepared() has anything to do for these lines (no
 * process runs when not): a line without an old value, or a branch that
 * may lose its tip. real_git is not needed for it. */
bool reftx_keep_wanted(const struct reftx_keep *k, const struct strvec *lines);

/*
 * `prepared`: reads the value of each ref a line gives no old value for,
 * keeps the tips the transaction drops (printing to stderr what was kept
 * and the command that puts it back) and writes the state file.
 */
void reftx_keep_prepared(const struct reftx_keep *k,
			 const struct strvec *lines);

/*
 * `committed`: the old value and the kept snapshot (or "") for `ref`, as
 * `prepared` found them: false when there is nothing to say (the line's
 * own values stand). *skip is set when the line repeats a deletion the
 * journal already has (git's second transaction of one deletion).
 */
struct reftx_known {
	struct strvec lines; /* the state file's lines */
	char *path;
};
void reftx_known_load(struct reftx_known *k, const char *gitdir);
bool reftx_known_old(struct reftx_known *k, const char *line_old,
		     const char *line_new, const char *ref, const char **old,
		     const char **kept, bool *skip);
void reftx_known_release(struct reftx_known *k);

#endif
