/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Times several commands round-robin: each round runs every command once,
 * in turn, so a change in machine load hits all of them alike (hyperfine
 * runs one command's batch after another's). Prints, per command, the
 * median and the mean wall time and the median CPU time (user + system,
 * from wait4) in milliseconds, and the median number of page faults
 * (minor, from wait4: the process and whatever it execs); with -r, each round's wall times too, one
 * line per round, before them.
 *
 * usage: interleave [-p PREPARE] [-r] [-s SEP] ROUNDS WARMUP CMD1 ARGS… -- CMD2 ARGS… [-- …]
 * Commands are absolute paths; output goes to /dev/null. PREPARE (an
 * absolute path, no arguments) runs untimed before every timed command.
 * -s SEP separates the commands with SEP instead of "--" (for commands
 * that take "--" themselves).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXCMD 8

static double run_once(char **argv, double *cpu, double *faults)
{
	struct timespec a, b;
	struct rusage ru;
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
	if (pid < 0 || wait4(pid, &st, 0, &ru) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "interleave: '%s' failed\n", argv[0]);
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (faults)
		*faults = (double)ru.ru_minflt;
	if (cpu)
		*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	char **cmds[MAXCMD], *prep[2] = { NULL, NULL };
	const char *sep = "--";
	double *t[MAXCMD], *u[MAXCMD], *f[MAXCMD];
	int n = 0, rounds, warm;
	bool per_round = false;

	for (; argc > 1 && argv[1][0] == '-'; argc--, argv++) {
		if (!strcmp(argv[1], "-r")) {
			per_round = true;
		} else if (!strcmp(argv[1], "-p") && argc > 2) {
			prep[0] = argv[2];
			argc--, argv++;
		} else if (!strcmp(argv[1], "-s") && argc > 2) {
			sep = argv[2];
			argc--, argv++;
		} else {
			return 2;
		}
	}
	if (argc < 4)
		return 2;
	rounds = (int)strtol(argv[1], NULL, 10);
	warm = (int)strtol(argv[2], NULL, 10);
	if (rounds < 1 || warm < 0)
		return 2;
	cmds[n++] = argv + 3;
	for (int i = 3; i < argc; i++)
		if (!strcmp(argv[i], sep)) {
			argv[i] = NULL;
			if (n == MAXCMD || i + 1 >= argc)
				return 2;
			cmds[n++] = argv + i + 1;
		}
	for (int c = 0; c < n; c++) {
		t[c] = calloc((size_t)rounds, sizeof(double));
		u[c] = calloc((size_t)rounds, sizeof(double));
		f[c] = calloc((size_t)rounds, sizeof(double));
	}
	for (int r = -warm; r < rounds; r++) {
		for (int c = 0; c < n; c++) {
			double ms, cpu, flt;
			if (prep[0])
				run_once(prep, NULL, NULL);
			ms = run_once(cmds[c], &cpu, &flt);
			if (r >= 0) {
				t[c][r] = ms;
				u[c][r] = cpu;
				f[c][r] = flt;
			}
		}
		if (per_round && r >= 0) {
			for (int c = 0; c < n; c++)
				printf("%s%.3f", c ? " " : "round ", t[c][r]);
			printf("\n");
		}
	}
	for (int c = 0; c < n; c++) {
		double sum = 0;
		for (int r = 0; r < rounds; r++)
			sum += t[c][r];
		qsort(t[c], (size_t)rounds, sizeof(double), cmp);
		qsort(u[c], (size_t)rounds, sizeof(double), cmp);
		qsort(f[c], (size_t)rounds, sizeof(double), cmp);
		printf("%.3f %.3f %.3f %.0f\n", t[c][rounds / 2], sum / rounds,
		       u[c][rounds / 2], f[c][rounds / 2]);
		free(t[c]);
		free(u[c]);
		free(f[c]);
	}
	return 0;
}
