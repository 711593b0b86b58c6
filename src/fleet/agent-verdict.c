/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <string.h>
#include "fleet/agent-verdict.h"

const char *agent_verdict_str(enum agent_verdict v)
{
	switch (v) {
	case AGENT_VERDICT_RESOLVED:
		return "RESOLVED";
	case AGENT_VERDICT_ESCALATED:
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

static enum agent_verdict match_line(const char *s, const char *e,
				     struct strbuf *line)
{
	static const struct {
		const char *word;
		enum agent_verdict v;
	} words[] = { { "RESOLVED", AGENT_VERDICT_RESOLVED },
		      { "ESCALATED", AGENT_VERDICT_ESCALATED } };

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
	return AGENT_VERDICT_NONE;
}

enum agent_verdict agent_verdict_parse(const char *buf, size_t len,
				       struct strbuf *line)
{
	const char *end = buf + len;

	while (end > buf) {
		const char *start = end;
		enum agent_verdict v;

		while (start > buf && start[-1] != '\n')
			start--;
		v = match_line(start, end, line);
		if (v != AGENT_VERDICT_NONE)
			return v;
		end = start > buf ? start - 1 : buf;
	}
	return AGENT_VERDICT_NONE;
}
