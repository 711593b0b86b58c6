/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PROXYREQ_H
#define AG_PROXYREQ_H

/**
 * The fs+api proxy's request parser (PRODUCT.md §8). Pure: bytes in, a
 * verdict out; the proxy (netproxy.c) does the I/O.
 *
 *   struct proxyreq rq = PROXYREQ_INIT;
 *   switch (proxyreq_parse(buf, len, &rq)) {
 *   case PROXYREQ_MORE: read more (len < PROXYREQ_HEAD_MAX) …
 *   case PROXYREQ_BAD:  reply rq.status with rq.why, close …
 *   case PROXYREQ_OK:   allow-list rq.target, then connect …
 *   }
 *   proxyreq_release(&rq);
 *
 * Accepted: `CONNECT host:port HTTP/1.x` (the port is required), and
 * `METHOD http://host[:port]/path HTTP/1.x` (port 80 by default), the head
 * ending with an empty line, at most PROXYREQ_HEAD_MAX bytes, no NUL, no
 * control characters but TAB in a header, a token for a method, header
 * names that are tokens. For plain HTTP `fwd` holds the head to send
 * upstream: origin-form request line, the headers without Host, Connection,
 * Keep-Alive and Proxy-*, then `Host: <the URI's authority>` (so the server
 * sees the host that was allowed, whatever the client's Host said) and
 * `Connection: close` (one request per connection: a kept-alive connection
 * could otherwise carry a second request for another host).
 */
#include "base/common.h"
#include "agents/allowhosts.h"
#include "base/strbuf.h"

#define PROXYREQ_HEAD_MAX 16384
#define PROXYREQ_LINE_MAX 8192

enum proxyreq_result { PROXYREQ_MORE = 0, PROXYREQ_OK, PROXYREQ_BAD };

struct proxyreq {
	bool connect; /* CONNECT, else plain HTTP */
	struct allowhost_target target;
	size_t head_len;   /* bytes of the head, its empty line included */
	struct strbuf fwd; /* plain HTTP: the head to send upstream */
	int status;	   /* PROXYREQ_BAD: 400, 405, 431 */
	struct strbuf why; /* PROXYREQ_BAD: lowercase reason */
	char method[16];
};

#define PROXYREQ_INIT                                  \
	{                                              \
		.fwd = STRBUF_INIT, .why = STRBUF_INIT \
	}

enum proxyreq_result proxyreq_parse(const char *buf, size_t len,
				    struct proxyreq *rq);
void proxyreq_release(struct proxyreq *rq);
/* The end of a head in buf (after its empty line, LF or CR LF), or 0 when
 * it is not all there yet. */
size_t proxyreq_head_end(const char *buf, size_t len);

#endif
