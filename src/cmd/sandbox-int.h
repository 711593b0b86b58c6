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
#include "cmd/argtable.h"

/* `sandbox run` exits with this when warn-run ran the command unsandboxed
 * and the command itself succeeded (docs/commands.md). */
#define SANDBOX_EXIT_ATTENTION 3
/* The Landlock helper could not confine the command; it did not run. */
#define SANDBOX_EXIT_SETUP 126

extern const char sandbox_cli_usage[];

/* The table of an internal helper (exec, proxy, relay): no --help. */
#define SANDBOX_HELPER_TABLE(sub, specs_)                         \
	{                                                         \
		.cmd = "sandbox " sub, .hint = ARGT_HINT_COMMAND, \
		.help = "docs/sandbox.md", .specs = (specs_)      \
	}

/*
 * Parses argv[1..] by `t` (cmd/argtable.h) into `opts`; exits
 * AG_EXIT_USAGE with the one-line error on bad usage. Returns the index
 * of the first word after `--` (argc when none); `r` gets the rest.
 */
int sandbox_cli_parse(const struct argtable *t, int argc, const char **argv,
		      void *opts, struct argres *r);

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
/* sandbox run's options (cmd/optsets.h) */
extern const struct argspec sandbox_run_specs[];
int cmd_sandbox_exec(int argc, const char **argv);
int cmd_sandbox_proxy(int argc, const char **argv);
int cmd_sandbox_relay(int argc, const char **argv);

#endif
