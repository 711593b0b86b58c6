/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_GITCMD_H
#define AG_GITCMD_H

/**
 * Internal git calls made by agentic-git itself (snapshots, restore).
 *
 * gitcmd_init() prepares a struct child that runs `real_git` (an absolute
 * path, never the shim) in `dir` with AGENTIC_GIT_BYPASS=1 and
 * AGEND_GIT_BYPASS=1 set, and GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE,
 * GIT_COMMON_DIR, GIT_PREFIX and GIT_LITERAL_PATHSPECS removed (callers set
 * them again on purpose). The caller pushes the git arguments and releases
 * the child. `real_git` and `dir` are not copied and must outlive the child.
 *
 * gitcmd_capture() runs one command and captures stdout (stderr into `err`
 * when non-NULL, otherwise discarded). Returns git's exit status, or -1
 * when git could not be started (errno set).
 */
#include "base/common.h"
#include "base/spawn.h"
#include "base/strbuf.h"

void gitcmd_init(struct child *c, const char *real_git, const char *dir);
/*
 * gitcmd_init() in the work tree `top` of the repository whose git dir is
 * `gitdir` (absolute), both given to git (GIT_DIR, GIT_WORK_TREE): for a
 * repository already found, even when its work tree does not hold its .git
 * (core.worktree). Only after git's own discovery found it, so that
 * safe.directory has had its say.
 */
void gitcmd_init_repo(struct child *c, const char *real_git,
		      const char *gitdir, const char *top);
int gitcmd_run(struct child *c, struct strbuf *out, struct strbuf *err);
/* NULL-terminated argument list after `git`. */
int gitcmd_capture(const char *real_git, const char *dir, struct strbuf *out,
		   struct strbuf *err, ...);
/*
 * For a git child that writes many objects (add, write-tree, commit-tree):
 * sets GLIBC_TUNABLES so glibc's malloc keeps freed memory instead of
 * trimming the heap after every object (each zlib stream allocates and
 * frees ~256 KiB; the trim and the page faults that follow cost more than
 * the hashing on a virtual machine). The caller's own GLIBC_TUNABLES, if
 * any, comes last and so wins. Ignored by a git not linked with glibc.
 */
void gitcmd_keep_heap(struct child *c);
/* Strips one trailing newline. */
void gitcmd_chomp(struct strbuf *sb);

#endif
