// SPDX-License-Identifier: Apache-2.0
/*
 * The policy table's rows for the commands that write the work tree
 * (git/rules.h): checkout and switch (the fence), restore, reset, clean,
 * stash, rm, mv, read-tree, checkout-index — their snapshot decision and
 * their deny checks. Pure: no I/O.
 *
 * Invariants:
 *  1. The fence looks at what the command would do, not at a word: any
 *     spelling of a move to another branch is one (`checkout -q other`,
 *     `-qBX`, `--orphan=x`, `switch --no-track feat/a`, `-d`).
 *  2. A token of unknown nature is a branch, never a path (fail-closed).
 *  3. Every form that can destroy unsaved work is snapshotted; a form is
 *     safe only when its row names it.
 */
#include "base/common.h"
#include <string.h>
#include "base/strbuf.h"
#include "git/classify.h"
#include "git/clean-args.h"
#include "git/repo.h" /* SESSION_MARKER_NAME */
#include "git/rules-int.h"

/* ---- checkout, switch: what the command would do ---- */

static enum co_kind classify_token(const char *tok, unsigned f)
{
	if (!strcmp(tok, "-") || starts_with(tok, "@{-"))
		return CO_PREVIOUS;
	/* a branch named `@` or `HEAD` (refs/heads/@ is a valid ref) is
	 * the one git switches to (invariant fuzzer, seed 31: `switch @`
	 * moved ag1 onto a branch `@`); without one, `checkout @`
	 * detaches, unlike `checkout HEAD` */
	if (f & TOK_LOCAL_BRANCH)
		return CO_BRANCH;
	if (!strcmp(tok, "HEAD"))
		return CO_NONE; /* origin/HEAD is no branch git creates */
	if ((f & TOK_REMOTE_BRANCH) && !(f & TOK_PATH))
		return CO_BRANCH; /* DWIM: creates and switches to it */
	if (!strcmp(tok, "@"))
		return CO_DETACH; /* `checkout @` detaches at HEAD's commit */
	if ((f & TOK_PATH) && !(f & (TOK_TAG | TOK_REVLIKE)))
		return CO_FILES;
	if (f & (TOK_TAG | TOK_REVLIKE))
		return CO_DETACH;
	return CO_BRANCH; /* invariant 2 */
}

/* The first branch-creating option: checkout's -b, -B, --orphan;
 * switch's -c, -C, --orphan. */
static const struct git_optuse *creation(const struct git_argv *ga,
					 bool is_switch)
{
	static const char *const co[] = { "-b", "-B", "orphan", NULL };
	static const char *const sw[] = { "create", "force-create", "orphan",
					  NULL };
	const char *const *names = is_switch ? sw : co;

	for (size_t i = 0; i < ga->nopts; i++)
		for (const char *const *n = names; *n; n++)
			if (git_optuse_is(&ga->opts[i], *n) &&
			    !(ga->opts[i].flags & GOPT_NEG))
				return &ga->opts[i];
	return NULL;
}

static bool co_force(const struct git_argv *ga)
{
	return git_opt_on(ga, "force") || git_opt_on(ga, "discard-changes");
}

void git_checkout_analyse(const struct git_argv *ga, const unsigned *facts,
			  struct co_analysis *out)
{
	bool is_switch = !strcmp(ga->sub, "switch");
	const struct git_optuse *c = creation(ga, is_switch);
	const char *p0 = git_pos(ga, 0);

	memset(out, 0, sizeof(*out));
	out->force = co_force(ga);
	if (c) {
		out->kind = CO_CREATE;
		out->target = c->value ? c->value : "";
		return;
	}
	if (git_opt_last(ga, "track")) {
		/* git's checkout.c: -t/--track/--no-track without a name to
		 * create names one after the start point, `feat/a` makes
		 * `a` (docs/fuzzing.md I20) */
		const char *s = p0 ? p0 : "";

		skip_prefix(s, "refs/", &s);
		skip_prefix(s, "remotes/", &s);
		s = strchr(s, '/');
		out->kind = CO_CREATE;
		out->target = s && s[1] ? s + 1 : "";
		return;
	}
	if (!is_switch && ((ga->dashdash && ga->npos > ga->pos_dd) ||
			   git_opt_value(ga, "pathspec-from-file"))) {
		/* `checkout [<tree-ish>] -- <paths>` never moves HEAD; with
		 * nothing after `--`, `checkout main --` switches to main */
		out->kind = CO_FILES;
		return;
	}
	if (git_opt_on(ga, "detach")) {
		out->kind = CO_DETACH;
		out->target = p0;
		return;
	}
	if (!p0) {
		out->kind = CO_NONE;
		return;
	}
	out->target = p0;
	if (!is_switch && ga->npos >= 2) {
		out->kind = CO_FILES; /* checkout <tree-ish> <paths…> */
		return;
	}
	out->kind = classify_token(p0, facts ? facts[0] : 0);
	if (is_switch && (out->kind == CO_FILES || out->kind == CO_DETACH))
		out->kind = CO_BRANCH; /* switch only takes branches */
}

/* bare `checkout` moves nothing; a new branch keeps the work tree */
bool checkout_safe(const struct git_argv *ga)
{
	if (ga->dashdash || co_force(ga))
		return false;
	return (!ga->nopts && !ga->npos) || creation(ga, false);
}

bool switch_safe(const struct git_argv *ga)
{
	return !co_force(ga);
}

bool checkout_check(struct verdict *v, const struct policy_input *in)
{
	struct co_analysis co;
	const char *a = rules_assigned(in), *t;
	const char *prot;

	git_checkout_analyse(in->ga, in->repo->tok_facts, &co);
	t = co.target ? co.target : "";
	prot = *t && policy_protected(in, t) ? " (a protected branch)" : "";
	switch (co.kind) {
	case CO_NONE:
	case CO_FILES:
		return false;
	case CO_BRANCH:
		if (in->bind->branch && !strcmp(t, in->bind->branch))
			return false;
		verdict_deny(
			v, "deny", DS_BLOCK,
			"cross-branch — assigned to '%s', cannot switch to '%s'%s. To look at it without switching: git log %s / git show %s:<path> / git diff %s; to restore files from it: git checkout %s -- <path>",
			a, t, prot, t, t, t, t);
		return true;
	case CO_CREATE:
		if (in->bind->branch && !strcmp(t, in->bind->branch))
			return false;
		verdict_deny(
			v, "deny", DS_BLOCK,
			"cross-branch — assigned to '%s', cannot create and switch to '%s'%s. Stay on '%s'; to create a branch without switching: git branch %s",
			a, t, prot, a, t);
		return true;
	case CO_DETACH:
		verdict_deny(
			v, "deny", DS_BLOCK,
			"cross-branch — assigned to '%s', cannot detach HEAD%s%s. Inspect commits with git show/git log; restore files with git checkout <rev> -- <path>",
			a, *t ? " at " : "", t);
		return true;
	case CO_PREVIOUS:
		verdict_deny(
			v, "deny", DS_BLOCK,
			"cross-branch — assigned to '%s', cannot switch to the previous branch",
			a);
		return true;
	}
	return false;
}

/* ---- restore ---- */

/* --staged alone writes only the index: no unsaved work is lost */
bool restore_safe(const struct git_argv *ga)
{
	return git_opt_on(ga, "staged") && !git_opt_on(ga, "worktree");
}

/* ---- reset ---- */

/* --soft, --mixed (the default) and paths write no work-tree file */
bool reset_safe(const struct git_argv *ga)
{
	static const char *const hard[] = { "hard", "merge", "keep", NULL };

	return !git_opt_any_on(ga, hard);
}

/* ---- clean ---- */

/* a clean that deletes nothing: no -f, or a dry run */
bool clean_safe(const struct git_argv *ga)
{
	unsigned f = clean_flags_of(ga);

	return !(f & CLEAN_FORCE) || (f & CLEAN_DRY_RUN);
}

/* -x/-X delete ignored files, which no snapshot tree holds */
bool clean_quarantine(const struct git_argv *ga)
{
	return clean_flags_of(ga) & (CLEAN_IGNORED | CLEAN_ONLY_IGNORED);
}

bool clean_deny_any(struct verdict *v, const struct policy_input *in)
{
	if (!(clean_flags_of(in->ga) & CLEAN_INTERACTIVE))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"git clean -i waits for a person to choose what to delete — not allowed for agents; list what would go with git clean -n, then delete with git clean -f <paths>");
	return true;
}

/*
 * A routed `git clean` must not delete the session marker, and with it the
 * sibling boundary: it is ignored through info/exclude, so `clean -x`
 * would take it, and an agent's `.gitignore` can un-ignore it. A pattern
 * on the command line outranks every ignore file and -x keeps it:
 * `-e /<marker>`, or under -X (which deletes only ignored files)
 * `-e !/<marker>`. It goes after the agent's own options, since the last
 * matching pattern wins, and before its `--` or `--end-of-options`. Not a
 * pathspec: any pathspec makes clean delete untracked directories as with
 * -d, nested repositories under -ff (docs/fuzzing.md I17).
 */
bool clean_route_words(const struct git_argv *ga, struct git_insert *ins)
{
	static const char *const keep[] = { "-e", "/" SESSION_MARKER_NAME,
					    NULL };
	static const char *const keep_x[] = { "-e", "!/" SESSION_MARKER_NAME,
					      NULL };

	ins->word = ga->opts_end;
	ins->words = git_opt_on(ga, "-X") ? keep_x : keep;
	return true;
}

/*
 * An agent's `git clean` deletes only in the form the snapshot guards
 * (`clean -f…`): whatever clean.requireForce says, git runs it with the
 * default, so `clean -dx` under requireForce=false is refused by git
 * itself instead of deleting ignored files unsnapshotted.
 */
const char *clean_run_config(const struct git_argv *ga)
{
	unsigned f = clean_flags_of(ga);

	return f & (CLEAN_FORCE | CLEAN_DRY_RUN | CLEAN_INTERACTIVE)
		       ? NULL
		       : "clean.requireForce=true";
}

/* ---- stash ---- */

static bool verb_in(const struct git_argv *ga, const char *const *verbs)
{
	for (; ga->verb && *verbs; verbs++)
		if (!strcmp(ga->verb, *verbs))
			return true;
	return false;
}

bool stash_reads(const struct git_argv *ga)
{
	static const char *const reads[] = { "list", "show", NULL };

	return verb_in(ga, reads);
}

/* drop and clear lose entries; pop and apply write the work tree and the
 * index, over an ignored or untracked file, over work git does not see as
 * conflicting; the rest keep them */
bool stash_safe(const struct git_argv *ga)
{
	static const char *const drops[] = { "drop", "clear", "pop", "apply",
					     NULL };

	return !verb_in(ga, drops);
}

/* stash branch <name> creates a branch and switches to it (invariant
 * fuzzer) */
bool stash_check(struct verdict *v, const struct policy_input *in)
{
	if (!in->ga->verb || strcmp(in->ga->verb, "branch"))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"cross-branch — git stash branch switches to a new branch; you are assigned to '%s': git stash pop applies the entry here",
		rules_assigned(in));
	return true;
}

/* ---- read-tree, checkout-index, rm, mv ---- */

/* read-tree writes the work tree only with -u or --reset */
bool read_tree_safe(const struct git_argv *ga)
{
	return !git_opt_on(ga, "-u") && !git_opt_on(ga, "reset");
}

/* checkout-index, rm, mv overwrite or remove changed files with -f */
/* apply that only reports (--check, --stat, --numstat, --summary without
 * --apply) writes nothing */
bool apply_safe(const struct git_argv *ga)
{
	static const char *const reports[] = { "check", "stat", "numstat",
					       "summary", NULL };

	return git_opt_any_on(ga, reports) && !git_opt_on(ga, "apply");
}

bool unforced_safe(const struct git_argv *ga)
{
	return !git_opt_on(ga, "force");
}
