/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_OWNED_LINKS_H
#define AG_OWNED_LINKS_H

/**
 * Symbolic links where git and agentic-git write in a git dir (W15): a
 * caged agent that makes its workspace's refs/agentic-git, a snapshot
 * namespace or objects/pack a link sends the ref or the pack the
 * operator's `end --force` or `snapshots restore` writes (in-process or
 * by git) into the operator's clone or $HOME. git itself never makes a
 * link there, so one is refused (git/gitcmd.h invariant 5). Security
 * module.
 *
 * Invariants (tests: t0853-own-links.bats):
 *  1. Looked at, never followed (lstat / d_type): HEAD, index,
 *     packed-refs, and everything below refs/ and logs/ (any depth), and
 *     objects/ with the entries of its subdirectories (pack/, info/, the
 *     fan-out). Other parts (hooks/, config) are not written by us.
 *  2. A directory that cannot be read is a finding too (fail closed).
 *
 * Returns 0 when there is none, 1 with the first path found in `where`.
 */
#include "base/common.h"
#include "base/strbuf.h"

int gitdir_links_find(const char *gitdir, struct strbuf *where);

#endif
