/* SPDX-License-Identifier: Apache-2.0 */
/* cmd/argtable: offsets, lists, required and non-empty values, sub masks,
 * positionals among the options, `--`, and every error's one line. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "base/strvec.h"
#include "cmd/argtable.h"

struct opts {
	const char *repo, *name;
	bool yes;
	struct strvec ro;
};

enum { SUB_A = 1, SUB_B = 2 };

static const struct argspec specs[] = {
	ARGSPEC_AT("repo", 'r', ARG_VALUE, struct opts, repo, 0, 0),
	ARGSPEC_AT("name", 0, ARG_VALUE, struct opts, name, SUB_A,
		   ARGF_NONEMPTY),
	ARGSPEC_AT("yes", 'y', ARG_FLAG, struct opts, yes, SUB_B, 0),
	ARGSPEC_AT("ro", 0, ARG_LIST, struct opts, ro, 0, 0),
	ARGSPEC_END,
};

static char err[512];

/* Parses {"x", args…}; the error line (if any) lands in err. */
static int parse(const struct argtable *t, const char *const *args,
		 struct opts *o, struct argres *r)
{
	const char *argv[16] = { "x" };
	int argc = 1, fd = dup(2), ret;
	FILE *f = tmpfile();
	size_t n;

	assert_non_null(f);
	while (*args)
		argv[argc++] = *args++;
	fflush(stderr);
	dup2(fileno(f), 2);
	ret = argtable_parse_table(t, argc, argv, o, r);
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	rewind(f);
	n = fread(err, 1, sizeof(err) - 1, f);
	err[n] = '\0';
	fclose(f);
	return ret;
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_offsets_lists_and_rest(void **state)
{
	const struct argtable t = { .cmd = "x", .specs = specs, .sub = SUB_B };
	struct opts o = { .ro = STRVEC_INIT };
	struct argres r;

	(void)state;
	assert_int_equal(parse(&t,
			       ARGS("--repo", "a", "-rb", "--ro=/1", "-y",
				    "--ro", "/2", "--", "cmd", "-x"),
			       &o, &r),
			 0);
	assert_string_equal(o.repo, "b"); /* the last one wins */
	assert_true(o.yes);
	assert_int_equal(o.ro.nr, 2);
	assert_string_equal(o.ro.v[0], "/1");
	assert_string_equal(o.ro.v[1], "/2");
	assert_true(r.dashdash);
	assert_int_equal(r.rest, 9); /* "cmd" */
	assert_int_equal(r.pos_nr, 0);
	strvec_clear(&o.ro);
}

static void test_positionals_among_options(void **state)
{
	const struct argtable t = { .cmd = "x show",
				    .hint = "at most one",
				    .specs = specs,
				    .flags = ARGT_NO_REST,
				    .sub = SUB_A,
				    .max_pos = 1 };
	struct opts o = { .ro = STRVEC_INIT };
	struct argres r;

	(void)state;
	assert_int_equal(parse(&t, ARGS("ref", "--name", "n"), &o, &r), 0);
	assert_int_equal(r.pos_nr, 1);
	assert_string_equal(r.pos[0], "ref");
	assert_int_equal(r.rest, 4);
	/* after `--` a word that looks like an option is a positional */
	assert_int_equal(parse(&t, ARGS("--", "-ref"), &o, &r), 0);
	assert_string_equal(r.pos[0], "-ref");
	assert_int_equal(parse(&t, ARGS("a", "b"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x show: unexpected argument 'b' (at most one)\n");
	assert_int_equal(parse(&t, ARGS("a", "--", "b"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x show: unexpected argument 'b' (at most one)\n");
}

static void test_errors(void **state)
{
	const struct argtable t = { .cmd = "x", .specs = specs, .sub = SUB_A };
	struct opts o = { .ro = STRVEC_INIT };
	struct argres r;

	(void)state;
	assert_int_equal(parse(&t, ARGS("--nope"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: unknown option '--nope' (see agentic-git x --help)\n");
	/* a prefix is not the option */
	assert_int_equal(parse(&t, ARGS("--rep", "a"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: unknown option '--rep' (see agentic-git x --help)\n");
	/* --yes is sub B's only */
	assert_int_equal(parse(&t, ARGS("--yes"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: unknown option '--yes' (see agentic-git x --help)\n");
	assert_int_equal(parse(&t, ARGS("-y"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: unknown option '-y' (see agentic-git x --help)\n");
	assert_int_equal(parse(&t, ARGS("--ro"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: needs a value: '--ro' (see agentic-git x --help)\n");
	assert_int_equal(parse(&t, ARGS("--name="), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: needs a non-empty value: '--name=' (see agentic-git x --help)\n");
	assert_int_equal(parse(&t, ARGS("--name", ""), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: needs a non-empty value: '--name' (see agentic-git x --help)\n");
	assert_int_equal(parse(&t, ARGS("word"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: unexpected argument 'word' (see agentic-git x --help)\n");
	strvec_clear(&o.ro);
}

static void test_flag_value_and_required(void **state)
{
	static const struct argspec req[] = {
		ARGSPEC_AT("repo", 0, ARG_VALUE, struct opts, repo, 0,
			   ARGF_REQUIRED),
		ARGSPEC_AT("yes", 0, ARG_FLAG, struct opts, yes, 0, 0),
		ARGSPEC_END,
	};
	const struct argtable t = { .cmd = "x",
				    .help = "docs/x.md",
				    .specs = req };
	struct opts o = { .ro = STRVEC_INIT };
	struct argres r;

	(void)state;
	assert_int_equal(parse(&t, ARGS("--yes=1", "--repo", "a"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: takes no value: '--yes=1' (see docs/x.md)\n");
	assert_int_equal(parse(&t, ARGS("--yes"), &o, &r), -1);
	assert_string_equal(
		err,
		"agentic-git: x: missing option '--repo' (see docs/x.md)\n");
	o.repo = NULL;
	assert_int_equal(parse(&t, ARGS("--repo=", "--"), &o, &r), 0);
	assert_string_equal(o.repo, ""); /* required, not non-empty */
}

static int ids[8], nids;

static int on_opt(void *data, int id, const char *value)
{
	(void)data;
	(void)value;
	ids[nids++] = id;
	return id == 7 ? -1 : 0;
}

static void test_callback_and_bare_form(void **state)
{
	static const struct argspec cbs[] = {
		{ "a", 0, ARG_FLAG, 3, 0, 0, 0 },
		{ "b", 0, ARG_VALUE, 7, 0, 0, 0 },
		ARGSPEC_END,
	};
	const struct argtable t = { .specs = cbs, .cb = on_opt };
	struct opts o = { .ro = STRVEC_INIT };
	struct argres r;

	(void)state;
	nids = 0;
	assert_int_equal(parse(&t, ARGS("--a", "--b", "v", "--a"), &o, &r), -1);
	assert_int_equal(nids, 2); /* the callback's -1 stops the parse */
	assert_int_equal(ids[0], 3);
	assert_int_equal(ids[1], 7);
	assert_int_equal(parse(&t, ARGS("--c"), &o, &r), -1);
	assert_string_equal(err,
			    "agentic-git: unknown option '--c' (see --help)\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offsets_lists_and_rest),
		cmocka_unit_test(test_positionals_among_options),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_flag_value_and_required),
		cmocka_unit_test(test_callback_and_bare_form),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
