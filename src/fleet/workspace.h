/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_WORKSPACE_H
#define AG_WORKSPACE_H

/**
 * Private workspaces for sandboxed agents (PRODUCT.md §8).
 *
 * A linked worktree cannot work in a sandbox (its .git points into the
 * operator's clone, hooks and config included), and a full clone costs time
 * proportional to history. A private workspace is a fresh repository
 * (written directly in git's on-disk format) whose object store borrows the
 * operator's objects through objects/info/alternates, read-only:
 * provisioning does not copy objects, so its cost does not grow with
 * history (docs/sandbox.md "Provisioning cost"). It has its own config and
 * refs, core.hooksPath at an empty or session-owned place (default
 * /dev/null, a path where no hook can ever be created), origin set to the
 * operator clone's real remote URL, the base as refs/remotes/origin/<base>
 * and the head checked out on its own branch. The operator's user.name and
 * user.email are copied into it, since $HOME is empty inside the sandbox.
 *
 * Invariants:
 *  1. The workspace MUST NOT exist beforehand and MUST NOT lie inside the
 *     operator's clone; nothing is created when a check fails.
 *  2. Only read-only git commands run in the operator's clone (config
 *     --get-regexp; rev-parse and for-each-ref only when the layout or a
 *     ref is not plain files we parse); nothing there is written.
 *  3. No hook runs while provisioning: core.hooksPath is set before any
 *     ref is written.
 *  4. A failure after creation removes the half-made workspace.
 *
 * All functions return 0 or -1 after printing one error() line. Strings in
 * a request are borrowed; a struct workspace owns what it holds.
 */
#include "base/common.h"
#include "base/strvec.h"

struct workspace_request {
	const char *git;	/* absolute path of the real git */
	const char *from;	/* the operator's clone (its top or .git) */
	const char *dir;	/* the new workspace: absolute, must not exist */
	const char *head;	/* branch to check out (created from base when
				   neither origin/<head> nor <head> exists) */
	const char *base;	/* branch measured against, or NULL */
	const char *start;	/* a commit id: the head starts there (a
				   session's resolved --base); the base is
				   then only recorded when it is found */
	const char *hooks_path; /* core.hooksPath, NULL for /dev/null */
};

struct workspace {
	char *dir;	   /* canonical workspace path */
	char *origin_url;  /* NULL when the operator clone has no origin */
	char *head_oid;
	char *base_oid;	   /* NULL without a base */
	struct strvec ro_dirs; /* borrowed object stores to bind read-only */
};

#define WORKSPACE_INIT { .ro_dirs = STRVEC_INIT }

int workspace_create(const struct workspace_request *rq, struct workspace *ws);

/*
 * The object stores a repository with this objects dir reads from:
 * the alternates chain (depth <= 5), canonical paths, appended to out.
 */
int workspace_borrowed_stores(const char *objects_dir, struct strvec *out);

/*
 * True when `dir` is a private workspace borrowing from the repository
 * whose canonical common dir is `common_dir`: <dir>/.git, its objects and
 * objects/info are directories (no symlink), there is no commondir file
 * (which would make it another repository's), and objects/info/alternates
 * is exactly one line naming <common_dir>/objects. Reads files only.
 */
bool workspace_is_private_of(const char *dir, const char *common_dir);

/* rm -rf of a workspace (no symlink is followed, no mount crossed). */
int workspace_remove(const char *dir);

void workspace_release(struct workspace *ws);

#endif
