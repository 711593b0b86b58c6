/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "base/strbuf.h"
#include "base/strvec.h"
#include "base/xalloc.h"

const char *strvec_empty[] = { NULL };

void strvec_init(struct strvec *sv)
{
	sv->v = strvec_empty;
	sv->nr = sv->alloc = 0;
}

static void push_owned(struct strvec *sv, char *s)
{
	if (sv->v == strvec_empty)
		sv->v = NULL;
	if (sv->nr + 2 > sv->alloc) {
		sv->alloc = sv->alloc ? st_mult(sv->alloc, 2) : 8;
		sv->v = xrealloc(sv->v, st_mult(sv->alloc, sizeof(char *)));
	}
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

const char *strvec_push(struct strvec *sv, const char *s)
{
	push_owned(sv, xstrdup(s));
	return sv->v[sv->nr - 1];
}

const char *strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	push_owned(sv, strbuf_detach(&sb, NULL));
	return sv->v[sv->nr - 1];
}

void strvec_pushv(struct strvec *sv, const char *const *v)
{
	for (; *v; v++)
		strvec_push(sv, *v);
}

void strvec_pushn(struct strvec *sv, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strvec_push(sv, v[i]);
}

void strvec_remove(struct strvec *sv, size_t i)
{
	if (i >= sv->nr)
		return;
	free((char *)sv->v[i]);
	memmove(sv->v + i, sv->v + i + 1, (sv->nr - i) * sizeof(char *));
	sv->nr--;
}

void strvec_setenv(struct strvec *env, const char *name, const char *value)
{
	size_t n = strlen(name);

	for (size_t i = env->nr; i-- > 0;)
		if (!strncmp(env->v[i], name, n) && env->v[i][n] == '=')
			strvec_remove(env, i);
	strvec_pushf(env, "%s=%s", name, value);
}

void strvec_clear(struct strvec *sv)
{
	if (sv->v != strvec_empty) {
		for (size_t i = 0; i < sv->nr; i++)
			free((char *)sv->v[i]);
		free(sv->v);
	}
	strvec_init(sv);
}

const char **strvec_detach(struct strvec *sv)
{
	const char **ret;
	if (sv->v == strvec_empty)
		return xcalloc(1, sizeof(char *));
	ret = sv->v;
	strvec_init(sv);
	return ret;
}
