// SPDX-License-Identifier: Apache-2.0
/*
 * The policy table's rows for the commands that name refs (git/rules.h):
 * what they read, what they move, and their deny checks. Pure: no I/O.
 *
 * Invariants:
 *  1. A ref a command moves, deletes or retargets is named here as git
 *     will write it (git/ref-effects.h) and judged in one place: nothing
 *     under refs/agentic-git/, no protected branch.
 *  2. Every spelling git accepts reads alike: the rows see options by
 *     canonical name and positionals as git splits them (git/argv.h).
 */
#include "base/common.h"
#include <string.h>
#include "git/rules-int.h"

/* ---- branch ---- */

/* what makes `git branch` write (anything but listing) */
static const char *const branch_writes[] = {
	"delete",
	"-D",
	"move",
	"-M",
	"copy",
	"-C",
	"force",
	"set-upstream-to",
	"set-upstream",
	"unset-upstream",
	"edit-description",
	"create-reflog",
	"recurse-submodules",
	NULL,
};

bool branch_reads(const struct git_argv *ga)
{
	/* --track and --no-track both set up a new branch's tracking */
	if (git_opt_any_on(ga, branch_writes) || git_opt_last(ga, "track"))
		return false;
	return git_opt_on(ga, "list") || !ga->npos;
}

static bool branch_moves(const struct git_argv *ga)
{
	return git_opt_on(ga, "move") || git_opt_on(ga, "-M");
}

void branch_refs(const struct git_argv *ga, struct ref_effects *fx)
{
	const char *ns =
		git_opt_on(ga, "remotes") ? "refs/remotes/" : "refs/heads/";
	bool del = git_opt_on(ga, "delete") || git_opt_on(ga, "-D");
	bool copy = git_opt_on(ga, "copy") || git_opt_on(ga, "-C");

	if (branch_reads(ga))
		return;
	if (branch_moves(ga)) {
		/* [<old>] <new>: the old name goes, the new one comes */
		if (ga->npos >= 2)
			ref_effect_add(fx, REF_DELETE, ns, ga->pos[0],
				       ga->pos[0]);
		if (ga->npos)
			ref_effect_add(fx, REF_WRITE, ns,
				       ga->pos[ga->npos >= 2], ga->pos[0]);
		return;
	}
	if (git_opt_on(ga, "set-upstream-to") ||
	    git_opt_on(ga, "unset-upstream") ||
	    git_opt_on(ga, "edit-description")) {
		/* [<branch>]: without one, the current branch */
		if (ga->npos)
			ref_effect_add(fx, REF_UPSTREAM, ns, ga->pos[0],
				       ga->pos[0]);
		return;
	}
	for (size_t i = 0; i < ga->npos; i++) {
		/* create <name> [<start>]: the start point is only read;
		 * deletions name every branch, a copy both (fail-closed) */
		if (i && !del && !copy)
			break;
		ref_effect_add(fx, del ? REF_DELETE : REF_WRITE, ns, ga->pos[i],
			       ga->pos[i]);
	}
}

bool branch_check(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;
	const char *a = in->bind->branch, *old;

	if (!branch_moves(ga))
		return false;
	/* -m [<old>] <new>: without <old>, the current branch, the assigned
	 * one; renaming it breaks the session's binding */
	old = ga->npos >= 2 ? ga->pos[0] : a;
	if (old && (!a || strcmp(old, a)))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"renaming your assigned branch '%s' would break your session's binding — keep its name",
		rules_assigned(in));
	return true;
}
