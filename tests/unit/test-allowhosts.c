/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fs+api allow-list (agents/allowhosts.h). Numbers in comments are
 * its invariants.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "agents/allowhosts.h"

static const char *const list[] = {
	"api.example.com",    "Other.Example.org:8443", "*.cdn.example.net",
	"*.plain.example:80", "127.0.0.1:8080",		"[::1]:9000",
};

static bool allowed(const char *authority, unsigned def)
{
	struct allowhost_target t;

	if (allowhost_authority(authority, strlen(authority), false, def, &t,
				NULL) < 0)
		return false;
	return allowhosts_match(list, ARRAY_SIZE(list), &t);
}

static void test_names_and_ports(void **state)
{
	(void)state;
	assert_true(allowed("api.example.com:443", 0));
	assert_true(allowed("api.example.com", 443));	 /* 443 by default */
	assert_true(allowed("API.Example.COM.:443", 0)); /* 1: normalised */
	assert_false(allowed("api.example.com:80", 0));	 /* 1: exact port */
	assert_false(allowed("api.example.com.evil.test:443", 0));
	assert_false(allowed("xapi.example.com:443", 0));
	assert_true(allowed("other.example.org:8443", 0));
	assert_false(allowed("other.example.org:443", 0));
}

static void test_wildcards(void **state)
{
	(void)state;
	assert_true(allowed("a.cdn.example.net:443", 0));
	assert_true(allowed("a.b.cdn.example.net:443", 0));
	assert_false(allowed("cdn.example.net:443", 0)); /* not the domain */
	assert_false(allowed("evilcdn.example.net:443", 0));
	assert_false(allowed("a.cdn.example.net:80", 0));
	assert_true(allowed("x.plain.example:80", 0));
}

static void test_addresses(void **state)
{
	(void)state;
	assert_true(allowed("127.0.0.1:8080", 0));
	assert_false(allowed("127.0.0.2:8080", 0));
	assert_false(allowed("127.0.0.1:8081", 0));
	assert_true(allowed("[::1]:9000", 0));
	assert_true(allowed("[0:0::1]:9000", 0)); /* 2: compared as bytes */
	assert_false(allowed("[::2]:9000", 0));
	/* 3: inet_aton forms are no names and no addresses */
	assert_false(allowed("2130706433:8080", 0));
	assert_false(allowed("0x7f.1:8080", 0));
	assert_false(allowed("127.1:8080", 0));
}

static void test_bad_targets(void **state)
{
	struct allowhost_target t;
	struct strbuf err = STRBUF_INIT;
	static const char *const bad[] = {
		"",
		":443",
		"a..b:443",
		".a:443",
		"a b:443",
		"a%2e:443",
		"user@host:443",
		"host:0",
		"host:65536",
		"host:44x",
		"host:",
		"[::1",
		"[::1]x",
		"[zz]:443",
		"1.2.3.999:443",
		/* fuzz-proxyreq: one trailing dot is dropped, two are an error */
		"127.001..:80",
		"a.b..:443",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		strbuf_reset(&err);
		assert_int_equal(allowhost_authority(bad[i], strlen(bad[i]),
						     false, 443, &t, &err),
				 -1);
		assert_true(err.len > 0);
	}
	/* 4: a NUL inside the host */
	assert_int_equal(
		allowhost_authority("a\0b:443", 7, false, 443, &t, NULL), -1);
	/* a CONNECT authority needs its port */
	assert_int_equal(allowhost_authority("host", 4, true, 0, &t, NULL), -1);
	strbuf_release(&err);
}

static void test_entries(void **state)
{
	struct strbuf err = STRBUF_INIT;
	static const char *const good[] = {
		"api.anthropic.com",   "h:1",	       "*.example.com",
		"*.example.com:80",    "10.0.0.1:443", "[2001:db8::1]:443",
		"under_score.example",
	};
	static const char *const bad[] = {
		"*",   "*.",	   "*.10.0.0.1", "a.*.com", "*example.com",
		"h:0", "bad host", "http://h",	 "h/path",  "*.[::1]",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		assert_int_equal(allowhost_check(good[i], &err), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		strbuf_reset(&err);
		assert_int_equal(allowhost_check(bad[i], &err), -1);
		assert_true(err.len > 0);
	}
	strbuf_release(&err);
}

static void test_format(void **state)
{
	struct allowhost_target t;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(allowhost_authority("[::1]:80", 8, true, 0, &t, NULL),
			 0);
	allowhost_format(&t, &sb);
	assert_string_equal(sb.buf, "[::1]:80");
	strbuf_reset(&sb);
	assert_int_equal(allowhost_authority("A.b:7", 5, true, 0, &t, NULL), 0);
	allowhost_format(&t, &sb);
	assert_string_equal(sb.buf, "a.b:7");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_ports),
		cmocka_unit_test(test_wildcards),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_bad_targets),
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
