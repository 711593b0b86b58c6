/* SPDX-License-Identifier: Apache-2.0 */
/* proctree: a process's descendants by their parent links, setsid or not. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/proctree.h"

/* Forks a child that forks a grandchild (which leaves the group with
 * setsid) and both pause; returns the child's pid, the grandchild's in
 * *grand (read from a pipe). */
static pid_t fork_two(pid_t *grand)
{
	int p[2];
	pid_t child;

	assert_int_equal(pipe(p), 0);
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		pid_t g = fork();
		if (!g) {
			setsid();
			pause();
			_exit(0);
		}
		if (write(p[1], &g, sizeof(g)) != (ssize_t)sizeof(g))
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], grand, sizeof(*grand)),
			 (ssize_t)sizeof(*grand));
	close(p[0]);
	return child;
}

static void test_stat_of_self(void **state)
{
	struct proc_stat st;

	(void)state;
	assert_int_equal(proc_stat_read(getpid(), &st), 0);
	assert_int_equal(st.pid, getpid());
	assert_int_equal(st.ppid, getppid());
	assert_int_equal(st.pgrp, getpgrp());
	assert_true(proc_live(&st));
	assert_int_equal(proc_stat_read(0x7ffffff0, &st), -1);
}

static void test_descendants_setsid_included(void **state)
{
	pid_t grand, child;
	struct proc_stat st;
	int status;

	(void)state;
	/* as `run` is: orphans below us come back to us */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	child = fork_two(&grand);
	assert_int_equal(proctree_signal(getpid(), 0), 2);
	/* the grandchild left the group, not the tree */
	assert_int_equal(proc_stat_read(grand, &st), 0);
	assert_int_not_equal(st.pgrp, child);
	/* the child goes: the grandchild is ours now, still counted */
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(proctree_signal(getpid(), 0), 1);
	assert_int_equal(proc_stat_read(grand, &st), 0);
	assert_int_equal(st.ppid, getpid());
	/* a signal reaches it; a zombie is not counted */
	assert_int_equal(proctree_signal(getpid(), SIGKILL), 1);
	while (proc_stat_read(grand, &st) == 0 && proc_live(&st))
		usleep(1000);
	assert_int_equal(proctree_signal(getpid(), 0), 0);
	assert_int_equal(waitpid(grand, &status, 0), grand);
	assert_true(WIFSIGNALED(status));
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

static void test_root_itself_never_signalled(void **state)
{
	(void)state;
	/* nothing below a process that has no children; we are not hit */
	assert_int_equal(proctree_signal(getpid(), SIGKILL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_of_self),
		cmocka_unit_test(test_descendants_setsid_included),
		cmocka_unit_test(test_root_itself_never_signalled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
