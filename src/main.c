/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Entry point: argv[0] decides the mode. Basename "git" is the shim (an
 * agent found us on its PATH), started exactly as agentic-git-shim starts
 * it (src/shim-main.c): nothing runs before it but the argv[0] test, and
 * the binary is linked like the shim (src/meson.build), so both
 * <home>/bin/git paths cost the same (bench/shim-bench.sh). Anything
 * else is the CLI with a subcommand.
 */
#include "base/common.h"
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "agents/owned-cage.h"
#include "base/die.h"
#include "base/path.h"
#include "cmd/cmd.h"

/* one row a line, as `help` prints them */
/* clang-format off */
const struct cmd ag_commands[] = {
	{ "run", cmd_run, "run a command or an agent profile inside a guarded session" },
	{ "sessions", cmd_sessions, "list guarded sessions and their state" },
	{ "end", cmd_end, "end a session safely (its branch and snapshots are kept)" },
	{ "review", cmd_review, "show a session's branch against its base, with its denies and snapshots" },
	{ "merge", cmd_merge, "merge a session's branch into its base, then end the session" },
	{ "snapshots", cmd_snapshots, "list, show, restore and prune recovery snapshots" },
	{ "events", cmd_events, "read and follow the audit log" },
	{ "agents", cmd_agents, "list, show and check agent profiles" },
	{ "sandbox", cmd_sandbox, "probe the OS sandbox; run a command inside it" },
	{ "dispatch", cmd_dispatch, "run one agent task over many repositories, then verify and push" },
	{ "summarize", cmd_summarize, "one agent call over a dispatch run's summary" },
	{ "report", cmd_report, "write the fleet page: one self-contained HTML file" },
	{ "check", cmd_check, "show what the shim would do with a git command" },
	{ "hook", cmd_hook, "run a session hook (called by the installed stubs)" },
	{ "completion", cmd_completion, "print a bash, zsh or fish completion script" },
	{ "version", cmd_version, "print the version" },
	{ "help", cmd_help, "show help for agentic-git or a command" },
	{ NULL, NULL, NULL },
};
/* clang-format on */

static bool is_shim_name(const char *argv0)
{
	return argv0 && !strcmp(path_basename(argv0), "git");
}

int main(int argc, const char **argv)
{
	const char *sub;

	if (is_shim_name(argv[0])) {
		/* src/shim-main.c: one heap extension, not one per few KiB */
		mallopt(M_TOP_PAD, 256 * 1024);
		return cmd_shim(argc, argv);
	}

	/* CLI mode: no inherited descriptors leak into our children. */
	closefrom(3);
	signal(SIGPIPE, SIG_IGN);
	/* every git over an agent's repository runs caged (the boundary rule) */
	owned_cage_install();
	if (argc < 2) {
		cmd_help(1, argv);
		return AG_EXIT_USAGE;
	}
	sub = argv[1];
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h"))
		return cmd_help(1, argv);
	if (!strcmp(sub, "--version"))
		return cmd_version(1, argv);
	for (const struct cmd *c = ag_commands; c->name; c++)
		if (!strcmp(c->name, sub))
			return c->fn(argc - 1, argv + 1);
	error("unknown subcommand '%s' (see 'agentic-git help'; the git shim is invoked as <home>/bin/git)",
	      sub);
	return AG_EXIT_USAGE;
}
