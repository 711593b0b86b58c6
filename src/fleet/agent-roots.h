/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_AGENT_ROOTS_H
#define AG_FLEET_AGENT_ROOTS_H

/**
 * The writable roots an agent's own sandbox needs in a guarded session
 * that ours does not wrap (codex's `workspace-write`; docs/configuration.md
 * "The codex preset as it really behaves").
 *
 * Codex keeps every path outside its working directory read-only, and
 * inside it the top-level `.git` and the git dir a `.git` file points to:
 * in a linked worktree `git commit` fails (`index.lock: Read-only file
 * system`), and so do the shim's snapshots and its audit log. An explicit
 * writable root overrides that carve-out, so the launch names exactly
 * what git and the shim write there:
 *
 *  1. the workspace's git dir (`<repo>/.git/worktrees/<name>`, or a
 *     private workspace's `.git`);
 *  2. of the common dir only `objects`, `refs` and `logs`, which exist:
 *     never the common dir itself, so its `config`, `hooks/`, `info/` and
 *     `packed-refs` (the places that make the operator's own git run code
 *     or move refs wholesale) stay read-only to the agent's tools;
 *  3. the agent's quarantine `<home>/quarantine/<agent>` and its cache
 *     dir (both created here), never the rest of the home (bindings, key,
 *     other agents, the audit log). Codex takes directories only, so the
 *     shim's events go to a spool in the cache dir (fleet/spool.h), named
 *     in the agent's environment and imported when it exits, as for a
 *     sandboxed agent (agent_sandbox_import_spool()).
 *
 * What the refs root leaves open is what a plain session leaves open
 * anyway: a tool that writes a ref file itself passes neither the shim nor
 * the reference-transaction hook (docs/threat-model.md).
 *
 * Nothing is added when our sandbox wraps the agent, or for a profile
 * whose preset takes no writable roots.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "fleet/agent-sandbox.h"

/*
 * When `as` is not sandboxed and `pr` takes writable roots, appends
 * `-c KEY=[…]` for the workspace `as->workspace` of agent `as->agent`
 * under `as->home` to `as->plan.argv`, and the spool to `as->plan.env`
 * (sets `as->own_roots`). Returns 0 (also when nothing applies), or -1
 * with the reason in `err` (nothing appended).
 */
int agent_own_sandbox_roots(struct agent_sandbox *as,
			    const struct agent_preset *pr, struct strbuf *err);

#endif
