/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_AGENTS_PRESETS_H
#define AG_AGENTS_PRESETS_H

/**
 * Built-in agent presets: claude, codex, gemini, copilot, cursor.
 *
 * A preset is constant, code-defined data describing how to launch one agent
 * CLI unattended: its argv template (with the auto-approve flag, visible and
 * auditable on purpose), its model arguments, how the prompt is delivered,
 * its environment allowlist and its default sandbox policy. Every flag was
 * checked against the CLI's own --help; the date and the version seen are in
 * presets.c next to each preset, and `agentic-git agents check` repeats the
 * check on the user's machine using `help_args` and `check_flags`.
 *
 * Templates use two placeholders, `{prompt}` and `{model}`, plus one that
 * only presets carry values for, `{agent_sandbox}`: the value of the agent's
 * own sandbox flag, which depends on whether our sandbox wraps it (codex:
 * "danger-full-access" inside ours, "workspace-write" without).
 *
 * Everything returned points to static storage; nothing is owned by callers.
 */
#include "base/common.h"
#include "agents/sandbox.h" /* enum sandbox_policy and its names */

enum prompt_via {
	PROMPT_VIA_ARG = 0, /* the prompt is one argv element */
	PROMPT_VIA_STDIN,   /* the prompt is written to the child's stdin */
};

/*
 * A vendor's key or token (PRODUCT.md §7): under fs+api the agent holds a
 * placeholder and the proxy puts the operator's value of `name` into
 * requests to `hosts`, and to the host of `base_url_env`'s URL when that
 * variable is set (the operator moved the API there).
 */
struct preset_secret {
	const char *name;
	const char *const *hosts; /* NULL-terminated */
	const char *base_url_env; /* or NULL */
};

struct agent_preset {
	const char *name;
	const char *const *command;	/* NULL-terminated; [0] is a bare name */
	const char *const *model_args;	/* NULL-terminated */
	const char *model;		/* default model, or NULL */
	enum prompt_via prompt_via;
	const char *const *env;		/* allowlist, NULL-terminated */
	enum sandbox_policy sandbox;
	const char *const *help_args;	/* argv after the binary for `check` */
	const char *const *check_flags; /* must all appear in the help text */
	const char *agent_sandbox_wrapped; /* {agent_sandbox} inside ours */
	const char *agent_sandbox_bare;	   /* {agent_sandbox} without ours */
	/*
	 * "K=V" the agent gets when our sandbox wraps it (claude:
	 * "IS_SANDBOX=1", which lets it take its auto-approve flag as root),
	 * or NULL.
	 */
	const char *sandboxed_env;
	/*
	 * A flag of the command the agent refuses as root unless
	 * `sandboxed_env` is in its environment, or NULL: the planner refuses
	 * such a launch itself, in one line naming the ways out (plan.c).
	 */
	const char *root_refused_flag;
	/*
	 * The variable naming the agent's own config dir (claude:
	 * CLAUDE_CONFIG_DIR) and that dir's name under the per-agent cache,
	 * where it persists when sandboxed (fleet/agent-sandbox.c), or NULL.
	 */
	const char *config_env;
	const char *config_dir;
	/*
	 * An endpoint variable the CLI ignores (codex: OPENAI_BASE_URL) and
	 * the config key it reads instead (openai_base_url): when the variable
	 * reaches the agent, the planner adds `-c KEY="VALUE"`. Or NULL.
	 */
	const char *endpoint_env;
	const char *endpoint_config;
	/*
	 * The config key where the agent's own sandbox, when ours does not
	 * wrap it (`agent_sandbox_bare`), takes extra writable roots (codex:
	 * sandbox_workspace_write.writable_roots), or NULL: a plain session
	 * adds the session's git dirs there (fleet/agent-roots.h).
	 */
	const char *writable_roots_config;
	/*
	 * How the agent's tool shell runs each command (argv before the
	 * command text), and, when the command holds `tool_shell_plain_arg`,
	 * how it runs them then: `agents check` runs it the same way to see
	 * that `git` is the shim there (codex: `bash -lc`, a login shell whose
	 * /etc/profile resets PATH, but `bash -c` with
	 * `allow_login_shell=false`). NULL: not known.
	 */
	const char *const *tool_shell;
	const char *tool_shell_plain_arg;
	const char *const *tool_shell_plain;
	/*
	 * The agent cannot work without its vendor's API: under a sandbox
	 * with no network it hangs or fails to connect, so a launch warns
	 * (preset_network_warning()).
	 */
	bool needs_network;
	/* fs+api: the vendor's hosts (allowhosts.h entries), NULL-terminated
	 * or NULL; each list dated in a comment */
	const char *const *allow_hosts;
	/* fs+api: "K=V" set for the agent (its switch for non-essential
	 * traffic), NULL-terminated or NULL */
	const char *const *api_env;
	/* the vendor's keys and tokens, NULL-terminated (name NULL) or NULL;
	 * each dated in a comment */
	const struct preset_secret *secrets;
	/*
	 * Extra variables the CLI reads its trusted CAs from, beyond the
	 * runtimes' own (sandbox.h invariant 10), NULL-terminated or NULL.
	 */
	const char *const *ca_env;
	/*
	 * The CLI's own login file, under its config dir (`config_env`, else
	 * ~/`config_dir`), which a sandboxed agent cannot use, and the way
	 * out `agents check` names when only that login is there, or NULL.
	 */
	const char *login_file;
	const char *login_hint;
	const char *verified;		/* "checked 2026-11-29 against …" */
};

/* Number of presets and the i-th one, in the order listed above. */
size_t preset_count(void);
const struct agent_preset *preset_at(size_t i);
/* The preset called `name`, or NULL. */
const struct agent_preset *preset_find(const char *name);
/* Appends the preset names sorted, comma-separated: "claude, codex, …". */
struct strbuf;
void preset_names(struct strbuf *out);

/*
 * Pure: when the preset `pr` (NULL for a custom profile, which never
 * warns) needs the network and `policy`, the sandbox in effect (SANDBOX_NONE
 * when nothing wraps the agent), gives it none, appends the one-line
 * warning for `profile`, naming the policy and the way out, and returns
 * true; else returns false.
 */
bool preset_network_warning(const struct agent_preset *pr, const char *profile,
			    enum sandbox_policy policy, struct strbuf *out);

/*
 * Pure: the tool shell (tool_shell above) of preset `pr` launched with the
 * argv template `command` (NULL-terminated), or NULL when it is not known.
 */
const char *const *preset_tool_shell(const struct agent_preset *pr,
				     const char *const *command);

/* "none", "fs-only", "fs+no-net"; and back (returns -1 when unknown). */
const char *prompt_via_name(enum prompt_via v);

#endif
