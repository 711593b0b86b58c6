/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_FENCE_H
#define AG_SNAPSHOT_FENCE_H

/**
 * The fence around other agents' snapshots, by name (issue 32 point 5;
 * docs/snapshots.md "Who sees what"). Pure: reads the one parse of the
 * command line (git/argv.h), no I/O.
 *
 * An agent may name and list its own snapshots
 * (refs/agentic-git/snapshots/<own>/…) and nobody else's. The fence finds,
 * in every word git would read as a revision, a ref or a ref pattern:
 *
 *  - a name inside another agent's snapshot namespace, in any spelling git
 *    resolves to it (`refs/agentic-git/…`, the DWIM'd `agentic-git/…`,
 *    inside `a..b`, `^x`, `x~1`, `x:path`, `src:dst`, a doubled slash);
 *  - a listing that would reach one: for-each-ref with no pattern or one
 *    that covers the namespace (`refs/`, `refs/<glob>`), show-ref with no
 *    pattern or a tail that can only be a snapshot's, a `--glob` over it,
 *    `ls-remote .`.
 *
 * `--all` (and `--exclude`-able walks of every ref) is not refused but
 * narrowed: snapshot_fence_narrow() names the words before which
 * `--exclude=refs/agentic-git/snapshots/<everything>` goes.
 *
 * What the fence does not do: hide an object read by its id, or the
 * repository's files read directly. That is the sandbox's (t0640); the
 * docs say so.
 */
#include "base/common.h"
#include "git/argv.h"

enum fence_hit {
	FENCE_NONE = 0,
	FENCE_NAMED,  /* names another agent's snapshot */
	FENCE_LISTED, /* would list other agents' snapshots */
};

/*
 * Judges ga for the agent `own` (NULL: an agent whose identity is not
 * proven, to whom every snapshot is another's). *word is the word that
 * hit, as given.
 */
enum fence_hit snapshot_fence(const struct git_argv *ga, const char *own,
			      const char **word);

/*
 * The same for the config the command line and the environment carry:
 * a value that names another agent's snapshot or a ref pattern over them
 * (`-c branch.<b>.merge=<their ref>` makes `@{u}` theirs), and a
 * `--config-env` of a key whose value is a ref name or refspec (its value
 * is not seen). `env` may be NULL.
 */
struct config_env;
enum fence_hit snapshot_fence_config(const struct git_argv *ga,
				     const struct config_env *env,
				     const char *own, const char **word);

/* The word given before which git must get the exclusion. */
#define SNAPSHOT_FENCE_EXCLUDE "--exclude=refs/agentic-git/snapshots/*"

/*
 * Fills at[0..max) with the subcommand's words (as in git_optuse.word)
 * before which SNAPSHOT_FENCE_EXCLUDE goes: every `--all` of a command
 * that walks revisions. Returns how many.
 */
size_t snapshot_fence_narrow(const struct git_argv *ga, size_t *at, size_t max);

#endif
