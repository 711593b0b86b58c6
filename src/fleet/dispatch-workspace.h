/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_DISPATCH_WORKSPACE_H
#define AG_FLEET_DISPATCH_WORKSPACE_H

/**
 * A dispatch target's workspace: a fresh repository of its own whose
 * object store borrows the operator clone's objects read-only
 * (objects/info/alternates), with origin/<base> and origin/<head> fetched
 * by agentic-git and <head> checked out.
 *
 * Decision (docs/dispatch.md "Workspaces"): every target gets such a
 * self-contained workspace rather than a linked worktree. A linked
 * worktree shares the operator clone's refs, config and hooks with the
 * agent, and cannot check out a branch the operator already has checked
 * out; this one costs a `git init` and a fetch of what the clone lacks,
 * independent of history size. The workspace has no remote configured:
 * an agent's `git fetch`/`git push` has nowhere to go.
 *
 * Its core.hooksPath names the home's session hooks (git/hooks.h), so the
 * agent's own commits carry the provenance trailers, its ref moves are
 * journaled and the reference-transaction lock judges them, as in a
 * session; agentic-git's own git there never runs them (git/gitcmd.h).
 * The config is the agent's to edit: an agent that points it elsewhere
 * loses its attribution, not a guard (docs/dispatch.md "Attribution").
 *
 * The fetch runs with the operator's credentials, in a repository created
 * a moment earlier by us (no agent has touched its config yet), with hooks
 * disabled. Everything returned is owned by the struct; dispatch_ws_release()
 * frees it. Functions return 0 or -1 with a message in `err`.
 */
#include "base/common.h"
#include "base/strbuf.h"

struct dispatch_ws {
	char *path;    /* the workspace (the agent's cwd) */
	char *objects; /* <path>/.git/objects */
	char *url;     /* origin's URL, read from the operator clone */
	char *objfmt;  /* the clone's extensions.objectformat, or NULL */
	char head_sha[65], base_sha[65];
	struct strbuf refs_before; /* verify_refs_snapshot() at creation */
};

#define DWS_INIT                                            \
	{                                                   \
		NULL, NULL, NULL, NULL, "", "", STRBUF_INIT \
	}

/*
 * Reads the clone's origin URL, object store, object format (empty for
 * sha1) and the operator's user.name/user.email as the clone sees them
 * ("user.name VALUE" lines, empty when unset); fails when not a clone.
 * The common dir is read from the .git files when they are the plain
 * layout (git/repo.h), else from `git rev-parse`.
 */
int dispatch_ws_probe_repo(const char *repo, struct strbuf *url,
			   struct strbuf *objects, struct strbuf *ident,
			   struct strbuf *objfmt, struct strbuf *err);

/*
 * What dispatch_ws_probe_repo() found (borrowed; objfmt NULL for sha1), and the
 * workspace's core.hooksPath (NULL: none), as a session's private
 * workspace gets it (fleet/workspace.h `hooks_path`).
 */
struct dispatch_ws_source {
	const char *url, *objects, *ident, *objfmt;
	const char *hooks_path;
};

/*
 * Creates the workspace at `path` (which must not exist): its git dir is
 * written directly in the clone's object format (git/gitdir-write.h;
 * `git init` for a format that module does not write), then the fetch
 * and checkout. The identity goes into the workspace's config: a
 * sandboxed agent's $HOME is empty, so it would otherwise have none to
 * commit with. On failure `w` holds what was set; the caller removes
 * the directory and calls dispatch_ws_release().
 */
int dispatch_ws_create(const struct dispatch_ws_source *src, const char *path,
		       const char *base, const char *head,
		       struct dispatch_ws *w, struct strbuf *err);

/* rm -rf without following symlinks. 0 or -1 (errno). */
int dispatch_ws_remove(const char *path);

void dispatch_ws_release(struct dispatch_ws *w);

#endif
