/* SPDX-License-Identifier: Apache-2.0 */
/* One descriptor over a unix socket; see fdpass.h. */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "base/fdpass.h"

/* room for a few descriptors, so that extra ones arrive and are closed
 * rather than being dropped unseen by MSG_CTRUNC */
#define FDPASS_ROOM 8

int fdpass_send_many(int sock, char tag, const int *fds, size_t nr)
{
	union {
		char buf[CMSG_SPACE(FDPASS_ROOM * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = &tag, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (nr > FDPASS_ROOM) {
		errno = EINVAL;
		return -1;
	}
	memset(&u, 0, sizeof(u));
	if (nr) {
		struct cmsghdr *c;
		msg.msg_control = u.buf;
		msg.msg_controllen = CMSG_SPACE(nr * sizeof(int));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nr * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nr * sizeof(int));
	}
	do
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

int fdpass_send(int sock, char tag, int fd)
{
	return fdpass_send_many(sock, tag, &fd, 1);
}

int fdpass_recv(int sock, char *tag, int *fd)
{
	union {
		char buf[CMSG_SPACE(FDPASS_ROOM * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = tag, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	int got = -1, count = 0;
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		if (!n)
			errno = ENODATA; /* the peer closed */
		return -1;
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c;
	     c = CMSG_NXTHDR(&msg, c)) {
		size_t nr;
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		nr = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < nr; i++) {
			int one;
			memcpy(&one, CMSG_DATA(c) + i * sizeof(int),
			       sizeof(int));
			if (!count++)
				got = one;
			else
				close(one);
		}
	}
	if (n != 1 || count != 1 || (msg.msg_flags & MSG_CTRUNC)) {
		if (got >= 0)
			close(got);
		errno = EBADMSG;
		return -1;
	}
	*fd = got;
	return 0;
}
