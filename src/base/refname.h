/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_REFNAME_H
#define AG_REFNAME_H

/**
 * The one check of git's ref-name rules (git-check-ref-format(1)), for
 * every place that takes a ref or branch name from outside or off disk:
 *
 *   if (!refname_valid(name, REFNAME_ONELEVEL))
 *           return "ask git" or refuse;
 *   why = refname_problem(name, REFNAME_BRANCH);  // NULL when valid
 *
 * The rules, as check-ref-format applies them without --normalize or
 * --refspec-pattern: no empty component (so no '/' at either end, no
 * "//"), no component starting with '.' or ending with ".lock", no "..",
 * no "@{", no byte below 0x20, no DEL, none of " ~^:?*[\\", no '.' at the
 * end, not the lone "@", at least two components unless one level is
 * allowed. Bytes of 0x80 and above are allowed, as git allows them; there
 * is no length limit (git has none). tests/unit/test-refname.c checks the
 * answers against `git check-ref-format` itself.
 *
 * Callers that refuse more on purpose (a branch may not start with '-',
 * the names agentic-git reserves, an ASCII-only listing) do so in their
 * own named check on top of this one.
 *
 * Pure: no I/O, no allocation. `name` is not kept.
 */
#include "base/common.h"

enum refname_flags {
	/* one component is enough: "HEAD", "FETCH_HEAD", "refs" */
	REFNAME_ONELEVEL = 1 << 0,
	/*
	 * `name` is what follows "refs/heads/" (or any "refs/<x>/"): judged
	 * as that whole ref would be, so one level is enough and a lone "@"
	 * is a name like any other (the "@" rule is the whole ref's).
	 */
	REFNAME_BRANCH = 1 << 1,
};

/*
 * NULL when `name` is a ref name by git's rules under `flags` (enum
 * refname_flags), else a static phrase saying which rule it breaks
 * ("must not contain '..'"). A NULL name is not valid.
 */
const char *refname_problem(const char *name, unsigned flags);

/* refname_problem(name, flags) == NULL. */
bool refname_valid(const char *name, unsigned flags);

#endif
