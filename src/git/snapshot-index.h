/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_INDEX_H
#define AG_SNAPSHOT_INDEX_H

/**
 * The tree of an index file's bytes, without running git (pure: no I/O).
 * The snapshot engine needs the tree of the index as it was before `git
 * add -A` (the staged tree) and after it (the work tree's). When git's own
 * cache (the TREE extension) says the root tree is valid, that is exactly
 * what `git write-tree` would print; given a pack writer, the trees git
 * has not cached are built too, so the engine runs no write-tree at all.
 *
 * Only the cases we can read with certainty answer "valid": index versions
 * 2, 3 and 4, no required extension (one whose signature does not start
 * with 'A'..'Z': a split index's `link`, a sparse index's `sdir`, or one
 * git added after us), no unmerged entry, a root TREE entry with a non-negative entry count. Every
 * other case, and every malformed or truncated buffer, answers "unknown"
 * and the caller runs `git write-tree` as before. The trailing checksum is
 * not verified here: the staged index's bytes are the very file `add -A`
 * reads, which does verify it and fails the snapshot on a corrupt index;
 * the work tree's index is the one `add -A` has just written.
 *
 * `tree_hex` is appended to (lowercase hex, 2 * hash_len characters) only
 * on SNAPSHOT_INDEX_TREE_VALID.
 */
#include "base/common.h"
#include "base/strbuf.h"

enum snapshot_index_tree {
	SNAPSHOT_INDEX_TREE_UNKNOWN = 0, /* run git write-tree */
	SNAPSHOT_INDEX_TREE_VALID = 1,	 /* tree_hex holds the tree */
};

/*
 * hash_len: 20 (SHA-1) or 32 (SHA-256); anything else is UNKNOWN.
 *
 * pw NULL: git's cached root only. Otherwise, when that is not valid, the
 * tree built from the entries as `git write-tree` builds it (SHA-1 only):
 * directories
 * whose cache node is valid are taken from the cache, every other tree is
 * formatted and handed to `pw` (git/packw.h), which the caller must write
 * out before anything refers to the tree. Cases git must decide — an
 * intent-to-add entry, an unknown mode, unsorted or duplicate paths, an
 * empty name, trees deeper than 1024 — answer UNKNOWN, and `pw` may then
 * hold trees nothing needs.
 */
struct packw;
enum snapshot_index_tree snapshot_index_build(const unsigned char *buf,
					      size_t len, size_t hash_len,
					      struct packw *pw,
					      struct strbuf *tree_hex);

/* A cache-tree count at d[*i] (of n bytes): a decimal, possibly "-1", at
 * most 100,000,000; advances *i. 0, or -1 when there is none. */
int snapshot_index_read_count(const unsigned char *d, size_t n, size_t *i,
			      long *out);

#endif
