/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_REPO_H
#define AG_REPO_H

/**
 * Repository discovery by reading .git files — no git subprocess, so the
 * shim's hot path stays one exec away from real git. The ref lookups read
 * loose and packed refs where the format gate says refs are files
 * (git/repo-probe.h), and ask git elsewhere.
 *
 * Every char * in struct repo_loc is owned by it (repo_loc_release()).
 */
#include "base/common.h"

struct repo_loc {
	char *top;	   /* work tree top, canonical; NULL for a bare gitdir */
	char *gitdir;	   /* canonical */
	char *commondir;   /* canonical */
	bool is_main;	   /* .git is a directory: the main working tree */
	char *head_branch; /* HEAD's branch (without refs/heads/), or NULL */
	bool head_unread;  /* repo_discover_no_head(): HEAD not read */
	char *rel;	   /* start directory relative to top ("" at top) */
};

enum repo_found { REPO_FOUND = 0, REPO_NONE = 1, REPO_ODD = -1 };

/*
 * Walks up from `start` (any path) as git's own discovery does: at each
 * level a .git (a directory, a gitdir file, or a symlink to either,
 * followed), else the directory itself when it is a git dir (a valid HEAD
 * and `commondir`, or `objects` and `refs`: a worktree's admin directory,
 * a bare repository; then `top` is NULL).
 */
enum repo_found repo_discover(const char *start, struct repo_loc *out);
/* Same, for a start path that is already canonical (from getcwd(3) or
 * realpath(3)): saves a realpath per call on the shim's hot path. */
enum repo_found repo_discover_canonical(const char *start, struct repo_loc *out);
/*
 * Same, without reading HEAD (head_branch NULL, head_unread set): for a
 * caller no rule of which asks the branch (a read-only command on the
 * shim's hot path). A missing HEAD is then not seen here: git sees it.
 */
enum repo_found repo_discover_no_head(const char *start, struct repo_loc *out);
/* For GIT_DIR / --git-dir (+ optional work tree). */
enum repo_found repo_from_gitdir(const char *gitdir, const char *work_tree,
				 struct repo_loc *out);
void repo_loc_release(struct repo_loc *r);

enum repo_ref {
	REPO_REF_ABSENT = 0,
	REPO_REF_PRESENT = 1,
	REPO_REF_UNKNOWN = -1
};

/*
 * Whether refname (e.g. refs/heads/x) exists: a loose or packed ref where
 * the repository probe says refs are files (git/repo-probe.h) and
 * packed-refs reads as git's (git/packed-refs.h), else git's answer,
 * UNKNOWN when git gives none (it refuses the repository). A name git's
 * rules refuse (base/refname.h, one level allowed) is ABSENT.
 */
enum repo_ref repo_ref_state(const struct repo_loc *r, const char *refname);
/* repo_ref_state() == REPO_REF_PRESENT. */
bool repo_ref_exists(const struct repo_loc *r, const char *refname);
/* True when refs/remotes/<any remote>/<name> exists (the same sources). */
bool repo_remote_branch_exists(const struct repo_loc *r, const char *name);
/* True when the repository's config has a [remote "origin"] section. */
bool repo_has_origin(const struct repo_loc *r);

/* The session marker's file name, at a session worktree's top. */
#define SESSION_MARKER_NAME ".agend-managed"

/*
 * Walks up from `start` for the nearest `.agend-managed` marker with a
 * non-empty agent= line. Returns the agent (owned) and sets *dir (owned).
 */
char *marker_agent_above(const char *start, char **dir);
/* Same, for a canonical start path. */
char *marker_agent_above_canonical(const char *start, char **dir);
/*
 * The work tree a linked worktree's admin directory `gitdir`
 * (<common>/worktrees/<id>) belongs to, from its `gitdir` file (the path
 * of that work tree's .git file); NULL for any other git dir. Owned.
 */
char *repo_worktree_of_admin(const char *gitdir);
/*
 * The branch HEAD names in git dir `gitdir` (its HEAD file), as a full
 * refs/heads/ name; NULL when detached, unreadable or reftable's
 * placeholder. Owned.
 */
char *repo_head_ref(const char *gitdir);

/* Whether git takes `dir` itself for a git dir (git's is_git_directory():
 * a valid HEAD, and a commondir, or objects and refs): a bare repository,
 * a linked worktree's admin directory. */
bool repo_is_git_dir(const char *dir);

#endif
