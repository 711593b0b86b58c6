/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_ENVVAR_H
#define AG_ENVVAR_H

/**
 * The AGENTIC_GIT_* environment contract (reference §2.1): the primary name
 * wins when it is set (even to ""), the legacy AGEND_* name is used only when
 * the primary is unset. Returned strings point into the environment and are
 * not owned by the caller.
 */
#include "base/common.h"

enum ag_env {
	AGE_HOME,
	AGE_AGENT,
	AGE_REAL_GIT,
	AGE_BYPASS,
	AGE_BYPASS_AGENT,
	AGE_BYPASS_UNTIL,
	AGE_SHIM_DEPTH,
	AGE_ALLOW_CANONICAL_MUTATE,
	AGE_SNAPSHOTS,
	AGE__COUNT
};

const char *ag_env_primary(enum ag_env e);
const char *ag_env_legacy(enum ag_env e);
/* Value or NULL when both names are unset. */
const char *ag_getenv(enum ag_env e);
/* Value, or "" when unset. */
const char *ag_getenv_str(enum ag_env e);

/*
 * The state root every command uses: $AGENTIC_GIT_HOME (legacy
 * $AGEND_HOME), else $HOME/.agentic-git; made absolute against the cwd
 * and normalised. Malloc'd, or NULL when neither is usable. Nothing is
 * created.
 */
char *ag_home_dir(void);

/*
 * The bypass variables as the original contract reads them (PRODUCT.md §4):
 * AGENTIC_GIT_BYPASS exactly "1", AGENTIC_GIT_BYPASS_AGENT equal to
 * `agent`, or AGENTIC_GIT_BYPASS_UNTIL a future Unix time (legacy names as
 * fallbacks). True with `layer` set to "env", "agent" or "until". Whether
 * the bypass then counts is the binding's to say.
 */
bool ag_bypass_requested(const char *agent, const char **layer);

/* True when the value, trimmed, is exactly "1". */
bool ag_env_is_one(const char *v);

/*
 * Parses a non-negative decimal integer with no sign, no spaces and no
 * trailing garbage, at most `max`. Returns 0 or -1.
 */
int parse_ulong(const char *s, unsigned long max, unsigned long *out);

#endif
