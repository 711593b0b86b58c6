/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Times several commands round-robin: each round runs every command once,
 * in turn, so a change in machine load hits all of them alike (hyperfine
 * runs one command's batch after another's). Prints, per command, the
 * median and the mean wall time in milliseconds.
 *
 * usage: interleave ROUNDS WARMUP CMD1 ARGS… -- CMD2 ARGS… [-- …]
 * Commands are absolute paths; output goes to /dev/null.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXCMD 8

static double run_once(char **argv)
{
	struct timespec a, b;
	int st;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "interleave: '%s' failed\n", argv[0]);
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	char **cmds[MAXCMD];
	double *t[MAXCMD];
	int n = 0, rounds, warm;

	if (argc < 4)
		return 2;
	rounds = (int)strtol(argv[1], NULL, 10);
	warm = (int)strtol(argv[2], NULL, 10);
	if (rounds < 1 || warm < 0)
		return 2;
	cmds[n++] = argv + 3;
	for (int i = 3; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			argv[i] = NULL;
			if (n == MAXCMD || i + 1 >= argc)
				return 2;
			cmds[n++] = argv + i + 1;
		}
	for (int c = 0; c < n; c++)
		t[c] = calloc((size_t)rounds, sizeof(double));
	for (int r = -warm; r < rounds; r++)
		for (int c = 0; c < n; c++) {
			double ms = run_once(cmds[c]);
			if (r >= 0)
				t[c][r] = ms;
		}
	for (int c = 0; c < n; c++) {
		double sum = 0;
		for (int r = 0; r < rounds; r++)
			sum += t[c][r];
		qsort(t[c], (size_t)rounds, sizeof(double), cmp);
		printf("%.3f %.3f\n", t[c][rounds / 2], sum / rounds);
		free(t[c]);
	}
	return 0;
}
