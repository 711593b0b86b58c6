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

#endif
