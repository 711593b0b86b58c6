/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fs+api proxy's resolver (agents/resolver.h) on names /etc/hosts
 * answers, and its refusals; a resolver that never answers is t0616.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <unistd.h>
#include "agents/resolver.h"

static int wait_answer(int fd, struct resolver_answer *a)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	assert_int_equal(poll(&pf, 1, -1), 1);
	return resolver_read(fd, a);
}

static void test_localhost(void **state)
{
	struct resolver_answer a;
	int fd = resolver_start("localhost", 8080);
	bool loopback = false;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(wait_answer(fd, &a), 0);
	assert_true(a.nr >= 1 && a.nr <= RESOLVER_MAX_ADDRS);
	for (int i = 0; i < a.nr; i++) {
		const struct sockaddr_in *in = (void *)&a.addr[i];
		if (a.addr[i].ss_family == AF_INET) {
			assert_int_equal(ntohs(in->sin_port), 8080);
			loopback |= ntohl(in->sin_addr.s_addr) >> 24 == 127;
		} else {
			loopback |= a.addr[i].ss_family == AF_INET6;
		}
	}
	assert_true(loopback);
	close(fd);
}

/* a caller that gives up closes its end; the thread's answer goes
 * nowhere and the process does not die of SIGPIPE */
static void test_abandoned(void **state)
{
	struct resolver_answer a;
	int fd = -1;

	(void)state;
	for (int i = 0; i < 3 * RESOLVER_MAX_PENDING; i++) {
		fd = resolver_start("localhost", 80);
		if (fd < 0) {
			/* the abandoned ones still count until they end */
			assert_int_equal(errno, EAGAIN);
			usleep(10000);
			continue;
		}
		close(fd);
	}
	/* once they ended, lookups start again */
	for (int i = 0; i < 500 && (fd = resolver_start("localhost", 80)) < 0;
	     i++)
		usleep(10000);
	assert_true(fd >= 0);
	assert_int_equal(wait_answer(fd, &a), 0);
	close(fd);
}

static void test_refused(void **state)
{
	char name[300];
	struct resolver_answer a;
	int sp[2];

	(void)state;
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_int_equal(resolver_start(name, 443), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	/* an answer cut short is no answer */
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp), 0);
	assert_int_equal(write(sp[1], "x", 1), 1);
	assert_int_equal(resolver_read(sp[0], &a), -1);
	assert_int_equal(a.err, EAI_SYSTEM);
	assert_int_equal(a.nr, 0);
	close(sp[0]);
	close(sp[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_localhost),
		cmocka_unit_test(test_abandoned),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
