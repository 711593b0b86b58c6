/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_GIT_CONFIG_ENV_H
#define AG_GIT_CONFIG_ENV_H

/**
 * Config that git reads from the environment (PRODUCT.md §4): the policy
 * judges it exactly like `-c` (issue 18, "config from the environment").
 *
 * config_env_read() collects every `key=value` git would take from
 * GIT_CONFIG_PARAMETERS (git's own sq-quoted list, as git itself exports it
 * to its children for a parent's `-c`) and GIT_CONFIG_COUNT with
 * GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n>, each with the name of the
 * variable it came from, and the first of GIT_CONFIG, GIT_CONFIG_GLOBAL,
 * GIT_CONFIG_SYSTEM that names a file other than /dev/null (a whole config
 * file the policy cannot see).
 *
 * Invariants:
 *  1. What git would fail on, or what we cannot read exactly (bad quoting,
 *     a count that is not a number or over CONFIG_ENV_MAX, a missing
 *     KEY_<n>), sets `error`: the policy denies (fail-closed).
 *  2. `getenv` is the only input (a function pointer, so tests give their
 *     own); nothing else is read.
 *
 * The struct owns its strings (config_env_release()).
 */
#include "base/common.h"
#include "base/strvec.h"

#define CONFIG_ENV_MAX 1000

struct config_env {
	struct strvec kv;   /* "key=value" (or "key"), git's order */
	struct strvec from; /* the variable each came from, same index */
	const char *file_var; /* GIT_CONFIG* naming a file, or NULL */
	const char *error;    /* why the environment cannot be judged */
};

void config_env_read(struct config_env *ce, const char *(*get)(const char *));
void config_env_release(struct config_env *ce);

/*
 * Whether entry i of ce is one the shim drops instead of judging:
 * core.hooksPath set to "" or /dev/null through GIT_CONFIG_KEY_<n>/
 * VALUE_<n>. Agents' tool shells put it in every command's environment
 * (Gemini CLI 0.61.0) so that no repository hook runs; in a session the
 * hooks are agentic-git's own, so the shim removes the entry and the
 * session's hooks run — the agent's aim (no repository hook) still holds.
 * In GIT_CONFIG_PARAMETERS (git's own export of `-c`) it is not dropped
 * but judged like `-c`.
 */
bool config_env_hooks_off(const struct config_env *ce, size_t i);

/*
 * Rewrites this process's GIT_CONFIG_COUNT and GIT_CONFIG_KEY_<n>/
 * VALUE_<n> without the entries config_env_hooks_off() names in ce (what
 * config_env_read() read from this environment, the policy's own input),
 * the rest renumbered in git's order (GIT_CONFIG_COUNT unset when none is
 * left). Returns how many were dropped; an environment that could not be
 * read (ce->error) is left alone (the policy has denied it).
 */
size_t config_env_drop_hooks_off(const struct config_env *ce);

/*
 * Whether git, given `value` in one of its GIT_TRACE* variables (GIT_TRACE,
 * GIT_TRACE_PACKET, GIT_TRACE2_EVENT, …), writes the trace into a file, a
 * directory or a socket: an absolute path, or `af_unix:…` (git's trace.c
 * and trace2/tr2_dst.c, 2.39). "1", "true", a digit (an inherited
 * descriptor), "0", "false" and "" do not; git ignores anything else.
 */
bool git_trace_writes(const char *value);

#endif
