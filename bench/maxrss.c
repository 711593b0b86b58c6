/* SPDX-License-Identifier: Apache-2.0 */
/* Runs a command and prints its peak resident set size in KiB. Linux keeps
 * the high-water mark across execve, so for the shim this covers the shim's
 * own work before it becomes real git. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int st;
	pid_t pid;

	if (argc < 2)
		return 2;
	pid = fork();
	if (pid == 0) {
		execv(argv[1], argv + 1);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) < 0)
		return 1;
	printf("%ld\n", ru.ru_maxrss);
	return 0;
}
