/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_RESOLVER_H
#define AG_RESOLVER_H

/**
 * Name resolution that does not block the fs+api proxy's loop: each
 * lookup runs getaddrinfo() on a detached thread of its own and answers
 * through a descriptor the loop polls.
 *
 *   int fd = resolver_start("api.example.com", 443);  // -1: errno
 *   …poll fd for POLLIN, with the caller's own time bound…
 *   struct resolver_answer a;
 *   resolver_read(fd, &a);   // 0 and a.nr addresses, or -1 and a.err
 *   close(fd);               // also what abandons a lookup
 *
 * The thread owns its copy of the name and its end of the descriptor; a
 * caller that gives up just closes its end, and the thread's answer goes
 * nowhere (a lookup cannot be cancelled). At most RESOLVER_MAX_PENDING
 * lookups run at once, abandoned ones included: past that resolver_start()
 * fails with EAGAIN, so a resolver that never answers cannot pile up
 * threads.
 */
#include "base/common.h"
#include <sys/socket.h>

#define RESOLVER_MAX_PENDING 16
#define RESOLVER_MAX_ADDRS 8

struct resolver_answer {
	int err; /* getaddrinfo()'s code, 0 when it resolved */
	int nr;
	struct sockaddr_storage addr[RESOLVER_MAX_ADDRS];
	socklen_t len[RESOLVER_MAX_ADDRS];
};

int resolver_start(const char *host, unsigned port);
/* 0 with a->nr >= 1, or -1 (a->err: the resolver's code, or EAI_SYSTEM
 * when no answer could be read). */
int resolver_read(int fd, struct resolver_answer *a);

#endif
