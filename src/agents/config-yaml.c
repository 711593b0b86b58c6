/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The config loader's typed reads (config-parse.h) over the YAML tree of
 * base/yaml-doc.h; types as base/yaml-read.h (YAML 1.2 core schema).
 */
#include "base/common.h"
#include <errno.h>
#include <math.h>
#include "agents/config-parse.h"
#include "base/path.h"
#include "base/xalloc.h"

char *cp_key(struct cparse *cp, const struct ynode *key, const char *where)
{
	if (key && key->type == YN_SCALAR && key->len &&
	    !memchr(key->u.text, '\0', key->len))
		return xstrndup(key->u.text, key->len);
	cp_error(cp, key, NULL, "%s: keys must be non-empty strings", where);
	return NULL;
}

int cp_string_list(struct cparse *cp, const struct ynode *v,
		   const struct ynode *key, const char *where, bool argv_like,
		   struct strvec *out)
{
	enum ykind k = ynode_kind(v);
	const struct ynode *item;
	int ret = 0;

	if (k != YK_SEQ) {
		if (argv_like && k != YK_MAP && k != YK_NULL)
			cp_error(cp, v, key, "%s: must be a list of argv tokens, not a single string (a string would imply a shell, which agentic-git never uses)",
				 where);
		else
			cp_error(cp, v, key, "%s: expected a list of strings",
				 where);
		return -1;
	}
	ynode_for_each_item (item, v) {
		if (ynode_kind(item) != YK_STR) {
			cp_error(cp, item, key, "%s: expected a list of strings (got %s)",
				 where, ykind_name(ynode_kind(item)));
			ret = -1;
		} else if (memchr(item->u.text, '\0', item->len)) {
			cp_error(cp, item, key, "%s: contains a NUL byte", where);
			ret = -1;
		} else {
			strvec_push(out, item->u.text);
		}
	}
	return ret;
}

int cp_positive_number(struct cparse *cp, const struct ynode *v,
		       const struct ynode *key, const char *where, double max,
		       double *out)
{
	enum ykind k = ynode_kind(v);
	char *end;
	double d;

	if (k != YK_INT && k != YK_FLOAT) {
		cp_error(cp, v, key, "%s: expected a positive number", where);
		return -1;
	}
	errno = 0;
	d = strtod(v->u.text,
		   &end); /* also reads 0x hex; 0o octal is refused */
	if (*end || errno)
		d = -1;
	if (!isfinite(d) || d <= 0) {
		cp_error(cp, v, key, "%s: expected a positive number", where);
		return -1;
	}
	if (d > max) {
		cp_error(cp, v, key, "%s: must be at most %.0f", where, max);
		return -1;
	}
	*out = d;
	return 0;
}

int cp_enum(struct cparse *cp, const struct ynode *v, const struct ynode *key,
	    const char *where, const char *const *allowed, const char *intro)
{
	struct strbuf list = STRBUF_INIT;
	const char *s =
		v && v->type == YN_SCALAR && !v->implicit ? v->u.text : NULL;
	size_t len = s ? v->len : 0;
	int i;

	if (s && ynode_kind(v) == YK_STR && !memchr(s, '\0', len) &&
	    (i = key_index(s, allowed)) >= 0)
		return i;
	for (i = 0; allowed[i]; i++)
		strbuf_addf(&list, "%s'%s'", i ? ", " : "", allowed[i]);
	if (s)
		cp_error(cp, v, key, "%s: '%.*s' %s [%s]", where,
			 (int)(len > 200 ? 200 : len), s, intro, list.buf);
	else
		cp_error(cp, v, key, "%s: expected one of [%s], got %s", where,
			 list.buf, ykind_name(ynode_kind(v)));
	strbuf_release(&list);
	return -1;
}

char *cp_path(struct cparse *cp, const struct ynode *v, const struct ynode *key,
	      const char *where)
{
	char *s = cp_string(cp, v, key, where);
	struct strbuf sb = STRBUF_INIT;

	if (!s)
		return NULL;
	if (s[0] == '~' && (s[1] == '/' || !s[1])) {
		if (!cp->home || cp->home[0] != '/') {
			cp_error(cp, v, key, "%s: cannot expand '~' (HOME is not an absolute path)",
				 where);
			free(s);
			return NULL;
		}
		strbuf_addf(&sb, "%s%s", cp->home, s + 1);
	} else if (s[0] == '/') {
		strbuf_addstr(&sb, s);
	} else {
		cp_error(cp, v, key, "%s: '%s' must be an absolute path or start with ~/",
			 where, s);
		free(s);
		return NULL;
	}
	free(s);
	path_normalize(&sb);
	return strbuf_detach(&sb, NULL);
}
