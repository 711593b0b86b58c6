/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PUSHPIN_H
#define AG_PUSHPIN_H

/**
 * Pinning a push to what the push guard scanned (docs/policy.md "Push
 * guards", the push window). The guard scans the object ids the pushed
 * refs had when it looked; another process may move a ref before git's
 * own push reads it. The real push therefore runs with our pre-push hook
 * (`-c core.hooksPath=`: the session hooks where the worktree names them,
 * else <home>/hooks/pin, that stub alone; `--verify` after the agent's
 * own options) and AGENTIC_GIT_PUSH_PINNED naming the scanned ids; the
 * hook gets git's own `<local ref> <local oid> <remote ref> <remote oid>`
 * lines — what git is about to send — and refuses any line whose local
 * oid is not one of them.
 */
#include "base/common.h"
#include "base/strbuf.h"

#define PUSH_PIN_ENV "AGENTIC_GIT_PUSH_PINNED"

struct verdict;

/*
 * Makes the verdict's routed push pinned to v->push_pins (space-separated
 * ids): writes the pre-push stub when it is missing (`agentic_git`: the
 * binary the stubs run), adds the arguments and sets PUSH_PIN_ENV in this
 * process for git to inherit. 0, or -1 with the reason in `err` (the push
 * must not run).
 */
int push_pin_apply(struct verdict *v, const char *real_git, const char *home,
		   const char *agentic_git, struct strbuf *err);

/*
 * One pre-push line judged against `pins` (PUSH_PIN_ENV's value): true
 * when its local oid is one of them; else false with the reason in `why`.
 * Pure.
 */
bool push_pin_line_ok(const char *pins, const char *line, struct strbuf *why);

#endif
