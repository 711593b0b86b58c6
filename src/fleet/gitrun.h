/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_GITRUN_H
#define AG_FLEET_GITRUN_H

/**
 * Running the real git on behalf of agentic-git itself (session
 * provisioning, `sessions`, `end`).
 *
 * The real git itself is found with realgit_locate() (git/realgit.h).
 *
 * gitrun() runs `<git> -C <dir> <args…>` with both bypass variables set
 * (so a shim reached from a hook lets our own calls through), the
 * repository-selecting variables (GIT_DIR, GIT_WORK_TREE, …) removed, and
 * stdout/stderr captured into the caller's child struct. It returns -1 only
 * when git could not be started; check c->status for git's verdict.
 */
#include "base/common.h"
#include "base/spawn.h"

/* Prepares `c` (CHILD_INIT) to run git in `dir`; the caller adds args. */
void gitrun_prepare(struct child *c, const char *git, const char *dir);

/*
 * Runs git with a NULL-terminated argument list, captures stdout (trimmed
 * of one trailing newline) into *out when out is non-NULL. Returns git's
 * exit status, or -1 when it could not be started. Git's stderr is kept in
 * `err` when non-NULL, otherwise discarded.
 */
int gitrun_capture(const char *git, const char *dir, struct strbuf *out,
		   struct strbuf *err, ...);

#endif
