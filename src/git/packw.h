/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PACKW_H
#define AG_PACKW_H

/**
 * Git objects written into a repository as one new pack and its index,
 * without running git (SHA-1 repositories only).
 *
 *   struct packw pw = PACKW_INIT;
 *   unsigned char tree[20], commit[20];
 *   packw_add(&pw, PACKW_TREE, tbuf, tlen, tree);
 *   packw_add(&pw, PACKW_COMMIT, cbuf, clen, commit);
 *   if (packw_finish(&pw, "/repo/.git/objects", &err) < 0) ... err.buf
 *   packw_release(&pw);
 *
 * The pack is version 2 with every object whole (no deltas) and its zlib
 * streams made of stored, uncompressed deflate blocks: git reads them like
 * any other, and `git gc` recompresses them later. It suits a few hundred
 * small trees and commits, not a large import. The index is version 2
 * with 31-bit offsets, so a pack of 2 GiB or more is refused.
 *
 * Ownership: packw_add() copies `buf`; the objects are owned by the packw
 * until packw_release(), which is needed after packw_finish() too (finish
 * does not forget them: a second finish writes the same pack again).
 * Errors: packw_finish() returns -1 and appends a one-line reason to `err`
 * (no newline); it never prints, and leaves no temporary file behind.
 */
#include "base/common.h"
#include "base/strbuf.h"

enum packw_type { PACKW_COMMIT = 1, PACKW_TREE = 2, PACKW_BLOB = 3 };

struct packw_obj; /* private to packw.c */

struct packw {
	struct packw_obj *obj; /* owned, in the order added */
	size_t nr, alloc;
	size_t *slot;	/* owned: open-addressed id index, obj index + 1 */
	size_t nslots;	/* a power of two, or 0 */
	size_t too_big; /* size of an object refused by packw_add(), or 0 */
};
#define PACKW_INIT { NULL, 0, 0, NULL, 0, 0 }

/*
 * Hashes the object ("<type> <len>\0" + buf, git's object id) into oid
 * (20 raw bytes) and keeps a copy to write; an id already kept is not kept
 * twice. An object of 4 GiB or more gets its id but is not kept, and makes
 * packw_finish() fail.
 */
void packw_add(struct packw *pw, enum packw_type type, const void *buf,
	       size_t len, unsigned char oid[20]);
/* The same with the bytes of `sb`, whose buffer the packw takes when it
 * keeps the object (`sb` is then empty, STRBUF_INIT); the caller still
 * releases `sb`. No copy: for trees built in a strbuf. */
void packw_add_strbuf(struct packw *pw, enum packw_type type,
		      struct strbuf *sb, unsigned char oid[20]);
/* Number of objects kept. */
size_t packw_count(const struct packw *pw);
/*
 * Writes the kept objects into <objdir>/pack/ as pack-<hex>.pack and
 * pack-<hex>.idx (hex: the pack's trailing SHA-1, as git names them);
 * nothing when none are kept. Creates <objdir>/pack if missing (0777 &
 * umask, as git does). Both files are written under temporary names in
 * that directory (O_CREAT|O_EXCL, mode 0444 like git's packs) and fsynced
 * together (one journal commit can serve both), then renamed into place:
 * the .pack first, the .idx last, because git
 * finds packs by their .idx. Final names that exist already hold the same
 * bytes (the name is the checksum): replacing them is success. Returns 0,
 * or -1 with a reason appended to `err` (temporary files removed; a .pack
 * already renamed stays, unused by git without its .idx).
 */
int packw_finish(struct packw *pw, const char *objdir, struct strbuf *err);
/* Frees the kept objects; pw is PACKW_INIT again. */
void packw_release(struct packw *pw);

#endif
