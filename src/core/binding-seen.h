/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_BINDING_SEEN_H
#define AG_BINDING_SEEN_H

/*
 * ag_binding_load() for the shim's hot path: `seen` is a canonical
 * directory the caller has just found to exist (getcwd's answer), or
 * NULL. A bound worktree that is `seen` or a literal parent of it exists,
 * so the ORPHAN check needs no stat(2) of it; any other worktree is
 * stat'ed as ag_binding_load() does. Not part of the embedders' API.
 */
#include "agentic-git/core.h"

enum ag_binding_state binding_load_seen(const char *home, const char *agent,
					const char *seen, struct ag_binding *b);

#endif
