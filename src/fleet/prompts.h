/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_PROMPTS_H
#define AG_FLEET_PROMPTS_H

/**
 * Built-in dispatch tasks. The text is ours (written for agentic-git, not
 * copied from gitbulk) and is passed verbatim: no target data is spliced
 * into it; the agent reads AGENTIC_GIT_TARGET_* from its environment.
 * Returned strings are static.
 */
#include "base/common.h"

struct builtin_task {
	const char *name;
	const char *prompt;
	bool rebase; /* verification requires base to be an ancestor of HEAD */
};

/* NULL when unknown. */
const struct builtin_task *builtin_task_find(const char *name);
/* Comma-separated names, for messages. */
const char *builtin_task_names(void);

#endif
