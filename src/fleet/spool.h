/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SPOOL_H
#define AG_SPOOL_H

/**
 * Audit events recorded inside a sandbox, brought into fleet_events.jsonl
 * after the agent exits. The shim inside cannot reach the log (bwrap hides
 * it, Landlock makes it read-only), so it writes to a spool the launcher
 * names in AGENTIC_GIT_EVENTS_SPOOL (base/eventlog.h) and binds writable.
 *
 * The spool is written by the sandboxed agent's own processes: untrusted.
 * Invariants:
 *  1. Only lines that parse as a JSON object with a string "event" of at
 *     most 64 characters and a string "timestamp" are imported; anything else is counted as
 *     rejected and dropped.
 *  2. An imported record's kind is git_event, its agent the session's (another claim is
 *     kept as "claimed_agent"), its disposition is recomputed from the
 *     event name (an agent cannot downgrade a deny), and "via":"sandbox"
 *     says it was reported from inside.
 *  3. At most SPOOL_MAX bytes are read, from a regular file opened with
 *     O_NOFOLLOW; a larger spool is rejected whole.
 *  4. The spool is removed after import, imported or not.
 *  5. A record's "worktree" is the session's (another claim is kept as
 *     "claimed_worktree"): journal records are bound to the session,
 *     never to what the agent wrote (issue 32, W4).
 */
#include "base/common.h"

#define SPOOL_NAME "events.spool.jsonl"
#define SPOOL_MAX (8u << 20)

/* Creates an empty spool (0600), replacing an old one. 0, or -1 + errno. */
int spool_create(const char *path);

/*
 * Imports `path` into <home>/fleet_events.jsonl for `agent` (and the
 * session's `worktree`, NULL: none to bind) and removes
 * it. Returns the number of imported records, or -1 (errno) when the spool
 * cannot be read; *rejected counts dropped lines. A missing spool is 0.
 */
int spool_import(const char *home, const char *path, const char *agent,
		 const char *worktree, size_t *rejected);

#endif
