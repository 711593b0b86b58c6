/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FACTS_H
#define AG_FACTS_H

/**
 * Gathers the inputs of policy_decide() from the environment, the home
 * directory and the repositories' .git files. This is the shim's only I/O
 * before exec; it spawns nothing.
 *
 *   struct shim_facts f;
 *   facts_gather(&f, &ga, real_git);
 *   struct policy_input in = facts_input(&f, &ga);
 *   ...
 *   facts_release(&f);
 */
#include "base/common.h"
#include "agentic-git/core.h"
#include "git/argv.h"
#include "git/policy.h"
#include "git/repo.h"

struct shim_facts {
	struct policy_env env;
	struct policy_binding bind;
	struct policy_repo repo;
	struct ag_protected prot;
	bool policy_refused;
	char policy_err[256];
	/* owned storage behind the pointers above */
	struct ag_binding binding;
	enum ag_binding_state bstate;
	struct repo_loc target, wt;
	bool have_target, have_wt;
	char *eff_cwd;
	bool eff_canonical;
	char *wt_canon;
	char *sibling_agent, *sibling_dir;
	char *work_tree;  /* where git acts (git/git-where.h), canonical */
	char *git_gitdir; /* and the git dir git uses */
	unsigned *tok_facts;
	/* the existing files among the output paths, inside the worktree
	 * (absolute, resolved): the snapshot captures them */
	struct strvec out_files;
	const char *real_git; /* not owned */
};

/* Parses depth and bypass; cheap, used before anything else. */
unsigned facts_depth(void);

void facts_gather(struct shim_facts *f, struct git_argv *ga,
		  const char *real_git);
struct policy_input facts_input(const struct shim_facts *f,
				const struct git_argv *ga);
void facts_release(struct shim_facts *f);

/*
 * GIT_INDEX_FILE as the kernel will open it: `gi` taken from `base` when
 * relative, symlinks followed (the file's own, else its directory's).
 * NULL when it cannot be resolved. Owned.
 */
char *facts_index_file(const char *base, const char *gi);
/* The repository the caller names itself, as git reads it: --git-dir /
 * --work-tree, else GIT_DIR / GIT_WORK_TREE (NULL or "" when unnamed;
 * relative to the effective working directory). */
void facts_caller_repo(const struct git_argv *ga, const char **git_dir,
		       const char **work_tree);

#endif
