/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fs+api proxy's request parser (agents/proxyreq.h) with well-formed
 * and hostile heads.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "agents/proxyreq.h"

static enum proxyreq_result parse(const char *s, size_t n, struct proxyreq *rq)
{
	proxyreq_release(rq);
	strbuf_init(&rq->fwd, 0);
	strbuf_init(&rq->why, 0);
	memset(&rq->target, 0, sizeof(rq->target));
	rq->status = 0;
	return proxyreq_parse(s, n, rq);
}

#define PARSE(s, rq) parse((s), sizeof(s) - 1, (rq))

static void test_connect(void **state)
{
	struct proxyreq rq = PROXYREQ_INIT;
	static const char head[] =
		"CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\nTLS";

	(void)state;
	assert_int_equal(PARSE(head, &rq), PROXYREQ_OK);
	assert_true(rq.connect);
	assert_string_equal(rq.target.host, "api.example.com");
	assert_int_equal(rq.target.port, 443);
	assert_int_equal(rq.head_len, sizeof(head) - 1 - 3); /* TLS follows */
	/* CONNECT needs a port, a good one */
	assert_int_equal(PARSE("CONNECT h HTTP/1.1\r\nHost: h\r\n\r\n", &rq),
			 PROXYREQ_BAD);
	assert_int_equal(rq.status, 400);
	assert_non_null(strstr(rq.why.buf, "bad port"));
	assert_int_equal(PARSE("CONNECT h:0 HTTP/1.1\r\nHost: h\r\n\r\n", &rq),
			 PROXYREQ_BAD);
	assert_int_equal(
		PARSE("CONNECT h:70000 HTTP/1.1\r\nHost: h\r\n\r\n", &rq),
		PROXYREQ_BAD);
	assert_int_equal(PARSE("CONNECT h:-1 HTTP/1.1\r\nHost: h\r\n\r\n", &rq),
			 PROXYREQ_BAD);
	proxyreq_release(&rq);
}

static void test_plain_http(void **state)
{
	struct proxyreq rq = PROXYREQ_INIT;

	(void)state;
	assert_int_equal(
		PARSE("GET http://H.example:8080/p?q=1 HTTP/1.1\r\n"
		      "Host: evil.example\r\nProxy-Authorization: x\r\n"
		      "Connection: keep-alive\r\nAccept: */*\r\n\r\n",
		      &rq),
		PROXYREQ_OK);
	assert_false(rq.connect);
	assert_string_equal(rq.target.host, "h.example");
	assert_int_equal(rq.target.port, 8080);
	/* the Host the server sees is the one allowed; one request only */
	assert_string_equal(
		rq.fwd.buf,
		"GET /p?q=1 HTTP/1.1\r\nAccept: */*\r\n"
		"Host: h.example:8080\r\nConnection: close\r\n\r\n");
	assert_int_equal(PARSE("GET http://h.example HTTP/1.0\r\n\r\n", &rq),
			 PROXYREQ_OK);
	assert_int_equal(rq.target.port, 80);
	assert_string_equal(rq.fwd.buf, "GET / HTTP/1.1\r\nHost: h.example\r\n"
					"Connection: close\r\n\r\n");
	proxyreq_release(&rq);
}

static void expect_bad(const char *s, size_t n, int status, const char *why)
{
	struct proxyreq rq = PROXYREQ_INIT;

	assert_int_equal(parse(s, n, &rq), PROXYREQ_BAD);
	assert_int_equal(rq.status, status);
	if (!strstr(rq.why.buf, why))
		fail_msg("'%s' lacks '%s'", rq.why.buf, why);
	proxyreq_release(&rq);
}

#define BAD(s, status, why) expect_bad((s), sizeof(s) - 1, (status), (why))

static void test_hostile(void **state)
{
	(void)state;
	BAD("GET /origin HTTP/1.1\r\nHost: h\r\n\r\n", 400,
	    "not a proxy request");
	BAD("GET http://h/ HTTP/1.1\r\n\r\n", 400, "without a Host");
	BAD("GET https://h/ HTTP/1.1\r\nHost: h\r\n\r\n", 400, "CONNECT");
	BAD("GET http://u:p@h/ HTTP/1.1\r\nHost: h\r\n\r\n", 400,
	    "user information");
	BAD("GET http://h/ HTTP/2\r\nHost: h\r\n\r\n", 400,
	    "HTTP/1.0 and HTTP/1.1");
	BAD("G(T http://h/ HTTP/1.1\r\nHost: h\r\n\r\n", 400,
	    "malformed request line");
	BAD("GET\r\n\r\n", 400, "malformed request line");
	BAD("GET http://h/ HTTP/1.1\r\nHost h\r\n\r\n", 400,
	    "malformed header");
	BAD("GET http://h/ HTTP/1.1\r\nHost: h\r\nX: a\x01\r\n\r\n", 400,
	    "control character");
	BAD("GET http://h\0x/ HTTP/1.1\r\nHost: h\r\n\r\n", 400, "NUL");
	BAD("CONNECT a\0b:443 HTTP/1.1\r\n", 400, "NUL");
	BAD("GET http://2130706433/ HTTP/1.1\r\nHost: h\r\n\r\n", 400,
	    "dotted-quad");
	BAD("CONNECT a b:443 HTTP/1.1\r\nHost: h\r\n\r\n", 400, "HTTP/1.0");
}

static void test_limits(void **state)
{
	struct proxyreq rq = PROXYREQ_INIT;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	/* an incomplete head asks for more */
	assert_int_equal(PARSE("CONNECT h:443 HTTP/1.1\r\nHost: h\r\n", &rq),
			 PROXYREQ_MORE);
	/* an over-long line is refused before the head ends */
	strbuf_addstr(&sb, "GET http://h/");
	while (sb.len <= PROXYREQ_LINE_MAX)
		strbuf_addch(&sb, 'a');
	assert_int_equal(parse(sb.buf, sb.len, &rq), PROXYREQ_BAD);
	assert_int_equal(rq.status, 431);
	/* so is a head that never ends */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "GET http://h/ HTTP/1.1\r\n");
	while (sb.len < PROXYREQ_HEAD_MAX)
		strbuf_addstr(&sb, "X-A: b\r\n");
	assert_int_equal(parse(sb.buf, sb.len, &rq), PROXYREQ_BAD);
	assert_int_equal(rq.status, 431);
	/* and an over-long header line in a complete head */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "GET http://h/ HTTP/1.1\r\nHost: h\r\nX: ");
	while (sb.len <= PROXYREQ_LINE_MAX + 40)
		strbuf_addch(&sb, 'a');
	strbuf_addstr(&sb, "\r\n\r\n");
	assert_int_equal(parse(sb.buf, sb.len, &rq), PROXYREQ_BAD);
	assert_int_equal(rq.status, 431);
	strbuf_release(&sb);
	proxyreq_release(&rq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connect),
		cmocka_unit_test(test_plain_http),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
