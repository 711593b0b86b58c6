/* SPDX-License-Identifier: Apache-2.0 */
/* SHA-1 as FIPS 180-4 section 6.1 states it (sha1.h). */
#include "base/common.h"
#include "base/bigendian.h"
#include "base/sha1.h"

static inline uint32_t rol(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

/*
 * One round with the variables renamed instead of shifted (the usual
 * unrolling): e gets the new value and b is rotated, so five calls in a
 * row with the arguments rotated bring them back to a..e.
 */
#define R(a, b, c, d, e, f, k, wt)                                             \
	do {                                                                   \
		e += rol(a, 5) + (f) + (k) + (wt);                             \
		b = rol(b, 30);                                                \
	} while (0)
#define F1(b, c, d) (d ^ (b & (c ^ d)))
#define F2(b, c, d) (b ^ c ^ d)
#define F3(b, c, d) ((b & c) | (d & (b | c)))
/* w[] is a 16-word ring: W(t) is the schedule word t >= 16, stored. */
#define W(t)                                                                   \
	(w[(t)&15] = rol(w[((t)-3) & 15] ^ w[((t)-8) & 15] ^                   \
				 w[((t)-14) & 15] ^ w[(t)&15],                 \
			 1))
#define FIVE(f, k, t, x)                                                       \
	do {                                                                   \
		R(a, b, c, d, e, f(b, c, d), k, x(t));                         \
		R(e, a, b, c, d, f(a, b, c), k, x((t) + 1));                   \
		R(d, e, a, b, c, f(e, a, b), k, x((t) + 2));                   \
		R(c, d, e, a, b, f(d, e, a), k, x((t) + 3));                   \
		R(b, c, d, e, a, f(c, d, e), k, x((t) + 4));                   \
	} while (0)
#define W0(t) w[(t)]

static void block(uint32_t h[5], const unsigned char *p)
{
	uint32_t w[16], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = get_be32(p + 4 * i);
	FIVE(F1, 0x5a827999, 0, W0);
	FIVE(F1, 0x5a827999, 5, W0);
	FIVE(F1, 0x5a827999, 10, W0);
	R(a, b, c, d, e, F1(b, c, d), 0x5a827999, W0(15));
	R(e, a, b, c, d, F1(a, b, c), 0x5a827999, W(16));
	R(d, e, a, b, c, F1(e, a, b), 0x5a827999, W(17));
	R(c, d, e, a, b, F1(d, e, a), 0x5a827999, W(18));
	R(b, c, d, e, a, F1(c, d, e), 0x5a827999, W(19));
	/* written out, not looped: constant ring indices, no spills */
	FIVE(F2, 0x6ed9eba1, 20, W);
	FIVE(F2, 0x6ed9eba1, 25, W);
	FIVE(F2, 0x6ed9eba1, 30, W);
	FIVE(F2, 0x6ed9eba1, 35, W);
	FIVE(F3, 0x8f1bbcdc, 40, W);
	FIVE(F3, 0x8f1bbcdc, 45, W);
	FIVE(F3, 0x8f1bbcdc, 50, W);
	FIVE(F3, 0x8f1bbcdc, 55, W);
	FIVE(F2, 0xca62c1d6, 60, W);
	FIVE(F2, 0xca62c1d6, 65, W);
	FIVE(F2, 0xca62c1d6, 70, W);
	FIVE(F2, 0xca62c1d6, 75, W);
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void sha1_init(struct sha1_ctx *c)
{
	c->h[0] = 0x67452301;
	c->h[1] = 0xefcdab89;
	c->h[2] = 0x98badcfe;
	c->h[3] = 0x10325476;
	c->h[4] = 0xc3d2e1f0;
	c->len = 0;
}

void sha1_update(struct sha1_ctx *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t have = c->len % 64;

	if (!len)
		return; /* data may be NULL then: no memcpy from it */
	c->len += len;
	if (have) {
		size_t take = 64 - have < len ? 64 - have : len;

		memcpy(c->buf + have, p, take);
		p += take;
		len -= take;
		if (have + take < 64)
			return;
		block(c->h, c->buf);
	}
	/* whole blocks straight from the caller's bytes, no copy */
	for (; len >= 64; p += 64, len -= 64)
		block(c->h, p);
	if (len)
		memcpy(c->buf, p, len);
}

void sha1_final(struct sha1_ctx *c, unsigned char out[20])
{
	static const unsigned char pad[64] = { 0x80 };
	uint64_t bits = c->len * 8;
	unsigned char tail[8];
	int i;

	/* 0x80, zeros up to 56 mod 64, then the bit length big-endian */
	sha1_update(c, pad, 1 + (119 - c->len % 64) % 64);
	for (i = 0; i < 8; i++)
		tail[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha1_update(c, tail, 8);
	for (i = 0; i < 20; i++)
		out[i] = (unsigned char)(c->h[i / 4] >> (24 - 8 * (i % 4)));
}
