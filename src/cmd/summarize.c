/* SPDX-License-Identifier: Apache-2.0 */
/* agentic-git summarize: placeholder replaced below. */
#include "base/common.h"
#include "cmd/cmd.h"

int cmd_summarize(int argc, const char **argv)
{
	return 1;
}
