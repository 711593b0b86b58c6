/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for the YAML layer: base/yaml-doc.c (parse, positions, caps,
 * refusals; the numbers cite yaml-doc.h's list) and base/yaml-read.c
 * (core-schema kinds, typed reads).
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include "base/strvec.h"
#include "base/yaml-doc.h"
#include "base/yaml-read.h"

struct fx {
	struct strvec errs;
	struct ydoc doc;
};

static int parse_lim(struct fx *f, const char *text, size_t len,
		     const struct ydoc_limits *lim)
{
	strvec_init(&f->errs);
	f->doc = (struct ydoc)YDOC_INIT("t.yaml", &f->errs);
	return ydoc_parse(&f->doc, text, len, lim);
}

static int parse(struct fx *f, const char *text)
{
	const struct ydoc_limits lim = { .noun = "test" };
	return parse_lim(f, text, strlen(text), &lim);
}

static void done(struct fx *f)
{
	ydoc_release(&f->doc);
	strvec_clear(&f->errs);
}

/* The text must be refused with exactly one error, equal to `want`. */
static void refused_lim(const char *text, size_t len,
			const struct ydoc_limits *lim, const char *want)
{
	struct fx f;

	assert_int_equal(parse_lim(&f, text, len, lim), -1);
	assert_null(f.doc.root);
	assert_int_equal(f.errs.nr, 1);
	assert_int_equal(f.doc.nerr, 1);
	assert_string_equal(f.errs.v[0], want);
	done(&f);
}

static void refused(const char *text, const char *want)
{
	const struct ydoc_limits lim = { .noun = "test" };
	refused_lim(text, strlen(text), &lim, want);
}

static void test_tree_and_positions(void **state)
{
	struct fx f;
	const struct ynode *k, *v, *e, *r;
	(void)state;

	assert_int_equal(
		parse(&f,
		      "a: x\nb: [1, 'two']\nc:\n  - \"q\"\n  - |\n    lit\nd:\n"),
		0);
	r = f.doc.root;
	assert_int_equal(r->type, YN_MAP);
	assert_int_equal(r->len, 4);
	k = r->u.first;
	assert_string_equal(k->u.text, "a");
	assert_int_equal(k->line, 1);
	assert_int_equal(k->col, 1);
	v = k->next;
	assert_string_equal(v->u.text, "x");
	assert_int_equal(v->col, 4);
	k = v->next;
	v = k->next;
	assert_int_equal(v->type, YN_SEQ);
	assert_int_equal(v->line, 2);
	assert_int_equal(v->col, 4); /* the '[' */
	assert_int_equal(v->len, 2);
	assert_int_equal(v->u.first->style, YS_PLAIN);
	assert_int_equal(v->u.first->next->style, YS_QUOTED);
	assert_int_equal(v->u.first->next->col, 8); /* the quote */
	k = v->next;
	v = k->next;
	assert_int_equal(v->line, 4);
	assert_int_equal(v->col, 3); /* the first '-' */
	e = v->u.first;
	assert_int_equal(e->style, YS_QUOTED);
	assert_int_equal(e->next->style, YS_BLOCK);
	assert_string_equal(e->next->u.text, "lit\n");
	assert_null(e->next->next);
	k = v->next;
	v = k->next;
	assert_true(v->implicit);
	assert_int_equal(ynode_kind(v), YK_NULL);
	assert_null(v->next);
	{
		size_t n = 0;
		ynode_for_each_pair (k, v, r)
			n++;
		assert_int_equal(n, 4);
	}
	done(&f);
	/* empty text, comments only, a bare "---": no error */
	assert_int_equal(parse(&f, ""), 0);
	assert_null(f.doc.root);
	done(&f);
	assert_int_equal(parse(&f, "# nothing\n"), 0);
	assert_null(f.doc.root);
	done(&f);
	assert_int_equal(parse(&f, "---\n"), 0);
	assert_true(f.doc.root->implicit);
	done(&f);
}

static void test_error_position_fallback(void **state)
{
	struct fx f;
	const struct ynode *k, *v;
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	assert_int_equal(parse(&f, "key:\nother: 'a\tb'\n"), 0);
	k = f.doc.root->u.first;
	v = k->next;
	ydoc_error(&f.doc, v, k, "empty at the key");
	ydoc_error(&f.doc, v, NULL, "empty at the value");
	ydoc_error(&f.doc, NULL, NULL, "nowhere");
	ydoc_error(&f.doc, v->next->next, k, "%s", v->next->next->u.text);
	assert_int_equal(f.doc.nerr, 4);
	assert_string_equal(f.errs.v[0], "t.yaml:1:1: empty at the key");
	assert_string_equal(f.errs.v[1], "t.yaml:1:5: empty at the value");
	assert_string_equal(f.errs.v[2], "t.yaml:1:1: nowhere");
	/* one error, one line: control characters become '?' */
	assert_string_equal(f.errs.v[3], "t.yaml:2:8: a?b");
	ydoc_where(&f.doc, v->next, &sb);
	assert_string_equal(sb.buf, "t.yaml:2:1");
	strbuf_release(&sb);
	done(&f);
}

/* Header 5. */
static void test_duplicate_keys(void **state)
{
	struct fx f;
	(void)state;

	refused("a: 1\nb: 2\na: 3\n",
		"t.yaml:3:1: invalid YAML: duplicate key 'a' (first at 1:1)");
	refused("top:\n  x: 1\n  'x': 2\n",
		"t.yaml:3:3: invalid YAML: duplicate key 'x' (first at 2:3)");
	refused("- {k: 1, k: 2}\n",
		"t.yaml:1:10: invalid YAML: duplicate key 'k' (first at 1:4)");
	/* the repeat first in the file is named, against the first one */
	refused("b: 1\na: 2\nb: 0\na: 3\na: 4\n",
		"t.yaml:3:1: invalid YAML: duplicate key 'b' (first at 1:1)");
	refused("a: 1\nb: 2\nb: 0\na: 3\n",
		"t.yaml:3:1: invalid YAML: duplicate key 'b' (first at 2:1)");
	/* the same key in two mappings is fine */
	assert_int_equal(parse(&f, "x: {a: 1}\ny: {a: 2}\n"), 0);
	done(&f);
}

/* Header 3: a billion laughs is one line. */
static void test_aliases(void **state)
{
	(void)state;
	refused("a: &a [x, x, x, x, x, x, x, x, x]\n"
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n",
		"t.yaml:2:8: aliases are not supported in the test");
	refused("a: &x 1\nb: *x\n",
		"t.yaml:2:4: aliases are not supported in the test");
}

/* Header 4 and 5: tags, and keys that are collections. */
static void test_tags_and_complex_keys(void **state)
{
	struct fx f;
	(void)state;

	refused("a: !!str 5\n",
		"t.yaml:1:4: explicit YAML tags are not supported in the test");
	refused("a: !local [1]\n",
		"t.yaml:1:4: explicit YAML tags are not supported in the test");
	refused("? [a, b]\n: c\n",
		"t.yaml:1:3: invalid YAML: a key must be a scalar, not a list");
	refused("{ {a: b}: c }\n",
		"t.yaml:1:3: invalid YAML: a key must be a scalar, not a mapping");
	/* an explicit key that is a scalar is a key like any other */
	assert_int_equal(parse(&f, "? a\n: b\n"), 0);
	assert_string_equal(f.doc.root->u.first->next->u.text, "b");
	done(&f);
	/* anchors alone are ignored */
	assert_int_equal(parse(&f, "a: &x 1\n"), 0);
	done(&f);
}

/* Header 2. */
static void test_one_document(void **state)
{
	(void)state;
	refused("a: 1\n---\nb: 2\n",
		"t.yaml:2:1: only one YAML document is allowed in the test");
	refused("--- 1\n--- 2\n",
		"t.yaml:2:1: only one YAML document is allowed in the test");
}

/* Header 6. */
static void test_caps(void **state)
{
	struct ydoc_limits lim = { .max_depth = 3 };
	char deep[80];
	size_t n = 0;
	(void)state;

	refused_lim("a: [[[1]]]", 10, &lim,
		    "t.yaml:1:6: nested deeper than 3 levels");
	refused_lim("[[[[x]]]]", 9, &lim,
		    "t.yaml:1:4: nested deeper than 3 levels");
	lim.max_depth = 0;
	for (int i = 0; i < 33; i++)
		deep[n++] = '[';
	refused_lim(deep, n, &lim, "t.yaml:1:33: nested deeper than 32 levels");
	lim.max_nodes = 4;
	refused_lim("[a, b, c, d]", 12, &lim,
		    "t.yaml:1:11: more than 4 YAML nodes");
	lim.max_nodes = 0;
	lim.max_bytes = 8;
	refused_lim("a: 1\nb: 22\n", 11, &lim,
		    "t.yaml:2:4: larger than 8 bytes");
}

/* Header 1. */
static void test_text(void **state)
{
	const struct ydoc_limits lim = { 0 };
	(void)state;

	refused("a: 1\nb: \xff\n", "t.yaml:2:4: not valid UTF-8 text");
	refused("a: \xc3\xa9\xc3\n", "t.yaml:1:5: not valid UTF-8 text");
	refused("\xff\xfe"
		"a\0:\0",
		"t.yaml:1:1: not valid UTF-8 text");
	refused_lim("a: 1\nbc\0d", 9, &lim, "t.yaml:2:3: contains a NUL byte");
	refused("a: \x01\n", "t.yaml:1:4: invalid YAML: control characters are "
			     "not allowed (U+0001)");
	refused("k: \xc3\xa9\x7f\n", "t.yaml:1:5: invalid YAML: control "
				     "characters are not allowed (U+007F)");
	/* docs/fuzzing.md, finding 2: a directive and an invalid byte */
	refused("%\x95\n", "t.yaml:1:2: not valid UTF-8 text");
}

static void test_syntax_errors(void **state)
{
	(void)state;
	refused("agents:\n  claude:\n    env: [A, B\n",
		"t.yaml:4:1: invalid YAML: did not find expected ',' or ']' "
		"(while parsing a flow sequence at 3:10)");
	refused("a:\n\t- b\n",
		"t.yaml:2:1: invalid YAML: found character that cannot start "
		"any token (while scanning for the next token at 2:1); YAML "
		"indents with spaces, not tabs");
	refused("a: 'open\n",
		"t.yaml:2:1: invalid YAML: found unexpected end of stream "
		"(while scanning a quoted scalar at 1:4)");
}

/* Header 7. */
static void test_json(void **state)
{
	const struct ydoc_limits lim = { .json = true, .noun = "test" };
	struct fx f;
	const char *ok = "{\"a\":[1, \"x\\/y\"],\n \"b\":\t{\"c\": null}}";
	(void)state;

	assert_int_equal(parse_lim(&f, ok, strlen(ok), &lim), 0);
	assert_string_equal(f.doc.root->u.first->next->u.first->next->u.text,
			    "x/y");
	assert_int_equal(f.doc.root->u.first->next->next->line, 2);
	done(&f);
	refused_lim("{\"a\": 1} # c", 12, &lim,
		    "t.yaml:1:10: invalid JSON: end of file expected near '#'");
	refused_lim(
		"{\"a\": 1, \"a\": 2}", 16, &lim,
		"t.yaml:1:12: invalid JSON: duplicate object key near '\"a\"'");
	refused_lim("a: 1", 4, &lim,
		    "t.yaml:1:1: invalid JSON: invalid token near 'a'");
}

static void test_kinds(void **state)
{
	static const struct {
		const char *text;
		enum ykind k;
	} t[] = {
		{ "a: ~", YK_NULL },	   { "a: null", YK_NULL },
		{ "a: Null", YK_NULL },	   { "a: true", YK_BOOL },
		{ "a: FALSE", YK_BOOL },   { "a: 12", YK_INT },
		{ "a: -3", YK_INT },	   { "a: 0x1F", YK_INT },
		{ "a: 0o17", YK_INT },	   { "a: 0o19", YK_STR },
		{ "a: 1.5", YK_FLOAT },	   { "a: .inf", YK_FLOAT },
		{ "a: 1e3", YK_FLOAT },	   { "a: 1e", YK_STR },
		{ "a: '5'", YK_STR },	   { "a: \"true\"", YK_STR },
		{ "a: |\n  5\n", YK_STR }, { "a: yes", YK_STR },
		{ "a: [1]", YK_SEQ },	   { "a: {b: 1}", YK_MAP },
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct fx f;
		assert_int_equal(parse(&f, t[i].text), 0);
		if (ynode_kind(f.doc.root->u.first->next) != t[i].k)
			fail_msg("'%s': got %s", t[i].text,
				 ykind_name(ynode_kind(
					 f.doc.root->u.first->next)));
		done(&f);
	}
	assert_int_equal(ynode_kind(NULL), YK_NULL);
}

static void test_typed_reads(void **state)
{
	struct fx f;
	const struct ynode *k, *v, *m;
	const char *const allowed[] = { "i", "b", "s", NULL };
	long n;
	bool b;
	char *s;
	(void)state;

	assert_int_equal(
		parse(&f,
		      "i: 0x10\nb: True\ns: \"a\\0b\"\nt: 99\nu: [x]\n8: x\n"),
		0);
	m = f.doc.root;
	k = m->u.first;
	v = k->next;
	assert_int_equal(ydoc_int(&f.doc, v, k, "i", 0, 100, &n), 0);
	assert_int_equal(n, 16);
	assert_int_equal(ydoc_int(&f.doc, v, k, "i", 0, 15, &n), -1);
	assert_int_equal(ydoc_bool(&f.doc, v, k, "i", &b), -1);
	k = v->next;
	v = k->next;
	assert_int_equal(ydoc_bool(&f.doc, v, k, "b", &b), 0);
	assert_true(b);
	assert_null(ydoc_str(&f.doc, v, k, "b"));
	k = v->next;
	v = k->next;
	assert_null(ydoc_str(&f.doc, v, k, "s"));
	assert_int_equal(ydoc_key(&f.doc, k, "top", allowed), 2);
	k = v->next;
	assert_int_equal(ydoc_key(&f.doc, k, "top", allowed), -1);
	s = ydoc_str(&f.doc, k, NULL, "key t");
	assert_string_equal(s, "t");
	free(s);
	v = k->next;
	k = v->next;
	v = k->next;
	assert_false(ydoc_want(&f.doc, v, k, "u", YK_MAP));
	assert_true(ydoc_want(&f.doc, v, k, "u", YK_SEQ));
	assert_int_equal(ydoc_int(&f.doc, v->next->next, NULL, "8", -1, 1, &n),
			 -1);
	assert_int_equal(f.errs.nr, 7);
	assert_string_equal(f.errs.v[0],
			    "t.yaml:1:4: i: must be between 0 and 15");
	assert_string_equal(f.errs.v[1],
			    "t.yaml:1:4: i: expected bool, got int");
	assert_string_equal(f.errs.v[2],
			    "t.yaml:2:4: b: expected str, got bool");
	assert_string_equal(f.errs.v[3], "t.yaml:3:4: s: contains a NUL byte");
	assert_string_equal(
		f.errs.v[4],
		"t.yaml:4:1: top: unknown key 't'; allowed: i, b, s");
	assert_string_equal(f.errs.v[5],
			    "t.yaml:5:4: u: expected mapping, got list");
	assert_string_equal(f.errs.v[6],
			    "t.yaml:6:4: 8: expected int, got str");
	done(&f);
	/* limits of long */
	assert_int_equal(
		parse(&f, "a: -9223372036854775808\nb: 9223372036854775808\n"),
		0);
	k = f.doc.root->u.first;
	assert_int_equal(ydoc_int(&f.doc, k->next, k, "a",
				  -9223372036854775807L - 1, 0, &n),
			 0);
	assert_true(n < 0);
	k = k->next->next;
	assert_int_equal(
		ydoc_int(&f.doc, k->next, k, "b", 0, 9223372036854775807L, &n),
		-1);
	done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_and_positions),
		cmocka_unit_test(test_error_position_fallback),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_tags_and_complex_keys),
		cmocka_unit_test(test_one_document),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_typed_reads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
