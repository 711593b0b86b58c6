/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_NETPUMP_H
#define AG_NETPUMP_H

/**
 * A bounded two-way byte shuttle between two non-blocking stream sockets,
 * driven by the caller's poll() loop (the fs+api proxy, between the
 * agent's socket and the upstream one).
 *
 *   struct netpump p;  netpump_init(&p, fd_a, fd_b);
 *   netpump_queue(&p, NETPUMP_TO_B, head, len);   // optional first bytes
 *   loop: netpump_events(&p, &pfd_a.events, &pfd_b.events);  poll …
 *         if (netpump_io(&p, pfd_a.revents, pfd_b.revents) <= 0) close both
 *
 * Each direction holds at most NETPUMP_BUF bytes: a reader is only polled
 * when its buffer has room, so a fast side never grows memory. An EOF on
 * one side is passed on as shutdown(SHUT_WR) once its buffer is drained;
 * the pump is done when both directions are, or on an error. The fds stay
 * the caller's to close.
 */
#include "base/common.h"

#define NETPUMP_BUF 32768

enum netpump_dir { NETPUMP_TO_B = 0, NETPUMP_TO_A = 1 };

struct netpump_half {
	char buf[NETPUMP_BUF];
	size_t off, len;
	bool eof;  /* the reading side said EOF */
	bool shut; /* passed on to the writing side */
};

struct netpump {
	int fd[2];		  /* [0] = a, [1] = b */
	struct netpump_half h[2]; /* [NETPUMP_TO_B] a -> b, [TO_A] b -> a */
	unsigned long long moved[2];
};

void netpump_init(struct netpump *p, int a, int b);
/* Queues bytes to be written before anything read; -1 when they do not
 * fit. */
int netpump_queue(struct netpump *p, enum netpump_dir d, const char *data,
		  size_t len);
/* The poll events each side needs now. */
void netpump_events(const struct netpump *p, short *ev_a, short *ev_b);
/* Moves what it can. 1: still open; 0: both directions done; -1: error. */
int netpump_io(struct netpump *p, short rev_a, short rev_b);

#endif
