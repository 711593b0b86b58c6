/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_STRSET_H
#define AG_STRSET_H

/**
 * A set of strings with a size_t beside each: open addressing, linear
 * probing, at most half full. For finding repeats in a list in linear
 * time (fleet/targets.c) where a pairwise scan would be quadratic.
 *
 *   struct strset s = STRSET_INIT;
 *   bool added;
 *   struct strset_entry *e = strset_add(&s, "k", &added);
 *   if (added) e->value = 7; else seen before, e->value is its value;
 *   strset_clear(&s);
 *
 * The set owns copies of its keys. An entry pointer is valid until the
 * next strset_add() (which may grow the table) or strset_clear(). The hash
 * (FNV-1a) is not keyed: fine for the operator's own lists, not for input
 * an adversary shapes to collide. Dies on OOM (xalloc.h).
 */
#include "base/common.h"

struct strset_entry {
	char *key; /* owned; NULL: a free slot */
	size_t value;
};

struct strset {
	struct strset_entry *slots;
	size_t nr, cap; /* cap: 0 or a power of two */
};
#define STRSET_INIT        \
	{                  \
		NULL, 0, 0 \
	}

/* The entry of key, or NULL. */
struct strset_entry *strset_find(const struct strset *s, const char *key);

/* The entry of key, added (value 0) when absent; *added says which. */
struct strset_entry *strset_add(struct strset *s, const char *key, bool *added);

/* Frees every key and the table; s is empty and reusable. */
void strset_clear(struct strset *s);

#endif
