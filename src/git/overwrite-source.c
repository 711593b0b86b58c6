// SPDX-License-Identifier: Apache-2.0
/*
 * The tree a destructive form writes files from (git/classify.h,
 * git_overwrite_source()). Pure: no I/O. Only forms whose snapshot slug is
 * set are asked; the answer widens the snapshot to the ignored files the
 * form would overwrite, so a wrong "no source" loses nothing that the
 * snapshot held before.
 */
#include "base/common.h"
#include <stdlib.h>
#include <string.h>
#include "base/xalloc.h"
#include "git/classify.h"

static const char *checkout_source(const struct git_argv *ga,
				   const unsigned *facts, struct strvec *paths)
{
	struct co_analysis co;
	size_t before;

	git_checkout_analyse(ga, facts, &co);
	/* a branch switch overwrites ignored files too (git's default
	 * --overwrite-ignore) */
	if (co.kind == CO_BRANCH || co.kind == CO_DETACH)
		return co.target;
	if (co.kind != CO_FILES)
		return NULL;
	/* `checkout <tree-ish> [--] <paths>`; with one positional and no
	 * `--` the paths come from the index, which holds no ignored file */
	before = ga->dashdash ? ga->pos_dd : ga->npos ? 1 : 0;
	if (before != 1 || ga->npos < 2)
		return NULL;
	strvec_pushn(paths, ga->pos + 1, ga->npos - 1);
	return ga->pos[0];
}

static const char *restore_source(const struct git_argv *ga,
				  struct strvec *paths)
{
	const char *src = git_opt_value(ga, "source");

	if (src)
		strvec_pushn(paths, ga->pos, ga->npos);
	return src;
}

/*
 * The commits a revision argument of merge, cherry-pick or rebase brings
 * in, onto `out`: both ends of `A..B` and `A...B` (an empty end is HEAD),
 * `A` of `A^!`, nothing of `^A`. Taking an excluded end too only widens
 * the snapshot.
 */
static void push_revision(struct strvec *out, const char *a)
{
	const char *dots = strstr(a, "..");
	size_t len = strlen(a);

	if (a[0] == '^')
		return;
	if (dots) {
		const char *right = dots + (dots[2] == '.' ? 3 : 2);
		char *left = xstrndup(a, (size_t)(dots - a));

		strvec_push(out, *left ? left : "HEAD");
		strvec_push(out, *right ? right : "HEAD");
		free(left);
		return;
	}
	if (len > 2 && !strcmp(a + len - 2, "^!")) {
		char *base = xstrndup(a, len - 2);
		strvec_push(out, base);
		free(base);
		return;
	}
	strvec_push(out, a);
}

void git_overwrite_sources(const struct git_argv *ga, const unsigned *facts,
			   struct strvec *sources, struct strvec *paths)
{
	const char *one = NULL;

	if (!ga->sub)
		return;
	if (!strcmp(ga->sub, "checkout") || !strcmp(ga->sub, "switch"))
		one = checkout_source(ga, facts, paths);
	else if (!strcmp(ga->sub, "restore"))
		one = restore_source(ga, paths);
	else if (!strcmp(ga->sub, "merge") || !strcmp(ga->sub, "cherry-pick") ||
		 !strcmp(ga->sub, "rebase")) {
		/* what they bring in comes from every commit they name (git
		 * 2.39's ort merge ignores --no-overwrite-ignore; an octopus
		 * merge or a cherry-pick of several commits brings in each,
		 * fuzz finding I28): a rebase's --onto too, revisions before
		 * `--` or after it (they take no pathspec: `rebase -- other`
		 * names other) */
		const char *onto = git_opt_value(ga, "onto");

		if (onto && !strcmp(ga->sub, "rebase"))
			strvec_push(sources, onto);
		for (size_t i = 0; i < ga->npos; i++)
			push_revision(sources, ga->pos[i]);
	} else if (!strcmp(ga->sub, "revert")) {
		/* a revert writes back what each commit changed, as its
		 * parent had it: a file the commit stopped tracking comes
		 * back over the ignored one in its place (issue 33) */
		size_t from = sources->nr, to;

		for (size_t i = 0; i < ga->npos; i++)
			push_revision(sources, ga->pos[i]);
		to = sources->nr;
		for (size_t i = from; i < to; i++)
			strvec_pushf(sources, "%s^", sources->v[i]);
	} else if (!strcmp(ga->sub, "reset")) {
		/* `reset --hard [<commit>]`: its paths are no pathspec */
		one = ga->pos_dd ? ga->pos[0] : "HEAD";
	}
	if (one)
		strvec_push(sources, one);
}
