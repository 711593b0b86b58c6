/* SPDX-License-Identifier: Apache-2.0 */
/* Core-schema types and typed reads over a YAML tree (yaml-read.h). */
#include "base/common.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "base/yaml-read.h"

static bool all_of(const char *s, size_t n, int (*is)(int))
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is((unsigned char)s[i]))
			return false;
	return true;
}

static int is_odigit(int c)
{
	return c >= '0' && c <= '7';
}

static bool is_int_text(const char *s, size_t n)
{
	size_t i = n && (s[0] == '-' || s[0] == '+');

	if (n - i > 2 && s[i] == '0' && s[i + 1] == 'x')
		return all_of(s + i + 2, n - i - 2, isxdigit);
	if (n - i > 2 && s[i] == '0' && s[i + 1] == 'o')
		return all_of(s + i + 2, n - i - 2, is_odigit);
	return all_of(s + i, n - i, isdigit);
}

static bool text_in(const char *s, size_t n, const char *const *set)
{
	for (; *set; set++)
		if (n == strlen(*set) && !memcmp(s, *set, n))
			return true;
	return false;
}

static bool is_float_text(const char *s, size_t n)
{
	static const char *const special[] = { ".inf", "-.inf", "+.inf",
					       ".Inf", ".INF",	".nan",
					       ".NaN", ".NAN",	NULL };
	size_t i = 0, digits = 0;

	if (text_in(s, n, special))
		return true;
	if (n && (s[0] == '-' || s[0] == '+'))
		i++;
	for (; i < n && isdigit((unsigned char)s[i]); i++)
		digits++;
	if (i < n && s[i] == '.')
		for (i++; i < n && isdigit((unsigned char)s[i]); i++)
			digits++;
	if (!digits)
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		if (i == n)
			return false;
		for (; i < n && isdigit((unsigned char)s[i]); i++)
			;
	}
	return i == n;
}

enum ykind ynode_kind(const struct ynode *n)
{
	static const char *const nulls[] = { "",     "~",    "null",
					     "Null", "NULL", NULL };
	static const char *const bools[] = { "true",  "True",  "TRUE", "false",
					     "False", "FALSE", NULL };

	if (!n)
		return YK_NULL;
	if (n->type == YN_MAP)
		return YK_MAP;
	if (n->type == YN_SEQ)
		return YK_SEQ;
	if (n->style != YS_PLAIN)
		return YK_STR;
	if (text_in(n->u.text, n->len, nulls))
		return YK_NULL;
	if (text_in(n->u.text, n->len, bools))
		return YK_BOOL;
	if (is_int_text(n->u.text, n->len))
		return YK_INT;
	if (is_float_text(n->u.text, n->len))
		return YK_FLOAT;
	return YK_STR;
}

const char *ykind_name(enum ykind k)
{
	static const char *const names[] = {
		[YK_NULL] = "null",   [YK_BOOL] = "bool", [YK_INT] = "int",
		[YK_FLOAT] = "float", [YK_STR] = "str",	  [YK_SEQ] = "list",
		[YK_MAP] = "mapping",
	};
	return names[k];
}

bool ydoc_want(struct ydoc *d, const struct ynode *n, const struct ynode *key,
	       const char *what, enum ykind k)
{
	enum ykind got = ynode_kind(n);

	if (got == k)
		return true;
	ydoc_error(d, n, key, "%s: expected %s, got %s", what, ykind_name(k),
		   ykind_name(got));
	return false;
}

char *ydoc_str(struct ydoc *d, const struct ynode *n, const struct ynode *key,
	       const char *what)
{
	if (!ydoc_want(d, n, key, what, YK_STR))
		return NULL;
	if (memchr(n->u.text, '\0', n->len)) {
		ydoc_error(d, n, key, "%s: contains a NUL byte", what);
		return NULL;
	}
	return xstrndup(n->u.text, n->len);
}

int ydoc_int(struct ydoc *d, const struct ynode *n, const struct ynode *key,
	     const char *what, long min, long max, long *out)
{
	const char *s;
	char *end;
	unsigned long long v;
	bool neg;
	int base = 10;

	if (!ydoc_want(d, n, key, what, YK_INT))
		return -1;
	s = n->u.text;
	neg = *s == '-';
	s += *s == '-' || *s == '+';
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
		base = s[1] == 'x' ? 16 : 8;
		s += 2;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (!errno && !*end && v <= (unsigned long long)LONG_MAX + neg) {
		long r = neg ? (long)(0 - v) : (long)v;
		if (r >= min && r <= max) {
			*out = r;
			return 0;
		}
	}
	ydoc_error(d, n, key, "%s: must be between %ld and %ld", what, min,
		   max);
	return -1;
}

int ydoc_bool(struct ydoc *d, const struct ynode *n, const struct ynode *key,
	      const char *what, bool *out)
{
	if (!ydoc_want(d, n, key, what, YK_BOOL))
		return -1;
	*out = n->u.text[0] == 't' || n->u.text[0] == 'T';
	return 0;
}

int key_index(const char *k, const char *const *allowed)
{
	for (int i = 0; allowed[i]; i++)
		if (!strcmp(k, allowed[i]))
			return i;
	return -1;
}

int ydoc_key(struct ydoc *d, const struct ynode *key, const char *what,
	     const char *const *allowed)
{
	struct strbuf list = STRBUF_INIT;
	int i;

	if (!key || key->type != YN_SCALAR || !key->len ||
	    memchr(key->u.text, '\0', key->len)) {
		ydoc_error(d, key, NULL, "%s: keys must be non-empty strings",
			   what);
		return -2;
	}
	i = key_index(key->u.text, allowed);
	if (i >= 0)
		return i;
	for (i = 0; allowed[i]; i++)
		strbuf_addf(&list, "%s%s", i ? ", " : "", allowed[i]);
	ydoc_error(d, key, NULL, "%s: unknown key '%s'; allowed: %s", what,
		   key->u.text, list.buf);
	strbuf_release(&list);
	return -1;
}
