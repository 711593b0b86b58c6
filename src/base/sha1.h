/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SHA1_H
#define AG_SHA1_H

/**
 * Plain SHA-1 (FIPS 180-4), streaming, for git's object ids and pack
 * checksums. No collision detection (git's sha1dc): use it to name
 * objects we wrote ourselves, not to judge someone else's bytes.
 *
 *   struct sha1_ctx c;
 *   sha1_init(&c);
 *   sha1_update(&c, data, len);   // any number of times, any sizes
 *   sha1_final(&c, out);          // 20 raw bytes; c must be re-inited
 *
 * The context holds no pointers; nothing to release. `data` is only read
 * during the call.
 */
#include "base/common.h"

struct sha1_ctx {
	uint32_t h[5];
	uint64_t len;		/* bytes fed so far */
	unsigned char buf[64];	/* the partial block: len % 64 bytes */
};

void sha1_init(struct sha1_ctx *c);
void sha1_update(struct sha1_ctx *c, const void *data, size_t len);
void sha1_final(struct sha1_ctx *c, unsigned char out[20]);

#endif
