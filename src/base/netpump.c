/* SPDX-License-Identifier: Apache-2.0 */
/* The bounded two-way byte shuttle; see netpump.h. */
#include "base/common.h"
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include "base/netpump.h"

void netpump_init(struct netpump *p, int a, int b)
{
	/* not the buffers: a new connection need not clear 64 KiB */
	for (int d = 0; d < 2; d++) {
		p->h[d].off = p->h[d].len = 0;
		p->h[d].eof = p->h[d].shut = false;
		p->moved[d] = 0;
	}
	p->fd[0] = a;
	p->fd[1] = b;
}

int netpump_queue(struct netpump *p, enum netpump_dir d, const char *data,
		  size_t len)
{
	struct netpump_half *h = &p->h[d];

	if (h->off + h->len + len > NETPUMP_BUF)
		return -1;
	memcpy(h->buf + h->off + h->len, data, len);
	h->len += len;
	return 0;
}

static bool half_done(const struct netpump_half *h)
{
	return h->shut;
}

void netpump_events(const struct netpump *p, short *ev_a, short *ev_b)
{
	short ev[2] = { 0, 0 };

	for (int d = 0; d < 2; d++) {
		const struct netpump_half *h = &p->h[d];
		int from = d, to = 1 - d;

		if (!h->eof && h->len < NETPUMP_BUF)
			ev[from] |= POLLIN;
		if (h->len)
			ev[to] |= POLLOUT;
	}
	*ev_a = ev[0];
	*ev_b = ev[1];
}

/* Reads into direction d from its source; -1 on error. */
static int fill(struct netpump *p, int d)
{
	struct netpump_half *h = &p->h[d];
	ssize_t n;

	if (h->eof)
		return 0;
	if (h->len == NETPUMP_BUF)
		return 0;
	if (h->off + h->len == NETPUMP_BUF) { /* room only at the front */
		memmove(h->buf, h->buf + h->off, h->len);
		h->off = 0;
	}
	n = recv(p->fd[d], h->buf + h->off + h->len,
		 NETPUMP_BUF - h->off - h->len, 0);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (!n)
		h->eof = true;
	h->len += (size_t)n;
	return 0;
}

static int drain(struct netpump *p, int d)
{
	struct netpump_half *h = &p->h[d];
	ssize_t n;

	if (h->len) {
		n = send(p->fd[1 - d], h->buf + h->off, h->len, MSG_NOSIGNAL);
		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		h->off += (size_t)n;
		h->len -= (size_t)n;
		p->moved[d] += (unsigned long long)n;
		if (!h->len)
			h->off = 0;
	}
	if (!h->len && h->eof && !h->shut) {
		shutdown(p->fd[1 - d], SHUT_WR);
		h->shut = true;
	}
	return 0;
}

/*
 * A side that hung up is reported by every poll (POLLHUP cannot be
 * masked): the caller leaves out of its poll a side netpump_events() asks
 * nothing of (agents/netproxy.c), so a full buffer waits without a spin.
 */
int netpump_io(struct netpump *p, short rev_a, short rev_b)
{
	short rev[2] = { rev_a, rev_b };

	for (int d = 0; d < 2; d++) {
		if ((rev[d] & POLLERR) && !(rev[d] & POLLIN))
			return -1;
		if ((rev[d] & (POLLIN | POLLHUP)) && fill(p, d) < 0)
			return -1;
	}
	for (int d = 0; d < 2; d++)
		if (drain(p, d) < 0)
			return -1;
	return half_done(&p->h[0]) && half_done(&p->h[1]) ? 0 : 1;
}
