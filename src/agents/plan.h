/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_AGENTS_PLAN_H
#define AG_AGENTS_PLAN_H

/**
 * The invocation planner: the one code path that turns (profile, prompt,
 * input text, model override, working directory, timeout override) into
 * exactly what gets executed (seed §2 plan()). It is pure: it never spawns,
 * reads no files and prints nothing; callers run the plan with base/spawn.h
 * (agent_plan_to_child() fills a struct child) and audit it with
 * agent_plan_redact_argv() and agent_plan_env_keys().
 *
 *   struct plan_request rq = PLAN_REQUEST_INIT;
 *   rq.profile = p; rq.prompt = text; rq.model = cli_model;
 *   struct agent_plan plan = AGENT_PLAN_INIT;
 *   if (agent_plan_build(&rq, &plan, &err) < 0) ...
 *   struct child c = CHILD_INIT;
 *   agent_plan_to_child(&plan, &c);  ... child_run(&c) ...
 *   agent_plan_release(&plan);
 *
 * Security invariants (tests cite the numbers):
 *  1. No shell, ever: the result is an argv vector. {prompt}, {model} and
 *     {agent_sandbox} are substituted as plain text inside the one token
 *     that holds them, so each always stays exactly ONE argv element,
 *     whatever it contains (spaces, quotes, ;, $(), backticks, newlines,
 *     leading dashes, or "{prompt}" itself, which is never re-expanded).
 *  2. argv[0] MUST be the profile's pinned absolute path; an unpinned
 *     profile is refused, so nothing is ever looked up in PATH at spawn.
 *  3. With an env allowlist, the child environment MUST be exactly the safe
 *     base (agent_env_safe_base) plus the allowlist, only names present in
 *     the parent, values verbatim. Nothing else passes (no GH_TOKEN,
 *     SSH_AUTH_SOCK, AWS_* unless listed).
 *  4. model_args appear only when a model is in effect (--model, else the
 *     profile's model).
 *  5. A prompt on stdin is never also in argv; the stdin bytes are exactly
 *     the prompt, or prompt + "\n\n" + input.
 *  6. A preset's `sandboxed_env` is in the child's environment only when
 *     our sandbox wraps it; as root and unwrapped, a command holding the
 *     preset's `root_refused_flag` is refused unless the operator passes
 *     that variable in themselves (the agent would refuse it anyway).
 *  7. A preset's `endpoint_env`, when it reaches the agent, is also given
 *     as `-c endpoint_config="VALUE"` (one element, appended), refused
 *     when VALUE holds a quote, a backslash or a control character (it is
 *     read as a TOML string).
 *  8. A preset's `api_env` is in the child's environment only when the
 *     profile's sandbox is fs+api and our sandbox wraps it.
 *  9. Writable roots given to an agent's own sandbox are absolute paths
 *     written as plain TOML strings or refused whole
 *     (agent_writable_roots_arg()).
 *
 * Ownership: the plan owns every string in it; the request's pointers are
 * borrowed and not kept.
 */
#include "base/common.h"
#include "agents/config.h"
#include "base/strbuf.h"
#include "base/strvec.h"

#define PLAN_DEFAULT_TIMEOUT 1800.0 /* seconds, as the reference */

struct plan_request {
	const struct agent_profile *profile; /* required */
	const char *prompt;		     /* required, may be "" */
	const char *input;		     /* extra stdin text, or NULL */
	const char *model;		     /* override, or NULL */
	const char *cwd;		     /* working directory, or NULL */
	double timeout;			     /* override in s, 0: profile's */
	bool sandboxed;	/* our sandbox wrapper will be in effect */
	bool as_root;	/* the agent will run with uid 0 (invariant 6) */
	const char *const *parent_env; /* env to scope; NULL: environ */
	/*
	 * "K=V" entries added on top of the scoped (or inherited) environment,
	 * replacing same-named variables: session variables, the shim's PATH,
	 * AGENTIC_GIT_TARGET_*, a scoped token. NULL-terminated, or NULL.
	 */
	const char *const *extra_env;
};

#define PLAN_REQUEST_INIT { 0 }

struct agent_plan {
	char *profile;		/* profile name */
	struct strvec argv;	/* argv[0] absolute */
	bool use_stdin;		/* stdin is a pipe fed with stdin_data */
	struct strbuf stdin_data;
	bool inherit_env;	/* the child inherits the whole environment */
	struct strvec env;	/* exact "K=V" list when !inherit_env */
	struct strvec env_extra; /* the request's extra_env (both modes) */
	double timeout;		/* seconds, > 0 */
	enum sandbox_policy sandbox;
	char *model;		/* the model in effect, or NULL */
	char *cwd;		/* or NULL */
	size_t prompt_len;	/* for redaction messages */
};

#define AGENT_PLAN_INIT                                                       \
	{ .argv = STRVEC_INIT, .stdin_data = STRBUF_INIT, .env = STRVEC_INIT,  \
	  .env_extra = STRVEC_INIT }

/* PATH HOME USER LOGNAME SHELL TERM TMPDIR LANG LANGUAGE LC_ALL LC_CTYPE TZ */
extern const char *const agent_env_safe_base[];

/*
 * Returns 0, or -1 with a one-line reason in `err` (no prefix); either way
 * `out` must be released.
 */
int agent_plan_build(const struct plan_request *rq, struct agent_plan *out,
		     struct strbuf *err);
void agent_plan_release(struct agent_plan *plan);

/*
 * Appends to `out` "K=V" for each name in the safe base, then each name in
 * `allow`, that is set in `parent` (NULL: environ), without duplicates, in
 * that order.
 */
void agent_env_scope(const char *const *parent, const struct strvec *allow,
		     struct strvec *out);

/*
 * Copies `argv` to `out` replacing every occurrence of `prompt` (as a
 * substring, when non-empty) by "<prompt:N chars>" (N = strlen(prompt)),
 * for audit logs.
 */
void agent_redact_argv(const struct strvec *argv, const char *prompt,
		       struct strvec *out);
/* The plan's argv, redacted with the prompt it was built from. */
void agent_plan_redact_argv(const struct agent_plan *plan, const char *prompt,
			    struct strvec *out);
/* Sorted variable names of the plan's env; when inheriting, only the
 * extra_env names (the audit records "inherit" separately). */
void agent_plan_env_keys(const struct agent_plan *plan, struct strvec *out);

/*
 * Pure: `KEY=["R1","R2",…]` in `out` for a preset's own sandbox that takes
 * extra writable roots in config KEY (`writable_roots_config`, codex), the
 * value of one `-c` (invariant 9). `roots` are absolute paths,
 * NULL-terminated. Returns 0; 1 when there is nothing to add (no preset,
 * no such key, no roots); -1 with the reason in `err` when a root is not
 * absolute or cannot be a plain TOML string (quote, backslash, control
 * character), so a path can never inject config.
 */
int agent_writable_roots_arg(const struct agent_preset *pr,
			     const char *const *roots, struct strbuf *out,
			     struct strbuf *err);

struct child;
/*
 * Fills a CHILD_INIT child from the plan: args, the exact environment (an
 * empty scoped env really is empty), cwd, stdin bytes, new process group.
 * `c` borrows the plan's cwd and stdin buffer: keep the plan alive until the
 * child is finished.
 */
void agent_plan_to_child(const struct agent_plan *plan, struct child *c);

#endif
