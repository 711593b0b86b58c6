/* SPDX-License-Identifier: Apache-2.0 */
/* fleet/audit: parsing, filtering and the --since/--until times. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "fleet/audit.h"

static void test_times(void **state)
{
	struct timespec ts;

	assert_int_equal(audit_parse_time("10m", 100000, &ts), 0);
	assert_int_equal(ts.tv_sec, 100000 - 600);
	assert_int_equal(audit_parse_time("2h", 100000, &ts), 0);
	assert_int_equal(ts.tv_sec, 100000 - 7200);
	assert_int_equal(audit_parse_time("3d", 1000000, &ts), 0);
	assert_int_equal(ts.tv_sec, 1000000 - 3 * 86400);
	assert_int_equal(audit_parse_time("30s", 100, &ts), 0);
	assert_int_equal(ts.tv_sec, 70);
	assert_int_equal(audit_parse_time("2026-11-29T21:07:02Z", 0, &ts), 0);
	assert_int_equal(ts.tv_sec, 1795986422);
	assert_int_equal(audit_parse_time("2026-11-29T22:07:02+01:00", 0, &ts), 0);
	assert_int_equal(ts.tv_sec, 1795986422);
	assert_int_equal(audit_parse_time("10", 0, &ts), -1);
	assert_int_equal(audit_parse_time("m", 0, &ts), -1);
	assert_int_equal(audit_parse_time("-5m", 0, &ts), -1);
	assert_int_equal(audit_parse_time("5y", 0, &ts), -1);
	assert_int_equal(audit_parse_time("", 0, &ts), -1);
	assert_int_equal(audit_parse_time("yesterday", 0, &ts), -1);
}

static void test_parse(void **state)
{
	struct audit_record r;
	const char *good = "{\"kind\":\"git_event\",\"event\":\"deny\",\"disposition\":\"deny\","
			   "\"agent\":\"ag1\",\"subcommand\":\"checkout\","
			   "\"timestamp\":\"2026-11-29T21:07:02.451102208+00:00\",\"reason\":\"no\"}";
	static const char *const bad[] = { "", "garbage", "[1,2]", "{\"event\":3}",
					   "{\"agent\":\"x\"}", "{\"event\":\"a\"", "null" };

	assert_int_equal(audit_record_parse(good, strlen(good), &r), 0);
	assert_string_equal(r.event, "deny");
	assert_string_equal(r.agent, "ag1");
	assert_true(r.ts_ok);
	assert_int_equal(r.ts.tv_sec, 1795986422);
	assert_int_equal(r.ts.tv_nsec, 451102208);
	audit_record_release(&r);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(audit_record_parse(bad[i], strlen(bad[i]), &r), -1);
	/* minimal record: missing fields read as "" */
	assert_int_equal(audit_record_parse("{\"event\":\"x\"}", 13, &r), 0);
	assert_string_equal(r.agent, "");
	assert_false(r.ts_ok);
	audit_record_release(&r);
}

static void test_match(void **state)
{
	struct audit_record r;
	struct audit_filter f = { 0 };
	const char *line = "{\"event\":\"ref_update\",\"disposition\":\"info\",\"agent\":\"ag1\","
			   "\"timestamp\":\"2026-11-29T21:07:02Z\",\"ref\":\"refs/heads/x\",\"old\":\"a\",\"new\":\"b\"}";
	struct strbuf d = STRBUF_INIT;

	assert_int_equal(audit_record_parse(line, strlen(line), &r), 0);
	assert_true(audit_match(&f, &r));
	f.agent = "ag2";
	assert_false(audit_match(&f, &r));
	f.agent = "ag1";
	f.event = "deny,ref_update";
	assert_true(audit_match(&f, &r));
	f.event = "ref_updat";
	assert_false(audit_match(&f, &r));
	f.event = NULL;
	f.disposition = "warn,deny";
	assert_false(audit_match(&f, &r));
	f.disposition = "info";
	f.has_since = true;
	f.since.tv_sec = 1795986422;
	assert_true(audit_match(&f, &r));
	f.since.tv_sec++;
	assert_false(audit_match(&f, &r));
	f.has_since = false;
	f.has_until = true;
	f.until.tv_sec = 1795986421;
	assert_false(audit_match(&f, &r));
	audit_detail(&r, &d);
	assert_string_equal(d.buf, "refs/heads/x a -> b");
	strbuf_release(&d);
	audit_record_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_match),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
