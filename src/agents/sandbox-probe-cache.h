/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SANDBOX_PROBE_CACHE_H
#define AG_SANDBOX_PROBE_CACHE_H

/**
 * The answer of bwrap's test run, remembered across processes so that a
 * sandboxed start does not pay for a second sandbox start (PRODUCT.md §11).
 *
 * The file is <state>/runtime/sandbox-probe (ag_home_dir(), 0600 in a
 * 0700 dir, outside every cage). It holds the last real test run's answer
 * and the key it was taken under: the pinned bwrap binary's identity
 * (device, inode, size, mode, owner, mtime, ctime), the kernel (uname,
 * boot id), the credentials (uids, gids), the user and mount namespaces,
 * the process's seccomp and no_new_privs state, the LSM policy revision
 * and the sysctls that gate user namespaces. Any change of any of them is
 * a miss.
 *
 * Fail closed: only "works" is ever trusted, and only with the exact key,
 * from a regular file owned by this user that no one else may write. A
 * miss, a refusal or a downgrade always comes from a real test run, so a
 * forged or stale file can at worst make the real bwrap start fail (the
 * command does not run), never make anything run unsandboxed.
 *
 * Prints nothing; a cache that cannot be read or written is a miss.
 */
#include "base/common.h"
#include "base/strbuf.h"

/* The key for the bwrap at `bwrap_path`; -1 when it cannot be taken. */
int probe_cache_key(const char *bwrap_path, struct strbuf *key);

/* True only when the cache records "works" under exactly `key`. */
bool probe_cache_says_works(const char *key);

/* Records a real test run's answer under `key` (errors ignored). */
void probe_cache_record(const char *key, bool works);

#endif
