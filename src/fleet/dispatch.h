/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_DISPATCH_H
#define AG_FLEET_DISPATCH_H

/**
 * One dispatch run's per-target lifecycle, driven by the pool:
 * prepare (workspace, pre-fetch, guarded-session binding, agent launch) ->
 * agent -> finish (verdict, verification, push, salvage, teardown).
 * Security module.
 *
 * Invariants (tests: t0700-t0708):
 *  1. The agent never touches a remote: its workspace has no remote, its
 *     environment carries no credentials (git/gitcmd.h), and agentic-git
 *     does the one fetch before and the one push after.
 *  2. Nothing is pushed unless the verdict is RESOLVED and every check of
 *     fleet/verify.h passes; the verdict alone never pushes.
 *  3. The agent runs as a guarded session: `git` on its PATH is the shim,
 *     bound by a signed binding to <head> in its workspace, snapshots on,
 *     bypass variables removed; the workspace has the session hooks
 *     (trailers, ref journal, the reference-transaction lock; t0713).
 *  4. A workspace in conflict, or whose push failed, is kept with a NOTE
 *     file saying why and how to remove it; every other one is removed,
 *     with its binding.
 *
 *  5. A profile's agent runs in the sandbox the profile asks for, planned
 *     by fleet/agent-sandbox.h exactly as for sessions, in the target's
 *     private workspace; the same sandbox runs verify_command. When the
 *     host cannot provide it the target is refused (`sandbox-refused`)
 *     before its workspace exists, and nothing is pushed; warn-run runs it
 *     unsandboxed with the durable warning and makes the run exit 2.
 *
 * `struct agent_launch` is the seam to agent profiles: cmd/dispatch.c fills
 * it (from a raw `-- CMD…` or the profile planner) and this module adds the
 * target's workspace, environment, sandbox and stdin.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "agents/config.h"
#include "agents/secrets.h"
#include "fleet/agent-sandbox.h"
#include "fleet/pool.h"
#include "fleet/rundir.h"
#include "fleet/targets.h"
#include "fleet/workspace.h"

struct agent_launch {
	struct strvec argv;	 /* argv[0] absolute; "{prompt}" not expanded */
	struct strvec env;	 /* K=V added to the environment */
	bool env_inherit;	 /* start from ours (scrubbed) instead of empty */
	bool prompt_on_stdin;	 /* else the prompt is already in argv */
	unsigned timeout;	 /* seconds */
	const char *profile;	 /* profile name, or NULL for a raw command */
	const struct agent_profile *prof; /* owned by the config; NULL: raw */
	enum sandbox_backend sandbox_backend;	/* the config's preference */
	enum sandbox_fallback sandbox_fallback; /* the config's fallback */
	const char *tls_ca_file; /* the config's, for the fs+api proxy */
	/*
	 * A sandboxed profile under warn-run: the launch planned as if our
	 * sandbox were absent, which a downgraded run takes instead, so that
	 * nothing tells the agent it is sandboxed (agents/plan.h invariant
	 * 6): argv and env as above, or why it cannot run unsandboxed.
	 */
	bool have_plain;
	struct strvec plain_argv, plain_env;
	struct strbuf plain_refused;
};

/*
 * The launch a downgraded sandbox runs: swaps the plain argv and env in
 * (nothing when there are none). 0, or -1 with the reason in err.
 */
int agent_launch_unsandboxed(struct agent_launch *l, struct strbuf *err);

struct dispatch_target {
	struct target *t;	  /* not owned */
	struct strbuf prompt;	  /* the prompt text */
	struct agent_launch launch;
	struct workspace_source src; /* the clone, probed at planning */
	char *objects;		     /* the clone's objects dir (src.common) */
	struct workspace ws;	   /* the target's workspace (WS_REFS_FETCH) */
	struct strbuf refs_before; /* verify_refs_snapshot() at creation */
	struct agent_sandbox box;     /* the agent's sandbox (profiles) */
	struct strbuf sandbox_desc;   /* meta.yaml `sandbox:` */
	char *scratch;		      /* Landlock tmp/ and home/, or NULL */
	struct run_record rec;
	struct secret_table secrets; /* this target's (agent-secrets.h) */
	char agent[65];		  /* the session's agent name */
	bool have_ws;
};

struct dispatch_run {
	const char *home;
	struct rundir rd;
	struct dispatch_target *v;
	size_t nr;
	bool rebase_task;
	unsigned long long log_cap; /* bytes; 0: RUNDIR_LOG_CAP */
	/* progress hooks for the command (optional) */
	void (*on_start)(struct dispatch_run *run, size_t i);
	void (*on_finish)(struct dispatch_run *run, size_t i);
	void *data;
};

void agent_launch_init(struct agent_launch *l);
void agent_launch_release(struct agent_launch *l);

/* Pool callbacks; `data` is the struct dispatch_run. */
int dispatch_prepare(void *data, size_t i, struct pool_launch *l);
void dispatch_started(void *data, size_t i);
void dispatch_finished(void *data, size_t i, const struct pool_result *r);

/* The worst severity over all records: 0, 3 (escalations) or 2. */
int dispatch_exit_code(const struct dispatch_run *run);

void dispatch_target_release(struct dispatch_target *d);

#endif
