/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One pack plus its index, written without git (packw.h). The formats are
 * git's Documentation/gitformat-pack.txt (pack and index version 2); the
 * zlib stream is RFC 1950 around RFC 1951 stored blocks.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/random.h>
#include <sys/stat.h>
#include "base/bigendian.h"
#include "base/fileio.h"
#include "base/die.h"
#include "base/sha1.h"
#include "base/xalloc.h"
#include "git/packw.h"

struct packw_obj {
	unsigned char oid[20];
	enum packw_type type;
	unsigned char *data; /* owned */
	size_t len;
	/* set by packw_finish(): */
	uint32_t crc;	 /* of its bytes in the pack */
	uint64_t offset; /* where they start */
};

#define STORED_MAX 65535	  /* a stored deflate block's largest LEN */
#define OBJ_MAX UINT32_MAX	  /* largest object kept (packw.h) */
#define IDX_OFFSET_MAX 0x7fffffffu /* a v2 index's 4-byte offsets */
/* pack bytes buffered before write(): small, so the same few pages are
 * reused (fresh pages are page faults, which cost more than the calls) */
#define FLUSH_AT (16 * 1024)

/* CRC-32 of zlib and IEEE 802.3 (reflected polynomial 0xedb88320). */
static const uint32_t crc_table[256] = {
	0x00000000, 0x77073096, 0xee0e612c, 0x990951ba, 0x076dc419, 0x706af48f,
	0xe963a535, 0x9e6495a3, 0x0edb8832, 0x79dcb8a4, 0xe0d5e91e, 0x97d2d988,
	0x09b64c2b, 0x7eb17cbd, 0xe7b82d07, 0x90bf1d91, 0x1db71064, 0x6ab020f2,
	0xf3b97148, 0x84be41de, 0x1adad47d, 0x6ddde4eb, 0xf4d4b551, 0x83d385c7,
	0x136c9856, 0x646ba8c0, 0xfd62f97a, 0x8a65c9ec, 0x14015c4f, 0x63066cd9,
	0xfa0f3d63, 0x8d080df5, 0x3b6e20c8, 0x4c69105e, 0xd56041e4, 0xa2677172,
	0x3c03e4d1, 0x4b04d447, 0xd20d85fd, 0xa50ab56b, 0x35b5a8fa, 0x42b2986c,
	0xdbbbc9d6, 0xacbcf940, 0x32d86ce3, 0x45df5c75, 0xdcd60dcf, 0xabd13d59,
	0x26d930ac, 0x51de003a, 0xc8d75180, 0xbfd06116, 0x21b4f4b5, 0x56b3c423,
	0xcfba9599, 0xb8bda50f, 0x2802b89e, 0x5f058808, 0xc60cd9b2, 0xb10be924,
	0x2f6f7c87, 0x58684c11, 0xc1611dab, 0xb6662d3d, 0x76dc4190, 0x01db7106,
	0x98d220bc, 0xefd5102a, 0x71b18589, 0x06b6b51f, 0x9fbfe4a5, 0xe8b8d433,
	0x7807c9a2, 0x0f00f934, 0x9609a88e, 0xe10e9818, 0x7f6a0dbb, 0x086d3d2d,
	0x91646c97, 0xe6635c01, 0x6b6b51f4, 0x1c6c6162, 0x856530d8, 0xf262004e,
	0x6c0695ed, 0x1b01a57b, 0x8208f4c1, 0xf50fc457, 0x65b0d9c6, 0x12b7e950,
	0x8bbeb8ea, 0xfcb9887c, 0x62dd1ddf, 0x15da2d49, 0x8cd37cf3, 0xfbd44c65,
	0x4db26158, 0x3ab551ce, 0xa3bc0074, 0xd4bb30e2, 0x4adfa541, 0x3dd895d7,
	0xa4d1c46d, 0xd3d6f4fb, 0x4369e96a, 0x346ed9fc, 0xad678846, 0xda60b8d0,
	0x44042d73, 0x33031de5, 0xaa0a4c5f, 0xdd0d7cc9, 0x5005713c, 0x270241aa,
	0xbe0b1010, 0xc90c2086, 0x5768b525, 0x206f85b3, 0xb966d409, 0xce61e49f,
	0x5edef90e, 0x29d9c998, 0xb0d09822, 0xc7d7a8b4, 0x59b33d17, 0x2eb40d81,
	0xb7bd5c3b, 0xc0ba6cad, 0xedb88320, 0x9abfb3b6, 0x03b6e20c, 0x74b1d29a,
	0xead54739, 0x9dd277af, 0x04db2615, 0x73dc1683, 0xe3630b12, 0x94643b84,
	0x0d6d6a3e, 0x7a6a5aa8, 0xe40ecf0b, 0x9309ff9d, 0x0a00ae27, 0x7d079eb1,
	0xf00f9344, 0x8708a3d2, 0x1e01f268, 0x6906c2fe, 0xf762575d, 0x806567cb,
	0x196c3671, 0x6e6b06e7, 0xfed41b76, 0x89d32be0, 0x10da7a5a, 0x67dd4acc,
	0xf9b9df6f, 0x8ebeeff9, 0x17b7be43, 0x60b08ed5, 0xd6d6a3e8, 0xa1d1937e,
	0x38d8c2c4, 0x4fdff252, 0xd1bb67f1, 0xa6bc5767, 0x3fb506dd, 0x48b2364b,
	0xd80d2bda, 0xaf0a1b4c, 0x36034af6, 0x41047a60, 0xdf60efc3, 0xa867df55,
	0x316e8eef, 0x4669be79, 0xcb61b38c, 0xbc66831a, 0x256fd2a0, 0x5268e236,
	0xcc0c7795, 0xbb0b4703, 0x220216b9, 0x5505262f, 0xc5ba3bbe, 0xb2bd0b28,
	0x2bb45a92, 0x5cb36a04, 0xc2d7ffa7, 0xb5d0cf31, 0x2cd99e8b, 0x5bdeae1d,
	0x9b64c2b0, 0xec63f226, 0x756aa39c, 0x026d930a, 0x9c0906a9, 0xeb0e363f,
	0x72076785, 0x05005713, 0x95bf4a82, 0xe2b87a14, 0x7bb12bae, 0x0cb61b38,
	0x92d28e9b, 0xe5d5be0d, 0x7cdcefb7, 0x0bdbdf21, 0x86d3d2d4, 0xf1d4e242,
	0x68ddb3f8, 0x1fda836e, 0x81be16cd, 0xf6b9265b, 0x6fb077e1, 0x18b74777,
	0x88085ae6, 0xff0f6a70, 0x66063bca, 0x11010b5c, 0x8f659eff, 0xf862ae69,
	0x616bffd3, 0x166ccf45, 0xa00ae278, 0xd70dd2ee, 0x4e048354, 0x3903b3c2,
	0xa7672661, 0xd06016f7, 0x4969474d, 0x3e6e77db, 0xaed16a4a, 0xd9d65adc,
	0x40df0b66, 0x37d83bf0, 0xa9bcae53, 0xdebb9ec5, 0x47b2cf7f, 0x30b5ffe9,
	0xbdbdf21c, 0xcabac28a, 0x53b39330, 0x24b4a3a6, 0xbad03605, 0xcdd70693,
	0x54de5729, 0x23d967bf, 0xb3667a2e, 0xc4614ab8, 0x5d681b02, 0x2a6f2b94,
	0xb40bbe37, 0xc30c8ea1, 0x5a05df1b, 0x2d02ef8d,
};

static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	while (n--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* Adler-32 (RFC 1950); 5552 bytes is the most before s2 could overflow. */
static uint32_t adler32_update(uint32_t adler, const unsigned char *p,
			       size_t n)
{
	uint32_t s1 = adler & 0xffff, s2 = adler >> 16;

	while (n) {
		size_t k = n < 5552 ? n : 5552;

		n -= k;
		while (k--) {
			s1 += *p++;
			s2 += s1;
		}
		s1 %= 65521;
		s2 %= 65521;
	}
	return s2 << 16 | s1;
}

static void add_be32(struct strbuf *sb, uint32_t v)
{
	unsigned char b[4];

	put_be32(b, v);
	strbuf_add(sb, b, sizeof(b));
}

/* ---- the objects kept ------------------------------------------------ */

static const char *type_name(enum packw_type type)
{
	switch (type) {
	case PACKW_COMMIT:
		return "commit";
	case PACKW_TREE:
		return "tree";
	case PACKW_BLOB:
		return "blob";
	}
	BUG("bad packw type %d", (int)type);
}

static size_t *find_slot(const struct packw *pw, const unsigned char oid[20])
{
	size_t mask = pw->nslots - 1, i;
	uint32_t h;

	memcpy(&h, oid, sizeof(h)); /* ids are uniformly distributed */
	for (i = h & mask; pw->slot[i]; i = (i + 1) & mask)
		if (!memcmp(pw->obj[pw->slot[i] - 1].oid, oid, 20))
			break;
	return &pw->slot[i];
}

/* Keeps the table at most half full, so that probes stay short. */
static void grow_slots(struct packw *pw)
{
	size_t i;

	if (st_mult(st_add(pw->nr, 1), 2) <= pw->nslots)
		return;
	free(pw->slot);
	pw->nslots = pw->nslots ? st_mult(pw->nslots, 2) : 64;
	pw->slot = xcalloc(pw->nslots, sizeof(*pw->slot));
	for (i = 0; i < pw->nr; i++)
		*find_slot(pw, pw->obj[i].oid) = i + 1;
}

/* Hashes the object; keeps it unless kept already or too big, taking
 * `owned` (buf's own allocation) or else a copy. True when kept. */
static bool add(struct packw *pw, enum packw_type type, const void *buf,
		size_t len, unsigned char oid[20], void *owned)
{
	struct sha1_ctx c;
	struct strbuf hdr = STRBUF_INIT;
	struct packw_obj *o;
	size_t *slot;

	strbuf_addstr(&hdr, type_name(type));
	strbuf_addch(&hdr, ' ');
	strbuf_addu(&hdr, len);
	sha1_init(&c);
	sha1_update(&c, hdr.buf, hdr.len + 1); /* with its NUL */
	sha1_update(&c, buf, len);
	sha1_final(&c, oid);
	strbuf_release(&hdr);
	if (len > OBJ_MAX) {
		pw->too_big = len;
		return false;
	}
	grow_slots(pw);
	slot = find_slot(pw, oid);
	if (*slot)
		return false;
	ALLOC_GROW(pw->obj, pw->nr, pw->alloc);
	o = &pw->obj[pw->nr];
	memcpy(o->oid, oid, 20);
	o->type = type;
	o->len = len;
	if (owned) {
		o->data = owned;
	} else {
		o->data = xmalloc(len);
		if (len)
			memcpy(o->data, buf, len);
	}
	*slot = ++pw->nr;
	return true;
}

void packw_add(struct packw *pw, enum packw_type type, const void *buf,
	       size_t len, unsigned char oid[20])
{
	add(pw, type, buf, len, oid, NULL);
}

void packw_add_strbuf(struct packw *pw, enum packw_type type,
		      struct strbuf *sb, unsigned char oid[20])
{
	/* a strbuf that never grew owns no allocation: copied */
	if (add(pw, type, sb->buf, sb->len, oid, sb->alloc ? sb->buf : NULL) &&
	    sb->alloc)
		strbuf_detach(sb, NULL);
}

size_t packw_count(const struct packw *pw)
{
	return pw->nr;
}

void packw_release(struct packw *pw)
{
	size_t i;

	for (i = 0; i < pw->nr; i++)
		free(pw->obj[i].data);
	free(pw->obj);
	free(pw->slot);
	*pw = (struct packw)PACKW_INIT;
}

/* ---- the pack -------------------------------------------------------- */

/*
 * Pack bytes on their way to the file: every byte is hashed (the pack's
 * trailer), counted (the next object's offset) and CRCed (the current
 * object's index entry). A write error sticks in `err` (an errno) and
 * later writes are skipped.
 */
struct pack_out {
	int fd;
	int err;
	struct sha1_ctx sha;
	uint32_t crc;
	uint64_t off;
	struct strbuf buf;
};

static void out_flush(struct pack_out *o)
{
	if (!o->err && write_all(o->fd, o->buf.buf, o->buf.len) < 0)
		o->err = errno ? errno : EIO;
	strbuf_reset(&o->buf);
}

static void out_add(struct pack_out *o, const void *p, size_t n)
{
	sha1_update(&o->sha, p, n);
	o->crc = crc32_update(o->crc, p, n);
	o->off += n;
	strbuf_add(&o->buf, p, n);
	if (o->buf.len >= FLUSH_AT)
		out_flush(o);
}

/* Type in bits 4-6 of the first byte; size 4 bits, then 7 bits a byte. */
static void out_obj_header(struct pack_out *o, enum packw_type type,
			   size_t len)
{
	unsigned char hdr[16];
	size_t n = 0;

	hdr[n++] = (unsigned char)((unsigned)type << 4 | (len & 15));
	for (len >>= 4; len; len >>= 7) {
		hdr[n - 1] |= 0x80;
		hdr[n++] = (unsigned char)(len & 0x7f);
	}
	out_add(o, hdr, n);
}

/* A zlib stream of stored blocks: no compression, nothing to tune. */
static void out_zlib_stored(struct pack_out *o, const unsigned char *p,
			    size_t len)
{
	static const unsigned char zhdr[2] = { 0x78, 0x01 };
	uint32_t adler = 1;
	unsigned char b[5];

	out_add(o, zhdr, sizeof(zhdr));
	do {
		size_t n = len < STORED_MAX ? len : STORED_MAX;

		b[0] = n == len; /* BFINAL; BTYPE 00 (stored) */
		b[1] = (unsigned char)n;
		b[2] = (unsigned char)(n >> 8);
		b[3] = (unsigned char)~n;
		b[4] = (unsigned char)(~n >> 8);
		out_add(o, b, sizeof(b));
		out_add(o, p, n);
		adler = adler32_update(adler, p, n);
		p += n;
		len -= n;
	} while (len);
	put_be32(b, adler);
	out_add(o, b, 4);
}

/* The pack into fd; its trailing SHA-1 also into sum. */
static int write_pack(struct packw *pw, int fd, unsigned char sum[20],
		      struct strbuf *err)
{
	struct pack_out o = { .fd = fd, .buf = STRBUF_INIT };
	unsigned char hdr[12] = { 'P', 'A', 'C', 'K' };
	size_t i;

	sha1_init(&o.sha);
	put_be32(hdr + 4, 2);
	put_be32(hdr + 8, (uint32_t)pw->nr);
	out_add(&o, hdr, sizeof(hdr));
	for (i = 0; i < pw->nr && !o.err; i++) {
		struct packw_obj *obj = &pw->obj[i];

		if (o.off > IDX_OFFSET_MAX) {
			strbuf_addstr(err, "cannot write pack: 2 GiB or more "
				      "needs 64-bit index offsets");
			strbuf_release(&o.buf);
			return -1;
		}
		obj->offset = o.off;
		o.crc = 0;
		out_obj_header(&o, obj->type, obj->len);
		out_zlib_stored(&o, obj->data, obj->len);
		obj->crc = o.crc;
	}
	sha1_final(&o.sha, sum);
	strbuf_add(&o.buf, sum, 20);
	out_flush(&o);
	strbuf_release(&o.buf);
	if (o.err) {
		strbuf_addf(err, "cannot write pack: %s", strerror(o.err));
		return -1;
	}
	return 0;
}

/* ---- the index ------------------------------------------------------- */

static int cmp_oid(const void *a, const void *b)
{
	const struct packw_obj *const *x = a, *const *y = b;

	return memcmp((*x)->oid, (*y)->oid, 20);
}

static void build_idx(const struct packw *pw, const unsigned char sum[20],
		      struct strbuf *idx)
{
	static const unsigned char magic[8] = {
		0377, 't', 'O', 'c', 0, 0, 0, 2 /* version */
	};
	const struct packw_obj **s = xcalloc(pw->nr, sizeof(*s));
	uint32_t fan[256] = { 0 };
	unsigned char self[20];
	struct sha1_ctx c;
	size_t i;

	for (i = 0; i < pw->nr; i++) {
		s[i] = &pw->obj[i];
		fan[s[i]->oid[0]]++;
	}
	qsort(s, pw->nr, sizeof(*s), cmp_oid);
	strbuf_add(idx, magic, sizeof(magic));
	for (i = 1; i < 256; i++)
		fan[i] += fan[i - 1]; /* ids whose first byte is <= i */
	for (i = 0; i < 256; i++)
		add_be32(idx, fan[i]);
	for (i = 0; i < pw->nr; i++)
		strbuf_add(idx, s[i]->oid, 20);
	for (i = 0; i < pw->nr; i++)
		add_be32(idx, s[i]->crc);
	for (i = 0; i < pw->nr; i++)
		add_be32(idx, (uint32_t)s[i]->offset); /* <= 2^31 - 1 */
	strbuf_add(idx, sum, 20);
	sha1_init(&c);
	sha1_update(&c, idx->buf, idx->len);
	sha1_final(&c, self);
	strbuf_add(idx, self, 20);
	free(s);
}

/* ---- the files ------------------------------------------------------- */

/*
 * <dir>/<prefix>XXXXXX created new (O_EXCL) and read-only, as git's
 * odb_mkstemp() does; the name into `path`. Returns the fd or -1 (errno).
 */
static int open_tmp(const char *dir, const char *prefix, struct strbuf *path)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	int tries, fd = -1;
	size_t i;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -1;
		strbuf_reset(path);
		strbuf_addpath(path, dir, prefix);
		for (i = 0; i < sizeof(r); i++)
			strbuf_addch(path, chars[r[i] % (sizeof(chars) - 1)]);
		fd = open(path->buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0444);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		strbuf_reset(path); /* nothing of ours to remove */
	return fd;
}

/* Closes fd, keeping a failure's errno; -1 when it failed. */
static int close_checked(int fd, int rc)
{
	int errsv = errno;

	if (close(fd) < 0 && !rc)
		return -1;
	errno = errsv;
	return rc;
}

static void *fsync_thread(void *arg)
{
	int *fd_rc = arg;

	fd_rc[1] = fsync(fd_rc[0]) < 0 ? errno : 0;
	return NULL;
}

/*
 * fsync of the pack and of its index at the same time: on a journalling
 * file system each fsync waits for a journal commit, and two started
 * together can share one where two in a row wait for two. Both are on
 * disk before either is renamed into place, as before. 0, or the errno
 * of the first that failed.
 */
static int fsync_both(int pack, int idx)
{
	int fd_rc[2] = { pack, 0 };
	pthread_t t;
	bool threaded = !pthread_create(&t, NULL, fsync_thread, fd_rc);
	int rc;

	if (!threaded) /* one after the other, then */
		fsync_thread(fd_rc);
	rc = fsync(idx) < 0 ? errno : 0;
	if (threaded)
		pthread_join(t, NULL);
	return fd_rc[1] ? fd_rc[1] : rc;
}

/* The pack, written to a new temporary file left open in *fd. */
static int write_tmp_pack(struct packw *pw, const char *dir, struct strbuf *tmp,
			  unsigned char sum[20], int *fd, struct strbuf *err)
{
	*fd = open_tmp(dir, "tmp_pack_", tmp);
	if (*fd < 0) {
		strbuf_addf(err, "cannot create a pack in '%s': %s", dir,
			    strerror(errno));
		return -1;
	}
	if (write_pack(pw, *fd, sum, err) < 0)
		return -1;
	return 0;
}

/* Its index, likewise. */
static int write_tmp_idx(const struct packw *pw, const char *dir,
			 const unsigned char sum[20], struct strbuf *tmp,
			 int *fd, struct strbuf *err)
{
	struct strbuf idx = STRBUF_INIT;
	int rc = 0;

	*fd = open_tmp(dir, "tmp_idx_", tmp);
	if (*fd < 0) {
		strbuf_addf(err, "cannot create a pack index in '%s': %s", dir,
			    strerror(errno));
		return -1;
	}
	build_idx(pw, sum, &idx);
	if (write_all(*fd, idx.buf, idx.len) < 0) {
		strbuf_addf(err, "cannot write pack index '%s': %s", tmp->buf,
			    strerror(errno));
		rc = -1;
	}
	strbuf_release(&idx);
	return rc;
}

/* Both files written and on disk, both closed; 0 or -1. */
static int write_synced(struct packw *pw, const char *dir,
			struct strbuf *tmp_pack, struct strbuf *tmp_idx,
			unsigned char sum[20], struct strbuf *err)
{
	int pack = -1, idx = -1, rc = -1, e;

	if (!write_tmp_pack(pw, dir, tmp_pack, sum, &pack, err) &&
	    !write_tmp_idx(pw, dir, sum, tmp_idx, &idx, err)) {
		e = fsync_both(pack, idx);
		errno = e;
		rc = close_checked(pack, e ? -1 : 0);
		pack = -1;
		rc = close_checked(idx, rc);
		idx = -1;
		if (rc)
			strbuf_addf(err, "cannot write pack '%s': %s",
				    tmp_pack->buf, strerror(errno));
	}
	if (pack >= 0)
		close(pack);
	if (idx >= 0)
		close(idx);
	return rc;
}

/* Renames tmp to <dir>/pack-<hex><ext>; tmp is emptied once it is gone. */
static int put_in_place(struct strbuf *tmp, const char *dir,
			const unsigned char sum[20], const char *ext,
			struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT;
	int rc = 0;

	strbuf_addpath(&name, dir, "pack-");
	strbuf_addhex(&name, sum, 20);
	strbuf_addstr(&name, ext);
	if (rename(tmp->buf, name.buf) < 0) {
		strbuf_addf(err, "cannot rename '%s' to '%s': %s", tmp->buf,
			    name.buf, strerror(errno));
		rc = -1;
	} else {
		strbuf_reset(tmp);
	}
	strbuf_release(&name);
	return rc;
}

int packw_finish(struct packw *pw, const char *objdir, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	struct strbuf tmp_pack = STRBUF_INIT, tmp_idx = STRBUF_INIT;
	unsigned char sum[20];
	int rc = -1;

	if (pw->too_big) {
		strbuf_addf(err, "cannot write pack: an object of %zu bytes "
			    "is too large (4 GiB or more)", pw->too_big);
		return -1;
	}
	if (!pw->nr)
		return 0;
	strbuf_addpath(&dir, objdir, "pack");
	if (mkdir(dir.buf, 0777) < 0 && errno != EEXIST)
		strbuf_addf(err, "cannot create '%s': %s", dir.buf,
			    strerror(errno));
	else if (!write_synced(pw, dir.buf, &tmp_pack, &tmp_idx, sum, err) &&
		 !put_in_place(&tmp_pack, dir.buf, sum, ".pack", err) &&
		 !put_in_place(&tmp_idx, dir.buf, sum, ".idx", err))
		rc = 0;
	if (tmp_pack.len)
		unlink(tmp_pack.buf);
	if (tmp_idx.len)
		unlink(tmp_idx.buf);
	strbuf_release(&tmp_idx);
	strbuf_release(&tmp_pack);
	strbuf_release(&dir);
	return rc;
}
