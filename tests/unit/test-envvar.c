/* SPDX-License-Identifier: Apache-2.0 */
/* The AGENTIC_GIT_* contract: the primary name wins when set (even to ""),
 * the legacy AGEND_* name only when the primary is unset; read in one pass
 * over the environment, with getenv(3)'s answer. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "base/envvar.h"

extern char **environ;

/* runs with exactly `env` as the environment */
static char **saved;
static void with_env(const char **env)
{
	if (!saved)
		saved = environ;
	environ = (char **)env;
}
static void restore_env(void)
{
	environ = saved;
	saved = NULL;
}

static void test_primary_wins(void **state)
{
	const char *both[] = { "AGEND_HOME=/legacy",
			       "AGENTIC_GIT_HOME=/primary", NULL };
	const char *empty[] = { "AGENTIC_GIT_HOME=", "AGEND_HOME=/legacy",
				NULL };
	const char *legacy[] = { "PATH=/bin", "AGEND_HOME=/legacy", NULL };
	const char *none[] = { "PATH=/bin", "HOME=/h", NULL };

	(void)state;
	with_env(both);
	assert_string_equal(ag_getenv(AGE_HOME), "/primary");
	with_env(empty);
	assert_string_equal(ag_getenv(AGE_HOME), "");
	with_env(legacy);
	assert_string_equal(ag_getenv(AGE_HOME), "/legacy");
	with_env(none);
	assert_null(ag_getenv(AGE_HOME));
	assert_string_equal(ag_getenv_str(AGE_HOME), "");
	restore_env();
}

static void test_names_exactly(void **state)
{
	/* a longer name, a shorter one, no '=', an empty entry: none matches */
	const char *odd[] = { "AGENTIC_GIT_HOMEX=/x",
			      "AGENTIC_GIT_HOM=/y",
			      "AGENTIC_GIT_HOME",
			      "",
			      "AG",
			      "A",
			      NULL };
	/* the first entry of a name counts, as with getenv(3) */
	const char *twice[] = { "AGENTIC_GIT_AGENT=one",
				"AGENTIC_GIT_AGENT=two",
				"AGEND_INSTANCE_NAME=legacy", NULL };
	const char *other[] = { "AGENTIC_GIT_AGENT=a", "AGENTIC_GIT_BYPASS=1",
				NULL };

	(void)state;
	with_env(odd);
	assert_null(ag_getenv(AGE_HOME));
	with_env(twice);
	assert_string_equal(ag_getenv(AGE_AGENT), "one");
	assert_string_equal(ag_getenv(AGE_AGENT), getenv("AGENTIC_GIT_AGENT"));
	with_env(other);
	assert_string_equal(ag_getenv(AGE_BYPASS), "1");
	assert_null(ag_getenv(AGE_BYPASS_AGENT));
	restore_env();
	/* the process's own environment, changed through setenv(3) */
	setenv("AGENTIC_GIT_SNAPSHOTS", "0", 1);
	assert_string_equal(ag_getenv(AGE_SNAPSHOTS), "0");
	unsetenv("AGENTIC_GIT_SNAPSHOTS");
	setenv("AGEND_GIT_SNAPSHOTS", "1", 1);
	assert_string_equal(ag_getenv(AGE_SNAPSHOTS), "1");
	unsetenv("AGEND_GIT_SNAPSHOTS");
	assert_null(ag_getenv(AGE_SNAPSHOTS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_primary_wins),
		cmocka_unit_test(test_names_exactly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
