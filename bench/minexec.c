/* SPDX-License-Identifier: Apache-2.0 */
/* The physical limit of a shim: one extra exec and nothing else. */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argc;
	argv[0] = (char *)REAL_GIT;
	execv(REAL_GIT, argv);
	perror("execv");
	return 127;
}
