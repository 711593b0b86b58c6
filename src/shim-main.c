/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git-shim: the git shim alone, as <home>/bin/git points at it.
 *
 * The same cmd_shim() the full binary runs when invoked as "git", linked
 * without the commands, YAML, sandbox and dispatch layers: the agent pays
 * the start-up of a small program on every git call (PRODUCT.md §11).
 * Whatever name it is invoked under, it is the shim.
 */
#include "base/common.h"
#include <malloc.h>
#include "cmd/cmd.h"

int main(int argc, const char **argv)
{
	/* one heap extension instead of one per few KiB: every system call
	 * counts on the hot path (bench/shim-bench.sh) */
	mallopt(M_TOP_PAD, 256 * 1024);
	return cmd_shim(argc, argv);
}
