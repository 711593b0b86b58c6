/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The index file format (git's Documentation/gitformat-index.txt): a
 * 12-byte header ("DIRC", version, entry count), the entries, then
 * extensions (4-byte signature, 4-byte big-endian size, data), then a
 * hash of everything before it.
 *
 * The TREE extension is git's cache of the index's trees, in pre-order:
 * "<name>" NUL "<entry_count> <subtrees>\n", and when entry_count >= 0
 * (the tree is valid) its raw object id; then its subtrees. A valid node
 * covers exactly `entry_count` entries, in index order.
 *
 * Building a tree is git's write-tree (cache-tree.c update_one): walk
 * the sorted entries one directory at a time; a directory whose cache
 * node is valid is taken as it is, any other is formatted ("<mode>
 * <name>" NUL <raw id> per entry, directories as "40000") and hashed.
 */
#include "base/common.h"
#include <string.h>
#include "base/bigendian.h"
#include "base/xalloc.h"
#include "git/packw.h"
#include "git/snapshot-index.h"

#define HDR_LEN 12
#define STAT_LEN 40 /* ctime, mtime, dev, ino, mode, uid, gid, size */
#define MODE_OFF 24
#define F_EXTENDED 0x4000
#define F_STAGE 0x3000
#define F_NAMEMASK 0x0fff
#define XF_INTENT_TO_ADD 0x2000
#define MAX_DEPTH 1024 /* deeper trees are left to git */

/* 16 bytes an entry: a 20,000-file index is read without a page fault
 * per handful of entries (on a virtual machine faults are most of the
 * cost). The mode, id and flags are read from the entry's bytes. */
struct ientry {
	size_t path;  /* offset from view.names */
	uint32_t len; /* the path's length */
	uint32_t at;  /* the entry's offset in the index */
};

struct cnode {
	const unsigned char *name;
	size_t name_len;
	long count; /* < 0: invalid */
	const unsigned char *oid;
	size_t kids, nkids; /* positions in view.kids */
};

struct view {
	size_t hash_len;
	unsigned version;
	const unsigned char *buf;
	struct ientry *e;
	size_t nr;
	/* where paths are: the index itself (versions 2 and 3 store each
	 * path whole, NUL-terminated), or for version 4 `paths`, every path
	 * decompressed, NUL-terminated */
	const char *names;
	struct strbuf paths;
	struct cnode *ct;
	size_t ct_nr, ct_alloc;
	size_t *kids;
	size_t kids_nr, kids_alloc;
	const unsigned char *tree; /* the TREE extension's data, or NULL */
	size_t tree_len;
};

static const char *path_of(const struct view *v, size_t i)
{
	return v->names + v->e[i].path;
}

static uint32_t mode_of(const struct view *v, size_t i)
{
	return get_be32(v->buf + v->e[i].at + MODE_OFF);
}

static const unsigned char *oid_of(const struct view *v, size_t i)
{
	return v->buf + v->e[i].at + STAT_LEN;
}

/* intent-to-add: in the extended flags, not in any tree */
static bool ita_of(const struct view *v, size_t i)
{
	const unsigned char *f = v->buf + v->e[i].at + STAT_LEN + v->hash_len;

	return (get_be16(f) & F_EXTENDED) && (get_be16(f + 2) & XF_INTENT_TO_ADD);
}

/* git's varint (varint.c): 7 bits a byte, each continuation adds one. */
static const unsigned char *varint(const unsigned char *p,
				   const unsigned char *end, size_t *out)
{
	size_t val;

	if (p >= end)
		return NULL;
	val = *p & 127;
	while (*p++ & 128) {
		if (p >= end || val > (SIZE_MAX >> 8))
			return NULL;
		val = ((val + 1) << 7) | (*p & 127);
	}
	*out = val;
	return p;
}

/* The path of a version 4 entry: the previous one, `strip` bytes cut
 * off its end, then the bytes up to the NUL. Paths only ever grow by
 * their suffix: a total past `max` is refused (not memory without end). */
static int v4_path(struct view *v, const unsigned char *name,
		   const unsigned char *end, size_t max,
		   const unsigned char **nul)
{
	size_t strip, prev_off = 0, prev_len = 0;

	name = varint(name, end, &strip);
	if (!name || !(*nul = memchr(name, '\0', (size_t)(end - name))))
		return -1;
	if (v->nr) {
		prev_off = v->e[v->nr - 1].path;
		prev_len = v->e[v->nr - 1].len;
	}
	if (strip > prev_len ||
	    prev_len - strip + (size_t)(*nul - name) >= UINT32_MAX ||
	    v->paths.len + prev_len - strip + (size_t)(*nul - name) > max)
		return -1;
	/* the previous path is the arena's tail: copy within it */
	strbuf_grow(&v->paths, prev_len - strip);
	strbuf_add(&v->paths, v->paths.buf + prev_off, prev_len - strip);
	strbuf_add(&v->paths, name, (size_t)(*nul - name));
	return 0;
}

/* Reads one entry at *p. -1 when malformed or unmerged. */
static int read_entry(struct view *v, const unsigned char **p,
		      const unsigned char *end)
{
	const unsigned char *start = *p, *name, *nul;
	size_t fixed = STAT_LEN + v->hash_len + 2, size;
	unsigned flags;
	struct ientry *e = &v->e[v->nr];

	if ((size_t)(end - start) < fixed)
		return -1;
	flags = get_be16(start + STAT_LEN + v->hash_len);
	if (flags & F_STAGE)
		return -1; /* unmerged: git write-tree decides (and fails) */
	if (flags & F_EXTENDED) {
		if (v->version < 3 || (size_t)(end - start) < fixed + 2)
			return -1;
		fixed += 2;
	}
	name = start + fixed;
	e->at = (uint32_t)(start - v->buf);
	if (v->version == 4) {
		e->path = v->paths.len;
		if (v4_path(v, name, end, 8 * (size_t)(end - v->buf), &nul) < 0)
			return -1;
		strbuf_addch(&v->paths, '\0');
		e->len = (uint32_t)(v->paths.len - 1 - e->path);
		*p = nul + 1;
	} else {
		nul = memchr(name, '\0', (size_t)(end - name));
		if (!nul || ((flags & F_NAMEMASK) != F_NAMEMASK &&
			     (size_t)(nul - name) != (flags & F_NAMEMASK)))
			return -1;
		/* padded with 1 to 8 NULs to a multiple of 8 */
		size = (fixed + (size_t)(nul - name) + 8) & ~(size_t)7;
		if ((size_t)(end - start) < size)
			return -1;
		e->path = (size_t)(name - v->buf);
		e->len = (uint32_t)(nul - name);
		*p = start + size;
	}
	v->nr++;
	return 0;
}

/* The extensions after the entries: remembers TREE; -1 on a malformed
 * one or on any required extension (gitformat-index: a signature whose
 * first byte is not 'A'..'Z' must be understood): a split index (`link`),
 * a sparse one (`sdir`), or one we do not know. git reads those. */
static int read_extensions(struct view *v, const unsigned char *p,
			   const unsigned char *end)
{
	while (p < end) {
		uint32_t size;

		if (end - p < 8)
			return -1;
		size = get_be32(p + 4);
		if ((size_t)(end - p - 8) < size)
			return -1;
		if (p[0] < 'A' || p[0] > 'Z')
			return -1;
		if (!memcmp(p, "TREE", 4)) {
			v->tree = p + 8;
			v->tree_len = size;
		}
		p += 8 + size;
	}
	return 0;
}

static int read_view(struct view *v, const unsigned char *buf, size_t len)
{
	const unsigned char *p, *end;
	uint32_t nr;

	if ((v->hash_len != 20 && v->hash_len != 32) ||
	    len < HDR_LEN + v->hash_len || len > UINT32_MAX ||
	    memcmp(buf, "DIRC", 4))
		return -1;
	v->buf = buf;
	v->version = get_be32(buf + 4);
	nr = get_be32(buf + 8);
	if (v->version < 2 || v->version > 4)
		return -1;
	p = buf + HDR_LEN;
	end = buf + len - v->hash_len; /* the trailing checksum */
	/* every entry takes more than 40 bytes: a count the file cannot
	 * hold is refused before anything is allocated for it */
	if (nr > (size_t)(end - p) / STAT_LEN)
		return -1;
	v->e = xmalloc(st_mult(nr ? nr : 1, sizeof(*v->e)));
	for (uint32_t i = 0; i < nr; i++)
		if (read_entry(v, &p, end) < 0)
			return -1;
	/* the arena is whole now: it moves no more */
	v->names = v->version == 4 ? v->paths.buf : (const char *)buf;
	return read_extensions(v, p, end);
}

int snapshot_index_read_count(const unsigned char *d, size_t n, size_t *i,
			      long *out)
{
	long val = 0;
	bool neg = *i < n && d[*i] == '-';

	if (neg)
		(*i)++;
	if (*i >= n || d[*i] < '0' || d[*i] > '9')
		return -1;
	while (*i < n && d[*i] >= '0' && d[*i] <= '9') {
		if (val > 100000000L)
			return -1;
		val = val * 10 + (d[(*i)++] - '0');
	}
	*out = neg ? -val : val;
	return 0;
}

/* One cache node and, recursively, its subtrees; its position in *pos. */
static int read_cnode(struct view *v, size_t *i, unsigned depth, size_t *pos)
{
	const unsigned char *d = v->tree, *nul;
	size_t n = v->tree_len, me = v->ct_nr;
	long subs;
	struct cnode c = { 0 };

	if (depth > MAX_DEPTH || *i >= n ||
	    !(nul = memchr(d + *i, '\0', n - *i)))
		return -1;
	c.name = d + *i;
	c.name_len = (size_t)(nul - (d + *i));
	*i = (size_t)(nul - d) + 1;
	if (snapshot_index_read_count(d, n, i, &c.count) || *i >= n ||
	    d[(*i)++] != ' ' || snapshot_index_read_count(d, n, i, &subs) ||
	    subs < 0 || *i >= n || d[(*i)++] != '\n')
		return -1;
	if (c.count >= 0) {
		if (n - *i < v->hash_len)
			return -1;
		c.oid = d + *i;
		*i += v->hash_len;
	}
	c.kids = v->kids_nr;
	c.nkids = (size_t)subs;
	if (c.nkids > n - *i) /* each subtree takes bytes */
		return -1;
	ALLOC_GROW(v->ct, v->ct_nr, v->ct_alloc);
	v->ct[v->ct_nr++] = c;
	for (size_t k = 0; k < c.nkids; k++) {
		ALLOC_GROW(v->kids, v->kids_nr, v->kids_alloc);
		v->kids_nr++;
	}
	for (size_t k = 0; k < c.nkids; k++) {
		size_t kid; /* v->kids may move while the subtree is read */
		if (read_cnode(v, i, depth + 1, &kid))
			return -1;
		v->kids[c.kids + k] = kid;
	}
	*pos = me;
	return 0;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	unsigned char nz = 0;

	for (size_t k = 0; k < n; k++)
		nz |= p[k];
	return !nz;
}

/* The cache node of subdirectory `name` of node `parent` (NULL: none). */
static const struct cnode *child(const struct view *v,
				 const struct cnode *parent, const char *name,
				 size_t len)
{
	if (!parent)
		return NULL;
	for (size_t k = 0; k < parent->nkids; k++) {
		const struct cnode *c = &v->ct[v->kids[parent->kids + k]];
		if (c->name_len == len && !memcmp(c->name, name, len))
			return c;
	}
	return NULL;
}

static bool under(const struct view *v, size_t i, const char *prefix,
		  size_t plen)
{
	return v->e[i].len > plen && !memcmp(path_of(v, i), prefix, plen);
}

/* A valid cache node for the directory `prefix` starting at entry *i:
 * taken when its count covers exactly that directory's entries. */
static bool take_cached(const struct view *v, size_t *i, const char *prefix,
			size_t plen, const struct cnode *c, unsigned char *oid)
{
	size_t last;

	if (!c || c->count <= 0 || all_zero(c->oid, v->hash_len) ||
	    (size_t)c->count > v->nr - *i)
		return false;
	last = *i + (size_t)c->count - 1;
	if (!under(v, last, prefix, plen) ||
	    (last + 1 < v->nr && under(v, last + 1, prefix, plen)))
		return false;
	memcpy(oid, c->oid, v->hash_len);
	*i = last + 1;
	return true;
}

static const char *mode_str(uint32_t mode)
{
	switch (mode) {
	case 0100644: return "100644";
	case 0100755: return "100755";
	case 0120000: return "120000";
	case 0160000: return "160000";
	default: return NULL;
	}
}

struct walk {
	struct view *v;
	struct packw *pw;
};

static int build_dir(struct walk *w, size_t *i, const char *prefix,
		     size_t plen, const struct cnode *c, unsigned depth,
		     unsigned char *oid);

/* One entry of the directory `prefix` (entry *i, under it) into `t`. */
static int build_entry(struct walk *w, size_t *i, size_t plen,
		       const struct cnode *c, unsigned depth,
		       struct strbuf *t, const char **last, size_t *last_len)
{
	struct view *v = w->v;
	const char *path = path_of(v, *i), *name = path + plen,
		   *slash = memchr(name, '/', v->e[*i].len - plen), *mode;
	size_t len = slash ? (size_t)(slash - name) : v->e[*i].len - plen;
	unsigned char sub[20];

	if (!len || (*last && len == *last_len && !memcmp(name, *last, len)))
		return -1; /* an empty name, or both a file and a directory */
	*last = name;
	*last_len = len;
	if (slash) {
		if (build_dir(w, i, path, plen + len + 1,
			      child(v, c, name, len), depth + 1, sub))
			return -1;
		strbuf_addstr(t, "40000 ");
		strbuf_add(t, name, len);
		strbuf_addch(t, '\0');
		strbuf_add(t, sub, sizeof(sub));
		return 0;
	}
	if (ita_of(v, *i) || !(mode = mode_str(mode_of(v, *i))))
		return -1; /* intent-to-add, an odd mode: git decides */
	strbuf_addstr(t, mode);
	strbuf_addch(t, ' ');
	strbuf_add(t, name, len + 1); /* with its NUL */
	strbuf_add(t, oid_of(v, *i), v->hash_len);
	(*i)++;
	return 0;
}

static int build_dir(struct walk *w, size_t *i, const char *prefix,
		     size_t plen, const struct cnode *c, unsigned depth,
		     unsigned char *oid)
{
	struct strbuf t = STRBUF_INIT;
	const char *last = NULL;
	size_t last_len = 0;
	int ret = 0;

	if (depth > MAX_DEPTH)
		return -1;
	if (take_cached(w->v, i, prefix, plen, c, oid))
		return 0;
	while (!ret && *i < w->v->nr && (!plen || under(w->v, *i, prefix, plen)))
		ret = build_entry(w, i, plen, c, depth, &t, &last, &last_len);
	if (!ret && plen && !t.len)
		ret = -1; /* an empty subtree: not ours to decide */
	if (!ret)
		packw_add_strbuf(w->pw, PACKW_TREE, &t, oid);
	strbuf_release(&t);
	return ret;
}

/* Strictly increasing paths (all at stage 0 here): git's own order, the
 * one trees are built in. */
static bool sorted(const struct view *v)
{
	for (size_t i = 1; i < v->nr; i++) {
		size_t a = v->e[i - 1].len, b = v->e[i].len;
		int cmp = memcmp(path_of(v, i - 1), path_of(v, i),
				 a < b ? a : b);
		if (cmp > 0 || (!cmp && a >= b))
			return false;
	}
	return true;
}

static enum snapshot_index_tree build_root(struct view *v, struct packw *pw,
					   const struct cnode *root,
					   struct strbuf *tree_hex)
{
	struct walk w = { v, pw };
	unsigned char oid[20];
	size_t i = 0;

	if (!pw || v->hash_len != sizeof(oid) || !sorted(v) ||
	    build_dir(&w, &i, "", 0, root, 0, oid) || i != v->nr)
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	strbuf_addhex(tree_hex, oid, sizeof(oid));
	return SNAPSHOT_INDEX_TREE_VALID;
}

static void view_release(struct view *v)
{
	free(v->e);
	free(v->ct);
	free(v->kids);
	strbuf_release(&v->paths);
}

enum snapshot_index_tree snapshot_index_build(const unsigned char *buf,
					      size_t len, size_t hash_len,
					      struct packw *pw,
					      struct strbuf *tree_hex)
{
	struct view v = { .hash_len = hash_len, .paths = STRBUF_INIT };
	enum snapshot_index_tree r = SNAPSHOT_INDEX_TREE_UNKNOWN;
	const struct cnode *root = NULL;
	size_t i = 0, pos;

	if (read_view(&v, buf, len) < 0)
		goto out;
	if (v.tree && !read_cnode(&v, &i, 0, &pos) && !v.ct[pos].name_len)
		root = &v.ct[pos];
	if (root && root->count >= 0 && !all_zero(root->oid, hash_len)) {
		/* git's own answer: no entry need be looked at */
		strbuf_addhex(tree_hex, root->oid, hash_len);
		r = SNAPSHOT_INDEX_TREE_VALID;
	} else {
		r = build_root(&v, pw, root, tree_hex);
	}
out:
	view_release(&v);
	return r;
}
