/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_RULES_INT_H
#define AG_RULES_INT_H

/**
 * The functions of the policy table's rows (git/rules.c), by area: each
 * reads the one parse of the command line (git/argv.h) and nothing else.
 * Internal to the rules; git/rules.h is the table's interface.
 */
#include "base/common.h"
#include "git/argv.h"
#include "git/policy.h"
#include "git/ref-effects.h"

/* The agent's assigned branch, or "<none>" for a message. */
const char *rules_assigned(const struct policy_input *in);

/* git/rules-refs.c: branch, tag, update-ref, symbolic-ref, fetch, pull */
bool branch_reads(const struct git_argv *ga);
void branch_refs(const struct git_argv *ga, struct ref_effects *fx);
bool branch_check(struct verdict *v, const struct policy_input *in);
bool tag_reads(const struct git_argv *ga);
void tag_refs(const struct git_argv *ga, struct ref_effects *fx);
bool tag_check(struct verdict *v, const struct policy_input *in);
void update_ref_refs(const struct git_argv *ga, struct ref_effects *fx);
bool update_ref_check(struct verdict *v, const struct policy_input *in);
bool symbolic_ref_reads(const struct git_argv *ga);
void symbolic_ref_refs(const struct git_argv *ga, struct ref_effects *fx);
bool symbolic_ref_check(struct verdict *v, const struct policy_input *in);
bool fetch_reads(const struct git_argv *ga);
void fetch_refs(const struct git_argv *ga, struct ref_effects *fx);
bool fetch_check(struct verdict *v, const struct policy_input *in);
bool push_check(struct verdict *v, const struct policy_input *in);

/* git/rules-config.c: config, and the config every command carries */
bool config_reads(const struct git_argv *ga);
bool config_check(struct verdict *v, const struct policy_input *in);
/* -c, --config-env and the environment's config (git/config-env.h),
 * judged for any agent's command; `read_only`: the form only reads */
bool config_carried_denied(struct verdict *v, const struct policy_input *in,
			   bool read_only);

/* git/rules-tree.c: checkout, switch, restore, reset, clean, stash … */
bool checkout_safe(const struct git_argv *ga);
bool switch_safe(const struct git_argv *ga);
bool checkout_check(struct verdict *v, const struct policy_input *in);
bool restore_safe(const struct git_argv *ga);
bool reset_safe(const struct git_argv *ga);
bool clean_safe(const struct git_argv *ga);
bool clean_quarantine(const struct git_argv *ga);
bool clean_deny_any(struct verdict *v, const struct policy_input *in);
bool clean_route_words(const struct git_argv *ga, struct git_insert *ins);
const char *clean_run_config(const struct git_argv *ga);
bool stash_reads(const struct git_argv *ga);
bool stash_safe(const struct git_argv *ga);
bool stash_check(struct verdict *v, const struct policy_input *in);
bool read_tree_safe(const struct git_argv *ga);
bool unforced_safe(const struct git_argv *ga);
bool apply_safe(const struct git_argv *ga);

/* git/rules-repo.c: remote, reflog, notes, worktree, submodule, … */
bool remote_reads(const struct git_argv *ga);
bool remote_check(struct verdict *v, const struct policy_input *in);
bool reflog_reads(const struct git_argv *ga);
bool reflog_check(struct verdict *v, const struct policy_input *in);
bool notes_reads(const struct git_argv *ga);
bool sparse_checkout_reads(const struct git_argv *ga);
bool bisect_reads(const struct git_argv *ga);
bool rerere_reads(const struct git_argv *ga);
bool maintenance_check(struct verdict *v, const struct policy_input *in);
bool worktree_reads(const struct git_argv *ga);
bool worktree_deny_any(struct verdict *v, const struct policy_input *in);
bool hash_object_reads(const struct git_argv *ga);
bool interpret_trailers_reads(const struct git_argv *ga);
bool fsck_reads(const struct git_argv *ga);
bool grep_reads(const struct git_argv *ga);
bool ls_remote_reads(const struct git_argv *ga);
bool archive_reads(const struct git_argv *ga);
bool submodule_reads(const struct git_argv *ga);
bool submodule_safe(const struct git_argv *ga);
bool submodule_check(struct verdict *v, const struct policy_input *in);
bool init_check(struct verdict *v, const struct policy_input *in);
bool init_deny_bound(struct verdict *v, const struct policy_input *in);
bool unknown_check(struct verdict *v, const struct policy_input *in);

#endif
