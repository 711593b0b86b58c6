/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pre-check in front of libfyaml (see yaml-guard.h for why).
 *
 * The scan goes line by line and tracks only what decides whether a `?` is
 * an indicator: where a node may start, quoted scalars (which may span
 * lines), block scalars (`|`, `>`), comments and flow depth. Directives are
 * scanned like any line: they hold no `?` indicator.
 *
 * Invariants:
 *  1. MUST NOT read past buf + len (the input is not NUL-terminated).
 *  2. Where the scan is unsure how libfyaml reads a line, it MUST scan the
 *     line rather than skip it: a wrong skip lets the crash through, a
 *     wrong scan only refuses an odd file with a clear message.
 */
#include "base/yaml-guard.h"

#include <string.h>

#include "base/utf8.h"

#define EXPLICIT_KEY \
	"explicit keys ('? ') are not supported; write the key plainly, " \
	"or quote a value that starts with '?'"

struct scan {
	const char *s;
	size_t bol, eol;	/* the current line is s[bol..eol) */
	int flow;		/* depth of [ and { */
	char quote;		/* inside a quoted scalar: '"' or '\'' */
	bool block;		/* inside a block scalar */
	int block_parent;	/* its lines are indented more than this */
	int block_indent;	/* its content indentation, -1 until known */
	size_t bad;		/* offset of the offending byte */
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* True when s[p] ends a token: a blank, the end of the line or of the text. */
static bool sep_at(const struct scan *sc, size_t p)
{
	return p >= sc->eol || blank(sc->s[p]);
}

static int col_of(const struct scan *sc, size_t p)
{
	return (int)(p - sc->bol);
}

/* `---` or `...` at the start of a line: a document marker. */
static bool doc_marker(const struct scan *sc)
{
	const char *s = sc->s + sc->bol;

	if (sc->eol - sc->bol < 3 || (memcmp(s, "---", 3) && memcmp(s, "...", 3)))
		return false;
	return sep_at(sc, sc->bol + 3);
}

/*
 * Moves *p past the closing quote of sc->quote and returns true, or to the
 * end of the line (the scalar goes on) and returns false.
 */
static bool skip_quoted(struct scan *sc, size_t *p)
{
	const char *s = sc->s;

	while (*p < sc->eol) {
		char c = s[(*p)++];
		if (sc->quote == '"' && c == '\\') {
			if (*p < sc->eol)
				(*p)++;
		} else if (c == sc->quote) {
			if (c == '\'' && *p < sc->eol && s[*p] == '\'') {
				(*p)++;
				continue;
			}
			sc->quote = 0;
			return true;
		}
	}
	return false;
}

/*
 * A block scalar header at s[p] (`|` or `>`, then up to two of an
 * indentation digit and a chomping sign). Enters block mode when the header
 * is well formed; a malformed one is left to libfyaml to report.
 */
static void block_header(struct scan *sc, size_t p, int parent)
{
	int indent = 0;

	for (int i = 0; i < 2 && ++p < sc->eol; i++) {
		char c = sc->s[p];
		if (c >= '1' && c <= '9' && !indent)
			indent = c - '0';
		else if (c != '+' && c != '-')
			break;
	}
	if (!sep_at(sc, p))
		return;
	sc->block = true;
	sc->block_parent = parent;
	sc->block_indent = indent ? (parent > 0 ? parent : 0) + indent : -1;
}

/* True when the current line belongs to the open block scalar. */
static bool in_block(struct scan *sc, int indent)
{
	size_t p = sc->bol;

	while (p < sc->eol && blank(sc->s[p]))
		p++;
	if (p == sc->eol)
		return true;
	if (!(indent == 0 && doc_marker(sc))) {
		if (sc->block_indent < 0 && indent > sc->block_parent) {
			sc->block_indent = indent;
			return true;
		}
		if (sc->block_indent >= 0 && indent >= sc->block_indent)
			return true;
	}
	sc->block = false;
	return false;
}

/* Scans one line; returns false with sc->bad set on an explicit key. */
static bool scan_line(struct scan *sc)
{
	const char *s = sc->s;
	size_t p = sc->bol;
	int indent = 0, parent, key_col;
	bool start = true, adjacent = false;

	while (p < sc->eol && s[p] == ' ')
		p++, indent++;
	if (sc->quote) {
		p = sc->bol;
		if (!skip_quoted(sc, &p))
			return true;
		start = false;
		adjacent = true;
	} else if (sc->block && in_block(sc, indent)) {
		return true;
	} else if (indent == 0 && doc_marker(sc)) {
		p += 3;
	}
	/*
	 * A block scalar's lines must be indented more than the node that
	 * holds it. When that node is not known, the line's own indentation
	 * less one is an upper bound, which only makes the skip shorter.
	 */
	parent = indent - 1;
	key_col = indent;
	while (p < sc->eol) {
		char c = s[p];

		if (blank(c)) {
			p++;
			continue;
		}
		if (c == '#' && (p == sc->bol || blank(s[p - 1])))
			return true;	/* a comment */
		if (start) {
			if (c == '?' && sep_at(sc, p + 1)) {
				sc->bad = p;
				return false;
			}
			if ((c == '-' || c == ':') && sep_at(sc, p + 1)) {
				parent = col_of(sc, p);
				p++;
				continue;
			}
			if (c == '"' || c == '\'') {
				sc->quote = c;
				key_col = col_of(sc, p++);
				if (!skip_quoted(sc, &p))
					return true;
				start = false;
				adjacent = true;
				continue;
			}
			if ((c == '|' || c == '>') && !sc->flow) {
				block_header(sc, p, parent);
				return true;
			}
			if (c == '!' || c == '&') {	/* a tag or an anchor */
				while (p < sc->eol && !blank(s[p]))
					p++;
				continue;
			}
			if (c == '[' || c == '{') {
				sc->flow++;
				p++;
				continue;
			}
			if (c == ',' && sc->flow) {
				p++;
				continue;
			}
			if ((c == ']' || c == '}') && sc->flow) {
				sc->flow--;
				start = false;
				adjacent = true;
				p++;
				continue;
			}
			key_col = col_of(sc, p++);	/* a plain scalar or alias */
			start = false;
			adjacent = false;
			continue;
		}
		if (c == ':' && (sep_at(sc, p + 1) ||
				 (sc->flow && (adjacent || strchr(",[]{}", s[p + 1]))))) {
			parent = key_col;
			start = true;
		} else if (sc->flow && c == ',') {
			start = true;
		} else if (sc->flow && (c == ']' || c == '}')) {
			sc->flow--;
			adjacent = true;
			p++;
			continue;
		}
		adjacent = false;
		p++;
	}
	return true;
}

const char *yaml_guard(const char *buf, size_t len, int *line, int *col)
{
	const char *nul = memchr(buf, '\0', len);
	size_t upto = nul ? (size_t)(nul - buf) : len;
	struct scan sc = { .s = buf };
	int ln = 1;

	if (!utf8_valid(buf, upto, line, col))
		return "not valid UTF-8 text";
	for (sc.bol = 0; sc.bol < upto; sc.bol = sc.eol + 1, ln++) {
		const char *nl = memchr(buf + sc.bol, '\n', upto - sc.bol);
		sc.eol = nl ? (size_t)(nl - buf) : upto;
		if (!scan_line(&sc)) {
			*line = ln;
			*col = col_of(&sc, sc.bad) + 1;
			return EXPLICIT_KEY;
		}
		if (sc.eol == upto)
			break;
	}
	if (!nul)
		return NULL;
	*line = ln;
	*col = (int)(nul - buf) - (int)sc.bol + 1;
	return "contains a NUL byte";
}
