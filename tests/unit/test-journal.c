/* SPDX-License-Identifier: Apache-2.0 */
/* fleet/journal: walking the audit log, bounded, by agent. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "fleet/journal.h"
#include "unit-tmpdir.h"

static char home[64];

static int setup(void **state)
{
	(void)state;
	return unit_tmpdir_make(home, sizeof(home), "journal");
}

static int teardown(void **state)
{
	(void)state;
	return unit_tmpdir_remove(home);
}

static void write_log(const struct strbuf *data)
{
	char *p = xstrfmt("%s/fleet_events.jsonl", home);

	assert_int_equal(write_file_atomic(p, data->buf, data->len, 0600), 0);
	free(p);
}

struct seen {
	struct strbuf events;
	int stop_at; /* return 1 on this call (1-based), 0: never */
	int calls;
};

static int collect(const struct audit_record *r, void *data)
{
	struct seen *s = data;

	strbuf_addf(&s->events, "%s%s", s->events.len ? "," : "", r->event);
	return ++s->calls == s->stop_at;
}

#define REC(ev, agent)                                  \
	"{\"kind\":\"git_event\",\"event\":\"" ev       \
	"\",\"disposition\":\"info\","                  \
	"\"agent\":\"" agent "\",\"subcommand\":\"x\"," \
	"\"timestamp\":\"2026-11-29T21:07:02Z\"}\n"

static void test_walk(void **state)
{
	struct strbuf log = STRBUF_INIT;
	struct seen s = { STRBUF_INIT, 0, 0 };

	(void)state;
	/* no log at all is no records */
	assert_int_equal(journal_each(home, NULL, collect, &s), 0);
	assert_int_equal(s.calls, 0);

	strbuf_addstr(&log, REC("one", "a1"));
	strbuf_addstr(&log, "not json\n\n");
	strbuf_addstr(&log, REC("two", "b2"));
	/* a1 only in another field: the byte test passes, the field does not */
	strbuf_addstr(
		&log,
		"{\"event\":\"three\",\"agent\":\"b2\",\"note\":\"a1\"}\n");
	/* an overlong line is skipped whole, the next one still read */
	strbuf_addstr(&log, "{\"event\":\"big\",\"agent\":\"a1\",\"pad\":\"");
	for (size_t i = 0; i < JOURNAL_LINE_MAX; i++)
		strbuf_addch(&log, 'x');
	strbuf_addstr(&log, "\"}\n");
	strbuf_addstr(&log, REC("four", "a1"));
	/* the last line may lack its newline */
	strbuf_addstr(&log, REC("five", "a1"));
	strbuf_setlen(&log, log.len - 1);
	write_log(&log);

	assert_int_equal(journal_each(home, "a1", collect, &s), 0);
	assert_string_equal(s.events.buf, "one,four,five");

	strbuf_reset(&s.events);
	s.calls = 0;
	assert_int_equal(journal_each(home, NULL, collect, &s), 0);
	assert_string_equal(s.events.buf, "one,two,three,four,five");

	/* a callback's non-zero value stops the walk and is returned */
	strbuf_reset(&s.events);
	s.calls = 0;
	s.stop_at = 2;
	assert_int_equal(journal_each(home, NULL, collect, &s), 1);
	assert_string_equal(s.events.buf, "one,two");
	strbuf_release(&s.events);
	strbuf_release(&log);
}

static void test_not_a_file(void **state)
{
	char *p = xstrfmt("%s/fleet_events.jsonl", home);
	struct seen s = { STRBUF_INIT, 0, 0 };

	(void)state;
	unlink(p);
	assert_int_equal(symlink("/etc/passwd", p), 0);
	/* never followed: an error, no record */
	assert_int_equal(journal_each(home, NULL, collect, &s), -1);
	assert_int_equal(s.calls, 0);
	unlink(p);
	free(p);
	strbuf_release(&s.events);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_not_a_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
