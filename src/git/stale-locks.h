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
 * Looked at: the work tree's `index.lock`, and every other `*.lock` at the
 * top of its git dir and of the common dir (HEAD's, ORIG_HEAD's, config's,
 * packed-refs'; not agentic-git's own), the lock of the branch HEAD
 * names and objects/maintenance.lock (while it is there git's automatic
 * maintenance skips, silently). A lock counts as left behind when it exists and no process has it
 * open (base/proctree.h); a git that holds one while it waits (for an
 * editor, say) has it closed, so the way out says "when no git is running
 * in this work tree". Nothing here removes a lock.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

/* The locks left behind in the work tree at `dir` into `out` (absolute
 * paths): its index's, and with `refs` the others above; how many. Costs
 * a stat(2) and, with `refs`, two directory reads when there are none. */
size_t stale_locks_find(const char *dir, bool refs, struct strvec *out);

/* One line for `locks` (non-empty): what they are and the command that
 * removes them. */
void stale_locks_explain(const struct strvec *locks, struct strbuf *out);

#endif
