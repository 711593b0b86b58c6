/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_INT_H
#define AG_SNAPSHOT_INT_H

/**
 * Inside the snapshot engine (git/snapshot.h): one snapshot's state, shared
 * by its two halves. snapshot-capture.c reads the work tree into git
 * (rev-parse, the private index, `add -A`, the trees); snapshot.c records
 * what was captured (commits, the ref, the quarantine, the event).
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"
#include "base/spawn.h"
#include "base/strvec.h"
#include "git/packw.h"
#include "git/quarantine.h"
#include "git/snapshot.h"
#include "git/snapshot-ucache.h"

struct snap {
	const struct snapshot_opts *o;
	const char *who;
	time_t now;
	struct strbuf top, gitdir, index, commondir, head, head_tree, tmp_index;
	struct strbuf wtree, itree, icommit, commit, qdir;
	bool itree_known; /* itree read from the index's cache-tree */
	/* `add -A` left files out (wtree lacks them): a clean moves every
	 * file it deletes into the quarantine instead */
	bool partial;
	/* trees and commits are formatted here and written as one pack
	 * (git/packw.h) instead of by git write-tree / commit-tree */
	bool own_objects;
	struct packw pw;
	/* the untracked entries for the next capture (git/snapshot-ucache.h);
	 * merged: the private index was written from the last one */
	struct snapshot_ucache uc;
	bool merged;
	struct strvec stashes, refs;
	struct quarantine_plan qp;
	struct strbuf *err;
};

/* Removes the private index and empties every buffer and list (not `o`,
 * `who`, `now`, `err`): `s` can be filled again. */
void snap_release(struct snap *s);

/* Writes the objects s->pw holds into the repository; 0 or -1. */
int snap_flush_objects(struct snap *s);

/* Appends `what` and the first line of git's stderr to the error; -1. */
int snap_fail(struct snap *s, const char *what, struct strbuf *gerr);

/*
 * Locates the work tree, HEAD and the agent's snapshot refs, prepares the
 * private index and scans the work tree into it: s->itree is the staged
 * tree (empty when the index has unmerged entries), s->wtree the work
 * tree's. 0, or -1 with the reason in s->err.
 */
int snap_capture(struct snap *s);

/*
 * git with `index` as its index and `args` (NULL-terminated) after it: in
 * the located repository, or, before rev-parse has answered, found from
 * `top` by git's own discovery.
 */
void snap_index_child(struct snap *s, struct child *c, const char *top,
		      const char *index, const char *const *args);

/*
 * Adds to the private index, and so to s->wtree, the ignored files that
 * the operation's `overwrite_from` trees would overwrite
 * (git/snapshot-ignored.c). 0, or -1 with the reason in s->err.
 */
int snap_add_overwritten(struct snap *s);

/*
 * What the operation deletes that no tree holds, kept in the quarantine
 * while it stays in place (git/snapshot-keep.c): onto s->qp.copies, the
 * ignored entries below the top (sparse-checkout), and the unsaved work
 * of the submodules `submodule_paths` names, as a pathspec relative to
 * `where` (rm, submodule update). 0, or -1 with the reason in s->err.
 */
int snap_plan_sparse(struct snap *s);
int snap_plan_submodules(struct snap *s, const char *where);

/*
 * Clears the assume-unchanged and skip-worktree bits that would make `add
 * -A` overlook a file in the work tree, in the private index only
 * (git/snapshot-hidden.c). 0, or -1 with the reason in s->err.
 */
int snap_unhide(struct snap *s);

/* Whether the index file at `path` may have such bits (true when it
 * cannot tell), in the repository of `commondir` and `gitdir`. */
bool snap_index_may_hide(const char *path, const char *commondir,
			 const char *gitdir);

/*
 * A git child for the located repository: in its work tree, with GIT_DIR
 * and GIT_WORK_TREE set from rev-parse's answer, so a work tree that does
 * not hold its .git (core.worktree) is found all the same.
 */
void snap_git_init(struct snap *s, struct child *c);

#endif
