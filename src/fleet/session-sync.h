/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_SESSION_SYNC_H
#define AG_FLEET_SESSION_SYNC_H

/**
 * A sandboxed session's private workspace after its agent (PRODUCT.md §6):
 * the session's branch and the agent's snapshots brought back into the
 * operator's clone, and the workspace's config made the one provisioning
 * wrote again. Used when `run` sees the agent exit and by `end` before it
 * removes the workspace.
 *
 * The workspace is the agent's to write: its config may name an fsmonitor,
 * hooks, an upload-pack hook, filters, a gpg program. Invariants (tests in
 * tests/e2e/t0455-sandboxed-session.bats cite these numbers):
 *  1. No git runs with the workspace as its repository. Its refs are read
 *     from its files (git/refs-files.h); every git process runs in the
 *     operator's clone, reading the workspace's object store only as an
 *     alternate (GIT_ALTERNATE_OBJECT_DIRECTORIES), with the commit-graph
 *     and multi-pack-index off.
 *  2. Objects enter the clone through `index-pack`, which names each one
 *     by its content, and refs move only after the clone alone holds
 *     everything they reach (`rev-list --objects`).
 *  3. refs/heads/<branch> is only created or fast-forwarded, checked
 *     against the value read; a diverged branch is left as it is and the
 *     workspace's tip is kept as refs/agentic-git/sessions/<agent>/<branch>
 *     (a warning says so). A workspace behind the branch changes nothing.
 *  4. Only refs/agentic-git/snapshots/<agent>/ come back, and only those
 *     the clone lacks: never another agent's, never over an existing one;
 *     each points at a commit agentic-git writes, attributed to the
 *     session's agent and workspace whatever the agent's message says
 *     (fleet/snapshot-bind.h).
 *  5. Nothing is done to a directory that is not a private workspace of
 *     that clone (workspace_is_private_of()).
 *  6. The workspace's config is restored from the copy provisioning kept
 *     in <home>/runtime/<agent>/ (read-only inside the sandbox) before
 *     agentic-git runs any git there (`end`'s status and snapshot).
 *
 * Strings are borrowed. Functions return 0, or -1 after one error() line.
 */
#include "base/common.h"

struct session_ws {
	const char *home;
	const char *git;       /* the real git, absolute */
	const char *agent;
	const char *branch;    /* the session's branch */
	const char *workspace; /* the private workspace */
	const char *repo;      /* the operator's clone (its top) */
};

/* Provisioning: keeps a copy of the workspace's fresh config (invariant 6). */
int session_ws_keep_config(const struct session_ws *w);

/*
 * Puts that copy back as <workspace>/.git/config (invariants 5, 6). `who`
 * ("run", "end") starts every message here and below.
 */
int session_ws_disarm(const struct session_ws *w, const char *who);

/*
 * session_ws_disarm() for the session of `agent` whose verified binding
 * names a worktree with a .git directory; 0 when there is no such session.
 */
int session_ws_disarm_bound(const char *home, const char *git,
			    const char *agent, const char *who);

/* Brings the branch and the snapshots back (invariants 1-5). */
int session_ws_sync(const struct session_ws *w, const char *who);

#endif
