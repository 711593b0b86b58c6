/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_REFS_FILES_H
#define AG_REFS_FILES_H

/**
 * Reading refs straight from git's files backend, to save a `git
 * for-each-ref` or `git rev-parse` process where the layout is the plain
 * one. Output lines are "oid refname\n", as
 * `git for-each-ref --format='%(objectname) %(refname)'` prints them.
 *
 * Invariants:
 *  1. Fail closed: anything but the plain layout — a symref, a symlink,
 *     a file that is not exactly <hex>\n, an odd packed-refs line, a name
 *     git would not list, an unreadable entry — returns -1 and the caller
 *     MUST ask git instead. Nothing here ever decides a ref is absent when
 *     it could not tell.
 *  2. Files are read with read_file_bounded() (O_NOFOLLOW, regular files
 *     only, size caps); directories are walked without following links.
 *  3. Object names are not checked for existence: callers use these only
 *     where the objects are known to be there (see each caller).
 *
 * `gitdir` is the repository's common dir; hexlen is 40 (sha1) or 64.
 * Pure file reading: no process, no message printed.
 */
#include "base/common.h"
#include "base/strbuf.h"

/*
 * The lines for those of refs[] that exist (a loose file, else
 * packed-refs), in the order given; 0, or -1 for "ask git" (reftable is
 * the caller's to exclude, as is a packed-refs too large to read).
 */
int refs_files_lookup(const char *gitdir, size_t hexlen,
		      const char *const *refs, size_t n, struct strbuf *out);

/*
 * Every ref under <gitdir>/refs, sorted by refname like for-each-ref's
 * default order, for a repository whose refs are all loose (no
 * packed-refs file at all); -1 for "ask git".
 */
int refs_files_list(const char *gitdir, size_t hexlen, struct strbuf *out);

/*
 * The refs under `prefix` ("refs/…/", ending in '/'), loose and packed, a
 * loose ref overriding a packed one, sorted by refname; -1 for "ask git"
 * (also when a directory on the way to the prefix is a symlink).
 */
int refs_files_list_prefix(const char *gitdir, size_t hexlen,
			   const char *prefix, struct strbuf *out);

#endif
