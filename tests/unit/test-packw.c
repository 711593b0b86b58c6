/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-1 (base/sha1.h) against the FIPS vectors, and packs written by
 * git/packw.h: object ids, the bytes of the pack and its index, and real
 * git reading them back (verify-pack, fsck, cat-file).
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/sha1.h"
#include "base/spawn.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "git/packw.h"
#include "unit-git.h"
#include "unit-tmpdir.h"

UNIT_GIT_GROUP("packw")

static void hex_of(const unsigned char *raw, char out[41])
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addhex(&sb, raw, 20);
	assert_int_equal(sb.len, 40);
	memcpy(out, sb.buf, 41);
	strbuf_release(&sb);
}

static void sha1_hex(const void *data, size_t len, char out[41])
{
	struct sha1_ctx c;
	unsigned char raw[20];

	sha1_init(&c);
	sha1_update(&c, data, len);
	sha1_final(&c, raw);
	hex_of(raw, out);
}

static void test_sha1_vectors(void **state)
{
	static const struct {
		const char *msg, *hex;
	} v[] = {
		{ "", "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
		{ "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "a49b2446a02c645bf419f995b67091253a04a259" },
	};
	char hex[41];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		sha1_hex(v[i].msg, strlen(v[i].msg), hex);
		assert_string_equal(hex, v[i].hex);
	}
}

/* Lengths around the padding boundary (55 fits one block, 56 needs two). */
static void test_sha1_padding_edges(void **state)
{
	static const struct {
		size_t n;
		const char *hex;
	} v[] = {
		{ 55, "c1c8bbdc22796e28c0e15163d20899b65621d65a" },
		{ 56, "c2db330f6083854c99d4b5bfb6e8f29f201be699" },
		{ 64, "0098ba824b5c16427bd7a1122a5a442a25ec644d" },
	};
	char a[64], hex[41];
	size_t i;

	(void)state;
	memset(a, 'a', sizeof(a));
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		sha1_hex(a, v[i].n, hex);
		assert_string_equal(hex, v[i].hex);
	}
}

/* One million 'a' in odd chunks: partial blocks, whole blocks, both. */
static void test_sha1_million_a_chunked(void **state)
{
	static const size_t chunk[] = { 1, 63, 64, 65, 7, 127, 128, 1000, 3 };
	char *a = xmalloc(1000000);
	struct sha1_ctx c;
	unsigned char raw[20];
	char hex[41];
	size_t done = 0, i = 0;

	(void)state;
	memset(a, 'a', 1000000);
	sha1_init(&c);
	while (done < 1000000) {
		size_t n = chunk[i++ % ARRAY_SIZE(chunk)];

		if (n > 1000000 - done)
			n = 1000000 - done;
		sha1_update(&c, a + done, n);
		done += n;
	}
	sha1_final(&c, raw);
	hex_of(raw, hex);
	assert_string_equal(hex, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
	sha1_hex(a, 1000000, hex); /* and in one go */
	assert_string_equal(hex, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
	free(a);
}

static void test_object_ids_and_dedup(void **state)
{
	struct packw pw = PACKW_INIT;
	unsigned char oid[20], again[20];
	char hex[41];

	(void)state;
	packw_add(&pw, PACKW_TREE, "", 0, oid);
	hex_of(oid, hex);
	assert_string_equal(hex, "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
	packw_add(&pw, PACKW_BLOB, "hello\n", 6, oid);
	hex_of(oid, hex);
	assert_string_equal(hex, "ce013625030ba8dba906f756967f9e9ca394464a");
	assert_int_equal(packw_count(&pw), 2);
	packw_add(&pw, PACKW_BLOB, "hello\n", 6, again);
	assert_memory_equal(oid, again, 20);
	assert_int_equal(packw_count(&pw), 2); /* kept once */
	packw_add(&pw, PACKW_TREE, "", 0, again);
	assert_int_equal(packw_count(&pw), 2);
	packw_release(&pw);
	assert_int_equal(packw_count(&pw), 0);
}

/* Many objects: the id table grows and still finds every one. */
static void test_dedup_many(void **state)
{
	struct packw pw = PACKW_INIT;
	unsigned char oid[20];
	char buf[32];
	int round, i;

	(void)state;
	for (round = 0; round < 2; round++)
		for (i = 0; i < 1000; i++) {
			int n = snprintf(buf, sizeof(buf), "object %d\n", i);

			packw_add(&pw, PACKW_BLOB, buf, (size_t)n, oid);
		}
	assert_int_equal(packw_count(&pw), 1000);
	packw_release(&pw);
}

/* Entries of <d> whose name starts with prefix. */
static int count_entries(const char *d, const char *prefix)
{
	DIR *dp = opendir(d);
	struct dirent *de;
	int n = 0;

	if (!dp)
		return -1;
	while ((de = readdir(dp)))
		n += starts_with(de->d_name, prefix);
	closedir(dp);
	return n;
}

/* The name of an entry of <d> ending in suffix, fresh; NULL if none. */
static char *find_entry(const char *d, const char *suffix)
{
	DIR *dp = opendir(d);
	struct dirent *de;
	char *name = NULL;

	assert_non_null(dp);
	while (!name && (de = readdir(dp)))
		if (ends_with(de->d_name, suffix))
			name = xstrdup(de->d_name);
	closedir(dp);
	return name;
}

static void test_finish_nothing_kept(void **state)
{
	struct packw pw = PACKW_INIT;
	struct strbuf od = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	strbuf_addf(&od, "%s/empty-objects", dir);
	assert_int_equal(mkdir(od.buf, 0777), 0);
	assert_int_equal(packw_finish(&pw, od.buf, &err), 0);
	assert_int_equal(err.len, 0);
	assert_int_equal(count_entries(od.buf, ""), 2); /* . and .. */
	packw_release(&pw);
	strbuf_release(&od);
	strbuf_release(&err);
}

static void test_finish_fails_clean(void **state)
{
	struct packw pw = PACKW_INIT;
	struct strbuf od = STRBUF_INIT, err = STRBUF_INIT;
	unsigned char oid[20];
	FILE *f;

	(void)state;
	strbuf_addf(&od, "%s/not-a-dir", dir);
	f = fopen(od.buf, "w");
	assert_non_null(f);
	fclose(f);
	packw_add(&pw, PACKW_BLOB, "x", 1, oid);
	assert_int_equal(packw_finish(&pw, od.buf, &err), -1);
	assert_true(starts_with(err.buf, "cannot "));
	assert_null(strchr(err.buf, '\n'));
	assert_non_null(strstr(err.buf, "Not a directory"));
	assert_int_equal(count_entries(dir, "not-a-dir"), 1);
	packw_release(&pw);
	strbuf_release(&od);
	strbuf_release(&err);
}

/* git in <repo>, isolated from the user's configuration; its exit code. */
#define run_git(repo, out, ...) unit_run_git(git, repo, out, __VA_ARGS__)

struct repo_objs {
	unsigned char blob[20], tree[20], commit[20], big[20], edge[20];
	unsigned char empty[20];
	char *big_data; /* 2 * 65535 + 10 bytes */
	char *edge_data; /* exactly 65535 bytes: one full final block */
	struct strbuf commit_text;
};

static void add_repo_objects(struct packw *pw, struct repo_objs *r)
{
	struct strbuf tree = STRBUF_INIT;
	size_t i;

	packw_add(pw, PACKW_BLOB, "hello\n", 6, r->blob);
	strbuf_addstr(&tree, "100644 name");
	strbuf_addch(&tree, '\0');
	strbuf_add(&tree, r->blob, 20);
	packw_add(pw, PACKW_TREE, tree.buf, tree.len, r->tree);
	strbuf_init(&r->commit_text, 0);
	strbuf_addstr(&r->commit_text, "tree ");
	strbuf_addhex(&r->commit_text, r->tree, 20);
	strbuf_addstr(&r->commit_text, "\nauthor a <a@a> 1 +0000\n"
		      "committer a <a@a> 1 +0000\n\nmsg\n");
	packw_add(pw, PACKW_COMMIT, r->commit_text.buf, r->commit_text.len,
		  r->commit);
	r->big_data = xmalloc(2 * 65535 + 10);
	for (i = 0; i < 2 * 65535 + 10; i++)
		r->big_data[i] = (char)(i * 31 ^ i >> 9);
	packw_add(pw, PACKW_BLOB, r->big_data, 2 * 65535 + 10, r->big);
	r->edge_data = xmalloc(65535);
	memset(r->edge_data, 'e', 65535);
	packw_add(pw, PACKW_BLOB, r->edge_data, 65535, r->edge);
	packw_add(pw, PACKW_BLOB, "", 0, r->empty);
	strbuf_release(&tree);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void slurp_big(const char *path, struct strbuf *sb)
{
	assert_int_equal(read_file_bounded(path, 1 << 20, RF_REGULAR, sb), 0);
}

/*
 * The bytes themselves, without git: file names = pack checksum, index
 * trailer = pack checksum + its own SHA-1, and the empty blob's entry
 * (its exact packed bytes and their zlib CRC-32, computed with zlib).
 */
static void check_pack_bytes(const char *packdir, const char *idxname,
			     const struct repo_objs *r)
{
	static const unsigned char empty_packed[12] = {
		0x30, 0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 1 };
	struct strbuf path = STRBUF_INIT, pack = STRBUF_INIT, idx = STRBUF_INIT;
	const unsigned char *ip, *names;
	char hex[41], trailer[41];
	uint32_t n, k;
	struct stat st;

	strbuf_addf(&path, "%s/%s", packdir, idxname);
	slurp_big(path.buf, &idx);
	assert_int_equal(stat(path.buf, &st), 0);
	assert_int_equal(st.st_mode & 0222, 0); /* read-only, as git's */
	strbuf_setlen(&path, path.len - 4);
	strbuf_addstr(&path, ".pack");
	slurp_big(path.buf, &pack);
	ip = (const unsigned char *)idx.buf;
	assert_memory_equal(pack.buf, "PACK\0\0\0\2\0\0\0\6", 12);
	sha1_hex(pack.buf, pack.len - 20, hex);
	assert_int_equal(strncmp(idxname, "pack-", 5), 0);
	assert_memory_equal(idxname + 5, hex, 40);
	assert_memory_equal(idxname + 45, ".idx", 5);
	assert_memory_equal(ip, "\377tOc\0\0\0\2", 8);
	n = be32(ip + 8 + 255 * 4);
	assert_int_equal(n, 6);
	assert_int_equal(idx.len, 8 + 1024 + n * 28 + 40);
	assert_memory_equal(ip + idx.len - 40, pack.buf + pack.len - 20, 20);
	sha1_hex(idx.buf, idx.len - 20, hex);
	hex_of(ip + idx.len - 20, trailer);
	assert_string_equal(hex, trailer);
	names = ip + 8 + 1024;
	for (k = 0; k < n && memcmp(names + 20 * k, r->empty, 20); k++)
		;
	assert_true(k < n);
	assert_int_equal(be32(names + 20 * n + 4 * k), 0x8a036076);
	assert_memory_equal(pack.buf + be32(names + 24 * n + 4 * k),
			    empty_packed, sizeof(empty_packed));
	strbuf_release(&path);
	strbuf_release(&pack);
	strbuf_release(&idx);
}

/* `git <args> <oid>` prints exactly `want` (len bytes). */
static void check_git_prints(const char *repo, const char *how,
			     const unsigned char *oid, const void *want,
			     size_t len)
{
	struct strbuf out = STRBUF_INIT, hex = STRBUF_INIT;

	strbuf_addhex(&hex, oid, 20);
	assert_int_equal(run_git(repo, &out, "cat-file", how, hex.buf, NULL),
			 0);
	assert_int_equal(out.len, len);
	assert_memory_equal(out.buf, want, len);
	strbuf_release(&out);
	strbuf_release(&hex);
}

static void check_with_git(const char *repo, const char *packdir,
			   const char *idxname, const struct repo_objs *r)
{
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf hex = STRBUF_INIT;

	strbuf_addf(&path, "%s/%s", packdir, idxname);
	assert_int_equal(run_git(repo, &out, "verify-pack", "-v", path.buf,
				 NULL), 0);
	strbuf_addhex(&hex, r->commit, 20);
	strbuf_addstr(&hex, " commit ");
	assert_non_null(strstr(out.buf, hex.buf));
	strbuf_reset(&hex);
	strbuf_addhex(&hex, r->big, 20);
	strbuf_addstr(&hex, " blob   131080 ");
	assert_non_null(strstr(out.buf, hex.buf));
	assert_non_null(strstr(out.buf, "non delta: 6 objects"));
	strbuf_reset(&hex);
	strbuf_addhex(&hex, r->commit, 20);
	assert_int_equal(run_git(repo, NULL, "update-ref", "refs/heads/main",
				 hex.buf, NULL), 0);
	assert_int_equal(run_git(repo, NULL, "fsck", "--strict", "--full",
				 "--no-dangling", NULL), 0);
	check_git_prints(repo, "-p", r->commit, r->commit_text.buf,
			 r->commit_text.len);
	check_git_prints(repo, "commit", r->commit, r->commit_text.buf,
			 r->commit_text.len);
	check_git_prints(repo, "blob", r->big, r->big_data, 2 * 65535 + 10);
	check_git_prints(repo, "blob", r->edge, r->edge_data, 65535);
	check_git_prints(repo, "blob", r->empty, "", 0);
	check_git_prints(repo, "blob", r->blob, "hello\n", 6);
	strbuf_release(&path);
	strbuf_release(&out);
	strbuf_release(&hex);
}

static void test_real_repository(void **state)
{
	struct packw pw = PACKW_INIT;
	struct repo_objs r;
	struct strbuf repo = STRBUF_INIT, od = STRBUF_INIT, pd = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	char *idxname = NULL;

	(void)state;
	if (!git)
		skip();
	strbuf_addf(&repo, "%s/repo", dir);
	assert_int_equal(run_git(dir, NULL, "init", "-q", repo.buf, NULL), 0);
	strbuf_addf(&od, "%s/.git/objects", repo.buf);
	strbuf_addf(&pd, "%s/pack", od.buf);
	add_repo_objects(&pw, &r);
	assert_int_equal(packw_count(&pw), 6);
	assert_int_equal(packw_finish(&pw, od.buf, &err), 0);
	assert_int_equal(err.len, 0);
	assert_int_equal(count_entries(pd.buf, "pack-"), 2);
	assert_int_equal(count_entries(pd.buf, "tmp_"), 0);
	idxname = find_entry(pd.buf, ".idx");
	assert_non_null(idxname);
	check_pack_bytes(pd.buf, idxname, &r);
	check_with_git(repo.buf, pd.buf, idxname, &r);
	/* the same objects again: the same names, already there, success */
	assert_int_equal(packw_finish(&pw, od.buf, &err), 0);
	assert_int_equal(count_entries(pd.buf, ""), 4); /* ., .., 2 */
	free(idxname);
	free(r.big_data);
	free(r.edge_data);
	strbuf_release(&r.commit_text);
	packw_release(&pw);
	strbuf_release(&repo);
	strbuf_release(&od);
	strbuf_release(&pd);
	strbuf_release(&err);
}

/*
 * A failure after both temporary files exist (the .idx's final name is
 * taken by a directory): -1, a reason, and no tmp_* file left behind.
 */
static void test_rename_failure_leaves_no_temp(void **state)
{
	struct packw pw = PACKW_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, p = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	unsigned char oid[20];
	mode_t mask = umask(022);
	struct stat st;
	char *name;

	(void)state;
	umask(mask);
	packw_add(&pw, PACKW_BLOB, "x\n", 2, oid);
	strbuf_addf(&a, "%s/objs-a", dir);
	assert_int_equal(mkdir(a.buf, 0777), 0);
	assert_int_equal(packw_finish(&pw, a.buf, &err), 0);
	strbuf_addstr(&a, "/pack");
	assert_int_equal(stat(a.buf, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0777 & ~mask);
	name = find_entry(a.buf, ".idx");
	assert_non_null(name);
	/* objs-b/pack/<the same name>.idx is a directory: rename fails */
	strbuf_addf(&b, "%s/objs-b", dir);
	strbuf_addf(&p, "%s/pack", b.buf);
	assert_int_equal(mkdir(b.buf, 0777), 0);
	assert_int_equal(mkdir(p.buf, 0777), 0);
	strbuf_addf(&p, "/%s", name);
	assert_int_equal(mkdir(p.buf, 0777), 0);
	assert_int_equal(packw_finish(&pw, b.buf, &err), -1);
	assert_true(starts_with(err.buf, "cannot rename '"));
	assert_null(strchr(err.buf, '\n'));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/pack", b.buf);
	assert_int_equal(count_entries(p.buf, "tmp_"), 0);
	free(name);
	packw_release(&pw);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&p);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha1_vectors),
		cmocka_unit_test(test_sha1_padding_edges),
		cmocka_unit_test(test_sha1_million_a_chunked),
		cmocka_unit_test(test_object_ids_and_dedup),
		cmocka_unit_test(test_dedup_many),
		cmocka_unit_test(test_finish_nothing_kept),
		cmocka_unit_test(test_finish_fails_clean),
		cmocka_unit_test(test_real_repository),
		cmocka_unit_test(test_rename_failure_leaves_no_temp),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
