/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_AGENTS_H
#define AG_CMD_AGENTS_H

/**
 * Shared by the `agentic-git agents` verbs (agents.c: list/show,
 * agents-run.c: check/exec). Internal to src/cmd.
 */
#include "base/common.h"
#include "agents/config.h"
#include "base/spawn.h"

struct agents_opts {
	const char *config;
	const char *prompt, *prompt_file, *input_file;
	const char *model, *cwd, *timeout;
	bool json, dry_run;
	const char *name; /* the positional NAME, if any */
};

/* Loads --config (must exist) or the default path (may be missing);
 * prints every error and returns -1. */
int agents_load_config(const struct agents_opts *o, struct agent_config *cfg);

/*
 * Runs a started-or-not child to completion with a wall-clock timeout in
 * seconds: SIGTERM to its process group on expiry, SIGKILL 5 s later.
 * SIGINT/SIGTERM received meanwhile are forwarded to the group. Returns
 * -1 when it could not start (errno set); sets *timed_out.
 */
int agents_run_child(struct child *c, double timeout, bool *timed_out);

/*
 * agents check's second half (agents-shell.c): runs the preset's tool
 * shell as the agent does, in a session's environment, and prints whether
 * `git` there is the shim. 0 (also when the shell is not known), or -1.
 */
int agents_check_shell(const struct agent_profile *p);

int agents_check(const struct agents_opts *o);
int agents_exec(const struct agents_opts *o);

#endif
