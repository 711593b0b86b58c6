/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <string.h>
#include "fleet/verdict.h"

const char *verdict_str(enum verdict v)
{
	switch (v) {
	case VERDICT_RESOLVED:
		return "RESOLVED";
	case VERDICT_ESCALATED:
		return "ESCALATED";
	default:
		return "none";
	}
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

/* Trims whitespace, then backticks, then whitespace again (reference §5.3). */
static void trim(const char **s, const char **e)
{
	while (*s < *e && is_space(**s))
		(*s)++;
	while (*e > *s && is_space((*e)[-1]))
		(*e)--;
	while (*s < *e && **s == '`')
		(*s)++;
	while (*e > *s && (*e)[-1] == '`')
		(*e)--;
	while (*s < *e && is_space(**s))
		(*s)++;
	while (*e > *s && is_space((*e)[-1]))
		(*e)--;
}

static enum verdict match_line(const char *s, const char *e,
			       struct strbuf *line)
{
	static const struct {
		const char *word;
		enum verdict v;
	} words[] = { { "RESOLVED", VERDICT_RESOLVED },
		      { "ESCALATED", VERDICT_ESCALATED } };

	trim(&s, &e);
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i].word);
		const char *d;

		if ((size_t)(e - s) <= n || memcmp(s, words[i].word, n) ||
		    s[n] != ':')
			continue;
		d = s + n + 1;
		while (d < e && is_space(*d))
			d++;
		if (line) {
			strbuf_addstr(line, words[i].word);
			if (d < e) {
				strbuf_addstr(line, ": ");
				strbuf_add(line, d, (size_t)(e - d));
			}
		}
		return words[i].v;
	}
	return VERDICT_NONE;
}

enum verdict verdict_parse(const char *buf, size_t len, struct strbuf *line)
{
	const char *end = buf + len;

	while (end > buf) {
		const char *start = end;
		enum verdict v;

		while (start > buf && start[-1] != '\n')
			start--;
		v = match_line(start, end, line);
		if (v != VERDICT_NONE)
			return v;
		end = start > buf ? start - 1 : buf;
	}
	return VERDICT_NONE;
}
