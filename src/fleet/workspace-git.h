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
#include "base/strbuf.h"

int workspace_git(const char *git, const char *dir, struct strbuf *out,
		  struct strbuf *err, int ok_status, const char *first, ...);

/*
 * Reports one failure and returns -1: into `err` when it is non-NULL and
 * still empty (the caller says it), else as an error() line.
 */
AG_PRINTF(2, 3) int workspace_fail(struct strbuf *err, const char *fmt, ...);

/* Formats into sb (reset first) and returns its buffer. */
AG_PRINTF(2, 3)
const char *workspace_pathf(struct strbuf *sb, const char *fmt, ...);

#endif
