/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_SESSION_LOCK_H
#define AG_FLEET_SESSION_LOCK_H

/**
 * The run lock of a session (PRODUCT.md §6): <home>/runtime/<agent>/run.lock.
 *
 * `run` takes it exclusively before the agent starts and holds it until the
 * agent has exited, and records the agent's pid and process group in the
 * file ("pid=<n>\npgid=<n>\n"); `sessions` probes it to say "running"; `end`
 * takes it for the whole teardown, so no agent can start in a session that
 * is being removed (and `end --force` stops the holder's agent first).
 *
 * Invariants (t0415-session-running.bats cites these numbers):
 *  1. "Running" is decided by the lock alone, with a non-blocking probe:
 *     a file nobody holds is stale, whatever pid it names.
 *  2. The lock fd is O_CLOEXEC, so the agent never inherits it: only the
 *     `run` parent holds it, and it is released when that process exits.
 *  3. The file's pid is read only while someone holds the lock, and a
 *     process group is signalled only when the record names a group leader
 *     (pid == pgid > 1) that is not our own group and still exists.
 *  4. Taking the lock checks that the locked file is still the one at the
 *     path (an `end` may have removed the runtime directory meanwhile).
 *
 * Caller steps: session_lock_take() (or session_lock_stop() to take it
 * from a running agent) → work → session_lock_release(). Functions return
 * 0, 1 (busy: someone else holds the lock) or -1 with errno set; they print
 * nothing.
 */
#include "base/common.h"
#include <sys/types.h>
#include "base/strbuf.h"

struct session_lock {
	int fd; /* -1 when not held */
};
#define SESSION_LOCK_INIT { -1 }

/* What the holder recorded; 0 when it recorded nothing (yet) or the
 * recorded process no longer exists. */
struct session_holder {
	long pid;
	long pgid;
};

/* Appends the lock file's path, <home>/runtime/<agent>/run.lock. */
void session_lock_file(const char *home, const char *agent, struct strbuf *out);

/*
 * Takes the lock without blocking (a concurrent probe is waited out for a
 * moment), creating the file (0600) when needed, and empties it. Returns
 * 0, 1 when another process holds it (`h` filled from the file), or -1.
 */
int session_lock_take(struct session_lock *l, const char *home,
		      const char *agent, struct session_holder *h);

/*
 * True when someone holds the lock (invariant 1); `h` is filled from the
 * file then, else zeroed. Creates nothing. A file that cannot be opened or
 * is not a regular file counts as not held; session_lock_take() refuses it.
 */
bool session_lock_probe(const char *home, const char *agent,
			struct session_holder *h);

/* Records `pid` as the agent (its own group leader) in a held lock. */
int session_lock_record(const struct session_lock *l, pid_t pid);

/*
 * Takes the lock from a running agent: SIGTERM (and SIGCONT) to the
 * recorded process group, SIGKILL to what is left of it after a grace of
 * SESSION_STOP_GRACE_MS, until the lock is free and no process of the group
 * is left but zombies, for at most SESSION_STOP_WAIT_MS. Returns 0 with the
 * lock held, 1 when that did not happen in time (nothing held), or -1; `h`
 * names the agent that was signalled (0s when the holder named none).
 */
#define SESSION_STOP_GRACE_MS 3000
#define SESSION_STOP_WAIT_MS 10000
int session_lock_stop(struct session_lock *l, const char *home,
		      const char *agent, struct session_holder *h);

/*
 * True while process group `pgid` has a member that is not a zombie: an
 * init that does not reap orphans (a container's) keeps a group's dead
 * children as zombies for good. Also used by the launch's timeout.
 */
bool session_group_live(long pgid);
/* Empties the record and drops the lock (no-op when not held). */
void session_lock_release(struct session_lock *l);

/*
 * The one-line refusal for a running session, without a prefix:
 * "agent 'A' is running in its session (pid N), nothing was changed; …".
 */
void session_lock_busy_msg(const char *agent, const struct session_holder *h,
			   struct strbuf *out);

#endif
