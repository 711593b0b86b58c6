/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_HIDDEN_H
#define AG_SNAPSHOT_HIDDEN_H

/**
 * Whether an index file hides work from `git add -A` (pure: no I/O).
 *
 * The snapshot scans the work tree with `add -A` into a private copy of
 * the real index (git/snapshot-int.h). Two index bits make git skip a
 * tracked file's work tree copy: assume-unchanged (`update-index
 * --assume-unchanged`, CE_VALID) and skip-worktree (`update-index
 * --skip-worktree`, a sparse checkout). A bound agent can set either,
 * and then `checkout -- <path>`, `restore --ignore-skip-worktree-bits`
 * or `checkout-index -f` still overwrite the file: its unsaved changes
 * would be in no snapshot. The engine clears the bits in its private
 * index first (git/snapshot-hidden.c); this scan tells it, for the price
 * of reading the entries' flags, whether it has to.
 *
 * SNAPSHOT_HIDDEN_NONE only when the buffer is a whole index of version
 * 2, 3 or 4 whose every entry is read and has neither bit, with no split
 * index (`link`: the other entries are in another file). Anything else —
 * a truncated or malformed buffer, an unknown hash length — is UNKNOWN,
 * and the caller asks git.
 */
#include "base/common.h"

enum snapshot_hidden {
	SNAPSHOT_HIDDEN_NONE = 0,    /* no entry hides work */
	SNAPSHOT_HIDDEN_SOME = 1,    /* at least one entry has a bit */
	SNAPSHOT_HIDDEN_UNKNOWN = 2, /* cannot tell: ask git */
};

/* hash_len: 20 (SHA-1) or 32 (SHA-256). */
enum snapshot_hidden snapshot_index_hidden(const unsigned char *buf, size_t len,
					   size_t hash_len);

#endif
