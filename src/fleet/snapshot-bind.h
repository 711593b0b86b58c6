/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_SNAPSHOT_BIND_H
#define AG_FLEET_SNAPSHOT_BIND_H

/**
 * Snapshots brought back from a sandboxed session's private workspace are
 * the session's (PRODUCT.md §8, "the cage boundary"; issue 32, W4). The
 * snapshot commits there were written inside the cage, by the shim or by
 * the agent itself: their messages are claims. The sync
 * (fleet/session-sync.h) never files the agent's commit: it files a
 * commit agentic-git writes itself, with the same tree and parents and a
 * message rendered from the session's facts.
 *
 * Security module. Invariants (tests: t0863):
 *  1. The bound commit's Agent and Worktree are the session's agent and
 *     its workspace, whatever the agent's message says; its author and
 *     committer are agentic-git's; no other header (signature, encoding,
 *     mergetag) is copied.
 *  2. Of the rest of the message only what is checkable is kept: the op
 *     when it is a snapshot slug (else the ref's), Head, Index and Stash
 *     when they are object ids of the clone's length, Branch and Kept
 *     when they are ref names under refs/, the Quarantine path (restore
 *     takes it only when it is that snapshot's own,
 *     git/snapshot-restore.c own_quarantine()).
 *  3. A ref whose name is not a snapshot name of the session's agent, or
 *     whose object is not a commit, is not imported (a warning says so).
 *  4. Nor is one whose stamp lies more than SNAPSHOT_BIND_SKEW past
 *     b->now: retention ranks snapshots by their stamps (newest first),
 *     and a name from the future would outrank every other snapshot of
 *     the session's worktree for ever.
 *
 * Strings are borrowed. Functions return 0, or -1 after one error() line.
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"

/* How far past the clock a snapshot's stamp may be (clock steps, the
 * cage's own clock): beyond it the name is a forged order (invariant 4). */
#define SNAPSHOT_BIND_SKEW (10 * 60)

struct snapshot_bind {
	const char *git;      /* the real git, absolute */
	const char *repo;     /* the operator's clone */
	const char *agent;    /* the session's agent */
	const char *worktree; /* the session's private workspace */
	size_t hexlen;	      /* the clone's object id length (40, 64) */
	const char *who;      /* "run", "end": starts every message */
	time_t now;	      /* the clock at the sync (0: not checked) */
};

/*
 * Pure: the commit object agentic-git files for the agent's snapshot
 * commit `obj` (`len` bytes, the body `git cat-file commit` prints) named
 * `ref`, into `out`. -1 when `obj` is not a commit it can read or `ref`
 * is not a snapshot name of b->agent (invariant 3); -2 when its stamp is
 * in the future (invariant 4).
 */
int snapshot_bind_commit(const struct snapshot_bind *b, const char *ref,
			 const char *obj, size_t len, struct strbuf *out);

/*
 * `lines`: "<oid> <ref>\n" for each snapshot to import, its objects
 * already in the clone. Appends "create <ref> <bound oid>\n" to tx for
 * each one bound; warns about each one dropped.
 */
int snapshot_bind_import(const struct snapshot_bind *b, const char *lines,
			 struct strbuf *tx);

#endif
