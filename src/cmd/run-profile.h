/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_RUN_PROFILE_H
#define AG_RUN_PROFILE_H

/**
 * `agentic-git run --profile NAME (--prompt T | --prompt-file F)`: an agent
 * profile launched inside a guarded session (PRODUCT.md §6-§8).
 *
 *   run_profile_prepare()   before anything is created: config, profile,
 *                           prompt, the invocation plan, the sandbox plan
 *                           (a refusal stops here, nothing created)
 *   session_provision()     (sets up a private workspace when sandboxed)
 *   run_profile_launch()    cache dirs, audit event, launch, exit status
 *
 * Invariants:
 *  1. The agent's argv comes only from the planner (no shell); its
 *     environment is the profile's allowlist plus the session variables.
 *  2. A sandboxed profile runs in a private workspace under bwrap or
 *     Landlock, or is refused before provisioning; warn-run is recorded
 *     (`sandbox_downgraded`) and exits with the attention status 3 when the
 *     agent itself succeeded.
 *  3. The effective argv (prompt elided), env key names and sandbox are
 *     written to the audit log (`agent_launch`) before the agent starts.
 *  4. A preset's agent that needs its vendor's API, launched under a
 *     sandbox with no network, is warned about on stderr at launch and in
 *     `agent_launch` (`network_warning`); it still runs.
 */
#include "base/common.h"
#include "agents/config.h"
#include "agents/plan.h"
#include "agents/sandbox.h"
#include "fleet/agent-sandbox.h"
#include "agents/secrets.h"
#include "fleet/session.h"

#define RUN_EXIT_ATTENTION 3
#define AG_EXIT_USAGE_RP 1002 /* internal: a usage error */

struct run_profile_opts {
	const char *profile, *prompt, *prompt_file, *model, *config;
};

struct run_profile {
	struct agent_config cfg;
	const struct agent_profile *p;
	struct strbuf prompt;
	struct agent_plan plan;
	struct agent_sandbox box; /* fleet/agent-sandbox.h */
	struct strvec env;
	char *stdin_path;
	struct strbuf net_warning;   /* the agent needs a network it lacks */
	struct secret_table secrets; /* fleet/agent-secrets.h, wiped */
};

void run_profile_init(struct run_profile *rp);
void run_profile_release(struct run_profile *rp);
/* 0, or an exit code with the reason in err (nothing created). */
int run_profile_prepare(struct session *s, const struct run_profile_opts *o,
			struct run_profile *rp, struct strbuf *err);
/*
 * Launches the agent in the provisioned session under `lim` (may be NULL;
 * fleet/session.h invariant 7); returns the exit code.
 */
int run_profile_launch(struct session *s, struct run_profile *rp,
		       struct session_limits *lim, struct strbuf *err);

#endif
