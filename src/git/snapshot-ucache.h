/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_UCACHE_H
#define AG_SNAPSHOT_UCACHE_H

/**
 * The snapshot's incremental capture: what the last capture learnt about
 * the files the real index does not hold (untracked files), so that the
 * next one does not read and hash them again when their stat data has not
 * changed, the way git's index does it for tracked files.
 *
 * The cache is one file per work tree, `<gitdir>/agentic-git-snapshot-cache`:
 * a header (the time its entries' stat data was taken, the snapshot ref and
 * commit that hold their objects, a signature of the ignore files that
 * decided them), then an index image (version 2) of those entries, then a
 * SHA-1 over all of it.
 *
 * Before `add -A`, snapshot_ucache_merge() writes the private index as the
 * real index's entries plus the cached entries for paths the real index
 * does not have; git then lstat's every entry and hashes only those whose
 * stat data changed (or is racy). After the snapshot's ref exists,
 * snapshot_ucache_save() writes the new cache.
 *
 * Invariants:
 *  1. The cache never makes a capture miss work: the merged index's mtime
 *     is the older of the real index's and the cache's stat time, so git's
 *     racy-git rule re-hashes an entry modified in the same second as its
 *     stat data was taken; every entry whose stat differs is re-hashed by
 *     git; a stat match is the only way a cached id is used.
 *  2. A cache is used only when all of it checks: a regular file owned by
 *     us, not a link, one name, bounded, its SHA-1 right, its ref present
 *     and still on its commit (so every cached object is reachable), the
 *     ignore files' signature unchanged, the entries sorted, stage 0, of
 *     git's modes. Otherwise the capture runs as if there were none.
 *  3. Only the plain forms are merged: a SHA-1 repository whose index the
 *     repository probe says is ours, an index of version 2 or 3, no
 *     unmerged entry, no extension that must be understood. A cached path
 *     the real index holds, or one that is a directory or a file of a path
 *     the real index holds, is left out. The real index's cache-tree is
 *     kept with the directories of the cached paths invalidated; its other
 *     optional extensions are dropped.
 *  4. Worth it only: the cache is merged when its files' bytes (plus 4 KiB
 *     a file) are at least the real index's size; rewriting a large index
 *     to spare a few small files would cost more than it saves.
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"

#define SNAPSHOT_UCACHE_NAME "agentic-git-snapshot-cache"

/* What a capture collected for the next one (owned by the struct). */
struct snapshot_ucache {
	struct strbuf entries; /* index v2 entries, sorted */
	uint32_t nr;
	struct timespec at;	   /* when their stat data was taken */
	unsigned char ignores[20]; /* the ignore files' signature */
	bool ready;
};

#define SNAPSHOT_UCACHE_INIT           \
	{                              \
		.entries = STRBUF_INIT \
	}

void snapshot_ucache_release(struct snapshot_ucache *u);

/*
 * Writes at `out` (created here, 0600, must not exist) the merge of the
 * index file `real` (top: the work tree, for the ignore files) and the
 * cache in `gitdir`. 1: written, the caller's private index; 0: no cache
 * to use (nothing at `out`); -1: `out` could not be written (nothing
 * left there).
 */
int snapshot_ucache_merge(const char *gitdir, const char *commondir,
			  const char *top, const char *real, const char *out);

/*
 * Fills `u` with the entries of the index file `after` (the private index
 * after `add -A`) whose path the index file `real` has not. `scan_at`:
 * the file system's clock (CLOCK_REALTIME_COARSE, what stamps mtimes)
 * read before `add -A` started: every stat git took is later, so an entry
 * modified at or after it is racy for the next capture, and one git
 * verified before it is not (racy forever otherwise: git does not rewrite
 * an index it did not change). 0, or -1 (u not ready: nothing saved).
 */
int snapshot_ucache_collect(struct snapshot_ucache *u, const char *commondir,
			    const char *top, const char *real,
			    const char *after, const struct timespec *scan_at);

/* Writes the cache of `u`, held by the snapshot `ref` at `commit`, into
 * `gitdir` (atomically); none when `u` is not ready. Never fails loudly:
 * a cache not written is a slower next capture. */
void snapshot_ucache_save(const struct snapshot_ucache *u, const char *gitdir,
			  const char *ref, const char *commit);

#endif
