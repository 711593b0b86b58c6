/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbx-helper: the small probes the sandbox e2e tests run inside (and
 * outside, as controls) the sandbox.
 *   sbx-helper tiocsti                 inject one byte into fd 0's terminal
 *   sbx-helper pty CMD [ARG…]          run CMD on a fresh pty as its
 *                                      controlling terminal, copy its output
 *   sbx-helper listen PORTFILE SECS    TCP listener on 127.0.0.1 (port
 *                                      written to PORTFILE), greets and
 *                                      closes each client, exits after SECS
 *   sbx-helper connect PORT            TCP connect to 127.0.0.1:PORT, print
 *                                      the greeting
 *   sbx-helper udp PORT                send one UDP datagram to 127.0.0.1
 *   sbx-helper handover SOCK WHAT      act as a (bad) fs+api relay: hand
 *                                      the proxy at unix socket SOCK a
 *                                      `pipe`, a `udp` socket, a TCP
 *                                      `listener` on 127.0.0.1, `two`
 *                                      listeners or `none`; print the answer
 * Exit 0 when the operation worked, 1 (with the errno text) when it did
 * not, 2 on bad usage.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "base/fdpass.h"

static int fail(const char *what)
{
	printf("%s: %s\n", what, strerror(errno));
	return 1;
}

static int do_tiocsti(void)
{
	char c = '#';
	if (ioctl(0, TIOCSTI, &c) < 0)
		return fail("tiocsti");
	puts("tiocsti: injected");
	return 0;
}

static int do_pty(char **argv)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY), st;
	pid_t pid;
	char buf[4096];
	ssize_t n;

	if (master < 0 || grantpt(master) || unlockpt(master))
		return fail("pty");
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (!pid) {
		int slave;
		setsid();
		slave = open(ptsname(master), O_RDWR);
		if (slave < 0 || ioctl(slave, TIOCSCTTY, 0) < 0)
			_exit(126);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		close(master);
		execv(argv[0], argv);
		_exit(127);
	}
	while ((n = read(master, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static struct sockaddr_in loopback(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	return a;
}

static int do_listen(const char *portfile, int secs)
{
	struct sockaddr_in a = loopback(0);
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	time_t end = time(NULL) + secs;
	FILE *f;

	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(s, 8) < 0 || getsockname(s, (struct sockaddr *)&a, &len) < 0)
		return fail("listen");
	f = fopen(portfile, "w");
	if (!f)
		return fail(portfile);
	fprintf(f, "%d\n", ntohs(a.sin_port));
	fclose(f);
	while (time(NULL) < end) {
		struct pollfd p = { s, POLLIN, 0 };
		if (poll(&p, 1, 200) > 0) {
			int c = accept(s, NULL, NULL);
			if (c >= 0) {
				ssize_t AG_UNUSED w = write(c, "hello\n", 6);
				close(c);
			}
		}
	}
	return 0;
}

static int do_connect(int port, bool udp)
{
	struct sockaddr_in a = loopback(port);
	int s = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
	char buf[64] = "";
	ssize_t n;

	if (s < 0)
		return fail("socket");
	if (udp) {
		if (sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)) < 0)
			return fail("sendto");
		puts("udp: sent");
		return 0;
	}
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0)
		return fail("connect");
	n = read(s, buf, sizeof(buf) - 1);
	printf("connected: %s", n > 0 ? buf : "(nothing)\n");
	return 0;
}

/* What a relay hands over, by name; *nr descriptors in fds. */
static int handover_fds(const char *what, int fds[2], int *nr)
{
	struct sockaddr_in a = loopback(0);
	int p[2];

	*nr = 1;
	if (!strcmp(what, "none")) {
		*nr = 0;
		return 0;
	}
	if (!strcmp(what, "pipe")) {
		if (pipe(p) < 0)
			return -1;
		fds[0] = p[0];
		return 0;
	}
	if (!strcmp(what, "udp")) {
		fds[0] = socket(AF_INET, SOCK_DGRAM, 0);
		return fds[0] < 0 || bind(fds[0], (struct sockaddr *)&a,
					  sizeof(a)) < 0
			       ? -1
			       : 0;
	}
	*nr = !strcmp(what, "two") ? 2 : 1;
	if (*nr == 1 && strcmp(what, "listener"))
		return errno = EINVAL, -1;
	for (int i = 0; i < *nr; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		if (fds[i] < 0 ||
		    bind(fds[i], (struct sockaddr *)&a, sizeof(a)) < 0 ||
		    listen(fds[i], 8) < 0)
			return -1;
	}
	return 0;
}

static int do_handover(const char *path, const char *what)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char answer = 0;
	int s = socket(AF_UNIX, SOCK_STREAM, 0), fds[2], nr;
	/* a proxy that never answers is a failure, not a hang */
	struct timeval tv = { .tv_sec = 10 };

	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return fail("handover: connect");
	if (handover_fds(what, fds, &nr) < 0)
		return fail("handover: descriptor");
	if (fdpass_send_many(s, 'L', fds, (size_t)nr) < 0)
		return fail("handover: sendmsg");
	if (read(s, &answer, 1) != 1)
		return fail("handover: answer");
	puts(answer == 'y' ? "handover: accepted" : "handover: refused");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "tiocsti"))
		return do_tiocsti();
	if (argc >= 3 && !strcmp(argv[1], "pty") && argv[2][0] == '/')
		return do_pty(argv + 2);
	if (argc == 4 && !strcmp(argv[1], "listen"))
		return do_listen(argv[2], (int)strtol(argv[3], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "connect"))
		return do_connect((int)strtol(argv[2], NULL, 10), false);
	if (argc == 3 && !strcmp(argv[1], "udp"))
		return do_connect((int)strtol(argv[2], NULL, 10), true);
	if (argc == 4 && !strcmp(argv[1], "handover"))
		return do_handover(argv[2], argv[3]);
	fprintf(stderr,
		"usage: sbx-helper tiocsti | pty /CMD [ARG…] | listen PORTFILE SECS | connect PORT | udp PORT | handover SOCK WHAT\n");
	return 2;
}
