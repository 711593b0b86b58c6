/* SPDX-License-Identifier: Apache-2.0 */
/* git/snapshot-index: the staged tree read from an index's TREE extension. */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "base/xalloc.h"
#include "git/packw.h"
#include "git/snapshot-index.h"

#define F_EXTENDED 0x4000

struct entry {
	const char *name;
	uint32_t mode; /* 0 in the tests that need no tree built */
	unsigned char oid_byte; /* 0: 0x11 */
	unsigned stage;
	bool extended;
	unsigned namelen_field; /* 0: the real length */
};

struct ext {
	const char *sig;
	const char *data; /* NULL: a TREE with count/subtrees and the oid */
	size_t data_len;  /* 0: strlen(data) */
	const char *counts;
	unsigned char oid_byte;
};

static void addchars(struct strbuf *sb, int c, size_t n)
{
	while (n--)
		strbuf_addch(sb, c);
}

static void put32(struct strbuf *sb, uint32_t v)
{
	strbuf_addch(sb, (char)(v >> 24));
	strbuf_addch(sb, (char)(v >> 16));
	strbuf_addch(sb, (char)(v >> 8));
	strbuf_addch(sb, (char)v);
}

static void put_entry(struct strbuf *sb, unsigned version, size_t hash_len,
		      const struct entry *e)
{
	size_t start = sb->len, nlen = strlen(e->name);
	unsigned flags = (e->namelen_field ? e->namelen_field :
			  (nlen < 0xfff ? (unsigned)nlen : 0xfff)) |
			 (e->stage << 12) | (e->extended ? F_EXTENDED : 0);

	addchars(sb, 0, 24);
	put32(sb, e->mode);
	addchars(sb, 0, 12);
	addchars(sb, e->oid_byte ? e->oid_byte : 0x11, hash_len);
	strbuf_addch(sb, (char)(flags >> 8));
	strbuf_addch(sb, (char)flags);
	if (e->extended) {
		strbuf_addch(sb, 0x20); /* intent-to-add */
		strbuf_addch(sb, 0);
	}
	if (version == 4)
		strbuf_addch(sb, 0); /* strip nothing from the previous name */
	strbuf_addstr(sb, e->name);
	if (version == 4) {
		strbuf_addch(sb, 0);
		return;
	}
	addchars(sb, 0, 8 - ((sb->len - start) % 8));
}

static void put_ext(struct strbuf *sb, size_t hash_len, const struct ext *x)
{
	struct strbuf d = STRBUF_INIT;

	if (x->data) {
		strbuf_add(&d, x->data,
			   x->data_len ? x->data_len : strlen(x->data));
	} else {
		strbuf_addch(&d, 0); /* the root's path: "" */
		strbuf_addstr(&d, x->counts);
		if (x->counts[0] != '-')
			addchars(&d, (char)x->oid_byte, hash_len);
		/* a subtree entry after the root, as git writes */
		strbuf_addstr(&d, "d");
		strbuf_addch(&d, 0);
		strbuf_addstr(&d, "1 0\n");
		addchars(&d, 0x77, hash_len);
	}
	strbuf_add(sb, x->sig, 4);
	put32(sb, (uint32_t)d.len);
	strbuf_addbuf(sb, &d);
	strbuf_release(&d);
}

/* An index file; returned in an exactly-sized heap block (for ASan). */
static unsigned char *build(unsigned version, size_t hash_len,
			    const struct entry *e, size_t ne,
			    const struct ext *x, size_t nx, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char *out;

	strbuf_add(&sb, "DIRC", 4);
	put32(&sb, version);
	put32(&sb, (uint32_t)ne);
	for (size_t i = 0; i < ne; i++)
		put_entry(&sb, version, hash_len, &e[i]);
	for (size_t i = 0; i < nx; i++)
		put_ext(&sb, hash_len, &x[i]);
	addchars(&sb, 0x5a, hash_len); /* checksum (not verified) */
	*len = sb.len;
	out = xmalloc(sb.len ? sb.len : 1);
	memcpy(out, sb.buf, sb.len);
	strbuf_release(&sb);
	return out;
}

static const struct entry two[] = { { .name = "README.md" },
				    { .name = "d/file with space.txt" } };
static const struct ext tree_ok = { "TREE", NULL, 0, "2 1\n", 0xab };

static enum snapshot_index_tree run(unsigned version, size_t hash_len,
				    const struct entry *e, size_t ne,
				    const struct ext *x, size_t nx,
				    struct strbuf *hex)
{
	size_t len;
	unsigned char *buf = build(version, hash_len, e, ne, x, nx, &len);
	enum snapshot_index_tree r = snapshot_index_build(buf, len, hash_len,
							  NULL, hex);
	free(buf);
	return r;
}

static void test_valid_root(void **state)
{
	struct strbuf hex = STRBUF_INIT;

	for (unsigned v = 2; v <= 4; v++) {
		strbuf_reset(&hex);
		assert_int_equal(run(v, 20, two, 2, &tree_ok, 1, &hex),
				 SNAPSHOT_INDEX_TREE_VALID);
		assert_string_equal(hex.buf,
				    "abababababababababababababababababababab");
	}
	strbuf_reset(&hex);
	assert_int_equal(run(2, 32, two, 2, &tree_ok, 1, &hex),
			 SNAPSHOT_INDEX_TREE_VALID);
	assert_int_equal(hex.len, 64);
	strbuf_release(&hex);
}

static void test_other_extensions_skipped(void **state)
{
	struct ext x[] = { { "UNTR", "anything\n", 0, NULL, 0 },
			   tree_ok,
			   { "EOIE", "12345678", 0, NULL, 0 },
			   /* unknown but optional ('A'..'Z' first): skipped */
			   { "Zzzz", "later git", 0, NULL, 0 } };
	struct strbuf hex = STRBUF_INIT;

	assert_int_equal(run(2, 20, two, 2, x, 4, &hex),
			 SNAPSHOT_INDEX_TREE_VALID);
	assert_int_equal(hex.len, 40);
	strbuf_release(&hex);
}

static void test_unknown_cases(void **state)
{
	struct strbuf hex = STRBUF_INIT;
	struct ext invalid = { "TREE", NULL, 0, "-1 1\n", 0 };
	struct ext zero = { "TREE", NULL, 0, "2 1\n", 0 };
	struct ext link[] = { { "link", "xxxxxxxxxxxxxxxxxxxx", 0, NULL, 0 },
			      tree_ok };
	struct ext sdir[] = { tree_ok, { "sdir", "", 0, NULL, 0 } };
	/* required (not 'A'..'Z' first): git must understand it, so must we */
	struct ext required[] = { tree_ok, { "zzzz", "data", 0, NULL, 0 } };
	struct ext digit[] = { { "4bit", "", 0, NULL, 0 }, tree_ok };
	struct ext junk[] = { { "TREE", "\0x 1\n", 5, NULL, 0 },
			      { "TREE", "\0" "2\n", 3, NULL, 0 },
			      { "TREE", "\0" "2 1\n", 5, NULL, 0 },
			      { "TREE", "root\0" "2 1\n", 0, NULL, 0 } };
	struct entry unmerged[] = { { .name = "a" },
				    { .name = "b", .stage = 2 } };
	struct entry ext_v2[] = { { .name = "a", .extended = true } };
	struct entry badlen[] = { { .name = "abc", .namelen_field = 7 } };

	/* the root was invalidated (git add), or is all zeros */
	assert_int_equal(run(2, 20, two, 2, &invalid, 1, &hex), 0);
	assert_int_equal(run(2, 20, two, 2, &zero, 1, &hex), 0);
	/* no TREE extension at all */
	assert_int_equal(run(2, 20, two, 2, NULL, 0, &hex), 0);
	/* split and sparse indexes are left to git */
	assert_int_equal(run(2, 20, two, 2, link, 2, &hex), 0);
	assert_int_equal(run(2, 20, two, 2, sdir, 2, &hex), 0);
	/* an unknown required extension is left to git (which refuses it) */
	assert_int_equal(run(2, 20, two, 2, required, 2, &hex), 0);
	assert_int_equal(run(2, 20, two, 2, digit, 2, &hex), 0);
	/* malformed TREE data, a root without its oid, a non-root first */
	for (size_t i = 0; i < ARRAY_SIZE(junk); i++)
		assert_int_equal(run(2, 20, two, 2, &junk[i], 1, &hex), 0);
	/* an unmerged entry: write-tree must decide (and fail) */
	assert_int_equal(run(2, 20, unmerged, 2, &tree_ok, 1, &hex), 0);
	/* an extended flag needs version 3 */
	assert_int_equal(run(2, 20, ext_v2, 1, &tree_ok, 1, &hex), 0);
	assert_int_equal(run(3, 20, ext_v2, 1, &tree_ok, 1, &hex), 1);
	strbuf_reset(&hex);
	/* the name length in the flags disagrees with the name */
	assert_int_equal(run(2, 20, badlen, 1, &tree_ok, 1, &hex), 0);
	/* versions and hash lengths we do not know */
	assert_int_equal(run(1, 20, two, 2, &tree_ok, 1, &hex), 0);
	assert_int_equal(run(5, 20, two, 2, &tree_ok, 1, &hex), 0);
	assert_int_equal(run(2, 21, two, 2, &tree_ok, 1, &hex), 0);
	assert_int_equal(run(2, 0, two, 2, &tree_ok, 1, &hex), 0);
	assert_int_equal(hex.len, 0);
	strbuf_release(&hex);
}

static void test_bad_header(void **state)
{
	struct strbuf hex = STRBUF_INIT;
	size_t len;
	unsigned char *buf = build(2, 20, two, 2, &tree_ok, 1, &len);

	buf[0] = 'X';
	assert_int_equal(snapshot_index_build(buf, len, 20, NULL, &hex), 0);
	buf[0] = 'D';
	buf[11] = 200; /* more entries than the file holds */
	assert_int_equal(snapshot_index_build(buf, len, 20, NULL, &hex), 0);
	assert_int_equal(hex.len, 0);
	free(buf);
	strbuf_release(&hex);
}

/* Every truncation, at every version: never valid, never out of bounds. */
static void test_truncations(void **state)
{
	struct strbuf hex = STRBUF_INIT;

	for (unsigned v = 2; v <= 4; v++) {
		size_t len;
		unsigned char *full = build(v, 20, two, 2, &tree_ok, 1, &len);

		for (size_t n = 0; n < len; n++) {
			unsigned char *cut = xmalloc(n ? n : 1);
			memcpy(cut, full, n);
			assert_int_equal(snapshot_index_build(cut, n, 20, NULL, &hex),
					 SNAPSHOT_INDEX_TREE_UNKNOWN);
			free(cut);
		}
		free(full);
	}
	assert_int_equal(hex.len, 0);
	strbuf_release(&hex);
}

static enum snapshot_index_tree run_build(const struct entry *e, size_t ne,
					  const struct ext *x, size_t nx,
					  size_t hash_len, struct packw *pw,
					  struct strbuf *hex)
{
	size_t len;
	unsigned char *buf = build(2, hash_len, e, ne, x, nx, &len);
	enum snapshot_index_tree r = snapshot_index_build(buf, len, hash_len,
							  pw, hex);
	free(buf);
	return r;
}

/* "<mode> <name>" NUL and 20 bytes of `b` (or `oid`), appended. */
static void tree_entry(struct strbuf *t, const char *mode, const char *name,
		       int b, const unsigned char *oid)
{
	strbuf_addf(t, "%s %s", mode, name);
	strbuf_addch(t, 0);
	if (oid)
		strbuf_add(t, oid, 20);
	else
		addchars(t, b, 20);
}

static const struct entry files[] = {
	{ .name = "a", .mode = 0100644 },
	{ .name = "d/b", .mode = 0100755, .oid_byte = 0x22 },
};

/* The trees formatted by hand: d holds b, the root a and d. */
static void expected_root(const unsigned char *d_oid, struct strbuf *hex)
{
	struct packw ref = PACKW_INIT;
	struct strbuf t = STRBUF_INIT;
	unsigned char d[20], root[20];

	if (!d_oid) {
		tree_entry(&t, "100755", "b", 0x22, NULL);
		packw_add(&ref, PACKW_TREE, t.buf, t.len, d);
		d_oid = d;
		strbuf_reset(&t);
	}
	tree_entry(&t, "100644", "a", 0x11, NULL);
	tree_entry(&t, "40000", "d", 0, d_oid);
	packw_add(&ref, PACKW_TREE, t.buf, t.len, root);
	strbuf_addhex(hex, root, 20);
	packw_release(&ref);
	strbuf_release(&t);
}

static void test_build_without_cache(void **state)
{
	struct packw pw = PACKW_INIT;
	struct strbuf hex = STRBUF_INIT, want = STRBUF_INIT;

	(void)state;
	assert_int_equal(run_build(files, 2, NULL, 0, 20, &pw, &hex),
			 SNAPSHOT_INDEX_TREE_VALID);
	expected_root(NULL, &want);
	assert_string_equal(hex.buf, want.buf);
	assert_int_equal(packw_count(&pw), 2); /* d and the root */
	/* no packw: only git's cached root would do */
	strbuf_reset(&hex);
	assert_int_equal(run_build(files, 2, NULL, 0, 20, NULL, &hex), 0);
	/* SHA-256: left to git */
	assert_int_equal(run_build(files, 2, NULL, 0, 32, &pw, &hex), 0);
	assert_int_equal(hex.len, 0);
	packw_release(&pw);
	strbuf_release(&hex);
	strbuf_release(&want);
}

static void test_build_takes_valid_subtrees(void **state)
{
	/* root invalid, d cached (1 entry, 0x77…) */
	struct ext cached = { "TREE", NULL, 0, "-1 1\n", 0 };
	/* d's cached count disagrees with the index: built again */
	const char wrong[] = "\0-1 1\nd\0" "2 0\n"
			     "wwwwwwwwwwwwwwwwwwww";
	struct ext bad = { "TREE", wrong, sizeof(wrong) - 1, NULL, 0 };
	struct packw pw = PACKW_INIT;
	struct strbuf hex = STRBUF_INIT, want = STRBUF_INIT;
	unsigned char d[20];

	(void)state;
	memset(d, 0x77, sizeof(d));
	assert_int_equal(run_build(files, 2, &cached, 1, 20, &pw, &hex),
			 SNAPSHOT_INDEX_TREE_VALID);
	expected_root(d, &want);
	assert_string_equal(hex.buf, want.buf);
	assert_int_equal(packw_count(&pw), 1); /* the root only */
	packw_release(&pw);
	strbuf_reset(&hex);
	strbuf_reset(&want);
	assert_int_equal(run_build(files, 2, &bad, 1, 20, &pw, &hex),
			 SNAPSHOT_INDEX_TREE_VALID);
	expected_root(NULL, &want);
	assert_string_equal(hex.buf, want.buf);
	assert_int_equal(packw_count(&pw), 2);
	packw_release(&pw);
	strbuf_release(&hex);
	strbuf_release(&want);
}

/* What write-tree would refuse or decide otherwise is left to git. */
static void test_build_refusals(void **state)
{
	static const struct entry file_and_dir[] = {
		{ .name = "a", .mode = 0100644 },
		{ .name = "a/b", .mode = 0100644 } };
	static const struct entry empty_part[] = {
		{ .name = "a//b", .mode = 0100644 } };
	static const struct entry leading[] = {
		{ .name = "/a", .mode = 0100644 } };
	static const struct entry odd_mode[] = {
		{ .name = "a", .mode = 0100600 } };
	static const struct entry unsorted[] = {
		{ .name = "b", .mode = 0100644 },
		{ .name = "a", .mode = 0100644 } };
	static const struct entry twice[] = {
		{ .name = "a", .mode = 0100644 },
		{ .name = "a", .mode = 0100644 } };
	static const struct entry ita[] = {
		{ .name = "a", .mode = 0100644, .extended = true } };
	static const struct { const struct entry *e; size_t n; } cases[] = {
		{ file_and_dir, 2 }, { empty_part, 1 }, { leading, 1 },
		{ odd_mode, 1 }, { unsorted, 2 }, { twice, 2 },
	};
	struct packw pw = PACKW_INIT;
	struct strbuf hex = STRBUF_INIT;
	size_t len;
	unsigned char *buf;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(run_build(cases[i].e, cases[i].n, NULL, 0, 20,
					   &pw, &hex), 0);
	buf = build(3, 20, ita, 1, NULL, 0, &len);
	assert_int_equal(snapshot_index_build(buf, len, 20, &pw, &hex), 0);
	free(buf);
	assert_int_equal(hex.len, 0);
	packw_release(&pw);
	strbuf_release(&hex);
}

/*
 * Version 4 paths only grow by their suffix: n entries of suffix "a"
 * decompress to "a", "aa", … — n * n / 2 bytes from about 65 * n. Past
 * eight times the file's size the reader refuses (git decides) rather
 * than allocate without end.
 */
static void test_build_v4_growth_capped(void **state)
{
	struct packw pw = PACKW_INIT;
	struct strbuf hex = STRBUF_INIT;
	size_t ns[] = { 100, 1100 }, len;

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(ns); k++) {
		struct entry *e = xcalloc(ns[k], sizeof(*e));
		unsigned char *buf;

		for (size_t i = 0; i < ns[k]; i++)
			e[i] = (struct entry){ .name = "a", .mode = 0100644 };
		buf = build(4, 20, e, ns[k], NULL, 0, &len);
		strbuf_reset(&hex);
		assert_int_equal(snapshot_index_build(buf, len, 20, &pw, &hex),
				 k == 0 ? SNAPSHOT_INDEX_TREE_VALID
					: SNAPSHOT_INDEX_TREE_UNKNOWN);
		free(buf);
		free(e);
	}
	packw_release(&pw);
	strbuf_release(&hex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_root),
		cmocka_unit_test(test_build_without_cache),
		cmocka_unit_test(test_build_takes_valid_subtrees),
		cmocka_unit_test(test_build_refusals),
		cmocka_unit_test(test_build_v4_growth_capped),
		cmocka_unit_test(test_other_extensions_skipped),
		cmocka_unit_test(test_unknown_cases),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_truncations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
