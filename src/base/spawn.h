/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SPAWN_H
#define AG_SPAWN_H

/**
 * Running child processes without a shell (git run-command.h).
 *
 *   struct child c = CHILD_INIT;
 *   strvec_pushl(&c.args, "/usr/bin/git", "status", NULL);
 *   c.capture_out = true;
 *   if (child_run(&c) < 0) ...        // could not start
 *   use(c.status, c.out.buf);
 *   child_release(&c);
 *
 * args.v[0] must be an absolute path: nothing is looked up in PATH. `env`,
 * when non-empty, is the child's whole environment; otherwise the parent's
 * environment with `env_unset` removed and `env_set` ("K=V") added. The
 * child's stdin is /dev/null unless `in` is set. Only async-signal-safe calls
 * run between fork and exec; an exec failure is reported back through a
 * CLOEXEC pipe, making child_start() fail with that errno.
 */
#include "base/common.h"
#include <sys/types.h>
#include "base/strbuf.h"
#include "base/strvec.h"

struct child {
	struct strvec args;
	struct strvec env;	 /* full environment, if nr > 0 */
	struct strvec env_set;	 /* K=V overrides on the inherited env */
	struct strvec env_unset; /* names removed from the inherited env */
	const char *dir;	 /* chdir here first (not owned) */
	const char *in;		 /* bytes fed to stdin (not owned) */
	size_t in_len;
	bool capture_out;
	bool capture_err;
	bool stderr_to_stdout;
	bool inherit_stdin;
	bool new_pgroup; /* setpgid(0,0) in the child */
	int out_fd;	 /* if >= 0: child's stdout goes here */
	int err_fd;	 /* if >= 0: child's stderr goes here */
	/* results */
	pid_t pid;
	int status; /* exit code, or 128+signal */
	int in_fd_w, out_fd_r, err_fd_r; /* internal */
	struct strbuf out;
	struct strbuf err;
};

#define CHILD_INIT                                                             \
	{ .args = STRVEC_INIT, .env = STRVEC_INIT, .env_set = STRVEC_INIT,     \
	  .env_unset = STRVEC_INIT, .out_fd = -1, .err_fd = -1, .pid = -1,     \
	  .in_fd_w = -1, .out_fd_r = -1, .err_fd_r = -1,                    \
	  .out = STRBUF_INIT, .err = STRBUF_INIT }

void strvec_pushl(struct strvec *sv, ...);
/* Starts the child; returns 0 or -1 with errno set (exec errno included). */
int child_start(struct child *c);
/* Collects captured output and waits; sets c->status. Returns 0 or -1. */
int child_finish(struct child *c);
/* start + finish. Returns -1 only when the child could not be started. */
int child_run(struct child *c);
void child_release(struct child *c);
/* Converts a wait status to an exit code (WEXITSTATUS or 128+signal). */
int wait_status_to_code(int wstatus);
/* Builds the environment for execve from the rules above; caller frees. */
void child_build_env(const struct child *c, struct strvec *out);

#endif
