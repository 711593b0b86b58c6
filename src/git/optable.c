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

static bool has_words(const char *sub)
{
	return !strcmp(sub, "stash") || !strcmp(sub, "worktree");
}

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

/* the tables the readers not moved to git/cmdline.c yet knew */
static bool legacy(const char *cmd)
{
	static const char *const old[] = { "add",
					   "am",
					   "branch",
					   "checkout",
					   "checkout-index",
					   "cherry-pick",
					   "clean",
					   "clone",
					   "commit",
					   "config",
					   "fetch",
					   "format-patch",
					   "gc",
					   "init",
					   "merge",
					   "mv",
					   "prune",
					   "pull",
					   "push",
					   "read-tree",
					   "rebase",
					   "reset",
					   "restore",
					   "revert",
					   "rm",
					   "switch",
					   "symbolic-ref",
					   "tag",
					   "update-ref",
					   "stash push",
					   "stash save",
					   "stash pop",
					   "stash apply",
					   "stash drop",
					   "stash store",
					   "stash branch",
					   "worktree add",
					   "worktree move",
					   "worktree remove",
					   "worktree lock",
					   "worktree prune",
					   NULL };

	return in_list(cmd, old);
}

const struct git_optable *
git_optable_find(const char *sub, const char *const *args, size_t nargs)
{
	char cmd[64];
	const char *word = nargs ? args[0] : NULL;

	if (!sub)
		return NULL;
	if (!strcmp(sub, "init-db")) /* git's other name for init */
		sub = "init";
	if (has_words(sub)) {
		if (!strcmp(sub, "stash") && (!word || word[0] == '-'))
			word = "push";
		size_t ls = strlen(sub), lw = word ? strlen(word) : 0;
		if (!word || ls + lw + 2 > sizeof(cmd))
			return NULL;
		memcpy(cmd, sub, ls);
		cmd[ls] = ' ';
		memcpy(cmd + ls + 1, word, lw + 1);
		sub = cmd;
	}
	return legacy(sub) ? git_optable_named(sub) : NULL;
}

const struct git_opt *git_opt_long(const struct git_optable *t,
				   const char *name, size_t len)
{
	for (size_t i = 0; i < t->nr; i++) {
		const char *l = t->opts[i].lng;
		if (l && strlen(l) == len && !strncmp(l, name, len))
			return &t->opts[i];
	}
	return NULL;
}

bool git_opt_takes_next(const struct git_optable *t, const char *a)
{
	const struct git_opt *o = NULL;

	if (a[0] != '-' || !a[1])
		return false;
	if (a[1] == '-' && !strchr(a, '='))
		o = git_opt_long(t, a + 2, strlen(a + 2));
	else if (a[1] != '-' && !a[2])
		o = git_opt_short(t, a[1]);
	return o && o->arg == OPT_ARG;
}

const struct git_opt *git_opt_short(const struct git_optable *t, char c)
{
	for (size_t i = 0; c && i < t->nr; i++)
		if (t->opts[i].shrt == c)
			return &t->opts[i];
	return NULL;
}

/* Whether the option token `a` (one option: split already) is known, and
 * whether it takes the next token as its value. */
static bool known(const struct git_optable *t, const char *a, bool *next)
{
	const struct git_opt *o;

	*next = false;
	if (a[1] == '-') {
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		if (len == 4 && !strncmp(name, "help", 4) && !eq)
			return true;
		o = git_opt_long(t, name, len);
		*next = o && o->arg == OPT_ARG && !eq;
		return o != NULL;
	}
	if (a[1] == 'h' && !a[2])
		return true;
	o = git_opt_short(t, a[1]);
	*next = o && o->arg == OPT_ARG && !a[2];
	/* a stuck remainder is a value only where one is taken */
	return o && (!a[2] || o->arg != OPT_NOARG);
}

const char *git_option_unknown(const struct git_argv *ga)
{
	const struct git_optable *t = ga->legacy_table;
	size_t i = t && has_words(ga->sub) && ga->nargs && ga->args[0][0] != '-'
			   ? 1
			   : 0;

	/* format-patch hands what its own options leave to git's revision
	 * and diff parser: its table says only which take a value */
	if (!t || !strcmp(ga->sub, "format-patch"))
		return NULL;
	for (; i < ga->nargs; i++) {
		const char *a = ga->args[i];
		bool next;

		if (!strcmp(a, "--") || !strcmp(a, "--end-of-options"))
			break;
		if (a[0] != '-' || !a[1])
			continue;
		if (!known(t, a, &next))
			return a;
		if (next)
			i++;
	}
	return NULL;
}
