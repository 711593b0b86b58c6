/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_AGENTS_HTTPSTREAM_H
#define AG_AGENTS_HTTPSTREAM_H

/**
 * The request side of an HTTP/1.1 connection the fs+api proxy terminates
 * (PRODUCT.md §8): finds where each request's head starts and ends across
 * kept-alive requests, so that only heads are rewritten (agents/secrets.h)
 * and bodies stream through untouched, never buffered whole. Pure.
 *
 *   struct httpstream hs;  httpstream_init(&hs, on_head, ctx);
 *   loop: httpstream_feed(&hs, buf, n, &out) < 0 → 400, close
 *         send `out` upstream
 *   httpstream_release(&hs);
 *
 * Security module. Invariants (tests: test-httpstream.c):
 *  1. A head is handed to on_head() whole (request line to empty line),
 *     at most PROXYREQ_HEAD_MAX bytes; a longer one is malformed.
 *  2. A body is framed by Content-Length or chunked encoding alone; a
 *     request with both, with a Transfer-Encoding other than chunked, or
 *     with a Content-Length that is not one decimal number is malformed,
 *     so the proxy and the server can never disagree on where the next
 *     request starts (request smuggling).
 *  3. After a request that switches protocols (an Upgrade header, or
 *     CONNECT) the rest of the stream is passed on as it is: nothing more
 *     is rewritten (a secret is then never put in; its placeholder goes
 *     out as it is).
 */
#include "base/common.h"
#include "base/strbuf.h"

enum httpstream_state {
	HS_HEAD = 0,
	HS_BODY,
	HS_CHUNK_LINE,
	HS_CHUNK_DATA,
	HS_CHUNK_END,
	HS_TRAILER,
	HS_RAW,
	HS_BAD,
};

typedef void (*httpstream_head_fn)(void *ctx, const char *head, size_t len,
				   struct strbuf *out);

struct httpstream {
	enum httpstream_state st;
	unsigned long long left; /* HS_BODY, HS_CHUNK_DATA */
	bool upgrade;		 /* the head being read switches protocols */
	httpstream_head_fn on_head;
	void *ctx;
	struct strbuf buf; /* a head, or a chunk or trailer line, so far */
	struct strbuf why; /* HS_BAD: lowercase reason */
	unsigned long requests;
};

void httpstream_init(struct httpstream *hs, httpstream_head_fn fn, void *ctx);
/*
 * Takes all `len` bytes, appending to `out` what goes on (rewritten heads,
 * bodies as they are). 0, or -1 when the stream is malformed (hs->why).
 */
int httpstream_feed(struct httpstream *hs, const char *data, size_t len,
		    struct strbuf *out);
void httpstream_release(struct httpstream *hs);

#endif
