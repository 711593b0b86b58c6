/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_SANDBOX_INT_H
#define AG_CMD_SANDBOX_INT_H

/**
 * Shared by the `sandbox` subcommand's files (sandbox.c, sandbox-run.c,
 * sandbox-exec.c). Functions named sandbox_cli_* die on bad input (command layer).
 * Returned strings are owned by the caller unless noted.
 */
#include "base/common.h"
#include "base/strvec.h"

/* `sandbox run` exits with this when warn-run ran the command unsandboxed
 * and the command itself succeeded (docs/commands.md). */
#define SANDBOX_EXIT_ATTENTION 3
/* The Landlock helper could not confine the command; it did not run. */
#define SANDBOX_EXIT_SETUP 126

extern const char sandbox_cli_usage[];

enum sandbox_cli_opt_kind { OPT_FLAG, OPT_STRING, OPT_LIST };
struct sandbox_cli_opt {
	const char *name;
	enum sandbox_cli_opt_kind kind;
	void *dest; /* bool *, const char ** or struct strvec * */
};

/*
 * Parses argv[1..] against the NULL-terminated table; other words go to
 * positional. Stops after "--" and returns the index after it (or argc).
 * Dies with a usage error on an unknown option or a missing value.
 */
int sandbox_cli_parse(int argc, const char **argv,
		      const struct sandbox_cli_opt *opts,
		      struct strvec *positional, const char *cmdname);

/* The real git (not owned). */
const char *sandbox_cli_real_git(void);
/* Absolute path of cmd, looked up in env's PATH when it has no '/'. */
char *sandbox_cli_resolve_command(const char *cmd, const struct strvec *env);
/* The safe base environment plus --env NAME / NAME=VALUE entries. */
void sandbox_cli_build_env(const struct strvec *names, struct strvec *env);
char *sandbox_cli_canonical_existing(const char *what, const char *p);
/* Absolute, lexically normalised (the path need not exist). */
char *sandbox_cli_canonical_new(const char *p);

int cmd_sandbox_run(int argc, const char **argv);
int cmd_sandbox_exec(int argc, const char **argv);
int cmd_sandbox_proxy(int argc, const char **argv);
int cmd_sandbox_relay(int argc, const char **argv);

#endif
