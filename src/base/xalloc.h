/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_XALLOC_H
#define AG_XALLOC_H

/**
 * Allocation that never returns NULL: on out-of-memory the process dies.
 * Size arithmetic goes through st_add()/st_mult(), which die on overflow.
 * Every returned pointer is owned by the caller and released with free().
 */
#include "base/common.h"

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
AG_PRINTF(1, 2) char *xstrfmt(const char *fmt, ...);
size_t st_add(size_t a, size_t b);
size_t st_mult(size_t a, size_t b);

#define ALLOC_GROW(arr, nr, alloc)                                           \
	do {                                                                 \
		if ((nr) >= (alloc)) {                                       \
			(alloc) = (alloc) ? st_mult((alloc), 2) : 8;         \
			if ((alloc) <= (nr))                                 \
				(alloc) = st_add((nr), 1);                   \
			(arr) = xrealloc((arr), st_mult((alloc),             \
							sizeof(*(arr))));    \
		}                                                            \
	} while (0)

#endif
