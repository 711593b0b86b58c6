/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_REALGIT_H
#define AG_REALGIT_H

/**
 * Locating real git (reference §3.12), never the shim itself:
 * $AGENTIC_GIT_REAL_GIT (legacy AGEND_REAL_GIT) when it exists, is
 * executable and is not this binary; else the first `git` on PATH that is
 * not in <home>/bin and does not resolve to this binary; else /usr/bin/git
 * under the same conditions. Returns an owned canonical path or NULL.
 */
char *realgit_locate(const char *home);

/*
 * True when an external command git-<sub> is installed (git's exec path or
 * PATH), i.e. `git <sub>` is a program rather than an alias or a typo.
 */
bool git_external_exists(const char *real_git, const char *sub);

#endif
