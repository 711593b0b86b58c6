/* SPDX-License-Identifier: Apache-2.0 */
/* git/snapshot-hidden: whether an index's entries hide work from `add -A`
 * (assume-unchanged, skip-worktree), and that doubt always says "ask". */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/strbuf.h"
#include "git/snapshot-hidden.h"
#include "git/snapshot-int.h"

#define F_VALID 0x8000
#define F_EXTENDED 0x4000
#define XF_SKIP 0x4000

static void put16(struct strbuf *sb, unsigned v)
{
	strbuf_addch(sb, (char)(v >> 8));
	strbuf_addch(sb, (char)v);
}

static void put32(struct strbuf *sb, uint32_t v)
{
	put16(sb, v >> 16);
	put16(sb, v & 0xffff);
}

static void header(struct strbuf *sb, unsigned version, uint32_t nr)
{
	strbuf_addstr(sb, "DIRC");
	put32(sb, version);
	put32(sb, nr);
}

/* one entry named `name`; flags F_VALID, xflags XF_SKIP as asked */
static void entry(struct strbuf *sb, unsigned version, size_t hash_len,
		  const char *name, bool valid, unsigned xflags)
{
	size_t start = sb->len, nlen = strlen(name);

	for (size_t i = 0; i < 40 + hash_len; i++)
		strbuf_addch(sb, 0x11);
	put16(sb, (unsigned)nlen | (valid ? F_VALID : 0) |
			  (xflags ? F_EXTENDED : 0));
	if (xflags)
		put16(sb, xflags);
	if (version == 4)
		strbuf_addch(sb, 0); /* strip nothing off the previous path */
	strbuf_addstr(sb, name);
	strbuf_addch(sb, 0);
	if (version != 4)
		while ((sb->len - start) % 8)
			strbuf_addch(sb, 0);
}

static void trailer(struct strbuf *sb, size_t hash_len)
{
	for (size_t i = 0; i < hash_len; i++)
		strbuf_addch(sb, 0x22);
}

static enum snapshot_hidden scan(const struct strbuf *sb, size_t hash_len)
{
	return snapshot_index_hidden((const unsigned char *)sb->buf, sb->len,
				     hash_len);
}

/* three entries, the middle one with `valid` / `xflags`, per version */
static enum snapshot_hidden three(unsigned version, size_t hash_len, bool valid,
				  unsigned xflags)
{
	struct strbuf sb = STRBUF_INIT;
	enum snapshot_hidden h;

	header(&sb, version, 3);
	entry(&sb, version, hash_len, "README.md", false, 0);
	entry(&sb, version, hash_len, "src/a-much-longer-name.c", valid,
	      xflags);
	entry(&sb, version, hash_len, "z", false, 0);
	trailer(&sb, hash_len);
	h = scan(&sb, hash_len);
	strbuf_release(&sb);
	return h;
}

static void test_plain_index_hides_nothing(void **state)
{
	(void)state;
	for (unsigned v = 2; v <= 4; v++) {
		assert_int_equal(three(v, 20, false, 0), SNAPSHOT_HIDDEN_NONE);
		assert_int_equal(three(v, 32, false, 0), SNAPSHOT_HIDDEN_NONE);
	}
	/* intent-to-add is an extended flag too, and hides nothing */
	assert_int_equal(three(3, 20, false, 0x2000), SNAPSHOT_HIDDEN_NONE);
}

static void test_bits_are_seen(void **state)
{
	(void)state;
	for (unsigned v = 2; v <= 4; v++)
		assert_int_equal(three(v, 20, true, 0), SNAPSHOT_HIDDEN_SOME);
	for (unsigned v = 3; v <= 4; v++) {
		assert_int_equal(three(v, 20, false, XF_SKIP),
				 SNAPSHOT_HIDDEN_SOME);
		assert_int_equal(three(v, 32, false, XF_SKIP),
				 SNAPSHOT_HIDDEN_SOME);
	}
}

static void test_doubt_asks_git(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	/* extended flags in a version 2 index: not git's format */
	assert_int_equal(three(2, 20, false, XF_SKIP), SNAPSHOT_HIDDEN_UNKNOWN);
	/* an unknown hash length, version, signature */
	assert_int_equal(three(3, 24, false, 0), SNAPSHOT_HIDDEN_UNKNOWN);
	assert_int_equal(three(5, 20, false, 0), SNAPSHOT_HIDDEN_UNKNOWN);
	assert_int_equal(scan(&sb, 20), SNAPSHOT_HIDDEN_UNKNOWN);
	strbuf_addstr(&sb, "DIRX");
	put32(&sb, 2);
	put32(&sb, 0);
	trailer(&sb, 20);
	assert_int_equal(scan(&sb, 20), SNAPSHOT_HIDDEN_UNKNOWN);
	/* a count the entries do not fill, every truncation */
	strbuf_reset(&sb);
	header(&sb, 2, 2);
	entry(&sb, 2, 20, "a", false, 0);
	trailer(&sb, 20);
	assert_int_equal(scan(&sb, 20), SNAPSHOT_HIDDEN_UNKNOWN);
	strbuf_reset(&sb);
	header(&sb, 4, 1);
	entry(&sb, 4, 20, "a", false, 0);
	trailer(&sb, 20);
	for (size_t cut = 1; cut < sb.len - 20; cut++)
		assert_int_equal(
			snapshot_index_hidden((const unsigned char *)sb.buf,
					      sb.len - cut, 20),
			SNAPSHOT_HIDDEN_UNKNOWN);
	strbuf_release(&sb);
}

static void test_split_index_asks_git(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	header(&sb, 2, 1);
	entry(&sb, 2, 20, "a", false, 0);
	strbuf_addstr(&sb, "TREE");
	put32(&sb, 0);
	assert_int_equal(snapshot_index_hidden((const unsigned char *)sb.buf,
					       sb.len,
					       20) == SNAPSHOT_HIDDEN_UNKNOWN,
			 true); /* no trailer: the TREE header is cut */
	trailer(&sb, 20);
	assert_int_equal(scan(&sb, 20), SNAPSHOT_HIDDEN_NONE);
	/* the other entries are in the shared index: cannot tell */
	sb.len -= 20;
	strbuf_addstr(&sb, "link");
	put32(&sb, 20);
	trailer(&sb, 20);
	trailer(&sb, 20);
	assert_int_equal(scan(&sb, 20), SNAPSHOT_HIDDEN_UNKNOWN);
	/* an extension longer than the file */
	sb.len -= 48;
	strbuf_addstr(&sb, "UNTR");
	put32(&sb, 1000);
	trailer(&sb, 20);
	assert_int_equal(scan(&sb, 20), SNAPSHOT_HIDDEN_UNKNOWN);
	strbuf_release(&sb);
}

/* a FIFO planted at the index (a cage's leftover) is doubt, at once: the
 * open never waits for a writer */
static void test_fifo_index_does_not_hang(void **state)
{
	char dir[] = "/tmp/ag-hidden-XXXXXX";
	struct strbuf p = STRBUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	strbuf_addf(&p, "%s/config", dir);
	close(open(p.buf, O_WRONLY | O_CREAT, 0600));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/index", dir);
	assert_int_equal(mkfifo(p.buf, 0600), 0);
	alarm(10); /* a hang fails the test */
	assert_true(snap_index_may_hide(p.buf, dir, dir));
	alarm(0);
	unlink(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/config", dir);
	unlink(p.buf);
	rmdir(dir);
	strbuf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_index_hides_nothing),
		cmocka_unit_test(test_bits_are_seen),
		cmocka_unit_test(test_doubt_asks_git),
		cmocka_unit_test(test_split_index_asks_git),
		cmocka_unit_test(test_fifo_index_does_not_hang),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
