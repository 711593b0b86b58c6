/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_OWNED_IMPORT_H
#define AG_OWNED_IMPORT_H

/**
 * Takes a workspace's commits into a repository agentic-git owns
 * (docs/sandbox.md "The boundary rule", the second half): dispatch
 * verifies and pushes from there, never from the workspace. Security
 * module.
 *
 * Invariants (tests: t0852-own-verify.bats):
 *  1. The workspace is read by one `git pack-objects --revs --stdout` in
 *     the cage of our own git (git/gitcmd.h GIT_AGENT_REPO), which reads
 *     only the object stores agentic-git registered
 *     (gitcmd_cage_trust_store()), never the workspace's own
 *     objects/info/alternates chain; with the workspace's `shallow`,
 *     grafts and replace refs ignored (GIT_SHALLOW_FILE empty,
 *     GIT_GRAFT_FILE /dev/null, GIT_NO_REPLACE_OBJECTS): the whole range
 *     from `tip` down to what the owned repository already has.
 *  2. The owned repository takes the pack with `git index-pack --stdin
 *     --strict`: every object hashed by our git, every link checked; an
 *     object the pack names but nobody has fails the import.
 *  3. `haves` the owned repository lacks are not used as exclusions (the
 *     pack then carries them), so nothing the verifier reads is missing.
 *
 * Returns 0, or -1 with one line in `err`. Strings are borrowed.
 */
#include "base/common.h"
#include "base/strbuf.h"

int owned_import(const char *workspace, const char *owned, const char *tip,
		 const char *const *haves, struct strbuf *err);

/*
 * The `-c` settings every read of an owned repository adds, so that the
 * operator's global config cannot blind the verifier either
 * (core.attributesFile, core.bigFileThreshold); NULL-terminated.
 */
extern const char *const owned_read_config[];

#endif
