/* SPDX-License-Identifier: Apache-2.0 */
/* agents/secrets.h: placeholders, the table and the head rewrite. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "agents/secrets.h"

#define VALUE "sk-real-0123456789"
#define OTHER "tok-other-abc"

static void table(struct secret_table *t, struct strbuf *ph, struct strbuf *ph2)
{
	static const char *const h1[] = { "api.example.com", "127.0.0.1:8443" };
	static const char *const h2[] = { "*.other.com" };
	unsigned char r1[16] = { 1, 2, 3 }, r2[16] = { 9 };

	secret_placeholder("KEY", r1, ph);
	secret_placeholder("TOK", r2, ph2);
	assert_int_equal(secret_table_add(t, "KEY", ph->buf, VALUE, h1, 2), 0);
	assert_int_equal(secret_table_add(t, "TOK", ph2->buf, OTHER, h2, 1), 0);
}

static void target(const char *host, unsigned port, struct allowhost_target *t)
{
	assert_int_equal(allowhost_target(host, strlen(host), port, t, NULL),
			 0);
}

static void test_placeholder(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char r[16];

	for (size_t i = 0; i < 16; i++)
		r[i] = (unsigned char)(0xf0 + i);
	secret_placeholder("ANTHROPIC_API_KEY", r, &sb);
	assert_string_equal(
		sb.buf,
		"agentic-git-secret-ANTHROPIC_API_KEY-f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
	strbuf_release(&sb);
}

/* invariant 3 */
static void test_value_ok(void **state)
{
	assert_true(secret_value_ok("abc\tdef ghi", 11));
	assert_false(secret_value_ok("", 0));
	assert_false(secret_value_ok("a\r\nX-Evil: 1", 12));
	assert_false(secret_value_ok("a\nb", 3));
	assert_false(secret_value_ok("a\x7f", 2));
	assert_false(secret_value_ok("a\x01", 2));
	{
		struct secret_table t = SECRET_TABLE_INIT;
		static const char *const h[] = { "h.example" };
		assert_int_equal(secret_table_add(&t, "K", SECRET_PREFIX "K-0",
						  "a\r\nb", h, 1),
				 -1);
		assert_int_equal(secret_table_add(&t, "K", SECRET_PREFIX "K-0",
						  "ok", h, 0),
				 -1);
		secret_table_wipe(&t);
	}
}

/* invariants 1 and 2 */
static void test_rewrite(void **state)
{
	struct secret_table t = SECRET_TABLE_INIT;
	struct strbuf ph = STRBUF_INIT, ph2 = STRBUF_INIT, in = STRBUF_INIT,
		      out = STRBUF_INIT, want = STRBUF_INIT;
	struct strvec used = STRVEC_INIT;
	struct allowhost_target api, other, sub, elsewhere;

	table(&t, &ph, &ph2);
	target("api.example.com", 443, &api);
	target("x.other.com", 443, &sub);
	target("other.com", 443, &other);
	target("api.example.com", 8443, &elsewhere);
	strbuf_addf(&in,
		    "GET /v1/%s HTTP/1.1\r\nHost: api.example.com\r\n"
		    "x-api-key: %s\r\nAuthorization: Bearer %s\r\n"
		    "%s: name\r\nX-Both: %s,%s\r\n\r\n",
		    ph.buf, ph.buf, ph.buf, ph.buf, ph.buf, ph2.buf);
	assert_int_equal(
		secret_rewrite_head(&t, &api, in.buf, in.len, &out, &used), 3);
	strbuf_addf(&want,
		    "GET /v1/%s HTTP/1.1\r\nHost: api.example.com\r\n"
		    "x-api-key: " VALUE "\r\nAuthorization: Bearer " VALUE
		    "\r\n%s: name\r\nX-Both: " VALUE ",%s\r\n\r\n",
		    ph.buf, ph.buf, ph2.buf);
	assert_string_equal(out.buf, want.buf);
	assert_int_equal(used.nr, 1);
	assert_string_equal(used.v[0], "KEY");
	/* another host, or another port: byte for byte as it was */
	strbuf_reset(&out);
	assert_int_equal(
		secret_rewrite_head(&t, &other, in.buf, in.len, &out, NULL), 0);
	assert_string_equal(out.buf, in.buf);
	strbuf_reset(&out);
	assert_int_equal(
		secret_rewrite_head(&t, &elsewhere, in.buf, in.len, &out, NULL),
		0);
	assert_string_equal(out.buf, in.buf);
	/* a wildcard host: only its own secret */
	strbuf_reset(&out);
	assert_int_equal(
		secret_rewrite_head(&t, &sub, in.buf, in.len, &out, NULL), 1);
	assert_non_null(strstr(out.buf, OTHER));
	assert_null(strstr(out.buf, VALUE));
	assert_true(secret_table_for(&t, &api));
	assert_false(secret_table_for(&t, &other));
	strvec_clear(&used);
	strbuf_release(&in);
	strbuf_release(&out);
	strbuf_release(&want);
	strbuf_release(&ph);
	strbuf_release(&ph2);
	secret_table_wipe(&t);
	assert_int_equal(t.nr, 0);
}

/* invariant 1 over generated heads: for a target no secret is for, the
 * output is the input; for one that is, the value appears only where a
 * placeholder stood in a header value */
static void test_rewrite_generated(void **state)
{
	static const char *const parts[] = { "a",   ": ", "\r\n",
					     "x-k", " ",  "Bearer ",
					     ",",   "/",  "PH" };
	struct secret_table t = SECRET_TABLE_INIT;
	struct strbuf ph = STRBUF_INIT, ph2 = STRBUF_INIT;
	struct allowhost_target api, other;
	unsigned seed = 38;

	table(&t, &ph, &ph2);
	target("api.example.com", 443, &api);
	target("nothing.example.org", 443, &other);
	for (int round = 0; round < 2000; round++) {
		struct strbuf in = STRBUF_INIT, out = STRBUF_INIT,
			      back = STRBUF_INIT;
		int n = 1 + (int)(rand_r(&seed) % 24);

		strbuf_addstr(&in, "GET / HTTP/1.1\r\n");
		for (int i = 0; i < n; i++) {
			const char *p =
				parts[rand_r(&seed) % ARRAY_SIZE(parts)];
			strbuf_addstr(&in, strcmp(p, "PH") ? p : ph.buf);
		}
		strbuf_addstr(&in, "\r\n\r\n");
		secret_rewrite_head(&t, &other, in.buf, in.len, &out, NULL);
		assert_int_equal(out.len, in.len);
		assert_memory_equal(out.buf, in.buf, in.len);
		strbuf_reset(&out);
		secret_rewrite_head(&t, &api, in.buf, in.len, &out, NULL);
		/* putting the placeholders back gives the input again */
		for (const char *p = out.buf; *p;) {
			const char *hit = strstr(p, VALUE);
			if (!hit) {
				strbuf_addstr(&back, p);
				break;
			}
			strbuf_add(&back, p, (size_t)(hit - p));
			strbuf_addbuf(&back, &ph);
			p = hit + strlen(VALUE);
		}
		assert_string_equal(back.buf, in.buf);
		/* the request line never changes */
		assert_memory_equal(out.buf, "GET / HTTP/1.1\r\n", 16);
		strbuf_release(&in);
		strbuf_release(&out);
		strbuf_release(&back);
	}
	strbuf_release(&ph);
	strbuf_release(&ph2);
	secret_table_wipe(&t);
}

static void test_encode_decode(void **state)
{
	struct secret_table t = SECRET_TABLE_INIT, d = SECRET_TABLE_INIT;
	struct strbuf ph = STRBUF_INIT, ph2 = STRBUF_INIT, blob = STRBUF_INIT,
		      err = STRBUF_INIT;

	table(&t, &ph, &ph2);
	secret_table_encode(&t, &blob);
	assert_int_equal(secret_table_decode(blob.buf, blob.len, &d, &err), 0);
	assert_int_equal(d.nr, 2);
	assert_string_equal(d.v[0].value, VALUE);
	assert_string_equal(d.v[0].placeholder, ph.buf);
	assert_int_equal(d.v[0].hosts.nr, 2);
	assert_string_equal(d.v[0].hosts.v[1], "127.0.0.1:8443");
	assert_string_equal(d.v[1].hosts.v[0], "*.other.com");
	secret_table_wipe(&d);
	/* truncated, or a bad host: refused */
	assert_int_equal(secret_table_decode(blob.buf, blob.len - 1, &d, &err),
			 -1);
	secret_table_wipe(&d);
	strbuf_reset(&blob);
	strbuf_add(&blob, "K\0" SECRET_PREFIX "K-1\0bad host\0v\0", 32);
	assert_int_equal(secret_table_decode(blob.buf, blob.len, &d, &err), -1);
	secret_table_wipe(&d);
	/* a placeholder that is not one */
	strbuf_reset(&blob);
	strbuf_add(&blob, "K\0Bearer\0h.example\0v\0", 21);
	assert_int_equal(secret_table_decode(blob.buf, blob.len, &d, &err), -1);
	secret_table_wipe(&d);
	strbuf_wipe(&blob);
	strbuf_release(&err);
	strbuf_release(&ph);
	strbuf_release(&ph2);
	secret_table_wipe(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_placeholder),
		cmocka_unit_test(test_value_ok),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_rewrite_generated),
		cmocka_unit_test(test_encode_decode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
