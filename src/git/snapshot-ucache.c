/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The incremental capture's cache of untracked entries
 * (git/snapshot-ucache.h). Index entries (gitformat-index, versions 2 and
 * 3) are read and copied as bytes: 40 bytes of stat data (the mode at 24,
 * the size at 36), the object id, 16 bits of flags (the path's length in
 * the low 12), 16 more when extended, the path, 1 to 8 NULs to a multiple
 * of 8. The cache-tree (TREE) is "<name>" NUL "<count> <subtrees>\n", the
 * id when count >= 0, then the subtrees, in pre-order.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/bigendian.h"
#include "base/fileio.h"
#include "base/sha1.h"
#include "base/strset.h"
#include "base/xalloc.h"
#include "git/refs-files.h"
#include "git/repo-probe.h"
#include "git/snapshot-index.h"
#include "git/snapshot-name.h"
#include "git/snapshot-tmp.h"
#include "git/snapshot-ucache.h"

#define HDR_LEN 12
#define STAT_LEN 40
#define OID_LEN 20
#define MODE_OFF 24
#define SIZE_OFF 36
#define F_VALID 0x8000
#define F_EXTENDED 0x4000
#define F_STAGE 0x3000
#define F_NAMEMASK 0x0fff
#define INDEX_MAX ((size_t)1 << 30)
#define CACHE_MAX ((size_t)256 << 20)
#define PER_FILE \
	4096 /* what reading and hashing a file costs beyond its bytes */
#define MAX_DEPTH 1024
#define MAGIC "AGSC"
#define CACHE_VERSION 1
/* magic, version, stat time (seconds high, low; nanoseconds), ignores */
#define CACHE_HDR (4 + 4 + 4 + 4 + 4 + OID_LEN)

struct ient {
	const unsigned char *at;
	size_t size; /* the entry's bytes, padding included */
	const char *name;
	size_t len;
};

struct iview {
	unsigned version;
	struct ient *e;
	size_t nr;
	const unsigned char *tree; /* the TREE extension's data, or NULL */
	size_t tree_len;
};

struct mapped {
	void *p;
	size_t len;
	struct timespec mtime;
};

void snapshot_ucache_release(struct snapshot_ucache *u)
{
	strbuf_release(&u->entries);
	u->nr = 0;
	u->ready = false;
}

/* git's index order: bytes, then the shorter first */
static int name_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);

	return c ? c : (al < bl ? -1 : al > bl);
}

/* A walk over an index image's entries, without storing them. */
struct iiter {
	const unsigned char *p, *end;
	unsigned version;
	uint32_t left;
	struct ient prev;	   /* prev.name NULL: none yet */
	const unsigned char *tree; /* the TREE extension's data, or NULL */
	size_t tree_len;
};

/* An index image of `len` bytes (its trailing hash included). */
static int iiter_init(struct iiter *it, const unsigned char *buf, size_t len)
{
	memset(it, 0, sizeof(*it));
	if (len < HDR_LEN + OID_LEN || memcmp(buf, "DIRC", 4))
		return -1;
	it->version = get_be32(buf + 4);
	it->left = get_be32(buf + 8);
	it->p = buf + HDR_LEN;
	it->end = buf + len - OID_LEN;
	if ((it->version != 2 && it->version != 3) ||
	    it->left > (size_t)(it->end - it->p) / STAT_LEN)
		return -1;
	return 0;
}

/* The extensions after the entries: TREE remembered; -1 on a malformed
 * one or one that must be understood (split, sparse, newer). */
static int iiter_extensions(struct iiter *it)
{
	const unsigned char *p = it->p, *end = it->end;

	while (p < end) {
		uint32_t size;

		if (end - p < 8)
			return -1;
		size = get_be32(p + 4);
		if ((size_t)(end - p - 8) < size || p[0] < 'A' || p[0] > 'Z')
			return -1;
		if (!memcmp(p, "TREE", 4)) {
			it->tree = p + 8;
			it->tree_len = size;
		}
		p += 8 + size;
	}
	return 0;
}

/* The next entry into *e: 1; 0 at the end (the extensions checked); -1
 * when malformed, unmerged or not strictly sorted. */
static int iiter_next(struct iiter *it, struct ient *e)
{
	size_t fixed = STAT_LEN + OID_LEN + 2, room;
	const unsigned char *nul;
	unsigned flags;

	if (!it->left)
		return iiter_extensions(it);
	room = (size_t)(it->end - it->p);
	if (room < fixed + 2)
		return -1;
	flags = get_be16(it->p + STAT_LEN + OID_LEN);
	if (flags & F_STAGE)
		return -1; /* unmerged: not ours to merge into */
	if (flags & F_EXTENDED) {
		if (it->version < 3)
			return -1;
		fixed += 2;
	}
	nul = memchr(it->p + fixed, '\0', room - fixed);
	if (!nul)
		return -1;
	e->at = it->p;
	e->name = (const char *)it->p + fixed;
	e->len = (size_t)(nul - (it->p + fixed));
	e->size = (fixed + e->len + 8) & ~(size_t)7;
	if (!e->len || room < e->size ||
	    ((flags & F_NAMEMASK) != F_NAMEMASK &&
	     e->len != (flags & F_NAMEMASK)))
		return -1;
	if (it->prev.name &&
	    name_cmp(it->prev.name, it->prev.len, e->name, e->len) >= 0)
		return -1;
	it->prev = *e;
	it->p += e->size;
	it->left--;
	return 1;
}

/* Every entry of an index image, stored (for lookups). */
static int iview_read(struct iview *v, const unsigned char *buf, size_t len)
{
	struct iiter it;
	int r;

	if (iiter_init(&it, buf, len) < 0)
		return -1;
	v->version = it.version;
	v->e = xmalloc(st_mult(it.left ? it.left : 1, sizeof(*v->e)));
	while ((r = iiter_next(&it, &v->e[v->nr])) > 0)
		v->nr++;
	v->tree = it.tree;
	v->tree_len = it.tree_len;
	return r;
}

static size_t lower_bound(const struct ient *e, size_t nr, const char *name,
			  size_t len)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (name_cmp(e[mid].name, e[mid].len, name, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool has_path(const struct ient *e, size_t nr, const char *name,
		     size_t len)
{
	size_t i = lower_bound(e, nr, name, len);

	return i < nr && e[i].len == len && !memcmp(e[i].name, name, len);
}

/* Whether an entry lies below the directory `dir` ("a/b/"). */
static bool has_under(const struct ient *e, size_t nr, const char *dir,
		      size_t len)
{
	size_t i = lower_bound(e, nr, dir, len);

	return i < nr && e[i].len > len && !memcmp(e[i].name, dir, len);
}

static bool plain_mode(const struct ient *e)
{
	uint32_t mode = get_be32(e->at + MODE_OFF);

	return mode == 0100644 || mode == 0100755 || mode == 0120000 ||
	       mode == 0160000;
}

static int map_file(const char *path, struct mapped *m)
{
	cleanup_fd int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0 || (uint64_t)st.st_size > INDEX_MAX)
		return -1;
	m->len = (size_t)st.st_size;
	m->mtime = st.st_mtim;
	m->p = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
	return m->p == MAP_FAILED ? -1 : 0;
}

static void unmap(struct mapped *m)
{
	if (m->p && m->p != MAP_FAILED)
		munmap(m->p, m->len);
}

/* The stat data of an ignore file (or that it is absent) into `c`. */
static void sig_path(struct sha1_ctx *c, const char *path)
{
	struct stat st;
	int64_t v[7] = { 0 };

	if (!lstat(path, &st)) {
		v[0] = 1;
		v[1] = st.st_mtim.tv_sec;
		v[2] = st.st_mtim.tv_nsec;
		v[3] = st.st_ctim.tv_sec;
		v[4] = st.st_ctim.tv_nsec;
		v[5] = st.st_size;
		v[6] = (int64_t)st.st_ino;
	}
	sha1_update(c, path, strlen(path) + 1);
	sha1_update(c, v, sizeof(v));
}

static void sig_begin(struct sha1_ctx *c, const char *commondir,
		      struct strbuf *path)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	sha1_init(c);
	strbuf_reset(path);
	strbuf_addf(path, "%s/info/exclude", commondir);
	sig_path(c, path->buf);
	strbuf_reset(path);
	if (xdg && *xdg)
		strbuf_addf(path, "%s/git/ignore", xdg);
	else if (home && *home)
		strbuf_addf(path, "%s/.config/git/ignore", home);
	if (path->len)
		sig_path(c, path->buf);
}

/* The .gitignore of every directory on the way to `name`, once each. */
static void sig_entry(struct sha1_ctx *c, struct strset *seen,
		      struct strbuf *path, const char *top, const char *name,
		      size_t len)
{
	for (size_t k = 0; k < len; k++) {
		bool added;

		if (k && name[k] != '/')
			continue;
		strbuf_reset(path);
		strbuf_add(path, name, k);
		strset_add(seen, path->buf, &added);
		if (!added)
			continue;
		strbuf_reset(path);
		strbuf_addf(path, "%s/%.*s%s.gitignore", top, (int)k, name,
			    k ? "/" : "");
		sig_path(c, path->buf);
	}
}

static void signature(const struct iview *v, const char *commondir,
		      const char *top, unsigned char out[OID_LEN])
{
	struct strset seen = STRSET_INIT;
	struct strbuf path = STRBUF_INIT;
	struct sha1_ctx c;

	sig_begin(&c, commondir, &path);
	for (size_t i = 0; i < v->nr; i++)
		sig_entry(&c, &seen, &path, top, v->e[i].name, v->e[i].len);
	sha1_final(&c, out);
	strset_clear(&seen);
	strbuf_release(&path);
}

struct tree_rewrite {
	const unsigned char *d;
	size_t n, i;
	const struct ient *used; /* the cached entries merged in, sorted */
	size_t used_nr;
	struct strbuf prefix, *out;
};

/* One cache-tree node and its subtrees, invalidated where a merged entry
 * lies below it. */
static int tree_node(struct tree_rewrite *t, unsigned depth)
{
	const unsigned char *nul;
	size_t name_at = t->i, name_len, keep = t->prefix.len;
	long count, subs;
	bool invalid;

	if (depth > MAX_DEPTH || t->i >= t->n ||
	    !(nul = memchr(t->d + t->i, '\0', t->n - t->i)))
		return -1;
	name_len = (size_t)(nul - (t->d + t->i));
	t->i += name_len + 1;
	if (snapshot_index_read_count(t->d, t->n, &t->i, &count) ||
	    t->i >= t->n || t->d[t->i++] != ' ' ||
	    snapshot_index_read_count(t->d, t->n, &t->i, &subs) || subs < 0 ||
	    t->i >= t->n || t->d[t->i++] != '\n' ||
	    (count >= 0 && t->n - t->i < OID_LEN) || (size_t)subs > t->n)
		return -1;
	if (depth) {
		strbuf_add(&t->prefix, t->d + name_at, name_len);
		strbuf_addch(&t->prefix, '/');
	}
	invalid = !depth ? t->used_nr > 0
			 : has_under(t->used, t->used_nr, t->prefix.buf,
				     t->prefix.len);
	strbuf_add(t->out, t->d + name_at, name_len + 1);
	strbuf_addf(t->out, "%ld %ld\n", invalid ? -1L : count, subs);
	if (count >= 0) {
		if (!invalid)
			strbuf_add(t->out, t->d + t->i, OID_LEN);
		t->i += OID_LEN;
	}
	for (long k = 0; k < subs; k++)
		if (tree_node(t, depth + 1))
			return -1;
	strbuf_setlen(&t->prefix, keep);
	return 0;
}

/* The real index's TREE, invalidated along the merged paths; none when it
 * cannot be read (git then has no cache-tree: slower, never wrong). */
static void add_tree(struct strbuf *out, const struct iview *r,
		     const struct ient *used, size_t used_nr)
{
	struct strbuf data = STRBUF_INIT;
	struct tree_rewrite t = { .d = r->tree,
				  .n = r->tree_len,
				  .used = used,
				  .used_nr = used_nr,
				  .prefix = STRBUF_INIT,
				  .out = &data };
	unsigned char len[4];

	if (r->tree && !tree_node(&t, 0) && t.i == t.n &&
	    data.len <= UINT32_MAX) {
		put_be32(len, (uint32_t)data.len);
		strbuf_add(out, "TREE", 4);
		strbuf_add(out, len, 4);
		strbuf_addbuf(out, &data);
	}
	strbuf_release(&data);
	strbuf_release(&t.prefix);
}

/* Whether the cached entry `c` may join the real index `r`: a path it
 * has not, no file of it on the way, no directory of it at its place. */
static bool fits(const struct iview *r, const struct ient *c,
		 struct strbuf *dir)
{
	if (!plain_mode(c) || has_path(r->e, r->nr, c->name, c->len))
		return false;
	for (size_t k = 1; k < c->len; k++)
		if (c->name[k] == '/' && has_path(r->e, r->nr, c->name, k))
			return false;
	strbuf_reset(dir);
	strbuf_add(dir, c->name, c->len);
	strbuf_addch(dir, '/');
	return !has_under(r->e, r->nr, dir->buf, dir->len);
}

/* The merged index image into `out`: entries in order, TREE, hash. */
static void merged_image(struct strbuf *out, const struct iview *r,
			 size_t r_len, const struct ient *used, size_t used_nr)
{
	unsigned char h[HDR_LEN], sum[OID_LEN];
	struct sha1_ctx c;
	size_t i = 0, j = 0;

	strbuf_grow(out, r_len + used_nr * 128 + 4096);
	memcpy(h, "DIRC", 4);
	put_be32(h + 4, r->version);
	put_be32(h + 8, (uint32_t)(r->nr + used_nr));
	strbuf_add(out, h, sizeof(h));
	while (i < r->nr || j < used_nr) {
		const struct ient *e;
		if (j == used_nr ||
		    (i < r->nr && name_cmp(r->e[i].name, r->e[i].len,
					   used[j].name, used[j].len) < 0))
			e = &r->e[i++];
		else
			e = &used[j++];
		strbuf_add(out, e->at, e->size);
	}
	add_tree(out, r, used, used_nr);
	sha1_init(&c);
	sha1_update(&c, out->buf, out->len);
	sha1_final(&c, sum);
	strbuf_add(out, sum, sizeof(sum));
}

static int write_new(const char *path, const struct strbuf *buf,
		     const struct timespec *mtime)
{
	int fd =
		open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		     0600);
	int ret;

	if (fd < 0)
		return -1;
	ret = write_all(fd, buf->buf, buf->len) < 0 ||
			      (mtime &&
			       futimens(fd, (struct timespec[2]){ *mtime,
								  *mtime }) < 0)
		      ? -1
		      : 0;
	if (close(fd) < 0)
		ret = -1;
	if (ret < 0)
		unlink(path);
	return ret;
}

/* The cache file's bytes, when it is ours and whole (its hash right). */
static int load_cache(const char *gitdir, struct strbuf *buf)
{
	struct strbuf path = STRBUF_INIT;
	cleanup_fd int fd = -1;
	unsigned char sum[OID_LEN];
	struct sha1_ctx c;
	struct stat st;

	strbuf_addf(&path, "%s/" SNAPSHOT_UCACHE_NAME, gitdir);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	strbuf_release(&path);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 1 || (st.st_mode & 022) ||
	    (uint64_t)st.st_size > CACHE_MAX ||
	    read_fd_bounded(fd, CACHE_MAX, buf) < 0 ||
	    buf->len < CACHE_HDR + HDR_LEN + OID_LEN)
		return -1;
	sha1_init(&c);
	sha1_update(&c, buf->buf, buf->len - OID_LEN);
	sha1_final(&c, sum);
	return memcmp(sum, buf->buf + buf->len - OID_LEN, OID_LEN) ? -1 : 0;
}

struct cache_file {
	struct timespec at;
	const unsigned char *ignores;
	const char *ref, *commit;
	struct iview v;
};

static bool lower_hex(const char *s, size_t len)
{
	if (strlen(s) != len)
		return false;
	for (size_t k = 0; k < len; k++)
		if (!((s[k] >= '0' && s[k] <= '9') ||
		      (s[k] >= 'a' && s[k] <= 'f')))
			return false;
	return true;
}

/* Parses the cache and checks that its snapshot ref still holds its
 * commit (and so every object it names). */
static int parse_cache(const struct strbuf *buf, const char *commondir,
		       struct cache_file *cf)
{
	const unsigned char *b = (const unsigned char *)buf->buf;
	const char *end = buf->buf + buf->len - OID_LEN, *p, *nul;
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;
	int ret;

	if (memcmp(b, MAGIC, 4) || get_be32(b + 4) != CACHE_VERSION ||
	    get_be32(b + 16) >= 1000000000u)
		return -1;
	cf->at.tv_sec =
		(time_t)(((uint64_t)get_be32(b + 8) << 32) | get_be32(b + 12));
	cf->at.tv_nsec = (long)get_be32(b + 16);
	cf->ignores = b + 20;
	p = buf->buf + CACHE_HDR;
	if (!(nul = memchr(p, '\0', (size_t)(end - p))))
		return -1;
	cf->ref = p;
	p = nul + 1;
	if (p >= end || !(nul = memchr(p, '\0', (size_t)(end - p))))
		return -1;
	cf->commit = p;
	p = nul + 1;
	if (!starts_with(cf->ref, SNAPSHOT_REF_PREFIX) ||
	    !lower_hex(cf->commit, 40) || p >= end ||
	    iview_read(&cf->v, (const unsigned char *)p,
		       buf->len - (size_t)(p - buf->buf)) < 0 ||
	    cf->v.version != 2 || cf->v.tree)
		return -1;
	strbuf_addf(&want, "%s %s\n", cf->commit, cf->ref);
	ret = refs_files_lookup(commondir, 40, &cf->ref, 1, &out) == 0 &&
			      !strcmp(out.buf, want.buf)
		      ? 0
		      : -1;
	strbuf_release(&out);
	strbuf_release(&want);
	return ret;
}

static bool probe_ok(const char *gitdir, const char *commondir)
{
	const struct repo_probe *p = repo_probe_get(commondir, gitdir);

	return repo_probe_index_ours(p) && repo_probe_refs_ours(p) &&
	       repo_probe_hexlen(p) == 40;
}

/* The cached entries that join `r` into *used; whether that is worth a
 * rewrite of the real index (header invariant 4). */
static bool pick(const struct iview *r, const struct iview *c, size_t real_len,
		 struct ient **used, size_t *used_nr)
{
	struct strbuf dir = STRBUF_INIT;
	uint64_t worth = 0;

	*used = xmalloc(st_mult(c->nr ? c->nr : 1, sizeof(**used)));
	*used_nr = 0;
	for (size_t k = 0; k < c->nr; k++) {
		if (!fits(r, &c->e[k], &dir))
			continue;
		(*used)[(*used_nr)++] = c->e[k];
		worth += get_be32(c->e[k].at + SIZE_OFF) + PER_FILE;
	}
	strbuf_release(&dir);
	return *used_nr && worth >= real_len;
}

int snapshot_ucache_merge(const char *gitdir, const char *commondir,
			  const char *top, const char *real, const char *out)
{
	struct strbuf buf = STRBUF_INIT, img = STRBUF_INIT;
	struct cache_file cf = { 0 };
	struct iview r = { 0 };
	struct mapped m = { 0 };
	struct ient *used = NULL;
	size_t used_nr = 0;
	unsigned char sig[OID_LEN];
	struct timespec mtime;
	int ret = 0;

	if (!probe_ok(gitdir, commondir) || load_cache(gitdir, &buf) < 0 ||
	    parse_cache(&buf, commondir, &cf) < 0 || map_file(real, &m) < 0 ||
	    iview_read(&r, m.p, m.len) < 0)
		goto out;
	signature(&cf.v, commondir, top, sig);
	if (memcmp(sig, cf.ignores, OID_LEN) ||
	    !pick(&r, &cf.v, m.len, &used, &used_nr))
		goto out;
	merged_image(&img, &r, m.len, used, used_nr);
	/* the older time: git's racy rule re-hashes what changed within it */
	mtime = m.mtime;
	if (cf.at.tv_sec < mtime.tv_sec ||
	    (cf.at.tv_sec == mtime.tv_sec && cf.at.tv_nsec < mtime.tv_nsec))
		mtime = cf.at;
	ret = write_new(out, &img, &mtime) < 0 ? -1 : 1;
out:
	unmap(&m);
	free(r.e);
	free(cf.v.e);
	free(used);
	strbuf_release(&buf);
	strbuf_release(&img);
	return ret;
}

/* One entry in the cache's form: version 2, no flag but the length. */
static void add_entry(struct strbuf *out, const struct ient *e)
{
	unsigned char flags[2];
	size_t size = (STAT_LEN + OID_LEN + 2 + e->len + 8) & ~(size_t)7;
	size_t pad = size - (STAT_LEN + OID_LEN + 2 + e->len);
	unsigned len = e->len < F_NAMEMASK ? (unsigned)e->len : F_NAMEMASK;

	strbuf_add(out, e->at, STAT_LEN + OID_LEN);
	flags[0] = (unsigned char)(len >> 8);
	flags[1] = (unsigned char)len;
	strbuf_add(out, flags, 2);
	strbuf_add(out, e->name, e->len);
	strbuf_add(out, "\0\0\0\0\0\0\0\0", pad);
}

/* An entry the cache may hold: plain mode, no bit git would act on. */
static bool cacheable(const struct ient *e)
{
	return plain_mode(e) &&
	       !(get_be16(e->at + STAT_LEN + OID_LEN) & (F_VALID | F_EXTENDED));
}

/* Whether entry `e` is at `r`'s current entry (moved up to it). */
static int in_real(struct iiter *r, struct ient *cur, int *have,
		   const struct ient *e)
{
	int c = 1;

	while (*have > 0 &&
	       (c = name_cmp(cur->name, cur->len, e->name, e->len)) < 0)
		*have = iiter_next(r, cur);
	if (*have < 0)
		return -1;
	return *have > 0 && c == 0;
}

int snapshot_ucache_collect(struct snapshot_ucache *u, const char *commondir,
			    const char *top, const char *real,
			    const char *after, const struct timespec *scan_at)
{
	struct mapped mr = { 0 }, ma = { 0 };
	struct iiter r, a;
	struct ient re = { 0 }, e;
	struct strset seen = STRSET_INIT;
	struct strbuf path = STRBUF_INIT;
	struct sha1_ctx c;
	int have = 0, got = -1, in = 0, ret = -1;

	snapshot_ucache_release(u);
	if (map_file(real, &mr) < 0 || map_file(after, &ma) < 0 ||
	    iiter_init(&r, mr.p, mr.len) < 0 ||
	    iiter_init(&a, ma.p, ma.len) < 0)
		goto out;
	have = iiter_next(&r, &re);
	sig_begin(&c, commondir, &path);
	while ((got = iiter_next(&a, &e)) > 0) {
		if ((in = in_real(&r, &re, &have, &e)) < 0)
			break;
		if (in || !cacheable(&e))
			continue;
		add_entry(&u->entries, &e);
		sig_entry(&c, &seen, &path, top, e.name, e.len);
		u->nr++;
	}
	sha1_final(&c, u->ignores);
	if (got < 0 || in < 0)
		goto out;
	u->at = *scan_at;
	u->ready = true;
	ret = 0;
out:
	unmap(&mr);
	unmap(&ma);
	strset_clear(&seen);
	strbuf_release(&path);
	if (ret < 0)
		snapshot_ucache_release(u);
	return ret;
}

void snapshot_ucache_save(const struct snapshot_ucache *u, const char *gitdir,
			  const char *ref, const char *commit)
{
	struct strbuf path = STRBUF_INIT, tmp = STRBUF_INIT, buf = STRBUF_INIT;
	unsigned char h[CACHE_HDR - OID_LEN], idx[HDR_LEN], sum[OID_LEN];
	uint64_t sec = (uint64_t)u->at.tv_sec;
	struct sha1_ctx c;

	if (!u->ready)
		return;
	strbuf_addf(&path, "%s/" SNAPSHOT_UCACHE_NAME, gitdir);
	if (!u->nr) {
		unlink(path.buf); /* nothing untracked: nothing to keep */
		goto out;
	}
	memcpy(h, MAGIC, 4);
	put_be32(h + 4, CACHE_VERSION);
	put_be32(h + 8, (uint32_t)(sec >> 32));
	put_be32(h + 12, (uint32_t)sec);
	put_be32(h + 16, (uint32_t)u->at.tv_nsec);
	strbuf_add(&buf, h, sizeof(h));
	strbuf_add(&buf, u->ignores, OID_LEN);
	strbuf_add(&buf, ref, strlen(ref) + 1);
	strbuf_add(&buf, commit, strlen(commit) + 1);
	memcpy(idx, "DIRC", 4);
	put_be32(idx + 4, 2);
	put_be32(idx + 8, u->nr);
	strbuf_add(&buf, idx, sizeof(idx));
	strbuf_addbuf(&buf, &u->entries);
	sha1_init(&c);
	sha1_update(&c, buf.buf, buf.len);
	sha1_final(&c, sum);
	strbuf_add(&buf, sum, sizeof(sum));
	snapshot_tmp_name(&tmp, gitdir);
	if (!write_new(tmp.buf, &buf, NULL) && rename(tmp.buf, path.buf) < 0)
		unlink(tmp.buf);
out:
	strbuf_release(&path);
	strbuf_release(&tmp);
	strbuf_release(&buf);
}
