/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_DIE_H
#define AG_DIE_H

/**
 * Error reporting.
 *
 * Every message is one line on stderr: `agentic-git: <msg>[: strerror]`,
 * lowercase, no full stop, subject quoted. die() and die_errno() exit with
 * AG_EXIT_FATAL and may only be called from main.c, src/cmd/ and pre-exec
 * child setup; library code returns error() (which is -1) instead.
 */
#include <stdarg.h>
#include "base/common.h"

/* Exit codes reserved for the tool itself (documented in the man page). */
enum ag_exit {
	AG_EXIT_OK = 0,
	AG_EXIT_DENY = 1,      /* a policy denial, or a command's own failure */
	AG_EXIT_USAGE = 2,     /* bad command line */
	AG_EXIT_WARNED = 3,    /* done, with something the operator must see:
				   run unsandboxed under warn-run, dispatch
				   escalations */
	AG_EXIT_ATTENTION = 4, /* done, and some of it needs a look: dispatch
				   targets failed, timed out, blocked, ... */
	AG_EXIT_RECURSION = 70, /* recursion guard tripped */
	AG_EXIT_UNSAFE = 78,	/* refused to launch unguarded */
	AG_EXIT_EXEC = 127,	/* could not exec real git / the agent */
};

#define AG_EXIT_FATAL AG_EXIT_DENY

AG_NORETURN AG_PRINTF(1, 2) void die(const char *fmt, ...);
AG_NORETURN AG_PRINTF(1, 2) void die_errno(const char *fmt, ...);
/* Like die() but with a chosen exit code. */
AG_NORETURN AG_PRINTF(2, 3) void die_code(int code, const char *fmt, ...);
/* Prints `agentic-git: <msg>` and returns -1. */
AG_PRINTF(1, 2) int error(const char *fmt, ...);
/* Prints `agentic-git: <msg>: strerror(errno)`, keeps errno, returns -1. */
AG_PRINTF(1, 2) int error_errno(const char *fmt, ...);
AG_PRINTF(1, 2) void warning(const char *fmt, ...);
/* A broken invariant: prints and aborts. */
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
AG_NORETURN AG_PRINTF(3, 4) void bug_fl(const char *file, int line,
					const char *fmt, ...);

#endif
