/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_TMP_H
#define AG_SNAPSHOT_TMP_H

/**
 * The snapshot's private index file: its name, and the removal of the ones
 * a killed snapshot left behind.
 *
 * The private index is `<dir>/agentic-git-snapshot-index-<pidns>-<pid>-<ns>`
 * (<pidns>: the inode of /proc/self/ns/pid, 0 when unknown), a
 * hard link to the real index beside it (or a copy in $TMPDIR). A snapshot
 * killed between the link and its cleanup leaves that name, and git may
 * leave `<name>.lock`: each is a second name of an old index, harmless but
 * never reclaimed. snapshot_tmp_sweep() removes those whose process is gone.
 *
 * Invariants:
 *  1. MUST remove only names of exactly that form, made in this process's
 *     pid namespace (a sandbox's pids mean nothing outside it, and ours
 *     nothing inside), regular files, whose pid is not a running process
 *     (kill(pid, 0) says ESRCH); a live pid, even a reused one, keeps its
 *     file. With the namespace unknown nothing is removed.
 *  2. MUST never follow a symlink (unlinkat removes the name only).
 */
#include "base/common.h"
#include "base/strbuf.h"

#define SNAPSHOT_TMP_PREFIX "agentic-git-snapshot-index-"

/* Sets `out` to a fresh private index name in `dir` for this process. */
void snapshot_tmp_name(struct strbuf *out, const char *dir);

/* Removes stale private index names in `dir`; returns how many. Never
 * fails (a directory it cannot read is left as it is). */
unsigned snapshot_tmp_sweep(const char *dir);

#endif
