/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <stdio.h>
#include "base/die.h"
#include "cmd/argtable.h"
#include "cmd/optsets.h"
#include "cmd/cmd.h"

const struct cmd_optset version_optsets[] = CMD_OPTSETS_NONE;

int cmd_version(int argc, const char **argv)
{
	const struct argtable t = { .cmd = "version",
				    .specs = argtable_no_options,
				    .flags = ARGT_NO_REST };
	struct argres r;

	if (cmd_wants_help(argc, argv,
			   "usage: agentic-git version\n\n"
			   "Print the agentic-git version.\n"))
		return 0;
	if (argtable_parse_table(&t, argc, argv, NULL, &r) < 0)
		return AG_EXIT_USAGE;
	printf("agentic-git %s (cli)\n", AG_VERSION);
	return 0;
}
