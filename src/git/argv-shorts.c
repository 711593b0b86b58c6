/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stuck and clustered short options, read as git's parse-options reads
 * them (PRODUCT.md §4 "Spellings"): `checkout -qBX` is `-q -B X`,
 * `branch -qfD x` is `-q -f -D x`. Only for the subcommands whose options
 * the policy reasons about (those with a table); the command git runs is never changed
 * (the policy reads the split form, git gets the original argv).
 *
 * Invariants:
 *  1. A token is split only when git would split it: one dash, a letter,
 *     more after it, before `--`, and not the value of the option before
 *     it. Letters that take a value (git's own table, git/optable.h) end
 *     the cluster: the rest of the token is that value, as git reads `-bX`.
 *  2. A letter not in the table counts as a flag: at worst the policy sees
 *     one flag too many and denies (fail-closed), never one too few; an
 *     agent's unknown option is denied anyway (git_option_unknown()).
 *  3. Pure: no I/O; the split strings are owned by the git_argv.
 */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include "base/strvec.h"
#include "base/xalloc.h"
#include "git/argv.h"
#include "git/optable.h"

static bool splittable(const char *a)
{
	return a[0] == '-' && isalpha((unsigned char)a[1]) && a[2];
}

/*
 * Appends the parts of one clustered token (invariant 1). A letter that
 * takes a value ends the cluster: the rest is its value, its own token
 * (`-bX` is `-b X`); an optional value stays stuck (`-n5`), as only a
 * stuck one is a value.
 */
static void split_one(const struct git_optable *t, const char *a,
		      struct strvec *out)
{
	for (const char *c = a + 1; *c; c++) {
		const struct git_opt *o = git_opt_short(t, *c);
		if (o && o->arg == OPT_OPTARG && c[1]) {
			strvec_pushf(out, "-%s", c);
			return;
		}
		strvec_pushf(out, "-%c", *c);
		if (o && o->arg == OPT_ARG) {
			if (c[1])
				strvec_push(out, c + 1);
			return;
		}
	}
}

/* ga->legacy_opts_end and opts_stop: the first `--` (or `--end-of-options`)
 * that no option takes for its value */
static void options_end(struct git_argv *ga, const struct git_optable *t)
{
	ga->legacy_opts_end = ga->opts_stop = ga->nargs;
	for (size_t i = 0; i < ga->nargs; i++) {
		const char *a = ga->args[i];
		if (!strcmp(a, "--end-of-options") &&
		    ga->opts_stop == ga->nargs)
			ga->opts_stop = i;
		if (!strcmp(a, "--")) {
			ga->legacy_opts_end = i;
			if (ga->opts_stop == ga->nargs)
				ga->opts_stop = i;
			return;
		}
		if (t && git_opt_takes_next(t, a))
			i++;
	}
}

void git_argv_split_shorts(struct git_argv *ga)
{
	const struct git_optable *t =
		git_optable_find(ga->sub, ga->args, ga->nargs);
	bool any = false, after = false;

	ga->legacy_table = t;
	options_end(ga, t);
	if (!t)
		return;
	for (size_t i = 0; i < ga->nargs && !any; i++) {
		const char *a = ga->args[i];
		if (!strcmp(a, "--"))
			break;
		if (git_opt_takes_next(t, a))
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
		if (!after && git_opt_takes_next(t, a) && i + 1 < ga->nargs) {
			strvec_push(&ga->split, a);
			strvec_push(&ga->split, ga->args[++i]);
		} else if (!after && splittable(a)) {
			split_one(t, a, &ga->split);
		} else {
			strvec_push(&ga->split, a);
		}
	}
	ga->args = (const char *const *)ga->split.v;
	ga->nargs = ga->split.nr;
	options_end(ga, t);
}
