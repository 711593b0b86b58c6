/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <stdio.h>
#include "cmd/cmd.h"

int cmd_version(int argc, const char **argv)
{
	if (cmd_wants_help(argc, argv,
			   "usage: agentic-git version\n\n"
			   "Print the agentic-git version.\n"))
		return 0;
	printf("agentic-git %s (cli)\n", AG_VERSION);
	return 0;
}
