/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_POLICY_H
#define AG_POLICY_H

/**
 * The shim's decision: a pure function of (normalised argv, environment
 * facts, binding, repository facts) → verdict. No I/O, no exit: the shim
 * gathers the facts, calls policy_decide(), and carries out the verdict;
 * `agentic-git check` prints it instead.
 *
 * struct policy_input points at caller-owned data; struct verdict owns its
 * strbufs/strvec and is released with verdict_release().
 */
#include "base/common.h"
#include "agentic-git/core.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "git/argv.h"
#include "git/config-env.h"

struct policy_env {
	const char *agent;	   /* "" when no agent identity is set */
	bool agent_valid;	   /* passes ag_agent_name_valid */
	const char *home;	   /* "" when unset */
	bool bypass;		   /* a bypass variable matched, and counts */
	const char *bypass_layer;  /* env | agent | until */
	bool bypass_refused;	   /* one matched, but the verified binding
				      says the operator did not allow it */
	unsigned depth;		   /* AGENTIC_GIT_SHIM_DEPTH */
	bool allow_canonical_mutate;
	bool env_repo_override;	   /* GIT_DIR/GIT_WORK_TREE/GIT_COMMON_DIR set */
	bool env_index_override;   /* GIT_INDEX_FILE set */
	int snapshots;		   /* 1 on, 0 explicitly off, -1 unset */
	/* config git would read from the environment (git/config-env.h),
	 * NULL for the operator; judged like -c */
	const struct config_env *cfg_env;
	bool exec_path_env;	   /* GIT_EXEC_PATH other than real git's own */
	/* a GIT_TRACE* variable that sends a trace into a file
	 * (git_trace_writes()): its "NAME=value", or NULL */
	const char *trace_var;
};

enum bind_state { BS_NOAGENT, BS_UNBOUND, BS_BOUND };

struct policy_binding {
	enum bind_state state;
	const char *why_unbound; /* for BS_UNBOUND */
	bool bypass_denied; /* the verified binding says: no bypass */
	const char *task_id;
	const char *branch;
	const char *worktree; /* canonical; NULL for a partial binding */
};

enum target_kind {
	TGT_NONE,	/* not inside any repository */
	TGT_SAME,	/* the repository the agent is bound to */
	TGT_FOREIGN,	/* another repository (a scratch repo, say) */
	TGT_UNRESOLVED, /* a .git of a shape we cannot follow */
};

struct policy_repo {
	enum target_kind target;
	const char *target_rel;	  /* position inside its checkout, "" at top */
	bool rel_exists_in_wt;	  /* <worktree>/<target_rel> is a directory */
	const char *sibling_agent; /* another agent's marker above the target */
	const char *sibling_path;
	bool canonical_rooted;	  /* target is a main checkout with origin */
	const char *wt_branch;	  /* branch checked out in the worktree */
	const unsigned *tok_facts; /* per ga->pos[i]: enum tok_fact bits */
	bool sub_is_external;	  /* git-<sub> is an installed program */
	/* output paths (git/outpaths.h), judged by the facts for a bound
	 * agent: outs_judged says they were; out_bad is the first one not
	 * inside the worktree (as given, "" for a form without a value),
	 * with its option and, when it could not be resolved, why */
	bool outs_judged;
	const char *out_bad;
	const char *out_opt;
	const char *out_why;
	/* init's directory (as given) where a repository exists that the
	 * agent did not make inside its worktree: git would re-initialise
	 * it (the worktree's top: the bound repository itself) */
	const char *reinit_dir;
	/* for a command not routed, by git's own answer (git/git-where.h):
	 * the work tree git acts on when it is set apart from its git dir
	 * and lies outside the agent's worktree; why git could not say
	 * (work_tree_why); and whether git finds the bound repository where
	 * the shim found another or none (where_disagrees) */
	const char *work_tree;
	const char *work_tree_why;
	bool where_disagrees;
};

struct policy_input {
	const struct git_argv *ga;
	const struct policy_env *env;
	const struct policy_binding *bind;
	const struct policy_repo *repo;
	const struct ag_protected *protected;
	bool policy_refused; /* policy.toml present but refused */
};

enum verdict_kind { V_PASS, V_ROUTE, V_DENY };
enum deny_style { DS_BLOCK, DS_SIBLING, DS_CANONICAL };

struct verdict {
	enum verdict_kind kind;
	const char *sub;	 /* normalised subcommand, "" when none */
	struct strbuf route_dir; /* V_ROUTE: run git here */
	struct strvec args;	 /* V_PASS/V_ROUTE: git's argv after argv[0] */
	size_t sub_args_at;	 /* args.v[sub_args_at…]: the subcommand's own */
	size_t opts_end_at;	 /* args.v[opts_end_at]: the word that ends
				    its options (`--`), or args.nr */
	bool scrub_repo_env;	 /* unset GIT_DIR & co before exec */
	bool fence_narrow;	 /* an agent's: `--all` leaves out the
				    snapshots (git/snapshot-fence.h) */
	/* V_DENY */
	const char *event;
	struct strbuf reason;
	enum deny_style style;
	bool bound_remedy; /* name the worktree in the remedy */
	/* effects */
	const char *snapshot_slug; /* snapshot before running, or NULL */
	bool quarantine;	   /* clean -x/-X */
	bool conflict_wrap;	   /* spawn, then conflict guidance */
	bool push_guards;	   /* run the repository push guards first */
	struct strbuf push_pins;   /* after them: the object ids they scanned,
				      space-separated (git/pushpin.h) */
	bool audit_bypass;	   /* write bypass_mutating_op */
	bool drop_env_hooks_off;   /* config_env_drop_hooks_off() first */
	struct strbuf why;	   /* one line: why this verdict (for check) */
};

void verdict_init(struct verdict *v);
/* Makes `v` a deny with this event, style and reason. */
AG_PRINTF(4, 5)
void verdict_deny(struct verdict *v, const char *event, enum deny_style style,
		  const char *fmt, ...);
/* Whether the branch `name` (without refs/heads/) is protected for this
 * input (every branch when policy.toml was refused). */
bool policy_protected(const struct policy_input *in, const char *name);
void verdict_release(struct verdict *v);
void policy_decide(const struct policy_input *in, struct verdict *v);
/* Inserts `words` (NULL-terminated) into v->args at index `at`; the
 * subcommand's own arguments move with it when `at` is before them. */
void verdict_insert_args(struct verdict *v, size_t at,
			 const char *const *words);
const char *verdict_kind_str(enum verdict_kind k);

#endif
