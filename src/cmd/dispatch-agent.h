/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_DISPATCH_AGENT_H
#define AG_CMD_DISPATCH_AGENT_H

/**
 * Wiring agent profiles (agents/config.h, agents/plan.h) into dispatch and
 * summarize: which profile runs for a target, and the launch it plans.
 *
 * Resolution per target: the target's `profile:`, else --profile, else the
 * config's per-repo rule, else default_agent, else claude. --model
 * overrides. The profile, the config's sandbox_backend and
 * sandbox_fallback go into the launch; both callers, dispatch and
 * summarize, wrap a sandboxed profile's agent themselves
 * (fleet/agent-sandbox.h), which refuses or, with `sandbox_fallback:
 * warn-run`, downgrades it.
 *
 * Functions return 0 or -1 with a message printed.
 */
#include "base/common.h"
#include "agents/config.h"
#include "fleet/dispatch.h"

/* Loads --config (must exist) or the default config (may be absent). */
int dispatch_config_load(const char *path, struct agent_config *cfg);

struct agent_choice {
	const char *profile; /* --profile or the target's, or NULL */
	const char *model;   /* --model, or NULL */
	unsigned timeout;    /* --timeout, 0: the profile's */
	const char *repo;    /* repository path, for per-repo rules */
	const char *url;     /* origin URL, for owner/name rules */
};

int dispatch_agent_plan(const struct agent_config *cfg,
			const struct agent_choice *ch, const char *prompt,
			struct agent_launch *out);

#endif
