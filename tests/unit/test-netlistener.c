/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fs+api hand-over (agents/netlistener.h invariants 1 and 3, and
 * base/fdpass.h): only a listening TCP socket on 127.0.0.0/8 is taken,
 * exactly one descriptor, and the relay hears the answer.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include "agents/netlistener.h"
#include "base/fdpass.h"

static int tcp(int domain, uint32_t addr, bool do_listen)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(addr) };
	int fd = socket(domain, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	if (domain == AF_INET)
		assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
				 0);
	if (do_listen)
		assert_int_equal(listen(fd, 4), 0);
	return fd;
}

static void expect_refused(int fd, const char *why_text)
{
	struct strbuf why = STRBUF_INIT;

	assert_int_equal(netlistener_check(fd, &why), -1);
	assert_string_equal(why.buf, why_text);
	strbuf_release(&why);
}

static void test_check(void **state)
{
	struct strbuf why = STRBUF_INIT;
	int p[2], fd, u;

	(void)state;
	fd = tcp(AF_INET, INADDR_LOOPBACK, true);
	assert_int_equal(netlistener_check(fd, &why), 0);
	close(fd);
	fd = tcp(AF_INET, 0x7f000005, true); /* 127.0.0.5 */
	assert_int_equal(netlistener_check(fd, &why), 0);
	close(fd);
	/* a closed descriptor */
	expect_refused(fd, "no open descriptor");
	assert_int_equal(pipe(p), 0);
	expect_refused(p[0], "not a socket");
	close(p[0]);
	close(p[1]);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	expect_refused(fd, "not a socket");
	close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	expect_refused(fd, "not an IPv4 socket");
	close(fd);
	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		expect_refused(fd, "not an IPv4 socket");
		close(fd);
	}
	u = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	expect_refused(u, "not a TCP socket");
	close(u);
	fd = tcp(AF_INET, INADDR_LOOPBACK, false); /* bound, not listening */
	expect_refused(fd, "not a listening socket");
	close(fd);
	fd = tcp(AF_INET, INADDR_ANY, true); /* every address, not loopback */
	expect_refused(fd, "not bound to the loopback");
	close(fd);
	strbuf_release(&why);
}

static void test_connected_socket(void **state)
{
	int lfd = tcp(AF_INET, INADDR_LOOPBACK, true), c;
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);

	(void)state;
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&sa, &len), 0);
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_int_equal(connect(c, (struct sockaddr *)&sa, sizeof(sa)), 0);
	expect_refused(c, "not a listening socket");
	close(c);
	close(lfd);
}

/* Sends `nr` descriptors with `tag` over `s`, as a relay would. */
static void send_fds(int s, char tag, const int *fds, size_t nr)
{
	assert_int_equal(fdpass_send_many(s, tag, fds, nr), 0);
}

/* One hand-over of `fds` through netlistener_take(); its answer. */
static char take(char tag, const int *fds, size_t nr, int expect,
		 const char *why_text)
{
	struct strbuf why = STRBUF_INIT;
	int sp[2], lfd = -2;
	char answer = 0;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	send_fds(sp[0], tag, fds, nr);
	assert_int_equal(netlistener_take(sp[1], &lfd, &why), expect);
	if (expect < 0) {
		assert_int_equal(lfd, -1);
		assert_string_equal(why.buf, why_text);
	} else {
		assert_true(lfd >= 0);
		assert_true(fcntl(lfd, F_GETFL) & O_NONBLOCK);
		close(lfd);
	}
	assert_int_equal(read(sp[0], &answer, 1), 1);
	close(sp[0]);
	close(sp[1]);
	strbuf_release(&why);
	return answer;
}

static void test_take(void **state)
{
	int good = tcp(AF_INET, INADDR_LOOPBACK, true);
	int two[2] = { good, tcp(AF_INET, INADDR_LOOPBACK, true) };
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(take('L', &good, 1, 0, NULL), 'y');
	assert_int_equal(take('L', p, 1, -1, "not a socket"), 'n');
	assert_int_equal(take('L', NULL, 0, -1, "not exactly one descriptor"),
			 'n');
	assert_int_equal(take('L', two, 2, -1, "not exactly one descriptor"),
			 'n');
	assert_int_equal(take('X', &good, 1, -1, "not a listener hand-over"),
			 'n');
	close(p[0]);
	close(p[1]);
	close(two[0]);
	close(two[1]);
}

static void test_take_closed_peer(void **state)
{
	struct strbuf why = STRBUF_INIT;
	int sp[2], lfd;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	close(sp[0]);
	assert_int_equal(netlistener_take(sp[1], &lfd, &why), -1);
	assert_string_equal(why.buf, "nothing was handed over");
	close(sp[1]);
	strbuf_release(&why);
}

/* fdpass_recv() closes every descriptor of a message it refuses. */
static void test_extra_fds_closed(void **state)
{
	int sp[2], p[2], fd = -2, before, after;
	char tag;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	assert_int_equal(pipe(p), 0);
	send_fds(sp[0], 'L', p, 2);
	before = dup(0); /* the lowest free descriptor now */
	close(before);
	assert_int_equal(fdpass_recv(sp[1], &tag, &fd), -1);
	assert_int_equal(errno, EBADMSG);
	assert_int_equal(fd, -1);
	after = dup(0);
	assert_int_equal(after, before);
	close(after);
	close(p[0]);
	close(p[1]);
	close(sp[0]);
	close(sp[1]);
}

static void test_give(void **state)
{
	int sp[2], lfd = tcp(AF_INET, INADDR_LOOPBACK, true);

	(void)state;
	/* the proxy said no: the relay must not run its command */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	assert_int_equal(write(sp[1], "n", 1), 1);
	assert_int_equal(netlistener_give(sp[0], lfd), -1);
	assert_int_equal(errno, EACCES);
	close(sp[0]);
	close(sp[1]);
	/* the proxy went away without an answer */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	shutdown(sp[1], SHUT_WR);
	assert_int_equal(netlistener_give(sp[0], lfd), -1);
	close(sp[0]);
	close(sp[1]);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	assert_int_equal(write(sp[1], "y", 1), 1);
	assert_int_equal(netlistener_give(sp[0], lfd), 0);
	close(sp[0]);
	close(sp[1]);
	close(lfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_connected_socket),
		cmocka_unit_test(test_take),
		cmocka_unit_test(test_take_closed_peer),
		cmocka_unit_test(test_extra_fds_closed),
		cmocka_unit_test(test_give),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
