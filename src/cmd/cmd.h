/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_H
#define AG_CMD_H

/**
 * Subcommands. Each takes argv with argv[0] = the subcommand name and
 * returns the process exit code (or exits itself). Only these and main.c
 * print to stdout or call die().
 */

struct cmd {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

/* The table, terminated by a NULL name. */
extern const struct cmd ag_commands[];

/* Shim mode: argv[0] is "git". */
int cmd_shim(int argc, const char **argv);

int cmd_check(int argc, const char **argv);
int cmd_version(int argc, const char **argv);
int cmd_snapshots(int argc, const char **argv);
int cmd_hook(int argc, const char **argv);
int cmd_events(int argc, const char **argv);
int cmd_dispatch(int argc, const char **argv);
int cmd_summarize(int argc, const char **argv);
int cmd_help(int argc, const char **argv);
int cmd_agents(int argc, const char **argv);
int cmd_run(int argc, const char **argv);
int cmd_sessions(int argc, const char **argv);
int cmd_end(int argc, const char **argv);
int cmd_review(int argc, const char **argv);
int cmd_merge(int argc, const char **argv);
int cmd_sandbox(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_completion(int argc, const char **argv);

/* True when argv[1] is -h or --help; prints `text` to stdout. */
bool cmd_wants_help(int argc, const char **argv, const char *text);

#endif
