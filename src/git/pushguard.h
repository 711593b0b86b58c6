/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PUSHGUARD_H
#define AG_PUSHGUARD_H

/**
 * The push guards that need the repository (reference §3.9 1, 2c, 4c), run
 * after the pure refspec checks passed:
 *  - trust-root scan of what is actually pushed: every path touched by
 *    commits reachable from each pushed source and not from the remote's
 *    tracking refs; basenames .config-integrity-key, policy.toml,
 *    fleet.yaml or *.jsonl are denied; a git failure is a deny (fail-closed);
 *  - a source that resolves to a snapshot tip is denied;
 *  - with no refspec, a push whose configured destination is not the
 *    current branch's own name (push.default matching, upstream to another
 *    name, an unknown mode, any remote.*.push) is denied.
 * Returns NULL when the push may run; otherwise the event name, with the
 * reason in `why`. Runs real git in `dir` with the bypass variables set.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "git/pushspec.h"

const char *push_guards_run(const char *real_git, const char *dir,
			    const struct push_spec *ps, const char *current,
			    unsigned depth, struct strbuf *why);

/* True when a path's basename is a trust-root file. */
bool trust_root_path(const char *path);

#endif
