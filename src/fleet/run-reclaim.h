/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_RUN_RECLAIM_H
#define AG_FLEET_RUN_RECLAIM_H

/**
 * A dispatch killed before its teardown (SIGKILL, a crash, the machine
 * going down) leaves its workspaces under runs/<id>/work/, its sandbox
 * scratch under runs/<id>/scratch/ and its agents' bindings under
 * runtime/dispatch-<id>-<n>/. The next dispatch reclaims them.
 *
 * A live run holds an exclusive flock(2) on runs/<id>/.running for as long
 * as its process lives (the descriptor is close-on-exec: no agent holds
 * it); the kernel drops it when the process dies, however it dies.
 *
 * Invariants:
 *  1. MUST touch only runs whose .running exists and whose lock it takes
 *     (LOCK_NB): a run that is alive, or one that never made the file (an
 *     older version's), is left as it is. Two dispatches never reclaim
 *     the same run at once: the lock is held while reclaiming.
 *  2. MUST keep a workspace holding AGENTIC-GIT-NOTE.md: the run kept it
 *     for a human (a conflict, a failed push).
 *  3. MUST remove with workspace_remove() only (no symlink followed, no
 *     mount crossed), and only names under the run's own directories and
 *     runtime/dispatch-<the run's id, lowercased>-<n>.
 */
#include "base/common.h"

/* Takes the run's lock for this process's life; 0 or -1 (error printed). */
int rundir_hold(const char *run_path);

/*
 * Reclaims what dead runs under <home>/runs left (not `own_id`'s), saying
 * on stderr what it removed. Returns the number of workspaces removed.
 */
unsigned rundir_reclaim(const char *home, const char *own_id);

#endif
