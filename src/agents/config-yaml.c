/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Typed, positioned access to libfyaml nodes for the config loader
 * (config-parse.h). YAML 1.2 core schema: plain null/~/empty is null,
 * true/false are booleans, numbers are numbers; anything quoted is a
 * string. Aliases and explicit tags are refused (a config has no use for
 * them, and refusing keeps the accepted language small).
 */
#include "base/common.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include "agents/config-parse.h"
#include "base/path.h"
#include "base/xalloc.h"

static bool is_int_text(const char *s, size_t n)
{
	size_t i = 0;

	if (n && (s[0] == '-' || s[0] == '+'))
		i++;
	if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'o')) {
		for (i += 2; i < n; i++)
			if (!isxdigit((unsigned char)s[i]))
				return false;
		return true;
	}
	if (i == n)
		return false;
	for (; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static bool is_float_text(const char *s, size_t n)
{
	static const char *const special[] = { ".inf", "-.inf", "+.inf",
					       ".Inf", ".INF", ".nan", ".NaN",
					       ".NAN", NULL };
	size_t i = 0, digits = 0;

	for (size_t k = 0; special[k]; k++)
		if (n == strlen(special[k]) && !memcmp(s, special[k], n))
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

static bool text_in(const char *s, size_t n, const char *const *set)
{
	for (; *set; set++)
		if (n == strlen(*set) && !memcmp(s, *set, n))
			return true;
	return false;
}

enum ykind ynode_kind(struct fy_node *n)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL",
					     NULL };
	static const char *const bools[] = { "true", "True", "TRUE", "false",
					     "False", "FALSE", NULL };
	const char *s;
	size_t len;

	if (!n)
		return YK_NULL;
	if (fy_node_is_mapping(n))
		return YK_MAP;
	if (fy_node_is_sequence(n))
		return YK_SEQ;
	if (fy_node_get_style(n) != FYNS_PLAIN)
		return YK_STR;
	s = fy_node_get_scalar(n, &len);
	if (!s || text_in(s, len, nulls))
		return YK_NULL;
	if (text_in(s, len, bools))
		return YK_BOOL;
	if (is_int_text(s, len))
		return YK_INT;
	if (is_float_text(s, len))
		return YK_FLOAT;
	return YK_STR;
}

const char *ykind_name(enum ykind k)
{
	static const char *const names[] = {
		[YK_NULL] = "null", [YK_BOOL] = "bool", [YK_INT] = "int",
		[YK_FLOAT] = "float", [YK_STR] = "str", [YK_SEQ] = "list",
		[YK_MAP] = "mapping",
	};
	return names[k];
}

/* The first position inside a node: its token, or its first child's. */
static bool node_mark(struct fy_node *n, int depth, int *line, int *col)
{
	void *it = NULL;

	if (!n || depth > 64)
		return false;
	if (fy_node_is_scalar(n)) {
		struct fy_token *t = fy_node_get_scalar_token(n);
		const struct fy_mark *m = t ? fy_token_start_mark(t) : NULL;
		if (!m)
			return false;
		*line = m->line + 1;
		*col = m->column + 1;
		return true;
	}
	if (fy_node_is_mapping(n)) {
		struct fy_node_pair *pr = fy_node_mapping_iterate(n, &it);
		return pr && node_mark(fy_node_pair_key(pr), depth + 1, line,
				       col);
	}
	return node_mark(fy_node_sequence_iterate(n, &it), depth + 1, line,
			 col);
}

void cp_error(struct cparse *cp, struct fy_node *at, struct fy_node *fallback,
	      const char *fmt, ...)
{
	va_list ap;
	int line = 1, col = 1;

	if (!node_mark(at, 0, &line, &col))
		node_mark(fallback, 0, &line, &col);
	strbuf_addf(cp->errs, "%s:%d:%d: ", cp->name, line, col);
	{
		/* one error, one line: user text quoted in the message may
		 * hold newlines or control bytes (found by fuzz-config) */
		size_t start = cp->errs->len;
		va_start(ap, fmt);
		strbuf_vaddf(cp->errs, fmt, ap);
		va_end(ap);
		for (size_t i = start; i < cp->errs->len; i++) {
			unsigned char c = (unsigned char)cp->errs->buf[i];
			if (c < 0x20 || c == 0x7f)
				cp->errs->buf[i] = '?';
		}
	}
	strbuf_addch(cp->errs, '\n');
	cp->nerr++;
}

void cp_where(struct cparse *cp, struct fy_node *n, struct strbuf *out)
{
	int line = 1, col = 1;

	node_mark(n, 0, &line, &col);
	strbuf_addf(out, "%s:%d:%d", cp->name, line, col);
}

char *cp_string(struct cparse *cp, struct fy_node *n, struct fy_node *key,
		const char *where)
{
	enum ykind k = ynode_kind(n);
	const char *s;
	size_t len;

	if (k != YK_STR) {
		cp_error(cp, n, key, "%s: expected str, got %s", where,
			 ykind_name(k));
		return NULL;
	}
	s = fy_node_get_scalar(n, &len);
	if (memchr(s, '\0', len)) {
		cp_error(cp, n, key, "%s: contains a NUL byte", where);
		return NULL;
	}
	return xstrndup(s, len);
}

char *cp_key(struct cparse *cp, struct fy_node *key, const char *where)
{
	enum ykind k = ynode_kind(key);
	const char *s;
	size_t len;

	if (fy_node_is_scalar(key) && k != YK_SEQ && k != YK_MAP &&
	    fy_node_get_style(key) != FYNS_ALIAS) {
		s = fy_node_get_scalar(key, &len);
		if (s && len && !memchr(s, '\0', len))
			return xstrndup(s, len);
	}
	cp_error(cp, key, NULL, "%s: keys must be non-empty strings", where);
	return NULL;
}

int cp_string_list(struct cparse *cp, struct fy_node *v, struct fy_node *key,
		   const char *where, bool argv_like, struct strvec *out)
{
	enum ykind k = ynode_kind(v);
	struct fy_node *item;
	void *it = NULL;
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
	while ((item = fy_node_sequence_iterate(v, &it))) {
		const char *s;
		size_t len;

		if (ynode_kind(item) != YK_STR) {
			cp_error(cp, item, key, "%s: expected a list of strings (got %s)",
				 where, ykind_name(ynode_kind(item)));
			ret = -1;
			continue;
		}
		s = fy_node_get_scalar(item, &len);
		if (memchr(s, '\0', len)) {
			cp_error(cp, item, key, "%s: contains a NUL byte", where);
			ret = -1;
			continue;
		}
		char *copy = xstrndup(s, len);
		strvec_push(out, copy);
		free(copy);
	}
	return ret;
}

int cp_positive_number(struct cparse *cp, struct fy_node *v,
		       struct fy_node *key, const char *where, double max,
		       double *out)
{
	enum ykind k = ynode_kind(v);
	const char *text;
	size_t len;
	char *end, *s;
	double d;

	if (k != YK_INT && k != YK_FLOAT) {
		cp_error(cp, v, key, "%s: expected a positive number", where);
		return -1;
	}
	text = fy_node_get_scalar(v, &len);
	s = xstrndup(text, len);
	errno = 0;
	d = strtod(s, &end); /* also reads 0x hex; 0o octal is refused */
	if (*end || errno)
		d = -1;
	free(s);
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

int key_index(const char *k, const char *const *allowed)
{
	for (int i = 0; allowed[i]; i++)
		if (!strcmp(k, allowed[i]))
			return i;
	return -1;
}

int cp_enum(struct cparse *cp, struct fy_node *v, struct fy_node *key,
	    const char *where, const char *const *allowed, const char *intro)
{
	struct strbuf list = STRBUF_INIT;
	const char *s;
	size_t len;
	int i;

	s = fy_node_is_scalar(v) ? fy_node_get_scalar(v, &len) : NULL;
	if (s && ynode_kind(v) == YK_STR && !memchr(s, '\0', len)) {
		char *copy = xstrndup(s, len);
		i = key_index(copy, allowed);
		free(copy);
		if (i >= 0)
			return i;
	}
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

char *cp_path(struct cparse *cp, struct fy_node *v, struct fy_node *key,
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

void cp_unknown_key(struct cparse *cp, struct fy_node *key, const char *where,
		    const char *k, const char *const *allowed)
{
	struct strbuf list = STRBUF_INIT;

	for (int i = 0; allowed[i]; i++)
		strbuf_addf(&list, "%s%s", i ? ", " : "", allowed[i]);
	cp_error(cp, key, NULL, "%s: unknown key '%s'; allowed: %s", where, k,
		 list.buf);
	strbuf_release(&list);
}
