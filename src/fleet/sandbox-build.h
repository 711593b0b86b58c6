/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_SANDBOX_BUILD_H
#define AG_FLEET_SANDBOX_BUILD_H

/**
 * The one sandbox-request builder (PRODUCT.md §8): every setting of a
 * struct sandbox_request that agentic-git starts (sessions, dispatch,
 * `run --profile`, summarize through agent-sandbox.h; `sandbox run`
 * directly) is written here once: $HOME, the binds, the read-only dirs
 * of agentic-git and of the command's toolchain, the writable cache with
 * its tmp/ and home/, the environment, fs+api's proxy socket and net dir,
 * the workspace, and the probe, plan and fallback.
 *
 *   struct agent_sandbox as = AGENT_SANDBOX_INIT;
 *   struct sandbox_build_spec s = { .policy = …, .state = home, … };
 *   if (sandbox_build(&s, &as, &err) < 0) …bad input, nothing created…
 *   sandbox_build_plan(&as.rq, fallback, agent, &as.plan);
 *   sandbox_build_mkdirs(&as, &err);
 *
 * Security module. Invariants (tests: t0600, t0610-t0613, t0640, t0709,
 * t0860):
 *  1. $HOME in the request is the canonical path (symlinks resolved) of
 *     the caller's HOME, so the checks that keep the workspace and the
 *     cache out of it (agents/sandbox.h invariant 4) compare real
 *     paths; a sandboxed policy without HOME is refused (the cage could
 *     not hide it).
 *  2. What agentic-git needs inside is bound READ-ONLY by `guard` and
 *     nothing else of its home (agent-sandbox.h invariant 2).
 *  3. fs+api's socket and counts live in <state>/runtime/net (0700),
 *     never bound writable into a cage.
 *  4. The plan is the probe's (cached, sandbox-probe.h) through
 *     sandbox_plan(); only sandbox_fallback() turns a refusal into an
 *     unsandboxed run (agents/sandbox.h invariant 1).
 *  5. A guarded session's cage gets its own quarantine, writable: a
 *     fresh <state>/quarantine/<agent>/<stamp>-cage-<pid>/quarantine per
 *     launch (git/quarantine.h), named in the cage's environment, so what
 *     a `clean -x` inside moves out of the way outlives the cage, and the
 *     cage sees no other session's quarantine.
 *  6. What lies inside a directory a cage can write (the Landlock tmp/
 *     and home/, the preset's config dir, all in the cache or scratch
 *     dir) is made and opened from the parent's descriptor one component
 *     at a time, never through a symbolic link: a link or a non-directory
 *     planted there by an earlier cage is a refusal that names it, so
 *     the next cage's rules are never built through it (issue 32, W2).
 *
 * Ownership: a spec's pointers are borrowed for the call; the struct
 * agent_sandbox owns its copies, the request points into them.
 */
#include "base/common.h"
#include "agents/sandbox.h"
#include "base/strbuf.h"
#include "fleet/agent-sandbox.h"

/* What of agentic-git is bound read-only inside (invariant 2). */
enum sandbox_guard {
	SANDBOX_GUARD_BARE = 0, /* only the command (summarize) */
	SANDBOX_GUARD_TOOLS, /* agentic-git, the shim, real git (sandbox run) */
	SANDBOX_GUARD_SESSION, /* the command, the tools, <state>/bin, hooks,
				   runtime/<agent>, borrowed stores; the shim
				   over real git's standard paths (bwrap) */
};

struct sandbox_build_spec {
	enum sandbox_policy policy;
	enum sandbox_backend backend;
	const char *state; /* agentic-git's state root (events, runtime/) */
	const char *agent; /* the agent, or NULL */
	const char
		*sock_name; /* fs+api: <state>/runtime/net/<name>-<pid>.sock */
	const char *workspace; /* read-write, the child's cwd */
	const char *cache;     /* writable cache, or NULL: none */
	const char *scratch;   /* parent of the Landlock tmp/ and home/;
				  NULL: the cache */
	enum sandbox_guard guard;
	bool toolchain;		/* bind the command's toolchain (invariant 7) */
	bool with_hooks;	/* SESSION: bind <state>/hooks */
	bool net_stats;		/* fs+api: the proxy writes its counts */
	const char *real_git;	/* absolute, or NULL */
	const char *objects;	/* SESSION: objects dir the workspace borrows */
	const char *allow_hint; /* fs+api: where the allow-list is set */
	const char *const *ro_binds; /* the operator's or profile's */
	size_t ro_binds_nr;
	const char *const *allow_hosts; /* fs+api */
	size_t allow_hosts_nr;
	const char *const *argv; /* argv[0] absolute */
	size_t argc;
	const char *const *env; /* the child's exact environment */
	size_t env_nr;
};

/*
 * Fills `as` (AGENT_SANDBOX_INIT) and its request from `s`. 0, or -1
 * with a one-line reason in err (HOME unknown, no state root for fs+api).
 */
int sandbox_build(const struct sandbox_build_spec *s, struct agent_sandbox *as,
		  struct strbuf *err);

/* Points as->rq at as's current fields again (after a change of them). */
void sandbox_build_request(struct agent_sandbox *as);

/*
 * Probes (cached) for rq's backend, plans and, for a refusal, applies
 * the fallback. Returns the verdict (out->verdict).
 */
enum sandbox_verdict sandbox_build_plan(const struct sandbox_request *rq,
					enum sandbox_fallback fb,
					const char *agent,
					struct sandbox_plan *out);

/*
 * Creates fs+api's net dir (a stale counts file removed) and the cache,
 * tmp, private home and config dirs that are set, all 0700, the last
 * three as invariant 6 says. 0, or -1 with the reason in err.
 */
int sandbox_build_mkdirs(const struct agent_sandbox *as, struct strbuf *err);

#endif
