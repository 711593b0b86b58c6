/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_COMMON_H
#define AG_COMMON_H

/**
 * Included first by every .c file of the project: attribute macros and the
 * banned-function list. Nothing else lives here on purpose (no catch-all
 * header).
 */
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
/* System headers that banned.h's macros would otherwise collide with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AG_NORETURN __attribute__((noreturn))
#define AG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define AG_UNUSED __attribute__((unused))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* bubblewrap-style scoped cleanup. */
#define cleanup_free __attribute__((cleanup(ag_cleanup_freep)))
#define cleanup_fd __attribute__((cleanup(ag_cleanup_fdp)))
void ag_cleanup_freep(void *p);
void ag_cleanup_fdp(int *fdp);
static inline void *steal_pointer(void *pp)
{
	void **p = pp;
	void *v = *p;
	*p = NULL;
	return v;
}

#include "base/banned.h"

#endif
