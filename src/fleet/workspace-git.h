/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_WORKSPACE_GIT_H
#define AG_WORKSPACE_GIT_H

/**
 * Internal to the workspace builder (workspace.c, workspace-source.c):
 * runs `git` (absolute) in `dir` in mode GIT_OPERATOR (the operator's
 * clone, or the workspace before any agent had it: git/gitcmd.h) with
 * stdout captured into out (if non-NULL). Returns git's exit status, or
 * -1 when git could not run. A non-zero status other than `ok_status` is
 * reported (workspace_fail()) with git's stderr.
 */
#include "base/common.h"
#include "base/spawn.h"
#include "base/strbuf.h"

int workspace_git(const char *git, const char *dir, struct strbuf *out,
		  struct strbuf *err, int ok_status, const char *first, ...);

/*
 * The same in two steps, so that git runs while we work: start (0, or -1
 * when it could not start: finish reports it), then finish, which always
 * reaps and releases `c` (CHILD_INIT before start). `what` names the git
 * command in the message.
 */
int workspace_git_start(struct child *c, const char *git, const char *dir,
			const char *first, ...);
int workspace_git_finish(struct child *c, const char *what, struct strbuf *out,
			 struct strbuf *err, int ok_status);

/*
 * The probe of workspace.h in two steps: where the clone is and its
 * object format (files only), then its config, read by a git started
 * with workspace_source_config_start() and parsed by ..._finish().
 */
struct workspace_source;
int workspace_source_locate(const char *git, const char *from,
			    struct workspace_source *src, struct strbuf *err);
int workspace_source_config_start(const char *git,
				  const struct workspace_source *src,
				  struct child *c);
int workspace_source_config_finish(struct child *c, bool need_origin,
				   struct workspace_source *src,
				   struct strbuf *err);

/*
 * Reports one failure and returns -1: into `err` when it is non-NULL and
 * still empty (the caller says it), else as an error() line.
 */
AG_PRINTF(2, 3) int workspace_fail(struct strbuf *err, const char *fmt, ...);

/* Formats into sb (reset first) and returns its buffer. */
AG_PRINTF(2, 3)
const char *workspace_pathf(struct strbuf *sb, const char *fmt, ...);

/*
 * The refs (workspace-refs.c). WS_REFS_CLONE: the head and base from the
 * clone's own refs (origin's tracking ref first, then the local branch),
 * origin/<head> into *origin_head (malloc'd) when the clone has it.
 * WS_REFS_FETCH: one fetch of the base and the head from src->url into
 * the new workspace, their ids read back. Then the checkout: the refs
 * written, `git reset --hard`, and the head and base confirmed commits.
 */
struct workspace_request;
struct workspace;
int workspace_clone_refs(const struct workspace_request *rq,
			 const struct workspace_source *src,
			 struct workspace *ws, char **origin_head,
			 struct strbuf *err);
int workspace_fetch_refs(const struct workspace_request *rq,
			 const struct workspace_source *src,
			 struct workspace *ws, struct strbuf *err);
int workspace_checkout(const struct workspace_request *rq,
		       const struct workspace_source *src, struct workspace *ws,
		       const char *origin_head, struct strbuf *err);

#endif
