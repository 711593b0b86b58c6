/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_BIGENDIAN_H
#define AG_BIGENDIAN_H

/**
 * Big-endian integers in byte buffers, as git's file formats store them
 * (index, pack, pack index) and SHA-1 reads its message words. The
 * caller checks the bounds.
 */
#include "base/common.h"

static inline unsigned get_be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

#endif
