/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_H
#define AG_SNAPSHOT_H

/**
 * The snapshot engine: saves a work tree's unsaved work as a commit under
 * refs/agentic-git/snapshots/<agent>/ before a destructive git operation.
 *
 * What is captured: the work tree as `git add -A` sees it, starting from
 * the real index (a hard link to it, or a copy with its mtime, so that
 * force-added ignored files stay tracked, unchanged files are not hashed
 * again and git's racy-entry check still works): staged and unstaged
 * changes to tracked files and untracked files, and the ignored files the
 * operation would overwrite from `overwrite_from`. The staged tree, when
 * it differs, is kept as the snapshot's second parent; before `stash
 * drop/clear` the stash commits are kept as further parents. Before
 * `clean`, what clean would delete and a tree cannot hold (ignored files
 * with -x/-X, directories) is moved into a quarantine (git/quarantine.h);
 * before sparse-checkout, rm and submodule update, what they would delete
 * that no tree holds (ignored files, a submodule's work) is copied there.
 *
 * Invariants:
 *  1. MUST NOT change the real index, HEAD, any branch, or the work tree
 *     (except moving files clean is about to delete into the quarantine).
 *  2. MUST call only `real_git` (absolute), with the bypass variables set
 *     and the caller's GIT_DIR/GIT_WORK_TREE/GIT_INDEX_FILE removed.
 *  3. MUST force author/committer to `agentic-git <agentic-git@localhost>`
 *     and the date to now, whatever the environment says.
 *  4. MUST NOT join an unvalidated agent name into a ref or a path.
 *  5. MUST prune automatically only the calling agent's snapshots.
 *
 * snapshot_take() returns 0 with `ref_out` set to the new ref, or left
 * empty when there was nothing to lose; -1 with `err` set to a one-line
 * reason. snapshot_guard() is the shim's fail-open wrapper: it never fails.
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"
#include "base/strvec.h"

#define SNAPSHOT_TTL_SECONDS (7L * 24 * 3600)

struct snapshot_opts {
	const char *real_git;	/* absolute path of real git (never the shim) */
	const char *dir;	/* the work tree the operation runs in */
	/* the repository the operation names itself (GIT_DIR / --git-dir,
	 * GIT_WORK_TREE / --work-tree; NULL: git finds it from `dir`), and
	 * so the one to capture; absolute, or relative to `dir` */
	const char *git_dir;
	const char *work_tree;
	const char *agent;	/* agent name, "" or NULL => "noagent" */
	const char *home;	/* $AGENTIC_GIT_HOME, may be "" (then no quarantine dir, no events) */
	const char *slug;	/* operation slug: reset, checkout, restore, ... */
	const char *const *clean_args; /* for slug "clean": the args after `clean` (NULL otherwise) */
	const char *const *
		clean_configs; /* the clean's own -c values, NULL-terminated; may be NULL */
	bool quarantine_ignored; /* clean -x/-X: quarantine the ignored files clean would delete */
	bool *quarantine_incomplete; /* out, may be NULL: set when some of them could not be moved */
	/* the tree-ishes the operation writes files from (`checkout X -- p`,
	 * `restore --source X`, `reset --hard X`, a forced switch to X, the
	 * commits `merge X Y` brings in), NULL-terminated, may be NULL, and
	 * its pathspec (NULL-terminated, may be NULL): the ignored files it
	 * would overwrite are captured too (git/snapshot-ignored.c) */
	const char *const *overwrite_from;
	const char *const *overwrite_paths;
	/* absolute paths of existing files the operation writes where it
	 * is told (git/outpaths.h: `diff --output=.env`), NULL-terminated,
	 * may be NULL: captured too when they are ignored or untracked */
	const char *const *output_paths;
	/* take it even when there is nothing to lose: a restore that
	 * moves the branch (--head) records where it was, for its undo */
	bool always;
	/* the stash whose entries a stash drop/clear (and `end`) keeps as
	 * parents: a session's own (git/stash-map.h), NULL for refs/stash */
	const char *stash_ref;
	/* fail closed (a `run` session, a dispatch target, or the operator's
	 * AGENTIC_GIT_FAIL_CLOSED=1): a failed snapshot refuses the op */
	bool fail_closed;
	/* what the operation deletes that no tree holds, copied into the
	 * quarantine and left in place (git/snapshot-keep.c): the ignored
	 * files below the top (sparse-checkout), and the unsaved work of
	 * the submodules `submodule_paths` names (a pathspec relative to
	 * `dir`, NULL-terminated; NULL or empty: every submodule) */
	bool keep_sparse_ignored;
	bool keep_submodules;
	const char *const *submodule_paths;
};

/*
 * The shim's guard: takes the snapshot, and on failure appends a
 * `snapshot_failed` event and either (fail-open, the embedding mode)
 * prints `agentic-git: warning — pre-op snapshot FAILED (<reason>);
 * proceeding without a safety net` or (`fail_closed`) prints the refusal,
 * with how much space is needed when the disk is full, and returns -2.
 * Never exits. Returns 0; -1 when what a clean deletes is not safe: the
 * quarantine is incomplete (e.g. a full disk: ignored files, nested
 * repositories exist nowhere else), or `quarantine_ignored` was asked and
 * the snapshot failed; -2 when it refused. The caller must not run the
 * operation on a negative return (docs/threat-model.md, "lost work").
 */
int snapshot_guard(const struct snapshot_opts *o);

/* 0 on success (ref_out gets the ref, or stays empty when there was
 * nothing to save), -1 on failure with err set. */
int snapshot_take(const struct snapshot_opts *o, struct strbuf *ref_out,
		  struct strbuf *err);

/*
 * Deletes the snapshot refs among `refs` (full names) whose stamp is more
 * than `ttl` seconds before `now`, except `keep` (may be NULL), with one
 * `git update-ref --stdin`, run in `dir` (with GIT_DIR=`gitdir` when not
 * NULL: a work tree apart from its .git). The deleted names go to `pruned`
 * when non-NULL. With a non-empty `home`, quarantines of `who` older than
 * the TTL are removed too. 0 or -1 (err set).
 */
int snapshot_prune_refs(const char *real_git, const char *dir,
			const char *gitdir, const char *home, const char *who,
			const struct strvec *refs, time_t now, long ttl,
			const char *keep, struct strvec *pruned,
			struct strbuf *err);

/*
 * Lists the snapshot ref names of `who` (NULL: every agent) in the
 * repository at `dir`. 0 or -1 (err set).
 */
int snapshot_list_refs(const char *real_git, const char *dir, const char *who,
		       struct strvec *refs, struct strbuf *err);

#endif
