/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_AGENT_SANDBOX_H
#define AG_FLEET_AGENT_SANDBOX_H

/**
 * Wrapping an agent in the sandbox its profile asks for (PRODUCT.md §8):
 * the one place that turns "this profile's command, in this private
 * workspace, for this guarded session" into the exact argv/env/cwd to
 * execve, or a refusal. Used by `run --profile` (cmd/run-profile.c) and by
 * dispatch (fleet/dispatch.c), so both sandbox the same way.
 *
 *   struct agent_sandbox as = AGENT_SANDBOX_INIT;
 *   struct agent_sandbox_spec sp = { .home = …, .agent = …, … };
 *   if (agent_sandbox_plan(&sp, &as, &err) < 0)     // refused: err says why
 *           …nothing may be created…
 *   agent_sandbox_mkdirs(&as, &err);                // cache, tmp, home
 *   if (as.plan.downgraded) agent_sandbox_downgrade_record(&as, …);
 *   execve(as.plan.argv.v[0], as.plan.argv.v, as.plan.env.v) in as.plan.dir
 *   agent_sandbox_release(&as);
 *
 * Security module. Invariants (tests: t0450, t0640, t0709-t0711):
 *  1. The request MUST carry the profile's policy, the config's backend
 *     preference and fallback unchanged; a refusal is never turned into an
 *     unsandboxed run except by `sandbox_fallback: warn-run`, and then the
 *     plan is marked downgraded (agents/sandbox.h invariant 1).
 *  2. What the guarded session needs inside the cage is bound READ-ONLY
 *     and nothing else of agentic-git's home: the agent's argv[0], this
 *     executable, the shim executable, the real git, <home>/bin,
 *     <home>/hooks (`with_hooks`: sessions and dispatch),
 *     <home>/runtime/<agent> (the binding, its sandbox signature and the
 *     session's own sandbox key), and the object stores the workspace
 *     borrows. The fleet's integrity key is
 *     never bound: agent_sandbox_mkdirs() issues the session's sandbox key
 *     (ag_sandbox_key_issue) that the shim inside verifies with.
 *  3. The writable places are the workspace and the per-agent cache (with
 *     its tmp/ and home/ for Landlock); nothing else.
 *  4. A command run later "in the same sandbox" (verify_command) gets the
 *     same request (policy, backend, binds, workspace) with only argv and
 *     env replaced, and the same verdict: wrapped by the same backend, or
 *     plain only when the agent itself was downgraded.
 *  5. Recorded argv never carries environment values: the value of every
 *     `--setenv NAME VALUE` of the wrapper is replaced by "<redacted>".
 *  6. The shim inside cannot reach the audit log: a sandboxed agent's env
 *     names a spool (EVENTS_SPOOL_ENV) in its writable cache dir, one per
 *     agent when the cache is shared (`scratch` set), imported after exit.
 *  7. The agent's toolchain is bound READ-ONLY without being configured:
 *     the npm prefix its resolved binary lies in (its `node_modules`
 *     dir), or the resolved binary itself, and the install prefix of the
 *     interpreter its `#!` line names (node), unless under a system dir.
 *  9. fs+api: the proxy's socket and its counts live in <home>/runtime/net
 *     (0700, never bound writable into a cage); the allow-list is the
 *     profile's `allow_hosts` (a preset's vendor hosts unless replaced).
 * 10. Secrets (PRODUCT.md §7): a wrapped fs+api launch has each
 *     secret's placeholder in its environment and the values in a
 *     sealed memfd for the proxy (`secrets_fd`, made by
 *     agent_sandbox_mkdirs(), passed as descriptor 3, closed by
 *     release); any other launch (fs-only, fs+no-net, none, a warn-run
 *     downgrade) has the values themselves, exposed as before.
 *  8. A preset's own config dir (`config_env`, e.g. CLAUDE_CONFIG_DIR)
 *     is <cache>/<config_dir> inside a sandbox, so it persists per agent;
 *     the operator's value would name a place the cage hides.
 *
 * Ownership: every pointer in a spec is borrowed for the duration of
 * agent_sandbox_plan(); the struct agent_sandbox owns its copies (the
 * request points into them) and is freed by agent_sandbox_release().
 * Functions return 0 or -1 with a one-line reason in `err`.
 */
#include "base/common.h"
#include "agents/config.h"
#include "agents/sandbox.h"
#include "base/strbuf.h"
#include "base/strvec.h"

struct agent_sandbox_spec {
	const char *home;  /* agentic-git's state root, absolute */
	const char *agent; /* the session's agent name */
	const struct agent_profile *profile; /* policy, ro_binds, cache_dir */
	enum sandbox_backend backend;	     /* the config's sandbox_backend */
	enum sandbox_fallback fallback;	     /* the config's sandbox_fallback */
	const char *workspace;	/* the private workspace (the child's cwd) */
	const char *objects;	/* objects dir the workspace borrows, or NULL */
	const char *real_git;	/* absolute, or NULL */
	bool with_hooks;	/* bind <home>/hooks (sessions install them) */
	bool bare;		/* no guarded session inside (summarize): of
				   agentic-git's, only argv[0] is bound */
	const char *cache_name; /* <home>/cache/<cache_name> unless the profile
				   sets cache_dir; NULL: the agent name */
	const char *scratch;	/* parent of the Landlock private tmp/ and
				   home/; NULL: the cache dir */
	const char *const *argv; /* the command; argv[0] absolute */
	size_t argc;
	const char *const *env; /* the child's exact environment */
	size_t env_nr;
	/*
	 * Invariant 10: the launch's secrets (fleet/agent-secrets.h), or
	 * NULL; borrowed until agent_sandbox_release(). And the config's
	 * tls_ca_file.
	 */
	const struct secret_table *secrets;
	const char *tls_ca_file;
};

struct agent_sandbox {
	struct sandbox_request rq; /* points into the fields below */
	struct sandbox_plan plan;
	struct strvec argv, env, extra_ro, ro_binds;
	struct strvec masks; /* where the cage would show the home
				(fleet/sandbox-home.h) */
	enum sandbox_fallback fallback;
	char *workspace, *cache, *tmp, *private_home, *home, *agent;
	char *quarantine; /* the session's own, bound writable (git/quarantine.h
			     QUARANTINE_ENV), or NULL */
	char *user_home;  /* the canonical $HOME (sandbox-build.h) */
	char *spool; /* the in-sandbox shim's event spool (fleet/spool.h) */
	char *config_dir; /* invariant 8, or NULL */
	char *net_dir, *proxy_sock, *net_stats, *allow_hint; /* invariant 9 */
	struct strvec allow_hosts; /* the profile's, copied */
	bool sandboxed; /* plan.verdict == SANDBOX_WRAPPED */
	bool session;	/* a guarded session inside (not `bare`) */
	bool own_roots; /* unwrapped, the agent's own sandbox writes the
			   spool (fleet/agent-roots.h) */
	char *real_git;	/* bwrap: bound at SANDBOX_REAL_GIT, or NULL */
	struct strvec git_paths; /* bwrap: the shim is bound over these */
	/* invariant 10 */
	const struct secret_table *secrets; /* borrowed from the spec */
	bool inject;	/* placeholders inside, the proxy puts values in */
	int secrets_fd; /* the proxy's descriptor 3 (owned), or -1 */
	char *ca_bundle, *tls_ca_file;
	const char *const *ca_env; /* the preset's, static */
};

#define AGENT_SANDBOX_INIT                                         \
	{                                                          \
		.plan = SANDBOX_PLAN_INIT, .argv = STRVEC_INIT,    \
		.env = STRVEC_INIT, .extra_ro = STRVEC_INIT,       \
		.ro_binds = STRVEC_INIT, .git_paths = STRVEC_INIT, \
		.masks = STRVEC_INIT, .allow_hosts = STRVEC_INIT,  \
		.secrets_fd = -1                                   \
	}

/*
 * Probes the host (cached) and plans the launch. 0: wrapped, plain (policy
 * none) or downgraded by warn-run (as->plan says which); -1: refused, with
 * "profile 'P' requires sandbox 'S': <why>" and the ways out in err.
 */
int agent_sandbox_plan(const struct agent_sandbox_spec *spec,
		       struct agent_sandbox *as, struct strbuf *err);

/*
 * Creates the cache, tmp and private home dirs and the empty event spool
 * of a wrapped plan.
 */
int agent_sandbox_mkdirs(struct agent_sandbox *as, struct strbuf *err);

/*
 * After the agent exited: imports the spool its shim wrote inside the
 * sandbox into the audit log (fleet/spool.h, vetted, attributed to the
 * agent), warning about what could not be imported; under fs+api it
 * also removes the proxy's socket, which a killed proxy leaves behind.
 */
void agent_sandbox_import_spool(const struct agent_sandbox *as);

/*
 * Invariant 4: plans argv (argv[0] absolute, bound read-only) with env in
 * the same sandbox as the agent. 0, or -1 with the reason in err.
 */
int agent_sandbox_rewrap(const struct agent_sandbox *as,
			 const char *const *argv, const char *const *env,
			 size_t env_nr, struct sandbox_plan *out,
			 struct strbuf *err);

/*
 * A downgraded plan: prints the warning on stderr and appends the durable
 * `sandbox_downgraded` event for `subcommand` to the audit log.
 */
void agent_sandbox_downgrade_record(const struct agent_sandbox *as,
				    const char *subcommand);

/*
 * fs+api: reads the proxy's counts after the agent exited into `allowed`,
 * `denied` and `denied_hosts` ("host:port"). 0, or -1 when there are none
 * (not fs+api, or the proxy wrote nothing).
 */
int agent_sandbox_net_stats(const struct agent_sandbox *as,
			    unsigned long *allowed, unsigned long *denied,
			    struct strvec *denied_hosts);

/* "fs+no-net (bwrap)", "fs-only (landlock)", "none", "none (warn-run)". */
void agent_sandbox_describe(const struct agent_sandbox *as, struct strbuf *out);

/* Invariant 5: plan.argv with the wrapper's --setenv values redacted. */
void agent_sandbox_redacted_argv(const struct agent_sandbox *as,
				 struct strvec *out);

void agent_sandbox_release(struct agent_sandbox *as);

/*
 * Invariant 7, pure: appends to `out` the read-only dirs of an agent's
 * toolchain from the resolved path of its binary `real_bin` and of the
 * interpreter its `#!` line names, `real_interp` (NULL: none): the first
 * "node_modules" dir on `real_bin`'s path ("/p/node_modules" for
 * "/p/node_modules/@openai/codex/bin/codex.js": sibling packages such as a
 * platform binary load from there), else `real_bin` itself; and the
 * interpreter's install prefix ("/srv/node" for "/srv/node/bin/node"),
 * else its dir. Paths under the system dirs (always bound) are left out.
 */
void agent_toolchain_dirs(const char *real_bin, const char *real_interp,
			  struct strvec *out);

/*
 * True for an environment entry an agent must not inherit from the
 * operator: credentials and askpass/ssh helpers, git's redirection
 * variables, our own names (bypass, agent, home), PATH (set by the caller).
 */
bool agent_env_dropped(const char *e);

/*
 * Appends to `out` an agent's environment before the caller's own names:
 * ours (when `inherit`) and then the profile's `extra` K=V entries, both
 * without what agent_env_dropped() drops. The caller adds PATH.
 */
void agent_env_filtered(bool inherit, const struct strvec *extra,
			struct strvec *out);

#endif
