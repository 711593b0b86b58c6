/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_GITCMD_H
#define AG_GITCMD_H

/**
 * The one way agentic-git runs real git for itself (PRODUCT.md §4,
 * "agentic-git's own git"), in three explicit trust modes:
 *
 *  GIT_INTERNAL   a call made where the caller already runs as the agent
 *                 (the shim's snapshot and push guard, the hooks): git's
 *                 repository variables are removed and the internal-call
 *                 markers set; nothing else changes.
 *  GIT_OPERATOR   the operator's own repository, or one agentic-git made
 *                 that no agent can reach (a target's push repository):
 *                 its config is trusted and the operator's environment
 *                 (credentials) kept, but agentic-git's own operations
 *                 never run its hooks or leave a background gc behind.
 *  GIT_AGENT_REPO a repository an agent could write (its worktree, its
 *                 private workspace, a dispatch workspace): its config is
 *                 not trusted. Every config-driven code path git would
 *                 take (hooks, fsmonitor, ssh, pager, editor, askpass,
 *                 credential helpers, external diff, alternate-refs
 *                 command, signing, ext transport, and every filter, diff
 *                 and merge driver the repository's config defines) is
 *                 switched off on the command line, where it wins over the
 *                 repository's own config; credentials, HOME, the global
 *                 and the system config are out of its environment.
 *
 *  GIT_AS_AGENT   the agent's own command, run once by the shim before it
 *                 execs it (a push's dry run, git/pushguard.h): the
 *                 caller's whole environment, the config it carries
 *                 included, so git expands exactly what the real command
 *                 will; only the location variables the shim routes
 *                 (GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR) are removed, and
 *                 no bypass or internal-call marker is set.
 *
 * Every other mode removes git's repository variables (gitcmd_repo_vars(): what
 * `git rev-parse --local-env-vars` lists, plus the pathspec and namespace
 * variables, GIT_EXEC_PATH and GIT_CONFIG_KEY_n/VALUE_n) so that nothing
 * around agentic-git steers its git; callers set GIT_DIR & co again on
 * purpose. Every other mode also sets GIT_OPTIONAL_LOCKS=0: the operator
 * looking (`sessions`, `review`, `events`, snapshot listings, `end`'s
 * checks) never takes the index.lock an agent's own command needs.
 *
 * gitcmd_init() prepares a child in the process's trust mode
 * (gitcmd_trust_set(), set once by a command that works on agents'
 * repositories: end, sessions, snapshots); gitcmd_prepare() names the
 * mode. The caller pushes the git arguments and releases the child;
 * `real_git` and `dir` are not copied and must outlive it. Functions that
 * run return git's exit status, or -1 when git could not be started.
 */
#include "base/common.h"
#include "base/spawn.h"
#include "base/strbuf.h"
#include "base/strvec.h"

enum git_trust { GIT_INTERNAL, GIT_OPERATOR, GIT_AGENT_REPO, GIT_AS_AGENT };

/*
 * The cage GIT_AGENT_REPO git runs in (the boundary rule, docs/sandbox.md;
 * agents/owned-cage.h builds it): what git may write (the repository's work
 * tree, git dir and common dir, as agentic-git found them) and read
 * besides the system (the object stores the repository borrows, the real
 * git's directory). All borrowed.
 */
struct gitcmd_cage {
	const char *dir;      /* git's working directory (absolute) */
	const char *real_git; /* absolute */
	const char *const *rw;
	size_t rw_nr;
	const char *const *ro;
	size_t ro_nr;
};
/* Appends the argv prefix (ending in "--") that runs what follows caged,
 * and to `env` the "K=V" the child needs in the cage (TMPDIR); -1 with
 * `why` set when this host cannot cage it. */
typedef int (*gitcmd_cage_fn)(const struct gitcmd_cage *cg,
			      struct strvec *prefix, struct strvec *env,
			      struct strbuf *why);
/*
 * Sets the process's cage. Without one, every GIT_AGENT_REPO git is
 * refused (fail closed): the command layer installs it
 * (owned_cage_install()) before it touches an agent's repository.
 */
void gitcmd_cage_set(gitcmd_cage_fn fn);
/*
 * Whether a host that can cage nothing refuses GIT_AGENT_REPO git (true,
 * the default) or runs it neutralised but uncaged (false): only for a
 * repository no caged agent wrote (a dispatch target whose agent ran
 * with sandbox none, or downgraded by warn-run).
 */
void gitcmd_cage_require(bool required);
/*
 * An object store every caged git of this process may read: what
 * agentic-git knows the repositories it looks at borrow (a session's
 * clone, from its signed binding), with its own alternates chain when
 * `chain` (the operator's store), or exactly that directory (a
 * workspace's objects the operator's clone takes in). While none is
 * registered, a repository's own objects/info/alternates chain is granted
 * read-only. `dir` is copied.
 */
void gitcmd_cage_trust_store(const char *dir, bool chain);

/* The process's mode for gitcmd_init() (default GIT_INTERNAL). */
void gitcmd_trust_set(enum git_trust t);
enum git_trust gitcmd_trust(void);

/* The repository variables every mode removes, NULL-terminated. */
const char *const *gitcmd_repo_vars(void);

/* The real git (git/realgit.h), found once; NULL with an error printed. */
const char *gitcmd_real_git(void);

void gitcmd_prepare(struct child *c, enum git_trust t, const char *real_git,
		    const char *dir);
/* Removes every GIT_TRACE* variable from the child's environment: a git of
 * ours traces into no file the caller named (every mode but GIT_AS_AGENT
 * does this already; threat T63). */
void gitcmd_drop_traces(struct child *c);
void gitcmd_init(struct child *c, const char *real_git, const char *dir);
/* gitcmd_init(), and the cage may also write `also_rw` (a directory the
 * command works on besides the repository: `worktree remove <path>`;
 * borrowed). */
void gitcmd_init_also(struct child *c, const char *real_git, const char *dir,
		      const char *also_rw);
/*
 * gitcmd_init() in the work tree `top` of the repository whose git dir is
 * `gitdir` (absolute), both given to git (GIT_DIR, GIT_WORK_TREE): for a
 * repository already found, even when its work tree does not hold its .git
 * (core.worktree). Only after git's own discovery found it, so that
 * safe.directory has had its say.
 */
void gitcmd_init_repo(struct child *c, const char *real_git,
		      const char *gitdir, const char *top);

/* Runs a prepared child: stdout into `out` (not captured when NULL),
 * stderr into `err` (trimmed; discarded when NULL). */
int gitcmd_run(struct child *c, struct strbuf *out, struct strbuf *err);
/* gitcmd_init() + a NULL-terminated argument list after `git` + run. */
int gitcmd_capture(const char *real_git, const char *dir, struct strbuf *out,
		   struct strbuf *err, ...);
/* The same in mode `t` with the process's real git; `args` NULL-terminated. */
int gitcmd(enum git_trust t, const char *dir, struct strbuf *out,
	   struct strbuf *err, const char *const *args);
int gitcmdl(enum git_trust t, const char *dir, struct strbuf *out,
	    struct strbuf *err, ...);

/*
 * Independent git commands in one directory, run at the same time (all
 * started, then each collected in order). `args` is NULL-terminated and
 * borrowed; `out` (initialised and released by the caller) gets stdout;
 * `status` git's exit status, or -1 when it could not run.
 */
struct gitcmd_job {
	const char *const *args;
	struct strbuf out;
	int status;
};
void gitcmd_parallel(enum git_trust t, const char *dir,
		     struct gitcmd_job *jobs, size_t n);

/*
 * The whole environment GIT_AGENT_REPO gives git (the parent's, minus the
 * repository variables and credentials, with HOME and the global and
 * system config replaced): also what a command run in an agent's
 * workspace gets (dispatch's verify_command).
 */
void gitcmd_scrubbed_env(struct strvec *env);

/*
 * For a git child that writes many objects (add, write-tree, commit-tree):
 * sets GLIBC_TUNABLES so glibc's malloc keeps freed memory instead of
 * trimming the heap after every object (each zlib stream allocates and
 * frees ~256 KiB; the trim and the page faults that follow cost more than
 * the hashing on a virtual machine). The caller's own GLIBC_TUNABLES, if
 * any, comes last and so wins. Ignored by a git not linked with glibc.
 */
void gitcmd_keep_heap(struct child *c);
/* Strips one trailing newline. */
void gitcmd_chomp(struct strbuf *sb);

#endif
