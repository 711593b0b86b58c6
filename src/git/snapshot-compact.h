/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_COMPACT_H
#define AG_SNAPSHOT_COMPACT_H

/**
 * Bounded snapshot storage (issue 37 point 2; docs/snapshots.md,
 * "Storage"). Each snapshot adds a small pack or two and a loose ref; left
 * alone they pile up and plain git's own small commands slow down with
 * their number (git scans every pack's index on a lookup). After a
 * snapshot, when the repository holds more than SNAPSHOT_COMPACT_PACKS
 * packs or more than SNAPSHOT_COMPACT_REFS loose snapshot refs, a
 * detached process consolidates them: `git pack-refs --all --prune` and
 * `git repack -d --geometric=2` (the small packs rolled up, the large
 * ones left alone, so the cost follows what was added, not the
 * repository), with hooks off and no background gc.
 *
 * It never blocks the agent's command: the process is started before the
 * shim execs git and waits for that git to exit before it starts; it
 * runs under `<common dir>/agentic-git-compact.mutex` (flock, taken before
 * the fork, so a waiter — `flock` on it — sees it at once), and a second
 * one finding the lock held does nothing. Everything is best effort: a
 * failure changes nothing git cannot already handle (repack and pack-refs
 * are git's own crash-safe housekeeping, and run alongside any command).
 */
#include "base/common.h"

#define SNAPSHOT_COMPACT_PACKS 8
#define SNAPSHOT_COMPACT_REFS 32

/* How many *.pack files <commondir>/objects/pack holds, and how many loose
 * ref files lie under <commondir>/refs/agentic-git/snapshots. */
size_t snapshot_count_packs(const char *commondir);
size_t snapshot_count_loose_refs(const char *commondir);

/* Whether a consolidation is due (either count past its threshold). */
bool snapshot_compact_due(const char *commondir);

/*
 * Consolidates now, in the foreground, under the lock (`wait`: wait for
 * it; else skip when held): 0, 1 when skipped, -1 when git failed.
 */
int snapshot_compact_run(const char *real_git, const char *gitdir,
			 const char *top, const char *commondir, bool wait);

/*
 * When due, starts the detached consolidation that begins once the
 * calling process (which is about to exec the agent's git) has exited.
 * Never fails the caller.
 */
void snapshot_compact_maybe(const char *real_git, const char *gitdir,
			    const char *top, const char *commondir);

#endif
