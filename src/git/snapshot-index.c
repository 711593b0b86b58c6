/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The index file format (git's Documentation/gitformat-index.txt): a
 * 12-byte header ("DIRC", version, entry count), the entries, then
 * extensions (4-byte signature, 4-byte big-endian size, data), then a
 * hash of everything before it. We only walk far enough to find the TREE
 * extension's root entry: "" NUL, "<entry_count> <subtrees>\n", and when
 * entry_count >= 0, the root tree's raw object id.
 */
#include "base/common.h"
#include <string.h>
#include "git/snapshot-index.h"

#define HDR_LEN 12
#define STAT_LEN 40 /* ctime, mtime, dev, ino, mode, uid, gid, size */
#define F_EXTENDED 0x4000
#define F_STAGE 0x3000
#define F_NAMEMASK 0x0fff

struct cursor {
	const unsigned char *p, *end;
	size_t hash_len;
	unsigned version;
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* Steps over one entry. -1 when malformed or unmerged. */
static int skip_entry(struct cursor *c)
{
	const unsigned char *start = c->p, *name, *nul;
	size_t fixed = STAT_LEN + c->hash_len + 2, size;
	unsigned flags;

	if ((size_t)(c->end - start) < fixed)
		return -1;
	flags = be16(start + STAT_LEN + c->hash_len);
	if (flags & F_STAGE)
		return -1; /* unmerged: git write-tree decides (and fails) */
	if (flags & F_EXTENDED) {
		if (c->version < 3)
			return -1;
		fixed += 2;
		if ((size_t)(c->end - start) < fixed)
			return -1;
	}
	name = start + fixed;
	if (c->version == 4) {
		/* varint: bytes to strip from the previous name */
		while (name < c->end && (*name & 0x80))
			name++;
		if (name >= c->end)
			return -1;
		name++;
	}
	nul = memchr(name, '\0', (size_t)(c->end - name));
	if (!nul)
		return -1;
	if (c->version == 4) {
		c->p = nul + 1;
		return 0;
	}
	if ((flags & F_NAMEMASK) != F_NAMEMASK &&
	    (size_t)(nul - name) != (flags & F_NAMEMASK))
		return -1;
	/* padded with 1 to 8 NULs to a multiple of 8 */
	size = (fixed + (size_t)(nul - name) + 8) & ~(size_t)7;
	if ((size_t)(c->end - start) < size)
		return -1;
	c->p = start + size;
	return 0;
}

/* The root entry of a TREE extension's data. */
static enum snapshot_index_tree tree_root(const unsigned char *d, size_t n,
					  size_t hash_len, struct strbuf *hex)
{
	static const char digits[] = "0123456789abcdef";
	size_t i = 1, nz = 0;
	unsigned long count = 0;

	if (n < 1 || d[0] != '\0')
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	if (i < n && d[i] == '-')
		return SNAPSHOT_INDEX_TREE_UNKNOWN; /* -1: invalidated */
	if (i >= n || d[i] < '0' || d[i] > '9')
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	while (i < n && d[i] >= '0' && d[i] <= '9' && count < 100000000UL)
		count = count * 10 + (unsigned long)(d[i++] - '0');
	if (i >= n || d[i++] != ' ')
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	if (i >= n || d[i] < '0' || d[i] > '9')
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	while (i < n && d[i] >= '0' && d[i] <= '9')
		i++;
	if (i >= n || d[i++] != '\n' || n - i < hash_len)
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	for (size_t k = 0; k < hash_len; k++)
		nz |= d[i + k];
	if (!nz)
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	for (size_t k = 0; k < hash_len; k++) {
		strbuf_addch(hex, digits[d[i + k] >> 4]);
		strbuf_addch(hex, digits[d[i + k] & 15]);
	}
	return SNAPSHOT_INDEX_TREE_VALID;
}

enum snapshot_index_tree snapshot_index_tree(const unsigned char *buf,
					     size_t len, size_t hash_len,
					     struct strbuf *tree_hex)
{
	struct cursor c = { .hash_len = hash_len };
	const unsigned char *tree = NULL;
	size_t tree_len = 0;
	uint32_t nr;

	if ((hash_len != 20 && hash_len != 32) || len < HDR_LEN + hash_len ||
	    memcmp(buf, "DIRC", 4))
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	c.version = be32(buf + 4);
	nr = be32(buf + 8);
	if (c.version < 2 || c.version > 4)
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	c.p = buf + HDR_LEN;
	c.end = buf + len - hash_len; /* the trailing checksum */
	for (uint32_t i = 0; i < nr; i++)
		if (skip_entry(&c) < 0)
			return SNAPSHOT_INDEX_TREE_UNKNOWN;
	while (c.p < c.end) {
		uint32_t size;

		if (c.end - c.p < 8)
			return SNAPSHOT_INDEX_TREE_UNKNOWN;
		size = be32(c.p + 4);
		if ((size_t)(c.end - c.p - 8) < size)
			return SNAPSHOT_INDEX_TREE_UNKNOWN;
		/* a split or sparse index: let git read it */
		if (!memcmp(c.p, "link", 4) || !memcmp(c.p, "sdir", 4))
			return SNAPSHOT_INDEX_TREE_UNKNOWN;
		if (!memcmp(c.p, "TREE", 4)) {
			tree = c.p + 8;
			tree_len = size;
		}
		c.p += 8 + size;
	}
	if (!tree)
		return SNAPSHOT_INDEX_TREE_UNKNOWN;
	return tree_root(tree, tree_len, hash_len, tree_hex);
}
