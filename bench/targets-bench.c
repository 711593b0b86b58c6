/* SPDX-License-Identifier: Apache-2.0 */
/*
 * targets_finish() on N targets (issue 21): prints the seconds it takes for
 * three shapes — every head distinct (distinct derived keys), every target
 * the same repository and head (one base, suffixes -2 … -N), every key
 * given. Built and run by bench/targets-bench.sh against a build's
 * internal library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "base/strvec.h"
#include "fleet/targets.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run(const char *shape, size_t n)
{
	struct target_list tl = TARGET_LIST_INIT;
	struct strvec errs = STRVEC_INIT;
	char head[32], key[32];
	double t0;

	for (size_t i = 0; i < n; i++) {
		snprintf(head, sizeof(head), "feat/t%zu", i);
		snprintf(key, sizeof(key), "k%zu", i);
		if (targets_add(&tl, "/r/app.git",
				shape[0] == 's' ? "main" : head, "main",
				shape[0] == 'k' ? key : NULL, &errs) < 0)
			exit(1);
	}
	t0 = now();
	if (targets_finish(&tl, &errs) < 0)
		exit(1);
	printf("%-9s n=%zu  %.3f s\n", shape, n, now() - t0);
	target_list_release(&tl);
	strvec_clear(&errs);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	size_t n_same = argc > 2 ? strtoul(argv[2], NULL, 10) : n;

	run("distinct", n);
	run("keys", n);
	run("same", n_same);
	return 0;
}
