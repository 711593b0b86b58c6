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

/* args are refused with exactly `line` (after "agentic-git: "). */
static void refused(const struct argtable *t, const char *const *args,
		    const char *line)
{
	struct opts o = { .ro = STRVEC_INIT };
	struct argres r;
	char want[512];

	snprintf(want, sizeof(want), "agentic-git: %s\n", line);
	assert_int_equal(parse(t, args, &o, &r), -1);
	assert_string_equal(err, want);
	strvec_clear(&o.ro);
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
	refused(&t, ARGS("a", "b"),
		"x show: unexpected argument 'b' (at most one)");
	refused(&t, ARGS("a", "--", "b"),
		"x show: unexpected argument 'b' (at most one)");
}

static void test_errors(void **state)
{
	const struct argtable t = { .cmd = "x", .specs = specs, .sub = SUB_A };
	static const struct {
		const char *args[3], *line;
	} cases[] = {
		{ { "--nope" }, "unknown option '--nope'" },
		/* a prefix is not the option */
		{ { "--rep", "a" }, "unknown option '--rep'" },
		/* --yes and -y are sub B's only */
		{ { "--yes" }, "unknown option '--yes'" },
		{ { "-y" }, "unknown option '-y'" },
		{ { "--ro" }, "needs a value: '--ro'" },
		{ { "--name=" }, "needs a non-empty value: '--name='" },
		{ { "--name", "" }, "needs a non-empty value: '--name'" },
		{ { "word" }, "unexpected argument 'word'" },
	};
	char line[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(line, sizeof(line), "x: %s (see agentic-git x --help)",
			 cases[i].line);
		refused(&t, cases[i].args, line);
	}
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
	refused(&t, ARGS("--yes=1", "--repo", "a"),
		"x: takes no value: '--yes=1' (see docs/x.md)");
	refused(&t, ARGS("--yes"),
		"x: missing option '--repo' (see docs/x.md)");
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
	refused(&t, ARGS("--c"), "unknown option '--c' (see --help)");
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
