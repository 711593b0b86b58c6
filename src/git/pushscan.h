/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PUSHSCAN_H
#define AG_PUSHSCAN_H

/**
 * The trust-root scan of what a push sends: one module, two callers — the
 * shim's push guard (src/git/pushguard.c) and dispatch's verification
 * before its own push (src/fleet/verify.c). Security module.
 *
 * The caller names the objects pushed (`tips`: commits, or any revision
 * when `peel` is set) and what the push target already has (`haves`: the
 * remote's real tips, or values agentic-git observed itself). Every commit
 * reachable from a tip and not from a have is measured:
 *  - its change against its parent (a root commit: against nothing), a
 *    merge's against all its parents at once (a path counts when it differs
 *    from every parent, so a merge that takes a file the remote already has
 *    is no hit, one that adds its own is), paths read NUL-terminated so no
 *    name is quoted; a basename .config-integrity-key, policy.toml,
 *    fleet.yaml or *.jsonl is PS_TRUST_ROOT;
 *  - with `snapshots`, a commit that is a refs/agentic-git/ tip is
 *    PS_SNAPSHOT;
 *  - with `peel`, a tip that peels to a tree or a blob is PS_NOT_COMMIT
 *    (its paths are in no commit; agents push commits and tags of them).
 * Replace refs and grafts are ignored: what is measured is the objects git
 * sends. With `peel`, a have the repository does not know is skipped
 * (without, every have must exist). A git failure is
 * PS_ERROR (the caller denies). `detail` gets the path, object or error.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "git/gitcmd.h"

struct push_scan {
	enum git_trust trust;
	const char *real_git;	  /* NULL: gitcmd_real_git() */
	const char *dir;	  /* the repository; not copied */
	unsigned depth;		  /* GIT_INTERNAL: the shim's nesting depth */
	const char *const *tips;  /* NULL-terminated, borrowed */
	const char *const *haves; /* NULL-terminated, borrowed; may be empty */
	bool peel;
	bool snapshots;
};

enum push_scan_result {
	PS_OK = 0,
	PS_TRUST_ROOT,
	PS_SNAPSHOT,
	PS_NOT_COMMIT,
	PS_ERROR,
};

enum push_scan_result push_scan_run(const struct push_scan *s,
				    struct strbuf *detail);

/* Pure: true when a path's basename is a trust-root file. */
bool trust_root_path(const char *path);

#endif
