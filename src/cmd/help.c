/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <stdio.h>
#include <string.h>
#include "base/die.h"
#include "cmd/argtable.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"

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

struct help_opts {
	bool help;
};

static const struct argspec help_specs[] = {
	ARGSPEC_AT("help", 'h', ARG_FLAG, struct help_opts, help, 0, 0),
	ARGSPEC_END,
};

const struct cmd_optset help_optsets[] = { { NULL, help_specs, 0 },
					   { NULL, NULL, 0 } };

int cmd_help(int argc, const char **argv)
{
	const struct argtable t = { .cmd = "help",
				    .hint = "help takes one command",
				    .specs = help_specs,
				    .flags = ARGT_NO_REST,
				    .max_pos = 1 };
	struct help_opts o = { false };
	struct argres r;

	if (argtable_parse_table(&t, argc, argv, &o, &r) < 0)
		return AG_EXIT_USAGE;
	if (r.pos_nr && !o.help) {
		for (const struct cmd *c = ag_commands; c->name; c++) {
			if (!strcmp(c->name, r.pos[0])) {
				const char *hv[] = { c->name, "--help", NULL };
				return c->fn(2, hv);
			}
		}
		error("help: unknown command '%s'", r.pos[0]);
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
