/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_STALE_LOCKS_H
#define AG_STALE_LOCKS_H

/**
 * git's lock files that a git killed midway leaves behind, and that make
 * every later git command in the work tree fail ("Unable to create
 * '…/index.lock': File exists"): named, with the way out, by the next
 * snapshot (the shim, before the command git will refuse) and by
 * `snapshots restore` (which refuses before it changes anything).
 *
 * Looked at: the work tree's `index.lock` and `HEAD.lock` (its git dir),
 * the lock of the branch HEAD names and `packed-refs.lock` (the common
 * dir). A lock counts as left behind when it exists and no process has it
 * open (base/proctree.h); a git that holds one while it waits (for an
 * editor, say) has it closed, so the way out says "when no git is running
 * in this work tree". Nothing here removes a lock.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

/* The locks left behind in the work tree at `dir` into `out` (absolute
 * paths): its index's, and with `refs` those of HEAD, its branch and
 * packed-refs; how many. Costs a few stat(2) when there are none. */
size_t stale_locks_find(const char *dir, bool refs, struct strvec *out);

/* One line for `locks` (non-empty): what they are and the command that
 * removes them. */
void stale_locks_explain(const struct strvec *locks, struct strbuf *out);

#endif
