/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_HOOKS_H
#define AG_HOOKS_H

/**
 * The hook files a session installs: tiny sh stubs,
 *   #!/bin/sh
 *   exec '<abs agentic-git>' hook --home '<home>' <name> "$@"
 * for prepare-commit-msg, reference-transaction and pre-push; all logic is in C
 * (cmd/hook.c). The home is the parent of `hooks_dir` (<home>/hooks), so
 * the hooks find the sessions from where they are installed, never from
 * the agent's environment. hooks_install() creates `hooks_dir` if needed and
 * (re)writes every stub atomically with mode 0755. `self_exe` must be
 * absolute. Returns 0, or -1 with errno set (nothing printed).
 */
#include "base/common.h"

extern const char *const hooks_names[];

int hooks_install(const char *hooks_dir, const char *self_exe);

/*
 * <home>/hooks: where a home's hooks live, and what every workspace of
 * that home (a session's worktree or private workspace, a dispatch
 * target's workspace) names as its core.hooksPath. Malloc'd.
 */
char *hooks_dir(const char *home);

/*
 * <home>/hooks/pin: the pre-push stub alone, for pinning a push in a
 * worktree whose own core.hooksPath is not the session hooks (an
 * embedder's): its other hooks are not replaced by the session's.
 * hooks_install_pin() (re)writes it; 0, or -1 with errno set. Malloc'd.
 */
char *hooks_pin_dir(const char *home);
int hooks_install_pin(const char *home, const char *self_exe);

#endif
