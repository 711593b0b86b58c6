/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include "base/die.h"
#include "cmd/cmd.h"

int cmd_shim(int argc, const char **argv)
{
	die("shim not built yet");
}
