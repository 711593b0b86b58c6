/* SPDX-License-Identifier: Apache-2.0 */
/* read_small_file: one read, no fstat, and still no hang or overflow;
 * read_small_regular: the same, refusing what is not a regular file. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/strbuf.h"
#include "unit-tmpdir.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return unit_tmpdir_make(dir, sizeof(dir), "fileio");
}

static int teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(dir);
}

static const char *at(struct strbuf *p, const char *name)
{
	strbuf_reset(p);
	strbuf_addf(p, "%s/%s", dir, name);
	return p->buf;
}

static void put(const char *path, const char *data)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write_all(fd, data, strlen(data)), 0);
	close(fd);
}

static void test_read_small_file(void **state)
{
	struct strbuf p = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	/* a small file whole, appended to what `out` held */
	put(at(&p, "HEAD"), "ref: refs/heads/x\n");
	strbuf_addstr(&out, ">");
	assert_int_equal(read_small_file(p.buf, 64, &out), 0);
	assert_string_equal(out.buf, ">ref: refs/heads/x\n");
	/* exactly max fits; one byte more is EFBIG */
	put(at(&p, "eight"), "12345678");
	strbuf_reset(&out);
	assert_int_equal(read_small_file(p.buf, 8, &out), 0);
	assert_int_equal(out.len, 8);
	strbuf_reset(&out);
	errno = 0;
	assert_int_equal(read_small_file(p.buf, 7, &out), -1);
	assert_int_equal(errno, EFBIG);
	/* a FIFO with no writer: no hang, nothing read */
	assert_int_equal(mkfifo(at(&p, "fifo"), 0600), 0);
	strbuf_reset(&out);
	assert_int_equal(read_small_file(p.buf, 64, &out), 0);
	assert_int_equal(out.len, 0);
	/* a directory, a symlink, a missing file: errors */
	assert_int_equal(mkdir(at(&p, "d"), 0700), 0);
	assert_int_equal(read_small_file(p.buf, 64, &out), -1);
	assert_int_equal(symlink("HEAD", at(&p, "link")), 0);
	assert_int_equal(read_small_file(p.buf, 64, &out), -1);
	errno = 0;
	assert_int_equal(read_small_file(at(&p, "missing"), 64, &out), -1);
	assert_int_equal(errno, ENOENT);
	strbuf_release(&p);
	strbuf_release(&out);
}

static void test_read_small_regular(void **state)
{
	struct strbuf p = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	put(at(&p, "bind"), "{}");
	assert_int_equal(read_small_regular(p.buf, 64, &out), 0);
	assert_string_equal(out.buf, "{}");
	/* an empty regular file is one: nothing read, no error */
	put(at(&p, "empty"), "");
	strbuf_reset(&out);
	assert_int_equal(read_small_regular(p.buf, 64, &out), 0);
	assert_int_equal(out.len, 0);
	errno = 0;
	assert_int_equal(read_small_regular(at(&p, "bind"), 1, &out), -1);
	assert_int_equal(errno, EFBIG);
	/* a FIFO with no writer, a directory, a device: EINVAL, no hang */
	assert_int_equal(mkfifo(at(&p, "fifo2"), 0600), 0);
	errno = 0;
	assert_int_equal(read_small_regular(p.buf, 64, &out), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mkdir(at(&p, "d2"), 0700), 0);
	errno = 0;
	assert_int_equal(read_small_regular(p.buf, 64, &out), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(read_small_regular("/dev/null", 64, &out), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(symlink("bind", at(&p, "link2")), 0);
	assert_int_equal(read_small_regular(p.buf, 64, &out), -1);
	errno = 0;
	assert_int_equal(read_small_regular(at(&p, "none"), 64, &out), -1);
	assert_int_equal(errno, ENOENT);
	strbuf_release(&p);
	strbuf_release(&out);
}

/* fd_done(): left open (close-on-exec) up to the bound the shim sets,
 * closed past it and by default */
static void test_fd_done(void **state)
{
	int a = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int b = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int c = open("/dev/null", O_RDONLY | O_CLOEXEC);

	(void)state;
	fd_done(a);
	assert_int_equal(fcntl(a, F_GETFD), -1);
	fileio_keep_fds_to_exec(1);
	errno = 42;
	fd_done(b);
	assert_int_equal(errno, 42);
	assert_int_equal(fcntl(b, F_GETFD), FD_CLOEXEC);
	fd_done(c);
	assert_int_equal(fcntl(c, F_GETFD), -1);
	fileio_keep_fds_to_exec(0);
	close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_small_file),
		cmocka_unit_test(test_read_small_regular),
		cmocka_unit_test(test_fd_done),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
