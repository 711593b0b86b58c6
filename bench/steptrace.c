/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs a program under ptrace, one instruction at a time, until it execs
 * another program or exits, and prints every distinct instruction address
 * it executed (hex, one per line) in the order of first execution.
 *
 * bench/shim-order.sh maps the addresses to functions to lay the shim's
 * hot path out contiguously (src/shim.order): which code a start-up
 * touches decides how many page faults it takes.
 *
 * usage: steptrace PROGRAM [ARGS…]   (PROGRAM an absolute path)
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#define SET_BITS 20 /* open-addressing set of 1 Mi addresses */

static uint64_t set[1u << SET_BITS];

/* true when rip was not in the set yet */
static int set_add(uint64_t rip)
{
	uint64_t mask = (1u << SET_BITS) - 1;
	uint64_t i = (rip * 0x9e3779b97f4a7c15ULL) >> (64 - SET_BITS);

	for (;; i = (i + 1) & mask) {
		if (set[i] == rip)
			return 0;
		if (!set[i]) {
			set[i] = rip;
			return 1;
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long steps = 0, distinct = 0;
	int st;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: steptrace PROGRAM [ARGS...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return perror("fork"), 1;
	if (!pid) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(argv[1], argv + 1);
		perror("execv");
		_exit(127);
	}
	/* the child stops with SIGTRAP once its exec has happened */
	if (waitpid(pid, &st, 0) < 0 || !WIFSTOPPED(st))
		return fprintf(stderr, "steptrace: %s did not start\n", argv[1]), 1;
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)PTRACE_O_TRACEEXEC);
	for (;;) {
		struct user_regs_struct r;

		if (ptrace(PTRACE_GETREGS, pid, NULL, &r) < 0)
			break;
		if (distinct < (3u << (SET_BITS - 2)) && set_add(r.rip)) {
			printf("%llx\n", (unsigned long long)r.rip);
			distinct++;
		}
		steps++;
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) < 0 ||
		    waitpid(pid, &st, 0) < 0 || !WIFSTOPPED(st))
			break;
		if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
			break; /* the next program: not ours to trace */
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	fprintf(stderr, "steptrace: %lu instructions, %lu distinct addresses\n",
		steps, distinct);
	return 0;
}
