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
#include <stdlib.h>
#include <string.h>
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/pushspec.h"
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

/* ---- tag ---- */

static const char *const tag_writes[] = {
	"delete", "force", "annotate",	    "sign",    "local-user", "message",
	"file",	  "edit",  "create-reflog", "cleanup", "trailer",    NULL,
};

bool tag_reads(const struct git_argv *ga)
{
	static const char *const lists[] = { "list", "verify", NULL };

	if (git_opt_any_on(ga, tag_writes))
		return false;
	return git_opt_any_on(ga, lists) || !ga->npos;
}

void tag_refs(const struct git_argv *ga, struct ref_effects *fx)
{
	/* <name> [<commit>]; -d names every tag it deletes */
	bool del = git_opt_on(ga, "delete");

	if (tag_reads(ga))
		return;
	for (size_t i = 0; i < ga->npos && (i == 0 || del); i++)
		ref_effect_add(fx, del ? REF_DELETE : REF_WRITE, "refs/tags/",
			       ga->pos[i], ga->pos[i]);
}

bool tag_check(struct verdict *v, const struct policy_input *in)
{
	static const char *const moves[] = { "delete", "force", NULL };

	if (tag_reads(in->ga) || !git_opt_any_on(in->ga, moves))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"deleting or moving existing tags is not allowed for agents — tags are shared by every worktree; create a new tag instead");
	return true;
}

/* ---- update-ref ---- */

/* `-d` deletes; `--no-deref` (the last of it and --deref) writes the
 * name itself, not what it points at */
static bool update_ref_nodrf(const struct git_argv *ga)
{
	const struct git_optuse *u = git_opt_last(ga, "deref");

	return u && (u->flags & GOPT_NEG);
}

void update_ref_refs(const struct git_argv *ga, struct ref_effects *fx)
{
	const char *ref = git_pos(ga, 0);

	/* HEAD moves the branch it points at: the assigned one */
	if (!ref || (!strcmp(ref, "HEAD") && !git_opt_on(ga, "-d") &&
		     !update_ref_nodrf(ga)))
		return;
	ref_effect_add(fx, git_opt_on(ga, "-d") ? REF_DELETE : REF_WRITE, "",
		       ref, ref);
}

bool update_ref_check(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;
	const char *ref = git_pos(ga, 0), *b;
	const char *a = rules_assigned(in);

	if (git_opt_on(ga, "stdin")) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"update-ref --stdin cannot be checked ref by ref — run one `git update-ref <ref> <new>` per ref");
		return true;
	}
	if (!ref)
		return false; /* git prints its usage */
	if (!strcmp(ref, "refs/stash") && git_opt_on(ga, "-d")) {
		/* deleting it drops every entry with its reflog, unsnapshotted */
		verdict_deny(
			v, "deny", DS_BLOCK,
			"update-ref -d refs/stash would drop every stash entry — use `git stash drop` or `git stash clear` (both are snapshotted)");
		return true;
	}
	if (!strcmp(ref, "HEAD")) {
		if (!git_opt_on(ga, "-d") && !update_ref_nodrf(ga))
			return false;
		verdict_deny(
			v, "deny", DS_BLOCK,
			"cross-branch — assigned to '%s', cannot detach or delete HEAD",
			a);
		return true;
	}
	if (!starts_with(ref, "refs/")) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"update-ref of '%s' is not allowed — name a full ref (refs/heads/%s for your branch)",
			ref, in->bind->branch ? in->bind->branch : "<branch>");
		return true;
	}
	if (skip_prefix(ref, "refs/heads/", &b) &&
	    (!in->bind->branch || strcmp(b, in->bind->branch))) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"cross-branch — assigned to '%s', update-ref may only move refs/heads/%s, not '%s'",
			a, a, ref);
		return true;
	}
	return false;
}

/* ---- symbolic-ref ---- */

bool symbolic_ref_reads(const struct git_argv *ga)
{
	/* no name at all, --delete or not, is git's usage error: nothing
	 * changes (and the rules below read the name) */
	return !ga->npos || (!git_opt_on(ga, "delete") && ga->npos <= 1);
}

void symbolic_ref_refs(const struct git_argv *ga, struct ref_effects *fx)
{
	/* <name> [<ref>]: the name becomes a symref to the ref */
	if (symbolic_ref_reads(ga))
		return;
	ref_effect_add(fx, git_opt_on(ga, "delete") ? REF_DELETE : REF_WRITE,
		       "", ga->pos[0], ga->pos[0]);
	if (ga->npos > 1)
		ref_effect_add(fx, REF_READ, "", ga->pos[1], ga->pos[1]);
}

bool symbolic_ref_check(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;
	const char *a = rules_assigned(in), *name, *b;

	if (symbolic_ref_reads(ga))
		return false;
	name = ga->pos[0];
	if (starts_with(name, "main-worktree/") ||
	    starts_with(name, "worktrees/")) {
		/* another checkout's HEAD: git 2.39 writes a symref without a
		 * ref transaction, so the hook never sees this (invariant
		 * fuzzer) */
		verdict_deny(
			v, "deny", DS_BLOCK,
			"'%s' belongs to another checkout — an agent may only point its own HEAD, at refs/heads/%s",
			name, a);
		return true;
	}
	if (!strcmp(name, "HEAD")) {
		if (!git_opt_on(ga, "delete") && ga->npos >= 2 &&
		    skip_prefix(ga->pos[1], "refs/heads/", &b) &&
		    in->bind->branch && !strcmp(b, in->bind->branch))
			return false;
		verdict_deny(
			v, "deny", DS_BLOCK,
			"cross-branch — assigned to '%s', HEAD may only point at refs/heads/%s",
			a, a);
		return true;
	}
	/* any other name: git 2.39 writes a symref with no ref transaction,
	 * so the lock never sees a tag, a remote-tracking ref or refs/stash
	 * replaced by one (invariant fuzzer, seed 32: `symbolic-ref
	 * refs/tags/v1 HEAD` moved the tag) */
	verdict_deny(
		v, "deny", DS_BLOCK,
		"making '%s' a symbolic ref is not allowed: git writes it past the ref lock — an agent may only point its own HEAD, at refs/heads/%s (for a remote's HEAD: git remote set-head)",
		name, a);
	return true;
}

/* ---- fetch, pull ---- */

/* the shallow file is the common dir's: every checkout would lose its
 * history past the cut (invariant fuzzer) */
static const char *const fetch_shallow[] = { "depth", "deepen", "shallow-since",
					     "shallow-exclude", NULL };

/* One refspec: `[+]<src>[:<dst>]`, `^<negative>`, as git reads it. */
static void fetch_refspec(struct ref_effects *fx, const char *spec)
{
	const char *s = spec[0] == '+' ? spec + 1 : spec;
	const char *colon = strchr(s, ':');

	if (s[0] == '^')
		return; /* a negative refspec excludes */
	if (!colon) {
		ref_effect_add(fx, REF_READ, "", s, spec);
		return;
	}
	{
		char *src = xstrndup(s, (size_t)(colon - s));
		ref_effect_add(fx, REF_READ, "", src, spec);
		free(src);
	}
	if (colon[1])
		ref_effect_add_fetch_dst(fx, REF_WRITE, colon + 1, spec);
}

void fetch_refs(const struct git_argv *ga, struct ref_effects *fx)
{
	/* --refmap's refspecs map what the command line names: their
	 * destinations are written too */
	for (size_t i = 0; i < ga->nopts; i++)
		if (git_optuse_is(&ga->opts[i], "refmap") &&
		    ga->opts[i].value && *ga->opts[i].value)
			fetch_refspec(fx, ga->opts[i].value);
	if (git_opt_on(ga, "multiple"))
		return; /* every positional names a repository */
	/* <repository> <refspec>…; `tag <name>` is refs/tags/<name> */
	for (size_t i = 1; i < ga->npos; i++) {
		if (!strcmp(ga->pos[i], "tag") && i + 1 < ga->npos) {
			i++;
			ref_effect_add(fx, REF_WRITE, "refs/tags/", ga->pos[i],
				       ga->pos[i]);
			continue;
		}
		fetch_refspec(fx, ga->pos[i]);
	}
}

bool fetch_reads(const struct git_argv *ga)
{
	struct ref_effects fx;
	bool reads = true;

	if (git_opt_any_on(ga, fetch_shallow) || git_opt_on(ga, "stdin") ||
	    git_opt_on(ga, "upload-pack"))
		return false;
	/* it stores only into remote-tracking refs, or FETCH_HEAD */
	ref_effects_init(&fx);
	fetch_refs(ga, &fx);
	for (size_t i = 0; i < fx.nr && reads; i++)
		reads = fx.v[i].op == REF_READ ||
			starts_with(ref_effect_name(&fx, &fx.v[i]),
				    "refs/remotes/");
	reads = reads && !fx.overflow;
	ref_effects_release(&fx);
	return reads;
}

bool fetch_check(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;

	for (const char *const *o = fetch_shallow; *o; o++) {
		if (!git_opt_on(ga, *o))
			continue;
		verdict_deny(
			v, "deny", DS_BLOCK,
			"git %s --%s would make the repository shallow for every checkout of it — fetch the full history (git %s origin)",
			ga->sub, *o, ga->sub);
		return true;
	}
	if (git_opt_on(ga, "stdin")) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"git %s --stdin takes refspecs this guard cannot see, and so cannot judge — name them on the command line",
			ga->sub);
		return true;
	}
	return false;
}

/* ---- push: the first line (git/pushspec.h); the guards on what git
 * really pushes follow (git/pushguard.h) ---- */

static bool protected_cb(const char *branch, void *ctx)
{
	return policy_protected(ctx, branch);
}

bool push_check(struct verdict *v, const struct policy_input *in)
{
	struct push_spec ps;
	struct strbuf r = STRBUF_INIT;
	const char *ev;

	push_spec_parse(in->ga, &ps);
	ev = push_spec_check(&ps, in->bind->branch, in->repo->wt_branch,
			     protected_cb, (void *)in, &r);
	if (ev)
		verdict_deny(v, ev, DS_BLOCK, "%s", r.buf);
	strbuf_release(&r);
	push_spec_release(&ps);
	return ev != NULL;
}
