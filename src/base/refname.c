/* SPDX-License-Identifier: Apache-2.0 */
/* git's ref-name rules, one place (refname.h). */
#include "base/common.h"
#include <string.h>
#include "base/refname.h"

#define LOCK_SUFFIX ".lock"
#define LOCK_SUFFIX_LEN 5

/* A byte no component may hold: a control byte, DEL or " ~^:?*[\\". */
static bool refused_byte(unsigned char c)
{
	return c < 0x20 || c == 0x7f || (c && strchr(" ~^:?*[\\", c));
}

/*
 * The component at `comp`, up to the next '/' or the end: *end is set
 * there. NULL when it is a valid component, else the rule it breaks.
 */
static const char *component_problem(const char *comp, const char **end)
{
	const char *p;
	unsigned char last = 0;

	for (p = comp; *p && *p != '/'; p++) {
		unsigned char c = (unsigned char)*p;
		if (refused_byte(c))
			return c < 0x20 || c == 0x7f
				       ? "must not contain control characters"
				       : "must not contain spaces or any of ~^:?*[\\";
		if (c == '.' && last == '.')
			return "must not contain '..'";
		if (c == '{' && last == '@')
			return "must not contain '@{'";
		last = c;
	}
	*end = p;
	if (p == comp)
		return "must not start or end with '/' nor contain '//'";
	if (*comp == '.')
		return "components must not start with '.'";
	if (p - comp >= LOCK_SUFFIX_LEN &&
	    !memcmp(p - LOCK_SUFFIX_LEN, LOCK_SUFFIX, LOCK_SUFFIX_LEN))
		return "components must not end with '" LOCK_SUFFIX "'";
	return NULL;
}

const char *refname_problem(const char *name, unsigned flags)
{
	const char *comp = name, *end = NULL, *why;
	size_t ncomp = 0;

	if (!name || !*name)
		return "must not be empty";
	if (!(flags & REFNAME_BRANCH) && !strcmp(name, "@"))
		return "must not be '@'";
	for (;;) {
		why = component_problem(comp, &end);
		if (why)
			return why;
		ncomp++;
		if (!*end)
			break;
		comp = end + 1;
	}
	if (end[-1] == '.')
		return "must not end with '.'";
	if (ncomp < 2 && !(flags & (REFNAME_ONELEVEL | REFNAME_BRANCH)))
		return "must have at least two components (refs/...)";
	return NULL;
}

bool refname_valid(const char *name, unsigned flags)
{
	return !refname_problem(name, flags);
}
