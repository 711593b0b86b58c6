/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_STRVEC_H
#define AG_STRVEC_H

/**
 * A NULL-terminated vector of owned strings, for argv and envp.
 * `v` is never NULL; strvec_clear() frees every element.
 */
#include "base/common.h"

struct strvec {
	const char **v;
	size_t nr;
	size_t alloc;
};

extern const char *strvec_empty[];
#define STRVEC_INIT { strvec_empty, 0, 0 }

void strvec_init(struct strvec *sv);
const char *strvec_push(struct strvec *sv, const char *s);
AG_PRINTF(2, 3) const char *strvec_pushf(struct strvec *sv, const char *fmt, ...);
void strvec_pushv(struct strvec *sv, const char *const *v);
void strvec_pushn(struct strvec *sv, const char *const *v, size_t n);
/* Removes element i (freeing it) and shifts the rest down. */
void strvec_remove(struct strvec *sv, size_t i);
void strvec_clear(struct strvec *sv);
/* For an environment list of "K=V": sets NAME=value, removing every
 * NAME= already there. */
void strvec_setenv(struct strvec *env, const char *name, const char *value);
/* Transfers ownership of the array to the caller. */
const char **strvec_detach(struct strvec *sv);

#endif
