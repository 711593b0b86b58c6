/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_WORKSPACE_H
#define AG_WORKSPACE_H

/**
 * The one builder of private workspaces (PRODUCT.md §8): a sandboxed
 * session's (fleet/session-provision.c, `sandbox workspace`, `sandbox run
 * --from`) and a dispatch target's (fleet/dispatch.c).
 *
 * A linked worktree cannot work in a sandbox (its .git points into the
 * operator's clone, hooks and config included), and a full clone costs time
 * proportional to history. A private workspace is a fresh repository
 * (written directly in git's on-disk format, git/gitdir-write.h, in the
 * clone's object format) whose object store borrows the operator's
 * objects through objects/info/alternates, read-only: provisioning does
 * not copy objects, so its cost does not grow with history
 * (docs/sandbox.md "Provisioning cost"). It has its own config and refs,
 * and the head checked out on its own branch. What differs between its
 * users is said in the request, field by field: where the refs come from
 * (the clone's own refs, or a fetch from the clone's origin), whether
 * origin is configured, core.hooksPath, whether the operator's identity is
 * copied (a sandboxed agent's $HOME is empty).
 *
 * Invariants:
 *  1. The workspace MUST NOT exist beforehand and MUST NOT lie inside the
 *     operator's clone; nothing is created when a check fails, and an
 *     object format we cannot write (git/repo-probe.h: not sha1 or
 *     sha256) is refused before anything is created.
 *  2. Only read-only git commands run in the operator's clone (config
 *     --get-regexp; rev-parse and for-each-ref only when the layout or a
 *     ref is not plain files we parse); nothing there is written.
 *  3. No hook runs while provisioning: core.hooksPath is set before any
 *     ref is written, and our own git runs with hooks off (git/gitcmd.h).
 *  4. A failure after creation removes the half-made workspace.
 *  5. git's automatic gc and maintenance are off in the workspace: no
 *     background git process started by an agent's commit outlives the
 *     agent's supervision or races the workspace's removal.
 *
 * All functions return 0 or -1 after one error() line, or with the message
 * in `err` when the caller passes one (then nothing is printed). Strings
 * in a request are borrowed; the structs own what they hold.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

/* What the builder reads from the operator's clone (workspace_probe()). */
struct workspace_source {
	char *common;	    /* canonical git common dir */
	char *top;	    /* the clone's top (common's parent for ".git") */
	char *url;	    /* origin's URL, NULL without one (a relative local
			  path made absolute, url.<base>.insteadOf applied) */
	char *name, *email; /* user.name/user.email as the clone sees them */
	char *objfmt;	    /* the clone's object format, NULL for sha1 */
};

#define WORKSPACE_SOURCE_INIT \
	{                     \
		0             \
	}

/*
 * Reads `from` (a clone's top, a linked worktree, a .git or bare dir) with
 * one `git config` run: fails when it is not a repository, when its
 * object format is not one we write, or (need_origin) when it has no
 * origin remote.
 */
int workspace_probe(const char *git, const char *from, bool need_origin,
		    struct workspace_source *src, struct strbuf *err);
/* A deep copy of src into dst (empty before). */
void workspace_source_copy(struct workspace_source *dst,
			   const struct workspace_source *src);
void workspace_source_release(struct workspace_source *src);

enum workspace_refs {
	/* the clone's own refs: origin/<head> or <head>, and the base, read
	   from its ref files (git/refs-files.h) or for-each-ref */
	WS_REFS_CLONE,
	/* one fetch from the clone's origin of refs/heads/<base> and
	   refs/heads/<head> into refs/remotes/origin/, with the operator's
	   credentials, in the repository created a moment earlier */
	WS_REFS_FETCH,
};

struct workspace_request {
	const char *git;	/* absolute path of the real git */
	const char *from;	/* the operator's clone (its top or .git) */
	const struct workspace_source *src; /* probed; NULL: probe `from` */
	const char *dir;	/* the new workspace: absolute, must not exist */
	const char *head;	/* branch to check out (WS_REFS_CLONE: created
				   from base when neither origin/<head> nor
				   <head> exists) */
	const char *base;	/* branch measured against, or NULL
				   (WS_REFS_FETCH: required) */
	const char *start;	/* WS_REFS_CLONE: a commit id the head starts
				   at (a session's resolved --base); the base
				   is then only recorded when it is found */
	enum workspace_refs refs;
	bool origin;		/* configure origin = src->url (and <head>'s
				   upstream); false: no remote at all */
	const char *hooks_path; /* core.hooksPath, NULL for /dev/null */
	bool identity;		/* copy user.name/user.email into its config */
};

struct workspace {
	char *dir;	   /* canonical workspace path */
	char *objects;	   /* <dir>/.git/objects */
	char *origin_url;  /* src->url (configured or not); NULL without */
	char *head_oid;	   /* the commit checked out */
	char *base_oid;	   /* NULL without a base */
	struct strvec ro_dirs; /* borrowed object stores to bind read-only */
};

#define WORKSPACE_INIT { .ro_dirs = STRVEC_INIT }

int workspace_create(const struct workspace_request *rq, struct workspace *ws,
		     struct strbuf *err);

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

/* rm -rf of a workspace (no symlink is followed, no mount crossed); a
 * missing one is removed already. */
int workspace_remove(const char *dir);

void workspace_release(struct workspace *ws);

#endif
