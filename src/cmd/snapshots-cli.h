/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_SNAPSHOTS_CLI_H
#define AG_CMD_SNAPSHOTS_CLI_H

/**
 * Shared state of the `snapshots` subcommands (cmd/snapshots*.c only).
 * Strings point into argv or the environment; `git` is owned.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "git/snapshot-restore.h"

struct snap_cli {
	const char *sub;
	const char *repo;	/* --repo, default "." */
	const char *ref;	/* the positional snapshot ref */
	const char *agent_opt;	/* --agent */
	const char *older;	/* --older-than */
	const char *since;	/* restore --since <N>m|h|d */
	bool all, json, yes, staged, any_worktree, head, policy;
	const char *caller_who; /* $AGENTIC_GIT_AGENT or "noagent" */
	bool caller_is_agent;	/* $AGENTIC_GIT_AGENT is set and non-empty */
	/*
	 * Whose snapshots: an agent's own; for the operator (no agent set)
	 * --agent, or NULL for every agent's.
	 */
	const char *target_who;
	char *git;		/* real git (owned) */
	char *home;		/* ag_home_dir(), may be NULL (owned) */
	struct strbuf top;	/* the --repo work tree's top, once located */
};

/*
 * The top of the --repo work tree into c->top (once). 0, or -1 with one
 * line printed.
 */
int snapshots_locate_top(struct snap_cli *c);

/*
 * Loads the snapshots the scope allows (c->target_who, or every agent's)
 * that were taken in the --repo work tree, newest first. 0, or -1 with one
 * line printed.
 */
int snapshots_load_here(struct snap_cli *c, struct snapshot_list *l);

/*
 * A command to print as a hint, one that works as printed from any
 * directory: "agentic-git snapshots <sub> --repo <repo quoted> <rest>".
 * `rest` (may be NULL) must already be shell-safe.
 */
void snapshots_hint_cmd(struct strbuf *sb, const char *sub, const char *repo,
			const char *rest);

int snapshots_show(struct snap_cli *c);
int snapshots_diff(struct snap_cli *c);
int snapshots_restore(struct snap_cli *c);

#endif
