/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for git/pushplan.c: reading git's dry run and advertisement,
 * and judging every update (its invariants 1-3). */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include "git/pushpin.h"
#include "git/pushplan.h"

#define A "1111111111111111111111111111111111111111"
#define B "2222222222222222222222222222222222222222"
#define Z "0000000000000000000000000000000000000000"
#define PKT "00:49:15.887748 pkt-line.c:80           packet:         push< "
#define HT "01:20:00.000000 pkt-line.c:80           packet:          git< "
#define RP "00:49:15.887748 pkt-line.c:80           packet: receive-pack> "

static int parse(struct push_plan *p, const char *s)
{
	return push_plan_parse(p, s, strlen(s));
}

static void test_plan_parse(void **state)
{
	struct push_plan p;

	assert_int_equal(parse(&p,
			       "To ../o.git\n"
			       "-\t:refs/heads/main\t[deleted]\n"
			       "*\tHEAD:refs/heads/x\t[new branch]\n"
			       "+\t" A ":refs/heads/y\ta...b (forced update)\n"
			       "Would set upstream of 'x' to 'x' of 'origin'\n"
			       "Done\n"),
			 0);
	assert_int_equal(p.urls, 1);
	assert_int_equal(p.nr, 3);
	assert_int_equal(p.u[0].flag, '-');
	assert_string_equal(p.u[0].src, "");
	assert_string_equal(p.u[0].dst, "refs/heads/main");
	assert_string_equal(p.u[1].src, "HEAD");
	assert_string_equal(p.u[2].src, A);
	push_plan_release(&p);
	/* invariant 2: the destination is after the last ':' */
	assert_int_equal(
		parse(&p, "To u\n*\t:/a:b:refs/heads/x\t[new branch]\nDone\n"),
		0);
	assert_string_equal(p.u[0].src, ":/a:b");
	assert_string_equal(p.u[0].dst, "refs/heads/x");
	push_plan_release(&p);
	/* nothing to push */
	assert_int_equal(parse(&p, ""), 0);
	assert_int_equal(p.nr, 0);
	push_plan_release(&p);
	/* invariant 1: anything else is unreadable */
	assert_int_equal(parse(&p, "*\tHEAD:refs/heads/x\t[new branch]\n"), -1);
	push_plan_release(&p);
	assert_int_equal(parse(&p, "To u\nhello\n"), -1);
	push_plan_release(&p);
	assert_int_equal(parse(&p, "To u\n?\tHEAD:refs/heads/x\tx\n"), -1);
	push_plan_release(&p);
	assert_int_equal(parse(&p, "To u\n*\tHEAD:\tx\n"), -1);
	push_plan_release(&p);
	assert_int_equal(parse(&p, "To u\n*\tHEAD\tx\n"), -1);
	push_plan_release(&p);
	/* git never prints a NUL: a line with one is unreadable */
	assert_int_equal(push_plan_parse(&p, "To u\n*\tx:\0y\tz\n", 14), -1);
	push_plan_release(&p);
}

static int adv(const char *s, struct strvec *tips, size_t *blocks)
{
	strvec_clear(tips);
	return push_adv_parse(s, strlen(s), tips, blocks);
}

static void test_adv_parse(void **state)
{
	struct strvec tips = STRVEC_INIT;
	size_t blocks;

	assert_int_equal(adv(RP A " refs/heads/main\\0caps\n" PKT A
				  " refs/heads/main\\0report-status\n" PKT B
				  " refs/heads/other\n" PKT "0000\n"
				  "packet:         push> 0000\n",
			     &tips, &blocks),
			 0);
	assert_int_equal(blocks, 1);
	assert_int_equal(tips.nr, 2);
	assert_string_equal(tips.v[0], A);
	/* invariant 3: two targets, only what both have */
	assert_int_equal(adv(PKT A " refs/heads/main\n" PKT B
				   " refs/heads/o\n" PKT "0000\n" PKT A
				   " refs/heads/main\n" PKT "0000\n",
			     &tips, &blocks),
			 0);
	assert_int_equal(blocks, 2);
	assert_int_equal(tips.nr, 1);
	assert_string_equal(tips.v[0], A);
	/* an empty repository advertises a zero id: no tip */
	assert_int_equal(adv(PKT Z " capabilities^{}\\0caps\n" PKT "0000\n",
			     &tips, &blocks),
			 0);
	assert_int_equal(blocks, 1);
	assert_int_equal(tips.nr, 0);
	/* protocol v1's version line and a shallow remote's lines are no tips
	 */
	assert_int_equal(adv(PKT "version 1\n" PKT A " refs/heads/main\n" PKT
				 "shallow " B "\n" PKT "0000\n",
			     &tips, &blocks),
			 0);
	assert_int_equal(tips.nr, 1);
	/* cut short, or not an advertisement line */
	assert_int_equal(adv(PKT A " refs/heads/main\n", &tips, &blocks), -1);
	assert_int_equal(
		adv(PKT "1234 refs/heads/main\n" PKT "0000\n", &tips, &blocks),
		0);
	assert_int_equal(blocks, 0);
	/* smart HTTP: git-remote-http's discovery, then send-pack's copy */
	assert_int_equal(adv(HT "# service=git-receive-pack\n" HT "0000\n" HT A
				" refs/heads/main\\0caps\n" HT "0000\n" HT
				"refs/heads/x:refs/heads/x\n" HT "0000\n" HT A
				" refs/heads/main\\0caps\n" HT "0000\n",
			     &tips, &blocks),
			 0);
	assert_int_equal(blocks, 2);
	assert_int_equal(tips.nr, 1);
	assert_int_equal(adv("", &tips, &blocks), 0);
	assert_int_equal(blocks, 0);
	strvec_clear(&tips);
}

static bool prot(const char *branch, void *ctx)
{
	return !strcmp(branch, "main") || !strcmp(branch, "master");
}

static const char *check(const char *porcelain)
{
	struct push_plan p;
	struct strbuf why = STRBUF_INIT;
	const char *ev;

	assert_int_equal(parse(&p, porcelain), 0);
	ev = push_plan_check(&p, "feat/a", prot, NULL, &why);
	assert_true(ev ? why.len > 0 : why.len == 0);
	strbuf_release(&why);
	push_plan_release(&p);
	return ev;
}

static void test_plan_check(void **state)
{
	assert_null(
		check("To u\n*\tHEAD:refs/heads/feat/a\t[new branch]\n"
		      "*\trefs/tags/v1:refs/tags/v1\t[new tag]\n"
		      "=\trefs/tags/v0:refs/tags/v0\t[up to date]\nDone\n"));
	assert_string_equal(
		check("To u\n=\trefs/heads/main:refs/heads/main\t[up to date]\n"),
		"deny_protected_ref");
	assert_string_equal(check("To u\n!\tx:refs/heads/master\t[rejected]\n"),
			    "deny_protected_ref");
	assert_string_equal(
		check("To u\n*\tx:refs/heads/other\t[new branch]\n"),
		"deny_cross_branch_push");
	assert_string_equal(
		check("To u\n*\tx:refs/heads/feat/a/b\t[new branch]\n"),
		"deny_cross_branch_push");
	assert_string_equal(
		check("To u\n*\tx:refs/remotes/origin/x\t[new reference]\n"),
		"deny_cross_branch_push");
	assert_string_equal(check("To u\n-\t:refs/heads/feat/a\t[deleted]\n"),
			    "deny_cross_branch_push");
	assert_string_equal(check("To u\n-\t:refs/tags/v1\t[deleted]\n"),
			    "deny_cross_branch_push");
	assert_string_equal(
		check("To u\n*\tx:refs/agentic-git/snapshots/a/b\t[new reference]\n"),
		"deny_snapshot_ref_push");
}

/* The pre-push hook's judgement (git/pushpin.h): only scanned ids leave. */
static void test_pin_line(void **state)
{
	static const char a[] = "1111111111111111111111111111111111111111";
	static const char b[] = "2222222222222222222222222222222222222222";
	static const char z[] = "0000000000000000000000000000000000000000";
	const char *pins = "1111111111111111111111111111111111111111 "
			   "3333333333333333333333333333333333333333";
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;

	(void)state;
	strbuf_addf(&line, "refs/heads/feat/a %s refs/heads/feat/a %s", a, z);
	assert_true(push_pin_line_ok(pins, line.buf, &why));
	assert_int_equal(why.len, 0);
	/* the ref moved after the scan */
	strbuf_reset(&line);
	strbuf_addf(&line, "refs/heads/feat/a %s refs/heads/feat/a %s", b, a);
	assert_false(push_pin_line_ok(pins, line.buf, &why));
	assert_non_null(strstr(why.buf, "did not scan"));
	assert_non_null(strstr(why.buf, b));
	/* a prefix of a pinned id is not that id */
	strbuf_reset(&line);
	strbuf_reset(&why);
	strbuf_addf(&line, "refs/heads/feat/a 11111111 refs/heads/feat/a %s",
		    z);
	assert_false(push_pin_line_ok(pins, line.buf, &why));
	/* a deletion is never pinned */
	strbuf_reset(&line);
	strbuf_reset(&why);
	strbuf_addf(&line, "(delete) %s refs/heads/feat/a %s", z, a);
	assert_false(push_pin_line_ok(pins, line.buf, &why));
	assert_non_null(strstr(why.buf, "deleted"));
	/* lines git should not write, and an empty pinned set */
	strbuf_reset(&why);
	assert_false(push_pin_line_ok(pins, "garbage", &why));
	assert_non_null(strstr(why.buf, "fail-closed"));
	strbuf_reset(&why);
	assert_false(push_pin_line_ok(pins, "refs/heads/x  y z", &why));
	strbuf_reset(&line);
	strbuf_reset(&why);
	strbuf_addf(&line, "refs/heads/feat/a %s refs/heads/feat/a %s", a, z);
	assert_false(push_pin_line_ok("", line.buf, &why));
	strbuf_release(&line);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_parse),
		cmocka_unit_test(test_adv_parse),
		cmocka_unit_test(test_plan_check),
		cmocka_unit_test(test_pin_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
