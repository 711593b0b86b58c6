/* SPDX-License-Identifier: Apache-2.0 */
/* The snapshot's private index names: only dead ones of our pid namespace
 * are reclaimed. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/strbuf.h"
#include "git/snapshot-tmp.h"
#include "unit-tmpdir.h"

static char dir[64];
static unsigned long ourns;


static int setup(void **state)
{
	struct stat st;

	(void)state;
	if (stat("/proc/self/ns/pid", &st) < 0)
		return -1;
	ourns = (unsigned long)st.st_ino;
	return unit_tmpdir_make(dir, sizeof(dir), "stmp");
}

static int teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(dir);
}

static void touch(const char *name)
{
	struct strbuf p = STRBUF_INIT;
	int fd;

	strbuf_addf(&p, "%s/%s", dir, name);
	fd = open(p.buf, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	strbuf_release(&p);
}

static bool exists(const char *name)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	bool ok;

	strbuf_addf(&p, "%s/%s", dir, name);
	ok = !lstat(p.buf, &st);
	strbuf_release(&p);
	return ok;
}

/* A pid that was a process and is no more. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	return pid;
}

static void test_sweep(void **state)
{
	char dead[96], dead_lock[96], live[96], other_ns[96], odd[96],
	     link_name[96], target[160];
	pid_t d = dead_pid();
	struct strbuf mine = STRBUF_INIT;

	(void)state;
	snprintf(dead, sizeof(dead), SNAPSHOT_TMP_PREFIX "%lu-%ld-123", ourns, (long)d);
	snprintf(dead_lock, sizeof(dead_lock), SNAPSHOT_TMP_PREFIX "%lu-%ld-7.lock", ourns, (long)d);
	snprintf(live, sizeof(live), SNAPSHOT_TMP_PREFIX "%lu-%ld-5", ourns, (long)getppid());
	snprintf(other_ns, sizeof(other_ns), SNAPSHOT_TMP_PREFIX "%lu-%ld-5", ourns + 1, (long)d);
	snprintf(odd, sizeof(odd), SNAPSHOT_TMP_PREFIX "%lu-%ld-5x", ourns, (long)d);
	snprintf(link_name, sizeof(link_name), SNAPSHOT_TMP_PREFIX "%lu-%ld-9", ourns, (long)d);
	touch(dead);
	touch(dead_lock);
	touch(live);
	touch(other_ns);
	touch(odd);
	touch("index");
	snprintf(target, sizeof(target), "%s/index", dir);
	{
		struct strbuf l = STRBUF_INIT;
		strbuf_addf(&l, "%s/%s", dir, link_name);
		assert_int_equal(symlink(target, l.buf), 0);
		strbuf_release(&l);
	}
	/* our own fresh name is never a candidate while we live */
	snapshot_tmp_name(&mine, dir);
	touch(mine.buf + strlen(dir) + 1);

	assert_int_equal(snapshot_tmp_sweep(dir), 2);
	assert_false(exists(dead));
	assert_false(exists(dead_lock));
	assert_true(exists(live));	  /* running process */
	assert_true(exists(other_ns));	  /* a sandbox's pid means nothing here */
	assert_true(exists(odd));	  /* not exactly our form */
	assert_true(exists(link_name));	  /* not a regular file */
	assert_true(exists("index"));
	assert_true(exists(mine.buf + strlen(dir) + 1));
	assert_int_equal(snapshot_tmp_sweep(dir), 0);
	assert_int_equal(snapshot_tmp_sweep("/nonexistent/dir"), 0);
	strbuf_release(&mine);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
