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
 *     packed-refs, config, config.worktree, shallow, commondir, gitdir,
 *     and everything below refs/ and logs/ (any depth), and objects/ with
 *     the entries of its subdirectories (pack/, info/, the fan-out).
 *     Anything there but a regular file or a directory is a finding: a
 *     link, and a FIFO, socket or device, which would hang git (F8).
 *     hooks/ is not ours to read.
 *  2. A directory that cannot be read is a finding too (fail closed).
 *
 * Returns 0 when there is none, 1 with the first path found in `where`.
 */
#include "base/common.h"
#include "base/strbuf.h"

int gitdir_links_find(const char *gitdir, struct strbuf *where);

#endif
