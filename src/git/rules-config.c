// SPDX-License-Identifier: Apache-2.0
/*
 * Configuration in the policy table (git/rules.h): `git config`'s row, and
 * the config every command carries (-c, --config-env, the environment),
 * judged alike (PRODUCT.md §4, "Config and hooks"). Pure: no I/O.
 *
 * Invariants:
 *  1. Config that runs code, redirects git or silences the hooks is
 *     neither persisted nor carried (an inert value of an editor or pager
 *     key excepted); what an agent persists is an allowlist of keys.
 *  2. The key and value `git config` writes are its positionals as git
 *     splits them: an option's value (`-t bool`, `--type bool`,
 *     `--default x`, `-f x`) is never the key.
 *  3. What cannot be judged (a key too long, an environment git would
 *     read otherwise than we do) is denied.
 */
#include "base/common.h"
#include <string.h>
#include "git/config-env.h"
#include "git/rules-int.h"

/* what makes `git config` write, beside a key and a value */
static const char *const config_writes[] = {
	"unset",	  "unset-all",	    "add",  "replace-all",
	"rename-section", "remove-section", "edit", NULL,
};

/* what makes it read, whatever follows */
static const char *const config_gets[] = {
	"get",	     "get-all",	      "get-regexp", "get-urlmatch",
	"get-color", "get-colorbool", "list",	    NULL,
};

/* the subcommand words of later gits (`git config set x y`): git 2.39
 * takes them for keys, and fails; counted as the writes they will be */
static const char *const config_verbs_w[] = {
	"set", "unset", "rename-section", "remove-section", "edit", NULL
};

static bool word_in(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

bool config_reads(const struct git_argv *ga)
{
	const char *p0 = git_pos(ga, 0);

	if (git_opt_any_on(ga, config_writes) || word_in(p0, config_verbs_w))
		return false;
	if (p0 && (!strcmp(p0, "get") || !strcmp(p0, "list")))
		return true;
	return git_opt_any_on(ga, config_gets) || ga->npos <= 1;
}

/*
 * kv: `key[=value]` (-c, --config-env) or a bare key; val_arg: the value
 * given as its own argument (`git config <key> <value>`), or NULL when
 * there is none or it is being removed. Only an inert value of a dangerous
 * key passes; a key too long to judge is denied (invariant 3).
 */
static bool kv_denied(struct verdict *v, const char *kv, const char *val_arg,
		      const char *how, bool read_only)
{
	char key[256];
	const char *val = git_config_split(kv, key, sizeof(key));
	size_t n = val ? (size_t)(val - 1 - kv) : strlen(kv);

	if (n >= sizeof(key)) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"%s is longer than %zu characters — too long to judge, refusing (fail-closed); use a shorter name",
			how, sizeof(key) - 1);
		return true;
	}
	if (val_arg) /* `git config a=b <value>`: not a key git takes */
		val = val ? NULL : val_arg;
	if (!git_config_key_dangerous(key) ||
	    git_config_value_inert(key, val) ||
	    (read_only && git_config_value_disables(key, val)))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"%s '%s' can run code, redirect git or silence the audit hooks — agents may not set it (run the command without it; for a non-interactive editor use -c core.editor=true)",
		how, key);
	return true;
}

/* --config-env=<key>=<envvar>: the value is the variable's content, which
 * the policy does not see; a dangerous key is denied whatever it is. */
static bool config_env_arg_denied(struct verdict *v, const char *arg,
				  bool read_only)
{
	char key[512];
	size_t n = strcspn(arg, "=");

	if (n >= sizeof(key))
		n = sizeof(key) - 1; /* still too long for kv_denied */
	memcpy(key, arg, n);
	key[n] = '\0';
	return kv_denied(v, key, NULL, "--config-env", read_only);
}

/* The same rules for what the environment carries (git/config-env.h). */
static bool env_denied(struct verdict *v, const struct policy_env *e,
		       bool read_only)
{
	const struct config_env *ce = e->cfg_env;

	if (e->exec_path_env) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"GIT_EXEC_PATH redirects which git programs run — not allowed for agents; unset it");
		return true;
	}
	if (e->trace_var) {
		/* GIT_TRACE=/home/op/.bashrc appends git's trace to any file */
		int n = (int)strcspn(e->trace_var, "=");
		verdict_deny(
			v, "deny", DS_BLOCK,
			"%.*s sends git's trace into a file ('%s'), which can be any file outside the repository — agents trace to stderr only: set %.*s=1, or unset it",
			n, e->trace_var, e->trace_var + n + 1, n, e->trace_var);
		return true;
	}
	if (!ce)
		return false;
	if (ce->error) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"%s — refusing to guess what git would read (fail-closed); unset it",
			ce->error);
		return true;
	}
	for (size_t i = 0; i < ce->kv.nr; i++) {
		if (config_env_hooks_off(ce, i)) {
			v->drop_env_hooks_off = true; /* the shim drops it */
			continue;
		}
		if (kv_denied(v, ce->kv.v[i], NULL, ce->from.v[i], read_only))
			return true;
	}
	if (ce->file_var) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"%s points git at a config file of its own, which the policy cannot judge — agents may not (unset it, or set it to /dev/null)",
			ce->file_var);
		return true;
	}
	return false;
}

bool config_carried_denied(struct verdict *v, const struct policy_input *in,
			   bool read_only)
{
	const struct git_argv *ga = in->ga;

	for (size_t i = 0; i < ga->nconfigs; i++)
		if (kv_denied(v, ga->configs[i], NULL, "-c", read_only))
			return true;
	for (size_t i = 0; i < ga->nconfig_envs; i++)
		if (config_env_arg_denied(v, ga->config_envs[i], read_only))
			return true;
	return env_denied(v, in->env, read_only);
}

/* Persisting config is an allowlist (git_config_key_persistable()). */
static bool not_persistable(struct verdict *v, const char *kv)
{
	char key[256];

	git_config_split(kv, key, sizeof(key));
	if (git_config_key_persistable(key))
		return false;
	verdict_deny(
		v, "deny", DS_BLOCK,
		"agents may persist only everyday repository options with git config (user.name/email, branch.<b>.remote/merge/rebase, line-ending and file-mode options, pull/merge/rebase/diff/status/log/color options, advice.*); '%s' is not one — pass it for one command with -c instead, or ask the operator",
		key);
	return true;
}

bool config_check(struct verdict *v, const struct policy_input *in)
{
	static const char *const scope[] = { "global", "system", "file", "blob",
					     NULL };
	static const char *const anykey[] = { "edit", "rename-section", NULL };
	const struct git_argv *ga = in->ga;
	const char *p0 = git_pos(ga, 0), *key, *val;
	size_t k;

	if (config_reads(ga))
		return false;
	if (git_opt_any_on(ga, scope)) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"writing --global, --system or --file configuration is not allowed for agents — set repository options with git config --worktree <key> <value>");
		return true;
	}
	if (git_opt_any_on(ga, anykey) || word_in(p0, anykey)) {
		verdict_deny(
			v, "deny", DS_BLOCK,
			"git config %s can write any key — set keys one at a time with git config <key> <value>",
			git_opt_on(ga, "edit")		   ? "--edit"
			: git_opt_on(ga, "rename-section") ? "--rename-section"
							   : p0);
		return true;
	}
	/* [<verb>] <key> [<value>] (invariant 2) */
	k = ga->npos >= 2 && word_in(p0, config_verbs_w) ? 1 : 0;
	key = git_pos(ga, k);
	/* an inert value of a dangerous key may be persisted, as with -c;
	 * removing one may not */
	val = git_opt_on(ga, "unset") || git_opt_on(ga, "unset-all") ||
			      (p0 && !strcmp(p0, "unset"))
		      ? NULL
		      : git_pos(ga, k + 1);
	if (!key)
		return false;
	if (kv_denied(v, key, val, "the config key", false))
		return true;
	return not_persistable(v, key);
}
