/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_SHIM_STASH_H
#define AG_CMD_SHIM_STASH_H

/**
 * The shim's per-session stash (git/stash-map.h): a routed `git stash`
 * of a bound agent runs on its session's own stash ref.
 *
 * Invariants (tests: t0317):
 *  1. An agent's entries live only in its worktree's STASH_SESSION_REF;
 *     no command of another session lists, shows, applies, pops or drops
 *     them.
 *  2. A push is git's own, under the repository's stash lock (one push
 *     at a time): its new entry moves to the session's ref, and
 *     refs/stash is put back as it was, checked against the value read;
 *     an entry that cannot be moved stays in refs/stash, with a warning.
 *  3. Every change of the session's stash is journaled (`ref_update` of
 *     the ref, with the entry): by the hook where a ref transaction runs,
 *     here where git rewrites a reflog (a drop that leaves other entries).
 *  4. A drop or pop names an entry that exists, or changes nothing.
 */
#include "base/common.h"
#include "git/argv.h"
#include "git/facts.h"
#include "git/policy.h"

/* Whether the verdict is a bound agent's routed `git stash` to map. */
bool shim_stash_wanted(const struct verdict *v, const struct shim_facts *f);

/* Carries it out; returns the exit status for the agent. */
int shim_stash_run(const struct verdict *v, const struct git_argv *ga,
		   const struct shim_facts *f);

#endif
