/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stuck and clustered short options, read as git's parse-options reads
 * them (PRODUCT.md §4 "Spellings"): `checkout -qBX` is `-q -B X`,
 * `branch -qfD x` is `-q -f -D x`. Only for the subcommands whose short
 * options the policy reasons about; the command git runs is never changed
 * (the policy reads the split form, git gets the original argv).
 *
 * Invariants:
 *  1. A token is split only when git would split it: one dash, a letter,
 *     more after it, before `--`, and not the value of the option before
 *     it. Letters that take a value (the table) end the cluster: the rest
 *     of the token is that value, as git reads `-bX`.
 *  2. A letter not in the table counts as a flag: at worst the policy sees
 *     one flag too many and denies (fail-closed), never one too few.
 *  3. Pure: no I/O; the split strings are owned by the git_argv.
 */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include "base/strvec.h"
#include "base/xalloc.h"
#include "git/argv.h"

/* Short options that take a value, per subcommand (git 2.39 parse-options);
 * long options that take a separate value, so their value is not split. */
static const struct {
	const char *sub;
	const char *with_value;
} shorts[] = {
	{ "checkout", "bB" }, { "switch", "cC" }, { "branch", "u" },
	{ "tag", "mFu" }, { "clean", "e" }, { "reset", "" },
	{ "update-ref", "m" }, { "symbolic-ref", "m" }, { "stash", "m" },
	{ "restore", "s" }, { "worktree", "bB" }, { "push", "o" },
	{ "commit", "mFcCt" }, { "rm", "" }, { "config", "f" },
};

static const char *const long_with_value[] = {
	"--message", "--file", "--orphan", "--set-upstream-to", "--source",
	"--exclude", "--create", "--force-create", "--reuse-message",
	"--reedit-message", "--template", "--push-option", "--local-user",
	"--pathspec-from-file", "--recurse-submodules-default", NULL,
};

static const char *value_letters(const char *sub)
{
	for (size_t i = 0; sub && i < ARRAY_SIZE(shorts); i++)
		if (!strcmp(shorts[i].sub, sub))
			return shorts[i].with_value;
	return NULL;
}

static bool takes_next(const char *a, const char *letters)
{
	if (a[0] == '-' && a[1] && a[1] != '-' && !a[2])
		return strchr(letters, a[1]) != NULL;
	for (const char *const *l = long_with_value; *l; l++)
		if (!strcmp(a, *l))
			return true;
	return false;
}

static bool splittable(const char *a)
{
	return a[0] == '-' && isalpha((unsigned char)a[1]) && a[2];
}

/* Appends the parts of one clustered token (invariant 1). */
static void split_one(const char *a, const char *letters, struct strvec *out)
{
	for (const char *c = a + 1; *c; c++) {
		strvec_pushf(out, "-%c", *c);
		if (strchr(letters, *c)) {
			if (c[1])
				strvec_push(out, c + 1);
			return;
		}
	}
}

void git_argv_split_shorts(struct git_argv *ga)
{
	const char *letters = value_letters(ga->sub);
	bool any = false, after = false;

	if (!letters)
		return;
	for (size_t i = 0; i < ga->nargs && !any; i++) {
		const char *a = ga->args[i];
		if (!strcmp(a, "--"))
			break;
		if (takes_next(a, letters))
			i++;
		else
			any = splittable(a);
	}
	if (!any)
		return;
	strvec_init(&ga->split);
	for (size_t i = 0; i < ga->nargs; i++) {
		const char *a = ga->args[i];
		if (!after && !strcmp(a, "--"))
			after = true;
		if (!after && takes_next(a, letters) && i + 1 < ga->nargs) {
			strvec_push(&ga->split, a);
			strvec_push(&ga->split, ga->args[++i]);
		} else if (!after && splittable(a)) {
			split_one(a, letters, &ga->split);
		} else {
			strvec_push(&ga->split, a);
		}
	}
	ga->args = (const char *const *)ga->split.v;
	ga->nargs = ga->split.nr;
}
