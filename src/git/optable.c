// SPDX-License-Identifier: Apache-2.0
/*
 * Lookups in git's option tables (git/optable.h). Pure: no I/O.
 *
 * Invariants:
 *  1. An option is known only when the table holds it under exactly that
 *     spelling (abbreviations are git's to refuse: the shim sets
 *     GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS for agents).
 *  2. A value is skipped only when the option takes one and it is not
 *     stuck, as parse-options reads it; so an option's value is never
 *     taken for an option or a positional, and a positional is never
 *     taken for a value.
 */
#include "base/common.h"
#include <string.h>
#include "git/optable.h"

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

const struct git_optable *git_optable_named(const char *cmd)
{
	for (size_t i = 0; cmd && i < git_optables_nr; i++)
		if (!strcmp(git_optables[i].cmd, cmd))
			return &git_optables[i];
	return NULL;
}

/* Not in the lists git prints: revision.c hands what a command's own
 * options leave to diff's (setup_revisions(), diff_opt_parse()). */
static const char *const diff_family[] = {
	"log",	      "show",	    "whatchanged", "diff-tree",
	"diff-files", "diff-index", "rev-list",	   "format-patch",
	"stash show", "range-diff", NULL,
};

const struct git_optable *git_optable_next(const char *cmd)
{
	return cmd && in_list(cmd, diff_family) ? git_optable_named("diff")
						: NULL;
}

bool git_optable_partial(const struct git_optable *t)
{
	return t && (!t->abbrev || in_list(t->cmd, diff_family));
}

bool git_optable_stops_at_positional(const char *cmd)
{
	/* PARSE_OPT_STOP_AT_NON_OPTION (builtin/grep.c, builtin/bundle.c);
	 * no list of git's says it */
	static const char *const stops[] = { "grep", "bundle create", NULL };

	return cmd && in_list(cmd, stops);
}

const struct git_opt *git_opt_resolve(const struct git_optable *t,
				      const char *name, size_t len,
				      enum git_opt_match *m)
{
	const struct git_opt *found = NULL;
	size_t hits = 0;
	bool negation;

	*m = OPTM_NONE;
	if (!t || !len)
		return NULL;
	negation = (len >= 3 && !strncmp(name, "no-", 3)) ||
		   !strncmp("no-", name, len);
	for (size_t i = 0; i < t->nr; i++) {
		const char *l = t->opts[i].lng;
		if (!l || strncmp(l, name, len))
			continue;
		if (!l[len]) {
			*m = OPTM_EXACT;
			return &t->opts[i];
		}
		/* a command that keeps what it does not know expands only
		 * negations: `--no-stdou` is --no-stdout, `--stdou` is none
		 * (parse-options' "abbreviated and negated") */
		if (!t->abbrev && !negation)
			continue;
		found = &t->opts[i];
		hits++;
	}
	if (hits > 1) {
		*m = OPTM_AMBIGUOUS;
		return NULL;
	}
	if (hits)
		*m = OPTM_ABBREV;
	return found;
}

const struct git_opt *git_opt_short(const struct git_optable *t, char c)
{
	for (size_t i = 0; c && t && i < t->nr; i++)
		if (t->opts[i].shrt == c)
			return &t->opts[i];
	return NULL;
}
