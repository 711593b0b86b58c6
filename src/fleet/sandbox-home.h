/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_SANDBOX_HOME_H
#define AG_FLEET_SANDBOX_HOME_H

/**
 * agentic-git's home is never inside a cage (PRODUCT.md §8, "Landlock and
 * the key"; issue 32, W3 and W11). A cage reads whole directory trees: a
 * system dir, a profile's ro_binds entry or a configured cache that holds
 * $AGENTIC_GIT_HOME would show the fleet key, every session's binding and
 * the audit log. Only the session's own parts of the home are bound
 * (fleet/agent-sandbox.h invariant 2).
 *
 *   sandbox_build(&s, &as, &err);
 *   if (sandbox_home_guard(&as, &err) < 0) …refused, nothing created…
 *   sandbox_build_plan(&as.rq, …);   // bwrap masks, Landlock refuses
 *
 * Security module. Invariants (tests: t0861, t0862):
 *  1. Every place inside the cage where a bind (or a system dir) would
 *     show the home — the bind's path plus the home's path below the
 *     bind's real path — is a mask of the request (agents/sandbox.h
 *     invariant 11): bwrap puts an empty tmpfs there, with the session's
 *     own parts bound on top; Landlock refuses before anything runs.
 *  2. A profile's bind (ro_binds, the toolchain dirs) that lies inside
 *     the home is refused on both backends: only agentic-git chooses
 *     what of its home a cage sees.
 *  3. Paths are compared as real paths (links resolved), so a link to
 *     the home or to one of its parents is seen through.
 *
 * Functions return 0, or -1 with a one-line reason in `err`.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

struct agent_sandbox;

/*
 * Pure: when `home_real` equals `rule_real` or lies below it, appends to
 * `at` where the home shows inside a cage that binds `rule` (whose real
 * path is `rule_real`) at its own path, and returns true.
 */
bool sandbox_home_shown(const char *home_real, const char *rule,
			const char *rule_real, struct strbuf *at);

/* Invariants 1-3 for as (after sandbox_build(), before planning). */
int sandbox_home_guard(struct agent_sandbox *as, struct strbuf *err);

/*
 * For `sandbox probe`: appends to `out` each system dir and each of
 * `binds` (a config's ro_binds) that would show `home` in a cage, once.
 */
void sandbox_home_exposure(const char *home, const char *const *binds,
			   size_t nr, struct strvec *out);

#endif
