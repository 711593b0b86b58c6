/* SPDX-License-Identifier: Apache-2.0 */
/* Lookups on detached threads, answered through a socket; see resolver.h. */
#include "base/common.h"
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <unistd.h>
#include "agents/resolver.h"
#include "base/xalloc.h"

struct job {
	int fd; /* the thread's end */
	char host[256];
	char port[8];
};

/*
 * Lookups running now, abandoned ones included. A global, not a field of
 * the proxy: it counts detached threads that may outlive any owner.
 */
static atomic_int pending;

static void *lookup(void *arg)
{
	struct job *j = arg;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	struct resolver_answer *a = xcalloc(1, sizeof(*a));

	a->err = getaddrinfo(j->host, j->port, &hints, &res);
	for (struct addrinfo *ai = res; ai && a->nr < RESOLVER_MAX_ADDRS;
	     ai = ai->ai_next) {
		if (ai->ai_addrlen > sizeof(a->addr[0]))
			continue;
		memcpy(&a->addr[a->nr], ai->ai_addr, ai->ai_addrlen);
		a->len[a->nr++] = ai->ai_addrlen;
	}
	if (res)
		freeaddrinfo(res);
	/* the caller may have gone: no SIGPIPE, and the answer is dropped */
	if (send(j->fd, a, sizeof(*a), MSG_NOSIGNAL) < 0)
		(void)0;
	close(j->fd);
	free(a);
	free(j);
	atomic_fetch_sub(&pending, 1);
	return NULL;
}

int resolver_start(const char *host, unsigned port)
{
	pthread_attr_t attr;
	pthread_t t;
	struct job *j;
	int sp[2], rc;

	if (strlen(host) >= sizeof(j->host)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (atomic_fetch_add(&pending, 1) >= RESOLVER_MAX_PENDING) {
		atomic_fetch_sub(&pending, 1);
		errno = EAGAIN;
		return -1;
	}
	/* one datagram-like message: the answer arrives whole or not at all */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0) {
		atomic_fetch_sub(&pending, 1);
		return -1;
	}
	j = xcalloc(1, sizeof(*j));
	j->fd = sp[1];
	snprintf(j->host, sizeof(j->host), "%s", host);
	snprintf(j->port, sizeof(j->port), "%u", port);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &attr, lookup, j);
	pthread_attr_destroy(&attr);
	if (rc) {
		close(sp[0]);
		close(sp[1]);
		free(j);
		atomic_fetch_sub(&pending, 1);
		errno = rc;
		return -1;
	}
	return sp[0];
}

int resolver_read(int fd, struct resolver_answer *a)
{
	ssize_t n;

	do
		n = recv(fd, a, sizeof(*a), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*a)) {
		a->err = EAI_SYSTEM;
		a->nr = 0;
		return -1;
	}
	if (a->err || a->nr < 1 || a->nr > RESOLVER_MAX_ADDRS) {
		if (!a->err)
			a->err = EAI_NONAME;
		a->nr = 0;
		return -1;
	}
	return 0;
}
