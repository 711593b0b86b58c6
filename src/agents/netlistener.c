/* SPDX-License-Identifier: Apache-2.0 */
/* The relay's listener handed to the proxy; see netlistener.h. */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agents/netlistener.h"
#include "base/fdpass.h"

#define TAG_LISTENER 'L'
#define ANSWER_YES 'y'
#define ANSWER_NO 'n'

static int sockopt(int fd, int name, int *val)
{
	socklen_t len = sizeof(*val);
	return getsockopt(fd, SOL_SOCKET, name, val, &len);
}

static int refuse(struct strbuf *why, const char *what)
{
	strbuf_reset(why);
	strbuf_addstr(why, what);
	return -1;
}

int netlistener_check(int fd, struct strbuf *why)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	struct stat st;
	int domain, type, proto, listening;

	if (fstat(fd, &st) < 0)
		return refuse(why, "no open descriptor");
	if (!S_ISSOCK(st.st_mode))
		return refuse(why, "not a socket");
	if (sockopt(fd, SO_DOMAIN, &domain) < 0 || domain != AF_INET)
		return refuse(why, "not an IPv4 socket");
	if (sockopt(fd, SO_TYPE, &type) < 0 || type != SOCK_STREAM ||
	    sockopt(fd, SO_PROTOCOL, &proto) < 0 || proto != IPPROTO_TCP)
		return refuse(why, "not a TCP socket");
	if (sockopt(fd, SO_ACCEPTCONN, &listening) < 0 || !listening)
		return refuse(why, "not a listening socket");
	if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0 ||
	    len < sizeof(sa) || sa.sin_family != AF_INET ||
	    (ntohl(sa.sin_addr.s_addr) >> 24) != 127)
		return refuse(why, "not bound to the loopback");
	return 0;
}

int netlistener_take(int conn, int *lfd, struct strbuf *why)
{
	char tag = 0, answer = ANSWER_NO;
	int fd = -1, fl;

	*lfd = -1;
	if (fdpass_recv(conn, &tag, &fd) < 0)
		refuse(why, errno == EBADMSG ? "not exactly one descriptor"
					     : "nothing was handed over");
	else if (tag != TAG_LISTENER)
		refuse(why, "not a listener hand-over");
	else if (!netlistener_check(fd, why))
		answer = ANSWER_YES;
	if (answer == ANSWER_YES) {
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
			refuse(why, "cannot make the listener non-blocking");
			answer = ANSWER_NO;
		}
	}
	/* the relay runs its command only on a yes (invariant 3) */
	if (send(conn, &answer, 1, MSG_NOSIGNAL) != 1 && answer == ANSWER_YES) {
		refuse(why, "the relay did not wait for the answer");
		answer = ANSWER_NO;
	}
	if (answer != ANSWER_YES) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*lfd = fd;
	return 0;
}

int netlistener_give(int conn, int listener)
{
	char answer = 0;
	ssize_t n;

	if (fdpass_send(conn, TAG_LISTENER, listener) < 0)
		return -1;
	do
		n = recv(conn, &answer, 1, 0);
	while (n < 0 && errno == EINTR);
	if (n == 1 && answer == ANSWER_YES)
		return 0;
	if (n >= 0)
		errno = EACCES;
	return -1;
}
