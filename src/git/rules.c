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
 */
#include "base/common.h"
#include <string.h>
#include "git/policy.h"
#include "git/ref-effects.h"
#include "git/rules-int.h"
#include "git/rules.h"

/* clang-format off */
static const struct rule rules[] = {
	/* provably read-only (they may refresh the index stat cache) */
	{ "status", SC_READ, .legacy = true },
	{ "log", SC_READ, .legacy = true },
	{ "diff", SC_READ, .legacy = true },
	{ "show", SC_READ, .legacy = true },
	{ "blame", SC_READ, .legacy = true },
	{ "annotate", SC_READ, .legacy = true },
	{ "grep", SC_READ, .reads = grep_reads },
	{ "ls-files", SC_READ, .legacy = true },
	{ "ls-tree", SC_READ, .legacy = true },
	{ "cat-file", SC_READ, .legacy = true },
	{ "rev-parse", SC_READ, .legacy = true },
	{ "rev-list", SC_READ, .legacy = true },
	{ "for-each-ref", SC_READ, .legacy = true },
	{ "show-ref", SC_READ, .legacy = true },
	{ "merge-base", SC_READ, .legacy = true },
	{ "describe", SC_READ, .legacy = true },
	{ "shortlog", SC_READ, .legacy = true },
	{ "name-rev", SC_READ, .legacy = true },
	{ "version", SC_READ, .legacy = true },
	{ "help", SC_READ, .legacy = true },
	{ "whatchanged", SC_READ, .legacy = true },
	{ "diff-tree", SC_READ, .legacy = true },
	{ "diff-files", SC_READ, .legacy = true },
	{ "diff-index", SC_READ, .legacy = true },
	{ "ls-remote", SC_READ, .reads = ls_remote_reads },
	{ "count-objects", SC_READ, .legacy = true },
	{ "check-ignore", SC_READ, .legacy = true },
	{ "check-attr", SC_READ, .legacy = true },
	{ "check-mailmap", SC_READ, .legacy = true },
	{ "check-ref-format", SC_READ, .legacy = true },
	{ "var", SC_READ, .legacy = true },
	{ "verify-commit", SC_READ, .legacy = true },
	{ "verify-tag", SC_READ, .legacy = true },
	{ "verify-pack", SC_READ, .legacy = true },
	{ "cherry", SC_READ, .legacy = true },
	{ "show-branch", SC_READ, .legacy = true },
	{ "range-diff", SC_READ, .legacy = true },
	{ "get-tar-commit-id", SC_READ, .legacy = true },
	{ "patch-id", SC_READ, .legacy = true },
	{ "show-index", SC_READ, .legacy = true },
	{ "column", SC_READ, .legacy = true },
	{ "stripspace", SC_READ, .legacy = true },
	{ "archive", SC_READ, .reads = archive_reads },
	{ "format-patch", SC_READ, .legacy = true },
	{ "mailinfo", SC_READ, .legacy = true },
	{ "mailsplit", SC_READ, .legacy = true },
	{ "request-pull", SC_READ, .legacy = true },
	{ "fmt-merge-msg", SC_READ, .legacy = true },
	{ "merge-tree", SC_READ, .legacy = true },
	{ "bugreport", SC_READ, .legacy = true },
	{ "diagnose", SC_READ, .legacy = true },
	{ "fast-export", SC_READ, .legacy = true },
	/* read or write depending on the form */
	{ "fetch", SC_FORMS, .reads = fetch_reads, .refs = fetch_refs,
	  .refs_hint = "; fetch into remote-tracking refs (git fetch origin) and compare with origin/<branch>",
	  .check = fetch_check },
	{ "branch", SC_FORMS, .reads = branch_reads, .refs = branch_refs,
	  .check = branch_check },
	{ "tag", SC_FORMS, .reads = tag_reads, .refs = tag_refs,
	  .check = tag_check },
	{ "remote", SC_FORMS, .reads = remote_reads, .check = remote_check },
	{ "stash", SC_FORMS, .reads = stash_reads, .snap = SNAP_FORMS,
	  .safe = stash_safe, .check = stash_check },
	{ "config", SC_FORMS, .reads = config_reads, .check = config_check },
	{ "reflog", SC_FORMS, .reads = reflog_reads, .check = reflog_check },
	{ "notes", SC_FORMS, .reads = notes_reads },
	{ "submodule", SC_FORMS, .reads = submodule_reads, .snap = SNAP_FORMS,
	  .safe = submodule_safe, .check = submodule_check },
	{ "symbolic-ref", SC_FORMS, .reads = symbolic_ref_reads,
	  .refs = symbolic_ref_refs, .check = symbolic_ref_check },
	{ "hash-object", SC_FORMS, .reads = hash_object_reads },
	{ "interpret-trailers", SC_FORMS, .reads = interpret_trailers_reads },
	{ "sparse-checkout", SC_FORMS, .reads = sparse_checkout_reads },
	{ "bisect", SC_FORMS, .reads = bisect_reads },
	{ "rerere", SC_FORMS, .reads = rerere_reads },
	{ "fsck", SC_FORMS, .reads = fsck_reads },
	/* local mutations */
	{ "add", SC_LOCAL, .legacy = true },
	{ "stage", SC_LOCAL, .legacy = true },
	{ "commit", SC_LOCAL, .legacy = true },
	{ "rm", SC_LOCAL, .snap = SNAP_FORMS, .safe = unforced_safe },
	{ "mv", SC_LOCAL, .snap = SNAP_FORMS, .safe = unforced_safe },
	{ "reset", SC_LOCAL, .snap = SNAP_FORMS, .safe = reset_safe },
	{ "revert", SC_LOCAL, .snap = SNAP_YES, .conflicts = true },
	{ "cherry-pick", SC_LOCAL, .snap = SNAP_YES, .conflicts = true },
	{ "merge", SC_LOCAL, .snap = SNAP_YES, .conflicts = true },
	{ "rebase", SC_LOCAL, .snap = SNAP_YES, .conflicts = true },
	{ "am", SC_LOCAL, .snap = SNAP_YES, .conflicts = true },
	{ "apply", SC_LOCAL, .legacy = true },
	{ "pull", SC_LOCAL, .snap = SNAP_YES, .conflicts = true, .refs = fetch_refs,
	  .refs_hint = "; fetch into remote-tracking refs (git fetch origin) and compare with origin/<branch>",
	  .check = fetch_check },
	{ "read-tree", SC_LOCAL, .snap = SNAP_FORMS, .safe = read_tree_safe },
	{ "update-index", SC_LOCAL, .legacy = true },
	{ "restore", SC_LOCAL, .snap = SNAP_FORMS, .safe = restore_safe },
	{ "clean", SC_LOCAL, .snap = SNAP_FORMS, .safe = clean_safe,
	  .quarantine = clean_quarantine, .deny_any = clean_deny_any,
	  .route_words = clean_route_words, .run_config = clean_run_config },
	{ "gc", SC_LOCAL, .legacy = true },
	{ "prune", SC_LOCAL, .legacy = true },
	{ "repack", SC_LOCAL, .legacy = true },
	{ "pack-refs", SC_LOCAL, .legacy = true },
	{ "update-ref", SC_LOCAL, .refs = update_ref_refs,
	  .check = update_ref_check },
	{ "write-tree", SC_LOCAL, .legacy = true },
	{ "commit-tree", SC_LOCAL, .legacy = true },
	{ "mktag", SC_LOCAL, .legacy = true },
	{ "mktree", SC_LOCAL, .legacy = true },
	{ "unpack-objects", SC_LOCAL, .legacy = true },
	{ "index-pack", SC_LOCAL, .legacy = true },
	{ "pack-objects", SC_LOCAL, .legacy = true },
	{ "checkout-index", SC_LOCAL, .snap = SNAP_FORMS, .safe = unforced_safe },
	{ "merge-file", SC_LOCAL, .legacy = true },
	{ "merge-index", SC_LOCAL, .legacy = true },
	{ "maintenance", SC_LOCAL, .check = maintenance_check },
	{ "commit-graph", SC_LOCAL, .legacy = true },
	{ "multi-pack-index", SC_LOCAL, .legacy = true },
	{ "prune-packed", SC_LOCAL, .legacy = true },
	{ "update-server-info", SC_LOCAL, .legacy = true },
	{ "bundle", SC_LOCAL, .legacy = true },
	{ "hook", SC_LOCAL, .legacy = true },
	{ "unpack-file", SC_LOCAL, .legacy = true },
	/* new repositories */
	{ "init", SC_CREATE, .check = init_check, .deny_bound = init_deny_bound },
	{ "init-db", SC_CREATE, .check = init_check, .deny_bound = init_deny_bound },
	{ "clone", SC_CREATE, .check = init_check },
	/* the one way out */
	{ "push", SC_PUSH, .check = push_check },
	/* branch moves */
	{ "checkout", SC_CHECKOUT, .snap = SNAP_FORMS, .safe = checkout_safe,
	  .check = checkout_check },
	{ "switch", SC_CHECKOUT, .snap = SNAP_FORMS, .safe = switch_safe,
	  .check = checkout_check },
	/* the session manager's */
	{ "worktree", SC_WORKTREE, .reads = worktree_reads,
	  .deny_any = worktree_deny_any },
	/* git's own helper */
	{ "submodule--helper", SC_HELPER, .legacy = true },
	/* interactive tools */
	{ "mergetool", SC_TOOL, .legacy = true },
	{ "difftool", SC_TOOL, .legacy = true },
	/* rewrite or expose what is not the agent's, or move refs or objects past the guarded paths (push, the ref transaction's audit): send-pack pushes without push's guards, fast-import writes any ref */
	{ "filter-branch", SC_FORBIDDEN, .legacy = true },
	{ "replace", SC_FORBIDDEN, .legacy = true },
	{ "credential", SC_FORBIDDEN, .legacy = true },
	{ "credential-store", SC_FORBIDDEN, .legacy = true },
	{ "credential-cache", SC_FORBIDDEN, .legacy = true },
	{ "credential-cache--daemon", SC_FORBIDDEN, .legacy = true },
	{ "fsmonitor--daemon", SC_FORBIDDEN, .legacy = true },
	{ "upload-pack", SC_FORBIDDEN, .legacy = true },
	{ "receive-pack", SC_FORBIDDEN, .legacy = true },
	{ "http-backend", SC_FORBIDDEN, .legacy = true },
	{ "shell", SC_FORBIDDEN, .legacy = true },
	{ "daemon", SC_FORBIDDEN, .legacy = true },
	{ "instaweb", SC_FORBIDDEN, .legacy = true },
	{ "for-each-repo", SC_FORBIDDEN, .legacy = true },
	{ "send-pack", SC_FORBIDDEN, .legacy = true },
	{ "fast-import", SC_FORBIDDEN, .legacy = true },
};
/* clang-format on */

static const struct rule unknown = { "", SC_UNKNOWN, .legacy = true };

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
	if (r->snap == SNAP_NO ||
	    (r->snap == SNAP_FORMS && r->safe && r->safe(ga)))
		return NULL;
	*quarantine = r->quarantine && r->quarantine(ga);
	return r->sub;
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
