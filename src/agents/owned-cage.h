/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_OWNED_CAGE_H
#define AG_OWNED_CAGE_H

/**
 * The cage of agentic-git's own git (PRODUCT.md §4 "the cage boundary";
 * docs/sandbox.md "The boundary rule"). Security module.
 *
 * Every git agentic-git runs over a repository a caged agent could write
 * (git/gitcmd.h GIT_AGENT_REPO: sessions, end, snapshots, dispatch's
 * reads of a workspace) starts through owned_cage_prefix(): whatever that
 * repository's config, attributes, submodules or links make git run, it
 * runs in a sandbox of its own, not as the operator.
 *
 * Invariants (tests: t0850-own-cage.bats, t0851-own-cage-refuse.bats):
 *  1. The cage has no network, sees the system directories read-only,
 *     the repository (work tree, git dir, common dir) read-write, the
 *     object stores it borrows and the real git's directory read-only,
 *     and nothing else: $HOME, $AGENTIC_GIT_HOME, the operator's other
 *     clones and /tmp are invisible (Landlock: not granted; bubblewrap:
 *     not mounted).
 *  2. Backends in order of cost: Landlock through `agentic-git sandbox
 *     exec` (one exec), else bubblewrap (the pinned binary of the probe).
 *     Neither: -1 with the reason; git is not run (fail closed, never an
 *     uncaged fallback).
 *  3. The prefix ends in "--": the caller appends the real git and its
 *     arguments; the child's environment passes through unchanged (the
 *     caller scrubbed it already), so variables set after the prefix
 *     (GIT_INDEX_FILE) still reach git.
 *  4. Paths handed in must be absolute; one that is not is refused.
 *  5. git gets a writable temp dir of its own (diff's temp files):
 *     bubblewrap's /tmp tmpfs, or with Landlock a private directory made
 *     once per process (mode 0700) and removed at the exit of the process
 *     that made it.
 *
 * All strings are borrowed. `prefix` is appended to; `why` gets one line.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "git/gitcmd.h"

int owned_cage_prefix(const struct gitcmd_cage *cg, struct strvec *prefix,
		      struct strvec *env, struct strbuf *why);

/* Installs owned_cage_prefix() as git/gitcmd.h's cage (gitcmd_cage_set). */
void owned_cage_install(void);

#endif
