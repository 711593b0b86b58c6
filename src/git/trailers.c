/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "git/trailers.h"

#define SCISSORS "# ------------------------ >8 ------------------------"

bool trailers_skip_source(const char *source)
{
	return source && (!strcmp(source, "merge") ||
			  !strcmp(source, "squash") ||
			  !strcmp(source, "template"));
}

/* Start of the next line after p (or end). */
static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl + 1 : end;
}

static bool blank_line(const char *p, const char *eol)
{
	for (; p < eol; p++)
		if (!isspace((unsigned char)*p))
			return false;
	return true;
}

bool trailers_present(const char *msg, size_t len)
{
	const char *end = msg + len;

	for (const char *p = msg; p < end; p = next_line(p, end))
		if ((size_t)(end - p) >= 14 && !strncasecmp(p, "Agentic-Agent:", 14))
			return true;
	return false;
}

/* Where git's comments begin: the scissors line, then a trailing run of
 * comment and blank lines. */
static size_t body_end(const char *msg, size_t len)
{
	const char *end = msg + len, *cut = end, *p;

	for (p = msg; p < end; p = next_line(p, end)) {
		if ((size_t)(end - p) >= strlen(SCISSORS) &&
		    !strncmp(p, SCISSORS, strlen(SCISSORS))) {
			cut = p;
			break;
		}
	}
	/* walk forward remembering where the trailing comment run starts */
	{
		const char *run = NULL;
		for (p = msg; p < cut; p = next_line(p, cut)) {
			const char *eol = next_line(p, cut);
			bool comment = *p == '#';
			if (comment && !run)
				run = p;
			else if (!comment && !blank_line(p, eol))
				run = NULL;
		}
		if (run)
			cut = run;
	}
	return (size_t)(cut - msg);
}

static bool is_trailer_line(const char *p, const char *eol)
{
	const char *q = p;

	while (q < eol && (isalnum((unsigned char)*q) || *q == '-'))
		q++;
	return q > p && q + 1 < eol && q[0] == ':' && q[1] == ' ';
}

/* True when the last paragraph of body[0..n) is a trailer block and is
 * not the first paragraph (a subject is never a trailer). */
static bool ends_with_trailers(const char *body, size_t n)
{
	const char *end = body + n, *para = body, *p;
	bool seen_blank = false, all = true;

	for (p = body; p < end; p = next_line(p, end))
		if (blank_line(p, next_line(p, end))) {
			para = next_line(p, end);
			seen_blank = true;
		}
	if (!seen_blank || para >= end)
		return false;
	for (p = para; p < end; p = next_line(p, end)) {
		const char *eol = next_line(p, end);
		if (eol > p && eol[-1] == '\n')
			eol--;
		if (!is_trailer_line(p, eol))
			all = false;
	}
	return all;
}

static void add_trailer(struct strbuf *out, const char *key, const char *v)
{
	if (!v || !*v)
		return;
	strbuf_addf(out, "%s: ", key);
	for (; *v; v++)
		strbuf_addch(out, *v == '\n' || *v == '\r' ? ' ' : *v);
	strbuf_addch(out, '\n');
}

int trailers_apply(const char *msg, size_t len, const struct trailer_vals *v,
		   struct strbuf *out)
{
	size_t cut = body_end(msg, len), n = cut;

	if (trailers_present(msg, cut))
		return 0;
	while (n && isspace((unsigned char)msg[n - 1]))
		n--;
	strbuf_add(out, msg, n);
	if (!n)
		strbuf_addch(out, '\n');
	else
		strbuf_addstr(out, ends_with_trailers(msg, n) ? "\n" : "\n\n");
	add_trailer(out, "Agentic-Agent", v->agent);
	add_trailer(out, "Agentic-Task", v->task);
	add_trailer(out, "Agentic-Branch", v->branch);
	add_trailer(out, "Agentic-Issued-At", v->issued_at);
	if (cut < len) {
		strbuf_addch(out, '\n');
		strbuf_add(out, msg + cut, len - cut);
	}
	return 1;
}
