/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <stdio.h>
#include <string.h>
#include "base/die.h"
#include "cmd/cmd.h"

bool cmd_wants_help(int argc, const char **argv, const char *text)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(text, stdout);
			return true;
		}
	}
	return false;
}

int cmd_help(int argc, const char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "-h") && strcmp(argv[1], "--help")) {
		for (const struct cmd *c = ag_commands; c->name; c++) {
			if (!strcmp(c->name, argv[1])) {
				const char *hv[] = { c->name, "--help", NULL };
				return c->fn(2, hv);
			}
		}
		error("help: unknown command '%s'", argv[1]);
		return AG_EXIT_USAGE;
	}
	printf("usage: agentic-git <command> [<args>]\n\n"
	       "A guarded, transparent git for AI coding agents.\n\n"
	       "Commands:\n");
	for (const struct cmd *c = ag_commands; c->name; c++)
		printf("  %-11s %s\n", c->name, c->summary);
	printf("\nInvoked as 'git' (for example through <home>/bin/git) it is the shim.\n"
	       "See 'agentic-git <command> --help' and agentic-git(1).\n");
	return 0;
}
