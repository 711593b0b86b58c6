/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes the request framing of a terminated connection
 * (agents/httpstream.h) with the secrets' head rewrite
 * (agents/secrets.h) in it. The first byte picks how the rest is cut
 * into pieces. Invariants:
 *  1. never crashes, reads nothing past a piece;
 *  2. the same bytes give the same verdict and output in one piece or in
 *     many (the proxy reads what the socket gives);
 *  3. for a host no secret is for, what goes on (and a head not complete
 *     yet, held) is exactly what came in;
 *  4. every head handed over is at most PROXYREQ_HEAD_MAX bytes and ends
 *     with its empty line;
 *  5. for the secret's host, putting the placeholder back where the value
 *     is gives the input again.
 */
#include <string.h>
#include "agents/httpstream.h"
#include "agents/proxyreq.h"
#include "agents/secrets.h"
#include "fuzz.h"

#define PH SECRET_PREFIX "K-00000000000000000000000000000000"
#define VALUE "sk-fuzz-value"

struct ctx {
	struct secret_table *t;
	struct allowhost_target *target;
};

static void on_head(void *p, const char *head, size_t len, struct strbuf *out)
{
	struct ctx *c = p;

	FUZZ_CHECK(len <= PROXYREQ_HEAD_MAX && len >= 2 &&
			   head[len - 1] == '\n' &&
			   (head[len - 2] == '\n' ||
			    (len >= 3 && head[len - 2] == '\r' &&
			     head[len - 3] == '\n')),
		   "a head of %zu bytes", len);
	secret_rewrite_head(c->t, c->target, head, len, out, NULL);
}

static int run(const uint8_t *d, size_t n, size_t step, struct ctx *c,
	       struct strbuf *out)
{
	struct httpstream hs;
	int rc = 0;

	httpstream_init(&hs, on_head, c);
	for (size_t i = 0; i < n && !rc; i += step)
		rc = httpstream_feed(&hs, (const char *)d + i,
				     n - i < step ? n - i : step, out);
	/* a head not complete yet is held, not lost: count it in */
	if (!rc && hs.st == HS_HEAD)
		strbuf_addbuf(out, &hs.buf);
	httpstream_release(&hs);
	return rc;
}

static void unreplace(const struct strbuf *out, struct strbuf *back)
{
	for (size_t i = 0; i < out->len;) {
		const char *hit = memmem(out->buf + i, out->len - i, VALUE,
					 strlen(VALUE));
		size_t k = hit ? (size_t)(hit - out->buf) : out->len;

		strbuf_add(back, out->buf + i, k - i);
		if (!hit)
			break;
		strbuf_addstr(back, PH);
		i = k + strlen(VALUE);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const hosts[] = { "api.example.com" };
	struct secret_table t = SECRET_TABLE_INIT;
	struct allowhost_target api, other;
	struct ctx c = { &t, &other };
	struct strbuf one = STRBUF_INIT, many = STRBUF_INIT, back = STRBUF_INIT;
	size_t step;
	int r1, r2;

	if (!size || size > 4 * PROXYREQ_HEAD_MAX)
		return 0;
	step = 1 + data[0] % 97;
	data++, size--;
	secret_table_add(&t, "K", PH, VALUE, hosts, 1);
	allowhost_target("api.example.com", 15, 443, &api, NULL);
	allowhost_target("other.example.com", 17, 443, &other, NULL);
	r1 = run(data, size, size ? size : 1, &c, &one);
	r2 = run(data, size, step, &c, &many);
	FUZZ_CHECK(r1 == r2, "whole %d, in pieces of %zu %d", r1, step, r2);
	if (!r1) {
		FUZZ_CHECK(one.len == size && !memcmp(one.buf, data, size),
			   "other host: output differs");
		FUZZ_CHECK(many.len == one.len &&
				   !memcmp(many.buf, one.buf, one.len),
			   "pieces: output differs");
		strbuf_reset(&one);
		c.target = &api;
		run(data, size, step, &c, &one);
		if (!memmem(data, size, VALUE, strlen(VALUE))) {
			unreplace(&one, &back);
			FUZZ_CHECK(back.len == size &&
					   !memcmp(back.buf, data, size),
				   "placeholders back: differs");
		}
	}
	strbuf_release(&one);
	strbuf_release(&many);
	strbuf_release(&back);
	secret_table_wipe(&t);
	return 0;
}
