/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_SNAPSHOTS_CLI_H
#define AG_CMD_SNAPSHOTS_CLI_H

/**
 * Shared state of the `snapshots` subcommands (cmd/snapshots*.c only).
 * Strings point into argv or the environment; `git` is owned.
 */
#include "base/common.h"
#include "base/strbuf.h"

struct snap_cli {
	const char *sub;
	const char *repo;	/* --repo, default "." */
	const char *ref;	/* the positional snapshot ref */
	const char *agent_opt;	/* --agent */
	const char *older;	/* --older-than */
	const char *since;	/* restore --since <N>m|h|d */
	bool all, json, yes, staged;
	const char *caller_who; /* $AGENTIC_GIT_AGENT or "noagent" */
	bool caller_is_agent;	/* $AGENTIC_GIT_AGENT is set and non-empty */
	const char *target_who; /* --agent, else caller_who */
	struct strbuf git;	/* real git */
};

int snapshots_show(struct snap_cli *c);
int snapshots_diff(struct snap_cli *c);
int snapshots_restore(struct snap_cli *c);

#endif
