/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_OPTSETS_H
#define AG_CMD_OPTSETS_H

/**
 * Every command's options as its own parser reads them, for what is
 * generated from them (`agentic-git completion bash|zsh|fish`), so that
 * completion cannot drift from the commands.
 *
 * Each command file defines `<name>_optsets[]` next to its argspec table:
 * one row per verb ({ "restore", specs, S_RESTORE }: the specs whose
 * `subs` has that bit, as argtable.sub selects them), or one row with a
 * NULL verb for a command without verbs, ended by a row whose specs is
 * NULL. ag_cmd_options (optsets.c) names them per command of ag_commands;
 * a command missing there makes `completion` fail (tests/e2e/t0925).
 * Everything is static data; nothing is owned.
 */
#include "cmd/argtable.h"

struct cmd_optset {
	const char *verb;	     /* NULL: the command itself */
	const struct argspec *specs; /* NULL ends the list */
	unsigned sub;		     /* argtable.sub for this verb */
};

struct cmd_options {
	const char *cmd;
	const struct cmd_optset *sets;
};

/* The table, terminated by a NULL cmd. */
extern const struct cmd_options ag_cmd_options[];

/* The sets of `cmd`, or NULL. */
const struct cmd_optset *cmd_optsets_of(const char *cmd);
/* True when spec `s` belongs to the verb of `set` (argtable's in_sub). */
bool cmd_optset_has(const struct cmd_optset *set, const struct argspec *s);

extern const struct cmd_optset run_optsets[], sessions_optsets[], end_optsets[],
	review_optsets[], merge_optsets[], snapshots_optsets[],
	events_optsets[], agents_optsets[], sandbox_optsets[],
	dispatch_optsets[], summarize_optsets[], report_optsets[],
	check_optsets[], hook_optsets[], version_optsets[], help_optsets[],
	completion_optsets[];

/* No options at all (version, hook). */
#define CMD_OPTSETS_NONE                          \
	{                                         \
		{ NULL, argtable_no_options, 0 }, \
		{                                 \
			NULL, NULL, 0             \
		}                                 \
	}

#endif
