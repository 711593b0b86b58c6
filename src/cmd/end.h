/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_END_H
#define AG_CMD_END_H

/**
 * Ending a session, for `end` and for `merge`, which ends the session it
 * merged. The caller has validated the agent name, set the process's git
 * trust to GIT_AGENT_REPO and found the home and the real git (borrowed).
 * Prints the report or one error line; returns 0 ended, 1 refused or
 * failed (the session kept).
 */
#include "base/common.h"

enum end_flags {
	END_FORCE = 1 << 0,  /* stop a running agent, snapshot, end anyway */
	END_MERGED = 1 << 1, /* the branch was just merged into its base (a
				squash or rebase copies its commits): commits
				are not unsaved work; uncommitted work still is */
	END_JSON = 1 << 2,   /* the report as one JSON object on stdout (and
				{"ended": false} after a refusal) */
};

int end_agent(const char *home, const char *git, const char *agent,
	      unsigned flags);

#endif
