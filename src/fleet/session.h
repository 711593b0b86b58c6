/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_SESSION_H
#define AG_FLEET_SESSION_H

/**
 * Guarded sessions (PRODUCT.md §6, reference §7): the plan, the
 * provisioning and the launch behind `agentic-git run`.
 *
 * Invariants (tests in tests/e2e/t04*.bats cite these numbers):
 *  1. Everything is validated before anything is created: the agent and
 *     branch names, the base, the source repository, the home (no ':' so the
 *     guarded PATH cannot be split), the real git and the command. A refusal
 *     MUST leave the home, the repository's branches and its worktree list
 *     exactly as they were.
 *  2. An existing session MUST NOT be reused unless its binding verifies
 *     (ag_binding_load), names the same branch, worktree and repository,
 *     and its directory is the kind the run needs: a linked worktree of the
 *     repository, or for a sandboxed profile a private workspace of it
 *     (workspace_is_private_of); a refused reuse changes nothing.
 *  3. Provisioning MUST be serialised per repository by a flock keyed by the
 *     repository's canonical common git dir, so runs started from different
 *     worktrees of one repository serialise too.
 *  4. The agent MUST NOT inherit a bypass: every AGENTIC_GIT_BYPASS*,
 *     AGEND_GIT_BYPASS* and *_ALLOW_CANONICAL_MUTATE variable is removed
 *     from its environment, and the shim's directory is first on its PATH.
 *     Nor may it grant itself one: the binding records "bypass": "denied"
 *     unless the operator ran with --allow-bypass, and the shim then
 *     ignores any bypass variable the agent sets.
 *  5. The agent runs in its own process group; SIGINT, SIGTERM, SIGHUP and
 *     SIGQUIT received by the parent are forwarded to its whole tree
 *     (invariant 8), and the parent exits with the agent's status
 *     (128+signal when killed).
 *  6. While the agent runs, the parent holds the session's run lock
 *     (fleet/session-lock.h) and the lock names the agent's pid and group;
 *     a second `run` of a running session is refused before provisioning
 *     and again when it takes the lock.
 *  7. With a time limit (run --timeout, a profile's `timeout:`), at the
 *     deadline the agent's whole tree gets SIGTERM (and SIGCONT), and
 *     SIGKILL when anything of it is left after the grace; the launch
 *     returns SESSION_EXIT_TIMEOUT whatever the agent's own status.
 *  8. No process outlives its session. The parent is a child subreaper
 *     while the agent runs, so whatever the agent starts stays below it,
 *     however it detaches (setsid, a double fork). The agent's tree is
 *     its process group and every process below the parent
 *     (base/proctree.h). A stop signal (invariant 5) or the deadline
 *     (invariant 7) sends the signal to the tree, SIGCONT, and SIGKILL to
 *     what is left after the grace; when the agent's leader ends, for
 *     whatever reason, what it left gets SIGTERM, and SIGKILL after the
 *     grace. The launch returns, and so the run lock is released, only
 *     once nothing of the tree is left but zombies, and those it reaps.
 *
 * Call order: ag_home_dir() (base/envvar.h) → session_plan() (pure) →
 * session_inspect_repo() → session_check_existing() → session_provision()
 * → session_launch(). Every char * in struct session is owned by it and
 * freed by session_release(). Functions return 0, or an exit code (1, 2 or
 * 78) with a one-line reason (no "agentic-git: " prefix) in `err`; they
 * print nothing except git's own error output on a failed `worktree add`.
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"
#include "base/strvec.h"
#include "git/repo.h" /* SESSION_MARKER_NAME */

#define SESSION_MARKER SESSION_MARKER_NAME

struct session_lock;

struct session {
	char *home;	   /* absolute state root */
	char *agent;
	char *branch;
	char *base;
	char *base_oid;	   /* the base resolved to a commit (inspect_repo) */
	char *base_branch; /* the branch the base names (HEAD's branch for
			      HEAD), or NULL for a tag or an id: what
			      review and merge compare with (inspect_repo) */
	char *worktree;	   /* <home>/worktrees/<agent>/<branch> */
	char *real_git;	   /* absolute, never the shim */
	char *source_repo; /* top level of the cwd's checkout */
	char *common_dir;  /* canonical common git dir of source_repo */
	char *issued_at;   /* RFC 3339 nanos; set by provisioning */
	bool reused;
	char *adopt_oid;   /* resume: the existing branch's tip, adopted by a
			      new worktree (session_check_existing) */
	bool private_ws;   /* a private workspace (sandboxed profile), not a
			      linked worktree */
	bool allow_bypass; /* run --allow-bypass: the binding says "allowed" */
	bool bypass_stale; /* reuse: the binding's bypass field differs */
	struct session_lock *lock; /* held run lock the launch records the
				      agent in; not owned, may be NULL */
};

/*
 * Pure: fills the names and paths of `s` from the options (NULL = default)
 * and validates them. `rnd` supplies the default agent's 6 random bytes,
 * `now` the default branch's UTC minute. Returns 0, 2 (bad name or base)
 * or 78 (home unusable for a guarded PATH).
 */
int session_plan(struct session *s, const char *agent, const char *branch,
		 const char *base, const char *home, time_t now,
		 const unsigned char rnd[6], struct strbuf *err);

/*
 * True for the names under <home>/runtime/ that are agentic-git's own
 * state (the fs+api proxy's `net`, the sandbox probe's cache), never a
 * session: `run` refuses them as agent names, `sessions` skips them.
 */
bool session_agent_reserved(const char *name);

/*
 * Real git, source repository, bare check, common dir, and the base
 * resolved to a commit (s->base_oid). 0 or 1; prints nothing.
 */
int session_inspect_repo(struct session *s, struct strbuf *err);

/*
 * Decides between reuse and a fresh session without changing anything:
 * a verified matching binding sets s->reused; a binding that does not
 * verify or does not match, an existing branch or an existing worktree
 * path is refused (1).
 */
int session_check_existing(struct session *s, struct strbuf *err);

/* Creates (or refreshes, on reuse) everything the session needs. 0 or 1. */
int session_provision(struct session *s, struct strbuf *err);

/*
 * Pure: the agent's environment from `environ`: bypass variables removed,
 * PATH = <home>/bin:<PATH>, AGENTIC_GIT_HOME/AGENT/REAL_GIT set,
 * AGENTIC_GIT_SNAPSHOTS=1 unless either snapshot variable is set.
 */
void session_child_env(const struct session *s, const char *const *environ,
		       struct strvec *out);

/* The exit status of a run its time limit ended (as timeout(1)'s). */
#define SESSION_EXIT_TIMEOUT 124

/* A launch's time limit (invariant 7); owned by the caller. */
struct session_limits {
	unsigned long timeout_ms; /* 0: none */
	unsigned long grace_ms;	  /* from SIGTERM to SIGKILL */
	int ended_by;		  /* out: 0, or SIGTERM or SIGKILL when the
				     limit ended the agent */
};

/*
 * Runs argv (argv[0] searched in the child's PATH unless it contains '/')
 * in the worktree with `envp`, supervises it (invariants 5 and 7, `lim`
 * may be NULL) and returns its exit code, SESSION_EXIT_TIMEOUT, or 127
 * when it could not be started (reason in err). With s->lock, the agent's
 * pid is recorded in it as soon as it is forked.
 */
int session_launch(const struct session *s, const char *const *argv,
		   const char *const *envp, struct session_limits *lim,
		   struct strbuf *err);
/* What a launch passes to the agent beyond its environment. */
struct session_io {
	const char *stdin_path; /* its stdin, or NULL: inherited */
	int fd3; /* its descriptor 3 (the fs+api proxy's secrets), or -1 */
};

/* Same, with `io` (NULL: stdin inherited, nothing as descriptor 3). */
int session_launch_io(const struct session *s, const char *const *argv,
		      const char *const *envp, const struct session_io *io,
		      struct session_limits *lim, struct strbuf *err);

/*
 * argv[0] as the agent will exec it: made absolute against the cwd when it
 * contains '/', else searched in envp's PATH. Malloc'd, or NULL.
 */
char *session_resolve_cmd(const char *cmd, const char *const *envp);

/* The canonical common git dir of the repository at `dir` (read from its
 * .git files), malloc'd, or NULL. */
char *session_common_dir_of(const char *dir);

void session_release(struct session *s);

/* The lock file path for a common dir: <home>/locks/wt-<fnv1a64>.lock. */
void session_lock_path(const char *home, const char *common_dir,
		       struct strbuf *out);

#endif
