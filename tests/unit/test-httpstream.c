/* SPDX-License-Identifier: Apache-2.0 */
/* agents/httpstream.h: where each request's head is, across a stream. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "agents/httpstream.h"
#include "agents/proxyreq.h"

/* Marks every head it is given, so a test sees what was taken for one. */
static void mark(void *ctx, const char *head, size_t len, struct strbuf *out)
{
	(*(int *)ctx)++;
	strbuf_addstr(out, "<H>");
	strbuf_add(out, head, len);
}

/* Feeds `in` in pieces of `step` bytes; 0 or -1. */
static int feed(const char *in, size_t len, size_t step, int *heads,
		struct strbuf *out, struct httpstream *hs)
{
	int rc = 0;

	httpstream_init(hs, mark, heads);
	for (size_t i = 0; i < len && !rc; i += step)
		rc = httpstream_feed(hs, in + i,
				     len - i < step ? len - i : step, out);
	return rc;
}

static const char keepalive[] =
	"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 6\r\n\r\nGET /b"
	"GET /b HTTP/1.1\r\nHost: h\r\n\r\n"
	"\r\n" /* an empty line between requests is allowed */
	"POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
	"4;ext=1\r\nPOST\r\n0\r\nX-Trailer: t\r\n\r\n"
	"GET /d HTTP/1.1\r\nHost: h\r\n\r\n";

/* invariant 1 and 2: heads found, bodies (even ones that look like a
 * request) passed as they are, whatever the pieces they come in */
static void test_keepalive_any_split(void **state)
{
	for (size_t step = 1; step <= sizeof(keepalive); step++) {
		struct httpstream hs;
		struct strbuf out = STRBUF_INIT;
		int heads = 0;

		assert_int_equal(feed(keepalive, sizeof(keepalive) - 1, step,
				      &heads, &out, &hs),
				 0);
		assert_int_equal(heads, 4);
		assert_int_equal(hs.st, HS_HEAD);
		/* every head marked, nothing else changed */
		assert_int_equal(out.len, sizeof(keepalive) - 1 + 4 * 3);
		assert_non_null(strstr(out.buf, "<H>GET /d HTTP/1.1"));
		/* the body "GET /b" is a body, the next head a head */
		assert_non_null(
			strstr(out.buf, "\r\n\r\nGET /b<H>GET /b HTTP"));
		httpstream_release(&hs);
		strbuf_release(&out);
	}
}

/* invariant 2: whatever could make the proxy and the server disagree */
static void test_smuggling_refused(void **state)
{
	static const char *const bad[] = {
		"POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
		"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
		"POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
		"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
		"POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n",
		"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n",
		"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n",
		"GET / HTTP/1.1\r\nX: a\0b\r\n\r\n",
	};
	static const size_t len[] = { 0, 0, 0, 0, 0, 0, 0, 0, 26 };

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct httpstream hs;
		struct strbuf out = STRBUF_INIT;
		int heads = 0;
		size_t n = len[i] ? len[i] : strlen(bad[i]);

		assert_int_equal(feed(bad[i], n, n, &heads, &out, &hs), -1);
		assert_int_equal(hs.st, HS_BAD);
		assert_true(hs.why.len > 0);
		/* and it stays refused */
		assert_int_equal(httpstream_feed(&hs, "x", 1, &out), -1);
		httpstream_release(&hs);
		strbuf_release(&out);
	}
}

/* invariant 1: a head longer than the limit */
static void test_long_head(void **state)
{
	struct httpstream hs;
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	int heads = 0;

	strbuf_addstr(&in, "GET / HTTP/1.1\r\n");
	while (in.len <= PROXYREQ_HEAD_MAX)
		strbuf_addstr(&in,
			      "X-Filler: 0123456789012345678901234567890\r\n");
	assert_int_equal(feed(in.buf, in.len, 1000, &heads, &out, &hs), -1);
	assert_int_equal(heads, 0);
	httpstream_release(&hs);
	strbuf_release(&in);
	strbuf_release(&out);
}

/* invariant 3: after an upgrade nothing more is taken for a head */
static void test_upgrade_raw(void **state)
{
	static const char in[] =
		"GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n"
		"Connection: Upgrade\r\n\r\nGET /x HTTP/1.1\r\n\r\n";
	struct httpstream hs;
	struct strbuf out = STRBUF_INIT;
	int heads = 0;

	assert_int_equal(feed(in, sizeof(in) - 1, 7, &heads, &out, &hs), 0);
	assert_int_equal(heads, 1);
	assert_int_equal(hs.st, HS_RAW);
	assert_int_equal(out.len, sizeof(in) - 1 + 3);
	httpstream_release(&hs);
	strbuf_release(&out);
}

/* a large body streams: it is never held, only passed on */
static void test_large_body_streams(void **state)
{
	struct httpstream hs;
	struct strbuf out = STRBUF_INIT;
	char chunk[65536];
	int heads = 0;
	static const char head[] =
		"PUT /big HTTP/1.1\r\nContent-Length: 10485760\r\n\r\n";

	memset(chunk, 'z', sizeof(chunk));
	httpstream_init(&hs, mark, &heads);
	assert_int_equal(httpstream_feed(&hs, head, sizeof(head) - 1, &out), 0);
	for (int i = 0; i < 160; i++) {
		strbuf_reset(&out);
		assert_int_equal(
			httpstream_feed(&hs, chunk, sizeof(chunk), &out), 0);
		assert_int_equal(out.len, sizeof(chunk));
		assert_true(hs.buf.alloc < 2 * PROXYREQ_HEAD_MAX);
	}
	assert_int_equal(hs.st, HS_HEAD);
	httpstream_release(&hs);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keepalive_any_split),
		cmocka_unit_test(test_smuggling_refused),
		cmocka_unit_test(test_long_head),
		cmocka_unit_test(test_upgrade_raw),
		cmocka_unit_test(test_large_body_streams),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
