/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_GITCMD_H
#define AG_FLEET_GITCMD_H

/**
 * Running real git for dispatch, in two trust modes.
 *
 * GITCMD_WORKSPACE runs git inside a workspace an agent has had its hands
 * on: the environment is scrubbed of credentials (no SSH agent, no askpass,
 * no tokens, HOME and the global config replaced by empty ones), prompts are
 * off, and hooks, fsmonitor, external diff and textconv are disabled on the
 * command line. Code planted in the workspace's config can still run as our
 * uid (filters, for example) but without our credentials.
 *
 * GITCMD_OPERATOR runs git with the operator's environment (credentials
 * included), for repositories agentic-git created and no agent can reach
 * (the per-run push repository) or the operator's own clone, always with
 * hooks disabled.
 *
 * Both pin real git (AGENTIC_GIT_REAL_GIT, else the first `git` on PATH
 * that is not agentic-git itself), set gc.auto=0 (no detached gc left
 * behind) and strip GIT_DIR & co. Output is captured into the caller's
 * buffers (either may be NULL). Returns git's exit code, or -1 when git
 * could not be started.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

enum gitcmd_mode { GITCMD_WORKSPACE, GITCMD_OPERATOR };

/* The real git's absolute path (cached), or NULL with an error printed. */
const char *gitcmd_real_git(void);

int gitcmd(enum gitcmd_mode mode, const char *dir, struct strbuf *out,
	   struct strbuf *err, const char *const *args);

/* Convenience: NULL-terminated args. */
int gitcmdl(enum gitcmd_mode mode, const char *dir, struct strbuf *out,
	    struct strbuf *err, ...);

/*
 * Independent git commands in one directory, run at the same time (all
 * started, then each collected in order): the verification's reads of a
 * workspace. `args` is NULL-terminated and borrowed; `out` (initialised by
 * the caller, released by it) gets stdout; `status` git's exit status, or
 * -1 when it could not run.
 */
struct gitcmd_job {
	const char *const *args;
	struct strbuf out;
	int status;
};

void gitcmd_parallel(enum gitcmd_mode mode, const char *dir,
		     struct gitcmd_job *jobs, size_t n);

/* The environment GITCMD_WORKSPACE uses, also used for verify_command. */
void gitcmd_scrubbed_env(struct strvec *env);

#endif
