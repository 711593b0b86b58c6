/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SANDBOX_H
#define AG_SANDBOX_H

/**
 * Sandbox planning (PRODUCT.md §8): turns a profile's sandbox policy, the
 * host's capabilities and the launch (workspace, binds, exact environment,
 * command) into the exact argv/env/cwd to execve, or a refusal.
 *
 *   struct sandbox_caps caps;  sandbox_probe(&caps);  // sandbox-probe.h
 *   struct sandbox_request rq = SANDBOX_REQUEST_INIT;
 *   rq.policy = SANDBOX_FS_NO_NET; rq.workspace = ws; rq.home = home; …
 *   struct sandbox_plan p = SANDBOX_PLAN_INIT;
 *   if (sandbox_plan(&rq, &caps, &p) == SANDBOX_REFUSED &&
 *       sandbox_fallback(&rq, SANDBOX_FALLBACK_WARN_RUN, &p) == …)
 *   execve(p.argv.v[0], p.argv.v, p.env.v) in p.dir …
 *   sandbox_plan_release(&p);
 *
 * sandbox_plan() and sandbox_fallback() are pure: no I/O, no exit, no
 * printing; everything they need about the host is in struct sandbox_caps.
 * All pointers in a request are borrowed for the duration of the call; a
 * plan owns everything it holds and is freed with sandbox_plan_release().
 *
 * Invariants (tests cite the numbers):
 *  1. A policy other than none MUST NOT yield an unwrapped plan: either the
 *     chosen backend wraps the command or the verdict is SANDBOX_REFUSED.
 *     Only sandbox_fallback() with WARN_RUN turns a refusal into an
 *     unsandboxed run, and it MUST mark the plan downgraded + attention and
 *     carry the warning text.
 *  2. The child's environment MUST be exactly rq.env, except TMPDIR (bwrap
 *     drops it: /tmp is private; Landlock points it at rq->tmp_dir) and,
 *     for Landlock, HOME (rq->private_home when given, since Landlock
 *     cannot put an empty tmpfs over the real one). bwrap gets --clearenv
 *     and one --setenv per entry; the Landlock helper is execve'd with the
 *     env and passes it on.
 *  3. Paths MUST be absolute and normalised (no "." / ".." components, no
 *     "//", no trailing "/"), else refusal: a bind never means something
 *     other than what it says.
 *  4. The workspace MUST NOT be "/", $HOME, or a parent of $HOME (that would
 *     bind the operator's home read-write).
 *  5. Nothing outside the workspace, the cache dir, the session's own
 *     quarantine and the private tmp dir is writable; ro binds are
 *     mounted read-only; $HOME and /tmp are empty.
 *  6. bwrap is the pinned binary from the probe, never a PATH lookup.
 *  7. The command's argv[0] MUST be absolute (resolved by the caller).
 *  8. fs+api (bwrap only): the cage gets a network namespace of its own
 *     (loopback only); the one way out is rq->proxy_sock, bound read-only
 *     at SANDBOX_PROXY_SOCK, served by `agentic-git sandbox proxy`, which
 *     wraps bwrap outside the cage with the allow-list. Inside,
 *     `agentic-git sandbox relay` listens on 127.0.0.1:SANDBOX_PROXY_PORT
 *     and hands that listener to the proxy (agents/netlistener.h) before
 *     it execs the command, and the child's environment names it
 *     in HTTPS_PROXY, HTTP_PROXY, ALL_PROXY (and lowercase), NO_PROXY
 *     empty. Landlock knows ports, not addresses: fs+api with it is a
 *     refusal about the host (sandbox_fallback applies).
 *  10. fs+api with secrets: the proxy gets `--secrets-fd 3 --ca-bundle
 *     PATH`, and the cage the bundle at SANDBOX_CA_BUNDLE, named in
 *     SSL_CERT_FILE, CURL_CA_BUNDLE, NODE_EXTRA_CA_CERTS,
 *     REQUESTS_CA_BUNDLE and each of rq->ca_env; never the CA's key.
 *  11. Nothing in rq->masks is visible inside: bwrap puts an empty tmpfs
 *     over each (the binds below it on top); a Landlock plan with any
 *     mask is refused as bad input (never downgraded), naming it and
 *     the ways out (issue 32, W3/W11).
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/spawn.h" /* strvec_pushl */
#include "base/strvec.h"

struct event;

enum sandbox_policy {
	SANDBOX_NONE = 0,
	SANDBOX_FS_ONLY,
	SANDBOX_FS_NO_NET,
	SANDBOX_FS_API, /* fs-only's cage, network only through our proxy */
};

enum sandbox_backend {
	SANDBOX_BACKEND_AUTO = 0,
	SANDBOX_BACKEND_BWRAP,
	SANDBOX_BACKEND_LANDLOCK,
	SANDBOX_BACKEND_NONE, /* in a plan: nothing wraps the command */
};

enum sandbox_fallback {
	SANDBOX_FALLBACK_REFUSE = 0,
	SANDBOX_FALLBACK_WARN_RUN,
};

/* The system directories considered for read-only exposure, in order. */
#define SANDBOX_SYS_DIRS                                                       \
	{ "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",     \
	  "/etc", "/opt" }
#define SANDBOX_SYS_DIRS_NR 9

enum sandbox_sysdir_kind {
	SYSDIR_ABSENT = 0,
	SYSDIR_DIR,
	SYSDIR_SYMLINK, /* sys_link[i] holds the link's target */
};

/* What the host can do; filled by sandbox_probe() (or by tests). */
struct sandbox_caps {
	char bwrap_path[256];	/* pinned absolute path, "" when not found */
	bool bwrap_works;	/* `bwrap --unshare-all --ro-bind / / true` ran */
	bool userns;		/* a user namespace could be created */
	int landlock_abi;	/* 0 when Landlock is unavailable */
	bool seccomp;		/* seccomp filters can be installed */
	char bwrap_why[160];	/* why bwrap does not work, for messages */
	char landlock_why[160]; /* why Landlock is unavailable */
	enum sandbox_sysdir_kind sys_kind[SANDBOX_SYS_DIRS_NR];
	char sys_link[SANDBOX_SYS_DIRS_NR][64];
};

struct sandbox_request {
	enum sandbox_policy policy;
	enum sandbox_backend backend; /* preference: auto, bwrap, landlock */
	const char *workspace;	/* read-write, the child's cwd (required) */
	const char *home;	/* $HOME, hidden (required unless policy none) */
	const char *cache_dir;	/* per-agent writable cache, or NULL */
	/* the session's own quarantine, writable (git/quarantine.h
	 * QUARANTINE_ENV names it in env), or NULL */
	const char *quarantine_dir;
	const char *tmp_dir;	/* Landlock: private TMPDIR, or NULL */
	const char *private_home; /* Landlock: HOME inside, or NULL */
	const char *self_exe;	/* agentic-git, for the Landlock helper */
	const char *const *ro_binds; /* the profile's toolchain binds */
	size_t ro_binds_nr;
	const char *const *extra_ro; /* agentic-git, binding dir, real git,
					borrowed object stores … */
	size_t extra_ro_nr;
	const char *const *env; /* the child's exact environment, "K=V" */
	size_t env_nr;
	/*
	 * Invariant 11: paths inside the cage where a bind would show
	 * agentic-git's home (fleet/sandbox-home.h). bwrap mounts an empty
	 * tmpfs over each, after the binds that show it and before those
	 * below it; Landlock cannot hide a part of a tree it grants, so a
	 * Landlock plan with any is refused.
	 */
	const char *const *masks;
	size_t masks_nr;
	/*
	 * bwrap only: the shim bound over each of `git_paths` (the standard
	 * places real git lives on this host), real git itself at
	 * SANDBOX_REAL_GIT and AGENTIC_GIT_REAL_GIT pointed there, so a login
	 * shell that resets PATH, or an absolute /usr/bin/git, still meets
	 * the shim (PRODUCT.md §8). NULL / 0: no override.
	 */
	const char *git_shim;
	const char *git_real;
	const char *const *git_paths;
	size_t git_paths_nr;
	const char *const *argv; /* the command; argv[0] absolute */
	size_t argc;
	/* fs+api (invariant 8) */
	const char *proxy_sock;		/* the proxy's unix socket outside */
	const char *const *allow_hosts; /* allowhosts.h entries */
	size_t allow_hosts_nr;
	const char *events_home; /* where net_allow/net_deny go, or NULL */
	const char *agent;	 /* the events' agent, or NULL */
	const char *allow_hint;	 /* "agents.NAME.allow_hosts", or NULL */
	const char *net_stats;	 /* the proxy writes its counts here, or NULL */
	const char *proxy_exe;	 /* agentic-git-proxy, absolute */
	/*
	 * Invariant 10: the launcher passes the secrets to the proxy as
	 * descriptor 3; the proxy writes its CA bundle at `ca_bundle`, bound
	 * read-only at SANDBOX_CA_BUNDLE and named in the runtimes' CA
	 * variables and `ca_env` (NULL-terminated, or NULL).
	 */
	bool secrets;
	const char *ca_bundle;
	const char *tls_ca_file; /* the proxy's extra trusted CAs, or NULL */
	const char *const *ca_env;
};

#define SANDBOX_REQUEST_INIT { 0 }
#define SANDBOX_PROXY_SOCK "/run/agentic-git/proxy.sock"
#define SANDBOX_PROXY_PORT 3128
#define SANDBOX_REAL_GIT "/run/agentic-git/git"
#define SANDBOX_CA_BUNDLE "/run/agentic-git/ca.pem"

enum sandbox_verdict {
	SANDBOX_RUN_PLAIN = 0, /* policy none, or downgraded by warn-run */
	SANDBOX_WRAPPED,
	SANDBOX_REFUSED,
};

struct sandbox_plan {
	enum sandbox_verdict verdict;
	enum sandbox_backend backend; /* the backend used (NONE if plain) */
	int landlock_abi;	      /* the ABI the helper will use */
	struct strvec argv;	      /* full argv for execve */
	size_t prefix_nr;	      /* leading wrapper elements in argv */
	struct strvec env;	      /* environment for execve */
	char *dir;		      /* cwd for execve (owned) */
	struct strbuf reason;	      /* refusal reason, lowercase, no dot */
	bool bad_input;		      /* refused for the request, not the host */
	bool downgraded;	      /* warn-run ran it unsandboxed */
	bool attention;		      /* caller must exit with attention */
	struct strbuf warning;	      /* the durable warning (downgraded) */
};

#define SANDBOX_PLAN_INIT                                                      \
	{ .argv = STRVEC_INIT, .env = STRVEC_INIT, .reason = STRBUF_INIT,      \
	  .warning = STRBUF_INIT }

/* Name <-> enum. Parsers return 0 or -1 (unknown name, nothing set). */
int sandbox_policy_parse(const char *s, enum sandbox_policy *out);
const char *sandbox_policy_name(enum sandbox_policy p);
int sandbox_backend_parse(const char *s, enum sandbox_backend *out);
const char *sandbox_backend_name(enum sandbox_backend b);
int sandbox_fallback_parse(const char *s, enum sandbox_fallback *out);
const char *sandbox_fallback_name(enum sandbox_fallback f);

/*
 * Plans the launch. Returns the verdict (also stored in plan->verdict).
 * A refusal leaves argv/env empty and explains itself in plan->reason.
 */
enum sandbox_verdict sandbox_plan(const struct sandbox_request *rq,
				  const struct sandbox_caps *caps,
				  struct sandbox_plan *plan);

/*
 * The caller's fallback decision for a refused plan. REFUSE leaves the
 * refusal as it is. WARN_RUN rewrites the plan into a plain run of rq->argv
 * with rq->env in rq->workspace, sets downgraded and attention and writes
 * the warning ("agent '<agent>' ran UNSANDBOXED: …"). A refusal that is
 * not about the host (bad input) is never downgraded. Returns the verdict.
 */
enum sandbox_verdict sandbox_fallback(const struct sandbox_request *rq,
				      enum sandbox_fallback fb,
				      const char *agent,
				      struct sandbox_plan *plan);

/*
 * Fills the fields of a `sandbox_downgraded` event for a downgraded plan
 * (requested policy and backend, reason, fallback). The caller creates the
 * event with EVENT_INIT("sandbox_downgraded", agent, subcommand), calls
 * this and event_write()s it.
 */
void sandbox_downgrade_event(const struct sandbox_request *rq,
			     const struct sandbox_plan *plan,
			     struct event *ev);

void sandbox_plan_release(struct sandbox_plan *plan);

/* Internal, shared by the backends (sandbox.c). */
bool sandbox_path_ok(const char *p);
enum sandbox_bind_kind { BIND_RO, BIND_RW };
struct sandbox_bind {
	const char *path; /* borrowed from the request */
	enum sandbox_bind_kind kind;
};
/*
 * The request's binds (extra_ro, ro_binds, cache rw, workspace rw, and for
 * Landlock the tmp dir), deduplicated (rw wins over ro for the same path)
 * and sorted parents first, so a nested bind is mounted on top. Returns
 * the count; *out is owned by the caller (free()).
 */
size_t sandbox_collect_binds(const struct sandbox_request *rq, bool with_tmp,
			     struct sandbox_bind **out);
/*
 * Copies rq->env to out, dropping TMPDIR (and HOME when home is set), then
 * adds TMPDIR=tmp and HOME=home for those that are set.
 */
void sandbox_child_env(const struct sandbox_request *rq, const char *tmp,
		       const char *home, struct strvec *out);

#endif
