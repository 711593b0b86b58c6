/* SPDX-License-Identifier: Apache-2.0 */
/* The sandbox event spool: the shim's fallback and the vetted import. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/strbuf.h"
#include "fleet/spool.h"

static char dir[64];
static char logp[128], spoolp[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ag-spool-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(logp, sizeof(logp), "%s/fleet_events.jsonl", dir);
	snprintf(spoolp, sizeof(spoolp), "%s/%s", dir, SPOOL_NAME);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unsetenv(EVENTS_SPOOL_ENV);
	unlink(logp);
	unlink(spoolp);
	rmdir(dir);
	return 0;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* the log's lines as JSON objects; returns how many */
static size_t read_log(json_t **v, size_t max)
{
	struct strbuf b = STRBUF_INIT;
	size_t n = 0;
	char *save = NULL;

	if (read_file_bounded(logp, 1 << 20, RF_REGULAR, &b) < 0) {
		strbuf_release(&b);
		return 0;
	}
	for (char *l = strtok_r(b.buf, "\n", &save); l && n < max;
	     l = strtok_r(NULL, "\n", &save)) {
		v[n] = json_loads(l, 0, NULL);
		assert_non_null(v[n]);
		n++;
	}
	strbuf_release(&b);
	return n;
}

static const char *field(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static void test_write_falls_back_to_the_spool_without_a_log(void **state)
{
	struct event ev = EVENT_INIT("deny", "ag1", "checkout");
	struct stat st;

	(void)state;
	assert_int_equal(spool_create(spoolp), 0);
	setenv(EVENTS_SPOOL_ENV, spoolp, 1);
	assert_int_equal(event_write(dir, &ev), 0);
	/* the log was not created; the record is in the spool */
	assert_int_equal(stat(logp, &st), -1);
	assert_int_equal(stat(spoolp, &st), 0);
	assert_true(st.st_size > 0);
	/* a writable log wins over the spool */
	unlink(spoolp);
	assert_int_equal(spool_create(spoolp), 0);
	put(logp, "");
	assert_int_equal(event_write(dir, &ev), 0);
	assert_int_equal(stat(spoolp, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(stat(logp, &st), 0);
	assert_true(st.st_size > 0);
	event_release(&ev);
}

static void test_without_a_spool_the_log_is_created(void **state)
{
	struct event ev = EVENT_INIT("deny", "ag1", "checkout");
	struct stat st;

	(void)state;
	setenv(EVENTS_SPOOL_ENV, "relative/spool", 1); /* not absolute: ignored */
	assert_int_equal(event_write(dir, &ev), 0);
	assert_int_equal(stat(logp, &st), 0);
	event_release(&ev);
}

static void test_import_vets_every_line(void **state)
{
	json_t *v[8] = { 0 };
	size_t rejected = 99, n;

	(void)state;
	assert_int_equal(spool_create(spoolp), 0);
	put(spoolp,
	    "{\"kind\":\"git_event\",\"event\":\"deny\",\"disposition\":\"deny\",\"agent\":\"ag1\",\"subcommand\":\"checkout\",\"timestamp\":\"2026-01-01T00:00:00Z\"}\n"
	    "not json at all\n"
	    "[1,2,3]\n"
	    "{\"event\":42,\"timestamp\":\"t\"}\n"
	    "{\"event\":\"deny\"}\n"
	    "\n"
	    "{\"kind\":\"x\",\"event\":\"deny\",\"disposition\":\"info\",\"agent\":\"other\",\"via\":\"host\",\"timestamp\":\"2026-01-01T00:00:01Z\"}\n"
	    "{\"event\":\"ref_update\",\"timestamp\":\"2026-01-01T00:00:02Z\"}");
	assert_int_equal(spool_import(dir, spoolp, "ag1", NULL, &rejected), 3);
	assert_int_equal(rejected, 4);
	assert_int_equal(access(spoolp, F_OK), -1); /* removed */
	n = read_log(v, 8);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(field(v[i], "agent"), "ag1");
		assert_string_equal(field(v[i], "via"), "sandbox");
		assert_string_equal(field(v[i], "kind"), "git_event");
	}
	/* a forged agent is kept as a claim; a downgraded deny is a deny */
	assert_string_equal(field(v[1], "claimed_agent"), "other");
	assert_string_equal(field(v[1], "disposition"), "deny");
	assert_null(json_object_get(v[0], "claimed_agent"));
	assert_string_equal(field(v[2], "disposition"), "info");
	for (size_t i = 0; i < n; i++)
		json_decref(v[i]);
}

/* 5: a journal record's worktree is the session's */
static void test_import_binds_the_worktree(void **state)
{
	json_t *v[4] = { 0 };
	size_t rejected = 0, n;

	(void)state;
	assert_int_equal(spool_create(spoolp), 0);
	put(spoolp,
	    "{\"event\":\"ref_update\",\"worktree\":\"/srv/other/wt\",\"timestamp\":\"t\"}\n"
	    "{\"event\":\"ref_update\",\"worktree\":\"/ws/a1\",\"timestamp\":\"t\"}\n"
	    "{\"event\":\"deny\",\"timestamp\":\"t\"}\n"
	    "{\"event\":\"snapshot\",\"worktree\":7,\"timestamp\":\"t\"}\n");
	assert_int_equal(spool_import(dir, spoolp, "ag1", "/ws/a1", &rejected),
			 4);
	n = read_log(v, 4);
	assert_int_equal(n, 4);
	assert_string_equal(field(v[0], "worktree"), "/ws/a1");
	assert_string_equal(field(v[0], "claimed_worktree"), "/srv/other/wt");
	assert_string_equal(field(v[1], "worktree"), "/ws/a1");
	assert_null(json_object_get(v[1], "claimed_worktree"));
	assert_null(json_object_get(v[2], "worktree"));
	assert_string_equal(field(v[3], "worktree"), "/ws/a1");
	assert_true(json_is_integer(json_object_get(v[3], "claimed_worktree")));
	for (size_t i = 0; i < n; i++)
		json_decref(v[i]);
}

static void test_import_refuses_links_and_oversize(void **state)
{
	size_t rejected = 0;
	char target[160];
	FILE *f;

	(void)state;
	/* a missing spool imports nothing */
	assert_int_equal(spool_import(dir, spoolp, "ag1", NULL, &rejected), 0);
	assert_int_equal(rejected, 0);
	/* a symlink is not followed */
	snprintf(target, sizeof(target), "%s/target", dir);
	put(target, "{\"event\":\"deny\",\"timestamp\":\"t\"}\n");
	assert_int_equal(symlink(target, spoolp), 0);
	assert_int_equal(spool_import(dir, spoolp, "ag1", NULL, &rejected), -1);
	assert_int_equal(access(logp, F_OK), -1);
	unlink(target);
	/* larger than SPOOL_MAX: rejected whole, removed */
	f = fopen(spoolp, "w");
	assert_non_null(f);
	assert_int_equal(fseek(f, SPOOL_MAX + 1, SEEK_SET), 0);
	fputc('\n', f);
	fclose(f);
	assert_int_equal(spool_import(dir, spoolp, "ag1", NULL, &rejected), -1);
	assert_int_equal(rejected, 1);
	assert_int_equal(access(spoolp, F_OK), -1);
	assert_int_equal(access(logp, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_import_binds_the_worktree,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_write_falls_back_to_the_spool_without_a_log, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_without_a_spool_the_log_is_created, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_import_vets_every_line,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_import_refuses_links_and_oversize, setup,
			teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
