/* SPDX-License-Identifier: Apache-2.0 */
/* Open-addressing string set (strset.h). */
#include "base/common.h"
#include <string.h>
#include "base/strset.h"
#include "base/xalloc.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The slot of key, or the free slot where it would go (cap > 0). */
static struct strset_entry *slot_of(const struct strset *s, const char *key)
{
	size_t mask = s->cap - 1, i = (size_t)hash_str(key) & mask;

	while (s->slots[i].key && strcmp(s->slots[i].key, key))
		i = (i + 1) & mask;
	return &s->slots[i];
}

static void grow(struct strset *s)
{
	struct strset old = *s;

	s->cap = old.cap ? st_mult(old.cap, 2) : 16;
	s->slots = xcalloc(s->cap, sizeof(*s->slots));
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].key)
			*slot_of(s, old.slots[i].key) = old.slots[i];
	free(old.slots);
}

struct strset_entry *strset_find(const struct strset *s, const char *key)
{
	struct strset_entry *e;

	if (!s->cap)
		return NULL;
	e = slot_of(s, key);
	return e->key ? e : NULL;
}

struct strset_entry *strset_add(struct strset *s, const char *key, bool *added)
{
	struct strset_entry *e;

	/* at most half full: probes stay short, a free slot always exists */
	if (st_mult(st_add(s->nr, 1), 2) > s->cap)
		grow(s);
	e = slot_of(s, key);
	*added = !e->key;
	if (!e->key) {
		e->key = xstrdup(key);
		e->value = 0;
		s->nr++;
	}
	return e;
}

void strset_clear(struct strset *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slots[i].key);
	free(s->slots);
	s->slots = NULL;
	s->nr = s->cap = 0;
}
