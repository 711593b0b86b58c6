/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_SPACE_H
#define AG_SNAPSHOT_SPACE_H

/**
 * When a snapshot fails for want of space (git/snapshot.h): how much it
 * needed, and the removal of what git wrote before it gave up.
 *
 * Invariants:
 *  1. MUST NOT write anything but the removal of the files named below:
 *     it runs on a full disk.
 *  2. snapshot_sweep_failed() MUST remove only git's temporary object
 *     files (`objects/pack/tmp_pack_*`, `tmp_idx_*`, `tmp_rev_*`,
 *     `objects/??/tmp_obj_*`), regular files, made since `since`, that no
 *     process has open: a concurrent git's file in progress is open and
 *     stays. (git closes such a file just before it renames it into
 *     place; a concurrent git caught in that instant by a snapshot that
 *     failed loses its write. It only happens when a snapshot failed.)
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"

/* Whether a failure's reason says the disk (or a quota) was full. */
bool snapshot_reason_is_space(const char *reason);

/*
 * Appends to `out` what a snapshot in the work tree at `dir` needs and
 * what there is: "the snapshot needs up to N of space (the changed and
 * untracked files), <dir> has M free". `home` may be NULL or "".
 */
void snapshot_space_hint(const char *real_git, const char *dir,
			 const char *home, struct strbuf *out);

/* Removes the temporary object files a failed snapshot's git left in the
 * repository whose common dir is `commondir` (invariant 2); how many. */
unsigned snapshot_sweep_failed(const char *commondir, time_t since);

/*
 * A snapshot killed between its ref's lock and its removal leaves
 * `<ref>.lock` under refs/agentic-git/snapshots/<who>/, and git's
 * update-ref then refuses every prune that deletes that ref. Removes such
 * locks older than SNAPSHOT_REF_LOCK_STALE seconds that no process has
 * open (ours live for microseconds); how many.
 */
#define SNAPSHOT_REF_LOCK_STALE 60
unsigned snapshot_sweep_ref_locks(const char *commondir, const char *who);

#endif
