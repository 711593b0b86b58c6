/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_AGENT_SECRETS_H
#define AG_FLEET_AGENT_SECRETS_H

/**
 * A launch's secrets (PRODUCT.md §7): the values of a profile's
 * `secrets:` read outside the cage, once per session or dispatch target,
 * with a placeholder each (agents/secrets.h). agent-sandbox.h puts the
 * placeholders (fs+api) or the values (any other policy) in the agent's
 * environment and hands the values to the proxy.
 *
 *   struct secret_context ctx = { .repo = …, .head = …, … };
 *   struct secret_table t = SECRET_TABLE_INIT;
 *   if (agent_secrets_resolve(profile, &ctx, &t, &err) < 0)
 *           …one line naming the profile and the secret; launch nothing…
 *   … agent_sandbox_spec.secrets = &t …
 *   secret_table_wipe(&t);
 *
 * Security module. Invariants (tests: t0617, t0618):
 *  1. A value is read only here, outside the cage: the operator's
 *     variable (`from: env`), a file (`from: file:PATH`, O_NOFOLLOW,
 *     bounded, trimmed), or a command's standard output (argv, no shell,
 *     {repo} {head} {base} {key} substituted one element each, the safe
 *     base environment plus the target's AGENTIC_GIT_TARGET_*, at most
 *     SECRET_COMMAND_WAIT seconds, trimmed).
 *  2. No error message holds a value: a failure says which secret, which
 *     source and why (unset, unreadable, exit status, empty, timeout).
 *  3. A preset's rule (optional) whose variable is not set is skipped; a
 *     configured rule that yields nothing is an error.
 *  4. Every placeholder is fresh (16 random bytes from the system).
 */
#include "base/common.h"
#include "agents/config.h"
#include "agents/secrets.h"
#include "base/strbuf.h"

#define SECRET_COMMAND_WAIT 30 /* seconds */

struct secret_context {
	const char *repo, *head, *base, *key; /* NULL: "" */
	const char *const *target_env; /* AGENTIC_GIT_TARGET_*=…, or NULL */
	const char *const *parent_env; /* the operator's; NULL: environ */
};

/*
 * Resolves every rule of `p` into `out` (SECRET_TABLE_INIT). 0, or -1
 * with "profile 'P': secret 'N': <why>" in err; `out` is then wiped.
 */
int agent_secrets_resolve(const struct agent_profile *p,
			  const struct secret_context *ctx,
			  struct secret_table *out, struct strbuf *err);

/*
 * The hosts a preset's rule injects into: its own, plus the host of the
 * URL in its `base_url_env` when the operator set it (pure). `env` NULL:
 * environ.
 */
void agent_secret_hosts(const struct secret_rule *r, const char *const *env,
			struct strvec *out);

/*
 * A sealed memfd holding the encoded table, at a descriptor >= 10,
 * close-on-exec (the launcher moves it to 3 in the proxy's process), or
 * -1 with errno. The encoded copy is wiped.
 */
int agent_secrets_fd(const struct secret_table *t);

#endif
