/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PATH_H
#define AG_PATH_H

/** Path helpers. Returned strings are owned by the caller. */
#include "base/common.h"
#include "base/strbuf.h"

/* realpath() into a fresh string, or NULL with errno set. */
char *real_path(const char *path);
/* Whether two paths (either may be NULL) resolve to the same existing
 * file, symlinks resolved; false when either cannot be resolved. */
bool same_real_path(const char *a, const char *b);
/*
 * The same for a directory, in three system calls whatever its depth: the
 * kernel's own name for an O_PATH descriptor of it (/proc/self/fd, what
 * getcwd(3) reports), where realpath(3) reads every component. Falls back
 * to realpath(3) when that name is not a plain absolute path (no /proc, a
 * deleted or unreachable directory) or `path` is not a directory.
 */
char *real_dir_path(const char *path);
/* Joins a and b with exactly one '/' (b absolute replaces a). */
char *path_join(const char *a, const char *b);
/* Lexical normalisation: collapses //, ./ and ../ (never above /). */
void path_normalize(struct strbuf *sb);
/*
 * `p` made absolute against the cwd and normalised (the path need not
 * exist), or NULL with errno set when the cwd cannot be known.
 */
char *path_absolute(const char *p);
/*
 * When `path` equals `dir` or lies below it (both normalised absolute
 * paths), sets *rel to the remainder ("" for equal) and returns true.
 */
bool path_inside(const char *path, const char *dir, const char **rel);
/* Directory name of an absolute path, into a fresh string. */
char *path_dirname(const char *path);
const char *path_basename(const char *path);
/* The running executable's canonical path (/proc/self/exe), cached. */
const char *self_exe(void);
/*
 * The shim executable that <home>/bin/git must point at: the small
 * `agentic-git-shim` installed beside this binary when it exists (it starts
 * faster), else this binary itself (which is the shim when invoked as git).
 * Cached; NULL only when self_exe() is NULL. Sandboxes bind it read-only.
 */
const char *shim_exe(void);
/* agentic-git-proxy beside this executable (the fs+api proxy, which links
 * the TLS library), or NULL when it is not there. Not owned. */
const char *proxy_exe(void);

#endif
