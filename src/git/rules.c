// SPDX-License-Identifier: Apache-2.0
/*
 * The policy table (git/rules.h): one row per git subcommand. Pure.
 *
 * Invariants:
 *  1. A subcommand not in the table is SC_UNKNOWN (an external command or
 *     an alias): the policy, not this file, decides what that means.
 *  2. A row's read-only forms are an allowlist: a form is a read only when
 *     its row says so; anything the row does not name is a write.
 *  3. Each row's functions read the one parse of the command line
 *     (git/argv.h) and nothing else.
 *  4. The snapshot decision is an allowlist too: a form that is not a read
 *     is snapshotted unless its row says it is safe (SNAP_NEVER, or
 *     SNAP_FORMS and its `safe`), so a row added without thought is
 *     snapshotted, never left out of the net.
 */
#include "base/common.h"
#include <string.h>
#include "git/policy.h"
#include "git/ref-effects.h"
#include "git/rules-int.h"
#include "git/rules.h"

/*
 * .snap = SNAP_NEVER marks what is known safe (invariant 4): commands that
 * write refs, config or objects only (a ref they delete or force-move is
 * journaled with its old id, and snapshotted when it drops commits no
 * other ref holds, by the reference-transaction hook: PRODUCT.md §5), add
 * and commit (they save work), new repositories, push, and git's own
 * helper (the command that runs it was snapshotted). A file any command
 * writes where it is told is judged before the row (git/outpaths.h).
 */
/* clang-format off */
static const struct rule rules[] = {
	/* provably read-only (they may refresh the index stat cache) */
	{ "status", SC_READ },
	{ "log", SC_READ },
	{ "diff", SC_READ },
	{ "show", SC_READ },
	{ "blame", SC_READ },
	{ "annotate", SC_READ },
	{ "grep", SC_READ, .reads = grep_reads },
	{ "ls-files", SC_READ },
	{ "ls-tree", SC_READ },
	{ "cat-file", SC_READ },
	{ "rev-parse", SC_READ },
	{ "rev-list", SC_READ },
	{ "for-each-ref", SC_READ },
	{ "show-ref", SC_READ },
	{ "merge-base", SC_READ },
	{ "describe", SC_READ },
	{ "shortlog", SC_READ },
	{ "name-rev", SC_READ },
	{ "version", SC_READ },
	{ "help", SC_READ },
	{ "whatchanged", SC_READ },
	{ "diff-tree", SC_READ },
	{ "diff-files", SC_READ },
	{ "diff-index", SC_READ },
	{ "ls-remote", SC_READ, .reads = ls_remote_reads },
	{ "count-objects", SC_READ },
	{ "check-ignore", SC_READ },
	{ "check-attr", SC_READ },
	{ "check-mailmap", SC_READ },
	{ "check-ref-format", SC_READ },
	{ "var", SC_READ },
	{ "verify-commit", SC_READ },
	{ "verify-tag", SC_READ },
	{ "verify-pack", SC_READ },
	{ "cherry", SC_READ },
	{ "show-branch", SC_READ },
	{ "range-diff", SC_READ },
	{ "get-tar-commit-id", SC_READ },
	{ "patch-id", SC_READ },
	{ "show-index", SC_READ },
	{ "column", SC_READ },
	{ "stripspace", SC_READ },
	{ "archive", SC_READ, .reads = archive_reads },
	{ "format-patch", SC_READ },
	{ "mailinfo", SC_READ },
	{ "mailsplit", SC_READ },
	{ "request-pull", SC_READ },
	{ "fmt-merge-msg", SC_READ },
	{ "merge-tree", SC_READ },
	{ "bugreport", SC_READ },
	{ "diagnose", SC_READ },
	{ "fast-export", SC_READ },
	/* read or write depending on the form */
	{ "fetch", SC_FORMS, .snap = SNAP_NEVER, .reads = fetch_reads, .refs = fetch_refs,
	  .refs_hint = "; fetch into remote-tracking refs (git fetch origin) and compare with origin/<branch>",
	  .check = fetch_check },
	{ "branch", SC_FORMS, .snap = SNAP_NEVER, .reads = branch_reads, .refs = branch_refs,
	  .check = branch_check },
	{ "tag", SC_FORMS, .snap = SNAP_NEVER, .reads = tag_reads, .refs = tag_refs,
	  .check = tag_check },
	{ "remote", SC_FORMS, .snap = SNAP_NEVER, .reads = remote_reads, .check = remote_check },
	{ "stash", SC_FORMS, .reads = stash_reads, .snap = SNAP_FORMS,
	  .safe = stash_safe, .check = stash_check },
	{ "config", SC_FORMS, .snap = SNAP_NEVER, .reads = config_reads, .check = config_check },
	{ "reflog", SC_FORMS, .snap = SNAP_NEVER, .reads = reflog_reads, .check = reflog_check },
	{ "notes", SC_FORMS, .snap = SNAP_NEVER, .reads = notes_reads },
	{ "submodule", SC_FORMS, .reads = submodule_reads, .snap = SNAP_FORMS,
	  .safe = submodule_safe, .check = submodule_check },
	{ "symbolic-ref", SC_FORMS, .snap = SNAP_NEVER, .reads = symbolic_ref_reads,
	  .refs = symbolic_ref_refs, .check = symbolic_ref_check },
	{ "hash-object", SC_FORMS, .snap = SNAP_NEVER, .reads = hash_object_reads },
	{ "interpret-trailers", SC_FORMS, .reads = interpret_trailers_reads },
	{ "sparse-checkout", SC_FORMS, .reads = sparse_checkout_reads },
	{ "bisect", SC_FORMS, .reads = bisect_reads },
	{ "rerere", SC_FORMS, .reads = rerere_reads },
	{ "fsck", SC_FORMS, .snap = SNAP_NEVER, .reads = fsck_reads },
	/* local mutations */
	{ "add", SC_LOCAL, .snap = SNAP_NEVER },
	{ "stage", SC_LOCAL, .snap = SNAP_NEVER },
	{ "commit", SC_LOCAL, .snap = SNAP_NEVER },
	/* every form: unforced, it still deletes a submodule's ignored
	 * files with its work tree (issue 33) */
	{ "rm", SC_LOCAL },
	{ "mv", SC_LOCAL, .snap = SNAP_FORMS, .safe = unforced_safe },
	{ "reset", SC_LOCAL, .snap = SNAP_FORMS, .safe = reset_safe },
	{ "revert", SC_LOCAL, .conflicts = true },
	{ "cherry-pick", SC_LOCAL, .conflicts = true },
	{ "merge", SC_LOCAL, .conflicts = true },
	{ "rebase", SC_LOCAL, .conflicts = true },
	{ "am", SC_LOCAL, .conflicts = true },
	{ "apply", SC_LOCAL, .snap = SNAP_FORMS, .safe = apply_safe },
	{ "pull", SC_LOCAL, .conflicts = true, .refs = fetch_refs,
	  .refs_hint = "; fetch into remote-tracking refs (git fetch origin) and compare with origin/<branch>",
	  .check = fetch_check },
	{ "read-tree", SC_LOCAL, .snap = SNAP_FORMS, .safe = read_tree_safe },
	{ "update-index", SC_LOCAL },
	{ "restore", SC_LOCAL, .snap = SNAP_FORMS, .safe = restore_safe },
	{ "clean", SC_LOCAL, .snap = SNAP_FORMS, .safe = clean_safe,
	  .quarantine = clean_quarantine, .deny_any = clean_deny_any,
	  .route_words = clean_route_words, .run_config = clean_run_config },
	{ "gc", SC_LOCAL, .snap = SNAP_NEVER },
	{ "prune", SC_LOCAL, .snap = SNAP_NEVER },
	{ "repack", SC_LOCAL, .snap = SNAP_NEVER },
	{ "pack-refs", SC_LOCAL, .snap = SNAP_NEVER },
	{ "update-ref", SC_LOCAL, .snap = SNAP_NEVER, .refs = update_ref_refs,
	  .check = update_ref_check },
	{ "write-tree", SC_LOCAL, .snap = SNAP_NEVER },
	{ "commit-tree", SC_LOCAL, .snap = SNAP_NEVER },
	{ "mktag", SC_LOCAL, .snap = SNAP_NEVER },
	{ "mktree", SC_LOCAL, .snap = SNAP_NEVER },
	{ "unpack-objects", SC_LOCAL, .snap = SNAP_NEVER },
	{ "index-pack", SC_LOCAL, .snap = SNAP_NEVER },
	{ "pack-objects", SC_LOCAL, .snap = SNAP_NEVER },
	{ "checkout-index", SC_LOCAL, .snap = SNAP_FORMS, .safe = unforced_safe },
	{ "merge-file", SC_LOCAL },
	{ "merge-index", SC_LOCAL },
	{ "maintenance", SC_LOCAL, .snap = SNAP_NEVER, .check = maintenance_check },
	{ "commit-graph", SC_LOCAL, .snap = SNAP_NEVER },
	{ "multi-pack-index", SC_LOCAL, .snap = SNAP_NEVER },
	{ "prune-packed", SC_LOCAL, .snap = SNAP_NEVER },
	{ "update-server-info", SC_LOCAL, .snap = SNAP_NEVER },
	{ "bundle", SC_LOCAL, .snap = SNAP_NEVER },
	{ "hook", SC_LOCAL },
	{ "unpack-file", SC_LOCAL, .snap = SNAP_NEVER },
	/* new repositories */
	{ "init", SC_CREATE, .snap = SNAP_NEVER, .check = init_check, .deny_bound = init_deny_bound },
	{ "init-db", SC_CREATE, .snap = SNAP_NEVER, .check = init_check, .deny_bound = init_deny_bound },
	{ "clone", SC_CREATE, .snap = SNAP_NEVER, .check = init_check },
	/* the one way out */
	{ "push", SC_PUSH, .snap = SNAP_NEVER, .check = push_check },
	/* branch moves */
	{ "checkout", SC_CHECKOUT, .snap = SNAP_FORMS, .safe = checkout_safe,
	  .check = checkout_check },
	{ "switch", SC_CHECKOUT, .snap = SNAP_FORMS, .safe = switch_safe,
	  .check = checkout_check },
	/* the session manager's */
	{ "worktree", SC_WORKTREE, .snap = SNAP_NEVER, .reads = worktree_reads,
	  .deny_any = worktree_deny_any },
	/* git's own helper */
	{ "submodule--helper", SC_HELPER, .snap = SNAP_NEVER },
	/* interactive tools */
	{ "mergetool", SC_TOOL },
	{ "difftool", SC_TOOL },
	/* rewrite or expose what is not the agent's, or move refs or objects past the guarded paths (push, the ref transaction's audit): send-pack pushes without push's guards, fast-import writes any ref */
	{ "filter-branch", SC_FORBIDDEN },
	{ "replace", SC_FORBIDDEN },
	{ "credential", SC_FORBIDDEN },
	{ "credential-store", SC_FORBIDDEN },
	{ "credential-cache", SC_FORBIDDEN },
	{ "credential-cache--daemon", SC_FORBIDDEN },
	{ "fsmonitor--daemon", SC_FORBIDDEN },
	{ "upload-pack", SC_FORBIDDEN },
	{ "receive-pack", SC_FORBIDDEN },
	{ "http-backend", SC_FORBIDDEN },
	{ "shell", SC_FORBIDDEN },
	{ "daemon", SC_FORBIDDEN },
	{ "instaweb", SC_FORBIDDEN },
	{ "for-each-repo", SC_FORBIDDEN },
	{ "send-pack", SC_FORBIDDEN },
	{ "fast-import", SC_FORBIDDEN },
};
/* clang-format on */

static const struct rule unknown = { "", SC_UNKNOWN, .check = unknown_check };

const struct rule *rule_for(const char *sub)
{
	if (!sub)
		return &unknown;
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (!strcmp(rules[i].sub, sub))
			return &rules[i];
	return &unknown;
}

bool rule_reads(const struct rule *r, const struct git_argv *ga)
{
	return r->reads ? r->reads(ga) : r->cls == SC_READ;
}

const char *rule_snapshot(const struct rule *r, const struct git_argv *ga,
			  bool *quarantine)
{
	*quarantine = false;
	if (r->snap == SNAP_NEVER || rule_reads(r, ga) ||
	    (r->snap == SNAP_FORMS && r->safe && r->safe(ga)))
		return NULL;
	*quarantine = r->quarantine && r->quarantine(ga);
	/* an alias or external command (bypassed: agents are denied it) */
	return *r->sub ? r->sub : "external";
}

const char *rules_assigned(const struct policy_input *in)
{
	return in->bind->branch ? in->bind->branch : "<none>";
}

static bool protected_cb(const char *branch, void *ctx)
{
	return policy_protected(ctx, branch);
}

static const char *const op_words[] = {
	[REF_WRITE] = "create or move",
	[REF_DELETE] = "delete",
	[REF_UPSTREAM] = "change the upstream or description of",
	[REF_READ] = "copy from",
};

/* The one judge of what a row says its command moves (git/ref-effects.h). */
static bool refs_denied(const struct rule *r, struct verdict *v,
			const struct policy_input *in)
{
	struct ref_effects fx;
	const struct ref_effect *e;
	enum ref_hit hit;

	ref_effects_init(&fx);
	r->refs(in->ga, &fx);
	e = ref_effects_judge(&fx, protected_cb, (void *)in, &hit);
	if (e && hit == REF_HIT_SNAPSHOTS)
		verdict_deny(
			v, "deny", DS_BLOCK,
			"'%s' is in the refs/agentic-git/ snapshot namespace, which agents cannot change — the safety net stays out of reach",
			e->given);
	else if (e)
		verdict_deny(
			v, "deny_protected_ref", DS_BLOCK,
			"protected ref — git %s would %s '%s' (%s), a protected branch%s — denied%s",
			r->sub, op_words[e->op], e->given,
			ref_effect_name(&fx, e),
			e->pattern ? ", or every branch the pattern covers"
				   : "",
			r->refs_hint ? r->refs_hint : "");
	ref_effects_release(&fx);
	return e != NULL;
}

bool rule_check(const struct rule *r, struct verdict *v,
		const struct policy_input *in)
{
	if (r->refs && refs_denied(r, v, in))
		return true;
	return r->check && r->check(v, in);
}
