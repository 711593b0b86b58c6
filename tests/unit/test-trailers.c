/* SPDX-License-Identifier: Apache-2.0 */
/* git/trailers: the Agentic-* trailers, exactly once, in the right place. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "git/trailers.h"

static const struct trailer_vals V = { "ag1", "task-1", "feat/one",
				       "2026-11-29T21:07:02.301397292+00:00" };
#define T "Agentic-Agent: ag1\nAgentic-Task: task-1\nAgentic-Branch: feat/one\n" \
	  "Agentic-Issued-At: 2026-11-29T21:07:02.301397292+00:00\n"

static void check(const char *in, const char *want)
{
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;

	assert_int_equal(trailers_apply(in, strlen(in), &V, &out), 1);
	assert_string_equal(out.buf, want);
	/* idempotent: a second run changes nothing */
	assert_int_equal(trailers_apply(out.buf, out.len, &V, &again), 0);
	assert_int_equal(again.len, 0);
	strbuf_release(&out);
	strbuf_release(&again);
}

static void test_simple(void **state)
{
	check("feat: a\n", "feat: a\n\n" T);
	check("feat: a", "feat: a\n\n" T);
	check("feat: a\n\nbody text\n\n\n", "feat: a\n\nbody text\n\n" T);
}

static void test_joins_trailer_block(void **state)
{
	check("fix: b\n\nSigned-off-by: A <a@x>\n",
	      "fix: b\n\nSigned-off-by: A <a@x>\n" T);
	/* a subject that looks like a trailer is not a trailer block */
	check("fix: b\n", "fix: b\n\n" T);
}

static void test_comments_and_scissors(void **state)
{
	check("msg\n\n# Please enter the commit message\n# Lines starting\n",
	      "msg\n\n" T "\n# Please enter the commit message\n# Lines starting\n");
	check("msg\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n",
	      "msg\n\n" T "\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n");
	/* a heading inside the body is not the comment block */
	check("# Title\n\nbody\n", "# Title\n\nbody\n\n" T);
	check("\n# Please enter\n", "\n" T "\n# Please enter\n");
}

static void test_present_and_values(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct trailer_vals v = { "ag1", "", "b\nx", NULL };
	const char *amended = "feat\n\nAgentic-Agent: ag0\n";

	assert_int_equal(trailers_apply(amended, strlen(amended), &V, &out), 0);
	assert_true(trailers_present("x\nagentic-agent: y\n", 18));
	assert_false(trailers_present("x\n# Agentic-Agent: y\n", 21));
	assert_int_equal(trailers_apply("m\n", 2, &v, &out), 1);
	assert_string_equal(out.buf, "m\n\nAgentic-Agent: ag1\nAgentic-Branch: b x\n");
	assert_true(trailers_skip_source("merge"));
	assert_true(trailers_skip_source("squash"));
	assert_true(trailers_skip_source("template"));
	assert_false(trailers_skip_source("message"));
	assert_false(trailers_skip_source("commit"));
	assert_false(trailers_skip_source(NULL));
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple),
		cmocka_unit_test(test_joins_trailer_block),
		cmocka_unit_test(test_comments_and_scissors),
		cmocka_unit_test(test_present_and_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
