/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SANDBOX_BWRAP_H
#define AG_SANDBOX_BWRAP_H

/**
 * The bubblewrap argv builder (pure; golden-tested in test-sandbox.c).
 *
 * Fills plan->argv with the pinned bwrap, its arguments in a fixed order
 * (see docs/sandbox.md), "--" and the command, sets plan->prefix_nr and
 * plan->env (the exact child env; bwrap itself clears it with --clearenv
 * and sets it again with --setenv). The request has been validated by
 * sandbox_plan(); this only builds.
 */
#include "agents/sandbox.h"

void bwrap_build(const struct sandbox_request *rq,
		 const struct sandbox_caps *caps, struct sandbox_plan *plan);

#endif
