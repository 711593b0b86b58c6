/* SPDX-License-Identifier: Apache-2.0 */
/* The one packed-refs reader (packed-refs.h). */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include "base/fileio.h"
#include "base/refname.h"
#include "base/xalloc.h"
#include "git/packed-refs.h"

#define HEADER "# pack-refs with:"

/* The header's traits, space-separated; an unknown one is ignored. */
static unsigned parse_traits(char *s)
{
	static const struct {
		const char *name;
		unsigned bit;
	} known[] = { { "peeled", PACKED_PEELED },
		      { "fully-peeled", PACKED_FULLY_PEELED },
		      { "sorted", PACKED_SORTED } };
	unsigned traits = 0;

	for (char *e; *s; s = e) {
		while (*s == ' ')
			s++;
		e = strchrnul(s, ' ');
		if (*e)
			*e++ = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(known); i++)
			if (!strcmp(s, known[i].name))
				traits |= known[i].bit;
	}
	return traits;
}

/* One line, NUL-terminated in place; -1 when git would not write it. */
static int parse_line(struct packed_refs *pr, char *l, size_t len,
		      size_t hexlen, bool first)
{
	if (first && starts_with(l, HEADER)) {
		pr->traits = parse_traits(l + strlen(HEADER));
		return 0;
	}
	if (*l == '^') {
		struct packed_ref *last = pr->nr ? &pr->v[pr->nr - 1] : NULL;
		if (!last || last->peeled || len != hexlen + 1 ||
		    !is_lower_hex(l + 1, hexlen))
			return -1;
		last->peeled = l + 1;
		return 0;
	}
	if (len <= hexlen + 1 || l[hexlen] != ' ' || !is_lower_hex(l, hexlen) ||
	    !refname_valid(l + hexlen + 1, REFNAME_ONELEVEL))
		return -1;
	l[hexlen] = '\0';
	ALLOC_GROW(pr->v, pr->nr, pr->alloc);
	pr->v[pr->nr++] = (struct packed_ref){ l, l + hexlen + 1, NULL };
	return 0;
}

int packed_refs_parse(struct packed_refs *pr, size_t hexlen)
{
	char *buf = pr->text.buf, *end = buf + pr->text.len;

	pr->nr = 0;
	pr->traits = 0;
	for (char *l = buf; l < end;) {
		char *e = memchr(l, '\n', (size_t)(end - l));
		/* unterminated, empty or holding a NUL: not git's */
		if (!e || e == l || memchr(l, '\0', (size_t)(e - l)) ||
		    parse_line(pr, (*e = '\0', l), (size_t)(e - l), hexlen,
			       l == buf) < 0) {
			pr->nr = 0;
			return -1;
		}
		l = e + 1;
	}
	return 0;
}

int packed_refs_read(struct packed_refs *pr, const char *commondir,
		     size_t hexlen, size_t max)
{
	struct strbuf path = STRBUF_INIT;
	int rc = 0;

	strbuf_reset(&pr->text);
	pr->nr = 0;
	strbuf_addf(&path, "%s/packed-refs", commondir);
	if (read_file_bounded(path.buf, max, RF_REGULAR, &pr->text) < 0) {
		rc = errno == ENOENT ? 0 : -1;
		strbuf_reset(&pr->text);
	} else {
		rc = packed_refs_parse(pr, hexlen);
	}
	strbuf_release(&path);
	return rc;
}

const struct packed_ref *packed_refs_find(const struct packed_refs *pr,
					  const char *name)
{
	for (size_t i = 0; i < pr->nr; i++)
		if (!strcmp(pr->v[i].name, name))
			return &pr->v[i];
	return NULL;
}

void packed_refs_release(struct packed_refs *pr)
{
	strbuf_release(&pr->text);
	free(pr->v);
	pr->v = NULL;
	pr->nr = pr->alloc = 0;
	pr->traits = 0;
}
