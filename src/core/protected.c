/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Protected refs and the policy.toml grammar.
 *
 * Invariants:
 *  1. main and master are always protected (the floor); policy.toml can only
 *     add patterns.
 *  2. Matching is case-insensitive (case-insensitive filesystems make
 *     `Main` and `main` the same ref file).
 *  3. The parser accepts exactly: blank lines, `#` comments, one
 *     `protected_refs = [ "…", … ]` assignment. Anything else is an error
 *     with line:column, never silently skipped.
 *  4. A policy.toml whose signature does not verify, or that does not
 *     parse, MUST NOT be honoured; the caller decides how to fail closed.
 */
#include "base/common.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agentic-git/core.h"
#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

void ag_protected_init(struct ag_protected *p)
{
	memset(p, 0, sizeof(*p));
	ag_protected_add(p, "main");
	ag_protected_add(p, "master");
}

void ag_protected_release(struct ag_protected *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->patterns[i]);
	free(p->patterns);
	memset(p, 0, sizeof(*p));
}

int ag_protected_add(struct ag_protected *p, const char *pattern)
{
	char *s;

	if (!strncmp(pattern, "refs/heads/", 11))
		pattern += 11;
	if (!*pattern)
		return -1; /* "" or a bare "refs/heads/" (found by fuzz-policytoml) */
	s = xstrdup(pattern);
	for (char *c = s; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	ALLOC_GROW(p->patterns, p->nr, p->alloc);
	p->patterns[p->nr++] = s;
	return 0;
}

/* Iterative glob match with backtracking on the last '*'. */
static bool glob_match(const char *pat, const char *str)
{
	const char *star = NULL, *mark = NULL;

	while (*str) {
		if (*pat == '?' ||
		    (*pat && *pat != '*' &&
		     tolower((unsigned char)*pat) == tolower((unsigned char)*str))) {
			pat++;
			str++;
		} else if (*pat == '*') {
			star = pat++;
			mark = str;
		} else if (star) {
			pat = star + 1;
			str = ++mark;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

bool ag_protected_match(const struct ag_protected *p, const char *ref)
{
	if (!strncmp(ref, "refs/heads/", 11))
		ref += 11;
	if (!*ref)
		return false;
	for (size_t i = 0; i < p->nr; i++)
		if (glob_match(p->patterns[i], ref))
			return true;
	return false;
}

struct lexer {
	const char *p, *end;
	int line, col;
	char *err;
	size_t errlen;
};

static int lex_err(struct lexer *lx, const char *msg)
{
	snprintf(lx->err, lx->errlen, "%d:%d: %s", lx->line, lx->col, msg);
	return -1;
}

static void advance(struct lexer *lx)
{
	if (*lx->p == '\n') {
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
	lx->p++;
}

/* Skips spaces, tabs, comments and (when multiline) newlines. */
static void skip_ws(struct lexer *lx, bool multiline)
{
	while (lx->p < lx->end) {
		char c = *lx->p;
		if (c == ' ' || c == '\t' || c == '\r') {
			advance(lx);
		} else if (c == '#') {
			while (lx->p < lx->end && *lx->p != '\n')
				advance(lx);
		} else if (c == '\n' && multiline) {
			advance(lx);
		} else {
			break;
		}
	}
}

static int parse_string(struct lexer *lx, struct strbuf *out)
{
	if (lx->p >= lx->end || *lx->p != '"')
		return lex_err(lx, "expected a \"quoted string\"");
	advance(lx);
	while (lx->p < lx->end && *lx->p != '"') {
		char c = *lx->p;
		if (c == '\n' || (unsigned char)c < 0x20)
			return lex_err(lx, "unterminated string");
		if (c == '\\') {
			advance(lx);
			if (lx->p >= lx->end ||
			    (*lx->p != '"' && *lx->p != '\\'))
				return lex_err(lx, "unsupported escape (only \\\" and \\\\)");
			c = *lx->p;
		}
		strbuf_addch(out, c);
		advance(lx);
	}
	if (lx->p >= lx->end)
		return lex_err(lx, "unterminated string");
	advance(lx);
	return 0;
}

int ag_policy_parse(const char *buf, size_t len, struct ag_protected *p,
		    char *err, size_t errlen)
{
	struct lexer lx = { buf, buf + len, 1, 1, err, errlen };
	bool seen = false;
	struct ag_protected tmp;

	memset(&tmp, 0, sizeof(tmp));
	if (memchr(buf, '\0', len))
		return lex_err(&lx, "NUL byte in policy file");
	for (;;) {
		skip_ws(&lx, true);
		if (lx.p >= lx.end)
			break;
		if ((size_t)(lx.end - lx.p) < 14 ||
		    memcmp(lx.p, "protected_refs", 14) ||
		    (lx.p + 14 < lx.end &&
		     (isalnum((unsigned char)lx.p[14]) || lx.p[14] == '_' ||
		      lx.p[14] == '-')))
			goto bad_key;
		if (seen) {
			lex_err(&lx, "duplicate key 'protected_refs'");
			goto fail;
		}
		seen = true;
		for (int i = 0; i < 14; i++)
			advance(&lx);
		skip_ws(&lx, false);
		if (lx.p >= lx.end || *lx.p != '=') {
			lex_err(&lx, "expected '=' after 'protected_refs'");
			goto fail;
		}
		advance(&lx);
		skip_ws(&lx, false);
		if (lx.p >= lx.end || *lx.p != '[') {
			lex_err(&lx, "expected '[' to start the list");
			goto fail;
		}
		advance(&lx);
		for (;;) {
			struct strbuf s = STRBUF_INIT;
			skip_ws(&lx, true);
			if (lx.p < lx.end && *lx.p == ']') {
				advance(&lx);
				break;
			}
			if (parse_string(&lx, &s) < 0) {
				strbuf_release(&s);
				goto fail;
			}
			if (!s.len || strchr(s.buf, '[') || strchr(s.buf, '\\') ||
			    strchr(s.buf, ' ')) {
				strbuf_release(&s);
				lex_err(&lx, "a ref pattern must be non-empty and use only '*' and '?' as wildcards");
				goto fail;
			}
			if (ag_protected_add(&tmp, s.buf) < 0) {
				strbuf_release(&s);
				lex_err(&lx, "a ref pattern must name a branch");
				goto fail;
			}
			strbuf_release(&s);
			skip_ws(&lx, true);
			if (lx.p < lx.end && *lx.p == ',') {
				advance(&lx);
				continue;
			}
			if (lx.p < lx.end && *lx.p == ']') {
				advance(&lx);
				break;
			}
			lex_err(&lx, "expected ',' or ']'");
			goto fail;
		}
		skip_ws(&lx, false);
		if (lx.p < lx.end && *lx.p != '\n') {
			lex_err(&lx, "unexpected text after the list");
			goto fail;
		}
	}
	for (size_t i = 0; i < tmp.nr; i++)
		ag_protected_add(p, tmp.patterns[i]);
	ag_protected_release(&tmp);
	return 0;
bad_key:
	lex_err(&lx, "unknown key (only 'protected_refs' is understood)");
fail:
	ag_protected_release(&tmp);
	return -1;
}

int ag_policy_load(const char *home, struct ag_protected *p, char *err,
		   size_t errlen)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT, sig = STRBUF_INIT;
	uint8_t key[AG_KEY_LEN];
	enum ag_verify v;
	bool have_key;
	int ret = -1;

	strbuf_addpath(&path, home, "policy.toml");
	if (read_small_regular(path.buf, AG_POLICY_MAX, &data) < 0) {
		if (errno == ENOENT) {
			ret = 0;
		} else {
			snprintf(err, errlen, "cannot read '%s': %s", path.buf,
				 strerror(errno));
		}
		goto out;
	}
	strbuf_addstr(&path, ".sig");
	if (read_small_regular(path.buf, AG_SIG_MAX, &sig) < 0)
		strbuf_reset(&sig);
	have_key = !ag_key_load(home, key);
	v = ag_hmac_verify(have_key ? key : NULL, AG_KEY_LEN, data.buf,
			   data.len, sig.buf, sig.len, NULL, 0);
	if (have_key)
		ag_key_wipe(key);
	if (v != AG_VERIFY_OK) {
		snprintf(err, errlen, "policy.toml signature: %s",
			 ag_verify_str(v));
		goto out;
	}
	{
		char perr[256];
		if (ag_policy_parse(data.buf, data.len, p, perr,
				    sizeof(perr)) < 0) {
			snprintf(err, errlen, "policy.toml:%s", perr);
			goto out;
		}
	}
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&data);
	strbuf_release(&sig);
	return ret;
}
