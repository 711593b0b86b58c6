/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The repository probe's config reader (git/repo-probe.h), pure. git's
 * config syntax (git-config(1), "CONFIGURATION FILE"): `[section]` or
 * `[section "subsection"]` headers, `name = value` or a bare `name`
 * (true), `#` and `;` comments, values with double quotes, the escapes
 * \" \\ \n \t \b and a backslash before a newline to continue the line.
 * Section and variable names are case-insensitive.
 *
 * Only the keys that change a format our code reads or writes are kept;
 * anything this reader cannot follow exactly is PROBE_ODD (inv. 1).
 */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "base/strbuf.h"
#include "base/strvec.h"
#include "git/repo-probe.h"

struct cfg {
	const char *p, *end;
	/* lowercased; "" when a subsection is named, but for includeIf */
	char section[32];
	bool odd;
	enum repo_probe_level level;
	struct strvec *includes; /* NULL: an include is PROBE_ODD */
};

enum repo_probe_objfmt repo_probe_objfmt_of(const char *name)
{
	if (!name || !strcmp(name, "sha1"))
		return PROBE_SHA1;
	return !strcmp(name, "sha256") ? PROBE_SHA256 : PROBE_OBJFMT_OTHER;
}

/* git_parse_maybe_bool's false; NULL (a bare name) is true */
static bool falsey(const char *v)
{
	return v && (!*v || !strcasecmp(v, "false") || !strcasecmp(v, "no") ||
		     !strcasecmp(v, "off") || !strcmp(v, "0"));
}

static void skip_blank(struct cfg *c)
{
	while (c->p < c->end &&
	       (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static void skip_line(struct cfg *c)
{
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));

	c->p = nl ? nl + 1 : c->end;
}

/* `[name]`, `[name "sub"]`; c->p is past the '['. */
static void section(struct cfg *c)
{
	size_t n = 0;

	while (c->p < c->end && (isalnum((unsigned char)*c->p) ||
				 *c->p == '-' || *c->p == '.')) {
		if (n + 1 >= sizeof(c->section) || *c->p == '.')
			n = sizeof(c->section); /* long or [a.b]: not ours */
		else
			c->section[n++] = (char)tolower((unsigned char)*c->p);
		c->p++;
	}
	c->section[n < sizeof(c->section) ? n : 0] = '\0';
	if (c->p < c->end && *c->p == ' ') {
		/* a subsection: no key of ours lives in one, but includes do */
		if (strcmp(c->section, "includeif"))
			c->section[0] = '\0';
		skip_blank(c);
		if (c->p >= c->end || *c->p++ != '"') {
			c->odd = true;
			return;
		}
		while (c->p < c->end && *c->p != '"' && *c->p != '\n') {
			if (*c->p == '\\' && c->end - c->p < 2)
				break;
			c->p += *c->p == '\\' ? 2 : 1;
		}
		if (c->p >= c->end || *c->p++ != '"')
			c->odd = true;
	}
	if (c->p >= c->end || *c->p++ != ']')
		c->odd = true;
}

/* The value after '=' into v: quotes, escapes, comments, continuations. */
static void value(struct cfg *c, struct strbuf *v)
{
	bool quoted = false;
	size_t keep = 0; /* v->len without trailing blanks outside quotes */

	skip_blank(c);
	while (c->p < c->end && !c->odd) {
		char ch = *c->p++;
		if (ch == '\n' && !quoted)
			break;
		if (ch == '\n' || (!quoted && (ch == '#' || ch == ';'))) {
			if (quoted)
				c->odd = true; /* a newline inside quotes */
			else
				skip_line(c);
			break;
		}
		if (ch == '"') {
			quoted = !quoted;
			continue;
		}
		if (ch == '\\') {
			if (c->p >= c->end) {
				c->odd = true;
				break;
			}
			ch = *c->p++;
			if (ch == '\n')
				continue;
			if (ch == 'n' || ch == 't' || ch == 'b')
				ch = ch == 'n' ? '\n' : ch == 't' ? '\t' : '\b';
			else if (ch != '"' && ch != '\\')
				c->odd = true;
			strbuf_addch(v, ch);
			keep = v->len;
			continue;
		}
		strbuf_addch(v, ch);
		if (quoted || (ch != ' ' && ch != '\t' && ch != '\r'))
			keep = v->len;
	}
	if (quoted)
		c->odd = true;
	strbuf_setlen(v, keep);
}

static void extension(struct repo_probe *p, const char *key, const char *v)
{
	if (!strcmp(key, "objectformat")) {
		p->objfmt = v ? repo_probe_objfmt_of(v) : PROBE_OBJFMT_OTHER;
	} else if (!strcmp(key, "refstorage")) {
		if (!v || strcmp(v, "files"))
			p->flags |= PROBE_REFS_OTHER;
	} else if (!strcmp(key, "worktreeconfig")) {
		if (!falsey(v))
			p->flags |= PROBE_WORKTREE_CONFIG;
	} else if (strcmp(key, "noop") && strcmp(key, "preciousobjects") &&
		   strcmp(key, "partialclone")) {
		/* none of these changes a format we read or write */
		p->flags |= PROBE_UNKNOWN_EXT;
	}
}

static void version(struct repo_probe *p, struct cfg *c, const char *v)
{
	unsigned long n = 0;

	if (!v || !*v || strspn(v, "0123456789") != strlen(v) ||
	    strlen(v) > 6) {
		c->odd = true;
		return;
	}
	for (const char *d = v; *d; d++)
		n = n * 10 + (unsigned long)(*d - '0');
	p->version = (unsigned)n;
	if (n > 1)
		p->flags |= PROBE_FORMAT_NEWER;
}

static void keep(struct repo_probe *p, struct cfg *c, const char *key,
		 const char *v)
{
	const char *s = c->section;

	if (!strcmp(s, "include") || !strcmp(s, "includeif")) {
		/* another file could set any of these: the caller reads it
		 * too (whatever an includeIf's condition: more is safe) */
		if (strcmp(key, "path"))
			return;
		if (!c->includes || !v || !*v)
			c->odd = true;
		else
			strvec_push(c->includes, v);
	} else if (!strcmp(s, "extensions")) {
		/* git reads these from the repository's config file only */
		if (c->level == PROBE_LEVEL_REPO)
			extension(p, key, v);
	} else if (!strcmp(s, "core")) {
		if (!strcmp(key, "repositoryformatversion")) {
			if (c->level == PROBE_LEVEL_REPO)
				version(p, c, v);
		} else if (!strcmp(key, "splitindex") && !falsey(v))
			p->flags |= PROBE_SPLIT_INDEX;
		else if (!strcmp(key, "logallrefupdates") && v &&
			 !strcasecmp(v, "always"))
			p->flags |= PROBE_REFLOG_ALWAYS;
		else if (!strcmp(key, "sharedrepository") && !falsey(v) &&
			 !(v && !strcasecmp(v, "umask")))
			p->flags |= PROBE_SHARED;
	} else if (!strcmp(s, "index") && !strcmp(key, "sparse") &&
		   !falsey(v)) {
		p->flags |= PROBE_SPARSE_INDEX;
	}
}

/* `name [= value]` at c->p (a letter). */
static void variable(struct repo_probe *p, struct cfg *c)
{
	struct strbuf key = STRBUF_INIT, v = STRBUF_INIT;
	bool has_value = false;

	while (c->p < c->end && (isalnum((unsigned char)*c->p) || *c->p == '-'))
		strbuf_addch(&key, (char)tolower((unsigned char)*c->p++));
	skip_blank(c);
	if (c->p < c->end && *c->p == '=') {
		c->p++;
		has_value = true;
		value(c, &v);
	} else if (c->p < c->end && (*c->p == '#' || *c->p == ';')) {
		skip_line(c);
	} else if (c->p < c->end && *c->p++ != '\n') {
		c->odd = true;
	}
	if (!c->odd && c->section[0])
		keep(p, c, key.buf, has_value ? v.buf : NULL);
	strbuf_release(&key);
	strbuf_release(&v);
}

void repo_probe_config(struct repo_probe *p, const char *buf, size_t len,
		       enum repo_probe_level level, struct strvec *includes)
{
	struct cfg c = { .p = buf,
			 .end = buf + len,
			 .level = level,
			 .includes = includes };

	/* a UTF-8 byte order mark is skipped, as git does */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		c.p += 3;
	while (c.p < c.end && !c.odd) {
		skip_blank(&c);
		if (c.p >= c.end)
			break;
		if (*c.p == '\n')
			c.p++;
		else if (*c.p == '#' || *c.p == ';')
			skip_line(&c);
		else if (*c.p == '[')
			c.p++, section(&c);
		else if (isalpha((unsigned char)*c.p))
			variable(p, &c);
		else
			c.odd = true;
	}
	if (c.odd || memchr(buf, '\0', len))
		p->flags |= PROBE_ODD;
}
