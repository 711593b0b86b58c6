/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The built-in presets. The auto-approve flag of each one is the dangerous,
 * mandatory part (seed §5): it is what lets an agent run unattended and what
 * removes the agent's own safety net, so it lives here in plain sight.
 *
 * Decisions (docs/configuration.md "Presets"):
 * - No preset pins a default model: model IDs go stale faster than this
 *   table, and each CLI has its own sensible default. `model:` in the config
 *   or `--model` sets one; only then are model_args added.
 * - A prompt passed as a positional argument follows `--` so that a prompt
 *   starting with `-` is never parsed as an option; model_args are inserted
 *   before that `--` (plan.c).
 * - A prompt passed as an option value uses the `--opt={prompt}` form for the
 *   same reason.
 */
#include "base/common.h"
#include "agents/presets.h"
#include "base/strbuf.h"

#define V(...) ((const char *const[]){ __VA_ARGS__, NULL })
/* One vendor secret (presets.h struct preset_secret); the list ends with
 * a zero entry. */
#define S(...) ((const struct preset_secret[]){ __VA_ARGS__, { NULL } })

static const struct agent_preset presets[] = {
	/*
	 * claude: checked 2026-11-29 against @anthropic-ai/claude-code 2.1.197
	 * `claude --help`: `-p, --print`, `--dangerously-skip-permissions`,
	 * `--model <model>`, positional `[prompt]`. Driven end to end with
	 * 2.1.197 in t0535 (2026-12-01): as root it refuses
	 * --dangerously-skip-permissions unless IS_SANDBOX=1; its state is in
	 * CLAUDE_CONFIG_DIR (default ~/.claude);
	 * CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 keeps it off every host
	 * but its API (telemetry, error reports, updates).
	 */
	{
		.name = "claude",
		.command = V("claude", "-p", "--dangerously-skip-permissions",
			     "--", "{prompt}"),
		.model_args = V("--model", "{model}"),
		.env = V("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
			 "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_BASE_URL",
			 "ANTHROPIC_CUSTOM_HEADERS", "ANTHROPIC_MODEL",
			 "ANTHROPIC_SMALL_FAST_MODEL", "CLAUDE_CONFIG_DIR",
			 "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"),
		.help_args = V("--help"),
		.check_flags = V("--print", "--dangerously-skip-permissions",
				 "--model"),
		.sandboxed_env = "IS_SANDBOX=1",
		.root_refused_flag = "--dangerously-skip-permissions",
		.config_env = "CLAUDE_CONFIG_DIR",
		.config_dir = ".claude",
		/* its Bash tool: `bash -c` with Claude's own PATH (t0535) */
		.tool_shell = V("/bin/bash", "-c"),
		.needs_network = true,
		/*
		 * fs+api, checked 2026-12-02 against Claude Code's "network
		 * access requirements" (docs network-config): the API, and
		 * claude.ai for WebFetch's domain check; statsig.anthropic.com
		 * and sentry.io are telemetry and error reports, which
		 * CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 switches off.
		 */
		.allow_hosts = V("api.anthropic.com", "claude.ai"),
		.api_env = V("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"),
		/*
		 * Secrets, checked 2026-12-06 against claude-code 2.1.197 (its
		 * settings docs, "Environment variables", and the binary):
		 * ANTHROPIC_API_KEY goes out as X-Api-Key, ANTHROPIC_AUTH_TOKEN
		 * and CLAUDE_CODE_OAUTH_TOKEN (`claude setup-token`) as
		 * "Authorization: Bearer", all to the API host, which
		 * ANTHROPIC_BASE_URL moves. Driven with a placeholder under
		 * fs+api in t0535. Its runtime reads NODE_EXTRA_CA_CERTS and
		 * SSL_CERT_FILE (both set for every cage with secrets).
		 */
		.secrets = S({ "ANTHROPIC_API_KEY", V("api.anthropic.com"),
			       "ANTHROPIC_BASE_URL" },
			     { "ANTHROPIC_AUTH_TOKEN", V("api.anthropic.com"),
			       "ANTHROPIC_BASE_URL" },
			     { "CLAUDE_CODE_OAUTH_TOKEN",
			       V("api.anthropic.com"), "ANTHROPIC_BASE_URL" }),
		/* `claude login` (2.1.197, Linux): claudeAiOauth {accessToken,
		 * refreshToken, expiresAt, …} in CLAUDE_CONFIG_DIR */
		.login_file = ".credentials.json",
		.login_hint =
			"run `claude setup-token` once and export the token it prints as CLAUDE_CODE_OAUTH_TOKEN (sandbox fs+api keeps it outside the cage)",
		.verified = "checked 2026-11-29 against claude-code 2.1.197",
	},
	/*
	 * codex: checked 2026-11-29 against @openai/codex 0.171.0
	 * `codex exec --help`: `exec [OPTIONS] [PROMPT]` reads the prompt from
	 * stdin when none is given, `-s, --sandbox <SANDBOX_MODE>` with
	 * read-only | workspace-write | danger-full-access, `-m, --model`.
	 * exec never asks for approval. Its own sandbox is relaxed to
	 * danger-full-access only when ours wraps it (PRODUCT.md §8).
	 * Driven end to end with 0.171.0 in t0536 (2026-12-01): it ignores
	 * OPENAI_BASE_URL and reads `openai_base_url` from its config (or
	 * `-c`); its tool shell is a login shell, whose /etc/profile resets
	 * PATH past the shim, unless `allow_login_shell=false`; its state is in
	 * CODEX_HOME (default ~/.codex); its workspace-write sandbox keeps a
	 * linked worktree's git dir read-only unless it is a writable root:
	 * an explicit `sandbox_workspace_write.writable_roots` entry for that
	 * dir overrides codex's own read-only `.git` carve-out (observed with
	 * 0.171.0 in t0536, 2026-12-02), so a plain session names it there.
	 */
	{
		.name = "codex",
		.command = V("codex", "exec", "-c", "allow_login_shell=false",
			     "--sandbox", "{agent_sandbox}"),
		.model_args = V("--model", "{model}"),
		.prompt_via = PROMPT_VIA_STDIN,
		.env = V("OPENAI_API_KEY", "CODEX_API_KEY", "OPENAI_BASE_URL",
			 "CODEX_HOME"),
		.help_args = V("exec", "--help"),
		.check_flags = V("--sandbox", "--model", "workspace-write",
				 "danger-full-access", "--config"),
		.agent_sandbox_wrapped = "danger-full-access",
		.agent_sandbox_bare = "workspace-write",
		.config_env = "CODEX_HOME",
		.config_dir = ".codex",
		.endpoint_env = "OPENAI_BASE_URL",
		.endpoint_config = "openai_base_url",
		.writable_roots_config =
			"sandbox_workspace_write.writable_roots",
		.tool_shell = V("/bin/bash", "-lc"),
		.tool_shell_plain_arg = "allow_login_shell=false",
		.tool_shell_plain = V("/bin/bash", "-c"),
		.needs_network = true,
		/*
		 * fs+api, checked 2026-12-02: api.openai.com with an API key;
		 * a ChatGPT login talks to chatgpt.com (backend-api/codex) and
		 * refreshes its token at auth.openai.com (the login's issuer).
		 */
		.allow_hosts =
			V("api.openai.com", "chatgpt.com", "auth.openai.com"),
		/*
		 * Secrets, checked 2026-12-06 against codex 0.171.0 (its
		 * docs' "Authentication" and the binary): CODEX_API_KEY goes
		 * out as "Authorization: Bearer" to the API host (its config's
		 * openai_base_url, which the preset sets from OPENAI_BASE_URL);
		 * `codex exec` 0.171.0 does not send an OPENAI_API_KEY from the
		 * environment (t0536), older versions did. Its HTTP client
		 * (rustls) takes extra roots from CODEX_CA_CERTIFICATE, and
		 * SSL_CERT_FILE. Driven with a placeholder under fs+api in
		 * t0536.
		 */
		.secrets = S({ "OPENAI_API_KEY", V("api.openai.com"),
			       "OPENAI_BASE_URL" },
			     { "CODEX_API_KEY", V("api.openai.com"),
			       "OPENAI_BASE_URL" }),
		.ca_env = V("CODEX_CA_CERTIFICATE"),
		/* `codex login` (0.171.0): auth.json in CODEX_HOME */
		.login_file = "auth.json",
		.login_hint =
			"give it an API key as CODEX_API_KEY (sandbox fs+api keeps it outside the cage); a ChatGPT login cannot be used sandboxed",
		.verified = "checked 2026-11-29 against codex-cli 0.171.0",
	},
	/*
	 * gemini: checked 2026-11-29 against @google/gemini-cli 0.61.0
	 * `gemini --help`: `-p, --prompt` (headless; appended to stdin input),
	 * `-y, --yolo`, `-m, --model`, `--skip-trust` (without it gemini
	 * overrides yolo back to "default" approval in an untrusted folder,
	 * observed with 0.61.0). Driven end to end with 0.61.0 in t0537
	 * (2026-12-02): GOOGLE_GEMINI_BASE_URL moves its API (http only to
	 * loopback), and then headless mode refuses to start ("Invalid auth
	 * method selected.") unless its settings say
	 * security.auth.selectedType "gemini-api-key"; its state is in
	 * GEMINI_CLI_HOME/.gemini (default ~/.gemini).
	 */
	{
		.name = "gemini",
		.command = V("gemini", "--yolo", "--skip-trust",
			     "--prompt={prompt}"),
		.model_args = V("--model", "{model}"),
		.env = V("GEMINI_API_KEY", "GOOGLE_API_KEY",
			 "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT",
			 "GOOGLE_GEMINI_BASE_URL", "GEMINI_CLI_HOME"),
		.help_args = V("--help"),
		.check_flags =
			V("--yolo", "--skip-trust", "--prompt", "--model"),
		/* its run_shell_command: "as `bash -c <command>`" (0.61.0) */
		.tool_shell = V("/bin/bash", "-c"),
		.needs_network = true,
		/*
		 * fs+api, 2026-12-02: Google publishes no list for gemini-cli
		 * (google-gemini/gemini-cli#4552); the Gemini API for an API
		 * key, Code Assist for a Google login, and its token refresh.
		 */
		.allow_hosts = V("generativelanguage.googleapis.com",
				 "cloudcode-pa.googleapis.com",
				 "oauth2.googleapis.com"),
		/*
		 * Secrets, checked 2026-12-06 against gemini-cli 0.61.0 (its
		 * bundle sends the key as x-goog-api-key): GEMINI_API_KEY and
		 * GOOGLE_API_KEY to the Gemini API, which
		 * GOOGLE_GEMINI_BASE_URL moves. Not driven under fs+api.
		 */
		.secrets = S({ "GEMINI_API_KEY",
			       V("generativelanguage.googleapis.com"),
			       "GOOGLE_GEMINI_BASE_URL" },
			     { "GOOGLE_API_KEY",
			       V("generativelanguage.googleapis.com"),
			       "GOOGLE_GEMINI_BASE_URL" }),
		.verified = "checked 2026-11-29 against gemini-cli 0.61.0",
	},
	/*
	 * copilot: checked 2026-11-29 against @github/copilot 1.0.102
	 * `copilot --help`: `-p, --prompt <text>`, `--allow-all-tools`,
	 * `--model <model>`; `copilot help environment` names the tokens
	 * COPILOT_GITHUB_TOKEN, GH_TOKEN, GITHUB_TOKEN (prefer a scoped one).
	 * Driven end to end with 1.0.102 in t0538 (2026-12-02): a model
	 * provider of one's own (BYOK) is COPILOT_PROVIDER_BASE_URL with
	 * COPILOT_PROVIDER_TYPE (openai | azure | anthropic) and
	 * COPILOT_PROVIDER_API_KEY; COPILOT_OFFLINE=true keeps it off GitHub.
	 * Not passed: COPILOT_PROVIDER_API_KEY_COMMAND (a shell command).
	 */
	{
		.name = "copilot",
		.command =
			V("copilot", "--allow-all-tools", "--prompt={prompt}"),
		.model_args = V("--model", "{model}"),
		.env = V("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN",
			 "COPILOT_HOME", "COPILOT_MODEL", "COPILOT_OFFLINE",
			 "COPILOT_PROVIDER_BASE_URL", "COPILOT_PROVIDER_TYPE",
			 "COPILOT_PROVIDER_API_KEY"),
		.help_args = V("--help"),
		.check_flags = V("--allow-all-tools", "--prompt", "--model"),
		.needs_network = true,
		/*
		 * fs+api, checked 2026-12-02 against GitHub's "Copilot
		 * allowlist reference": login and user endpoints on github.com
		 * and api.github.com, the Copilot API (*.githubcopilot.com:
		 * api., api.individual., api.business. …) and its two
		 * githubusercontent services. Its telemetry hosts
		 * (copilot-telemetry.githubusercontent.com,
		 * collector.github.com, default.exp-tas.com) are not listed.
		 * BYOK (COPILOT_PROVIDER_BASE_URL) needs that host instead.
		 */
		.allow_hosts =
			V("github.com", "api.github.com", "*.githubcopilot.com",
			  "copilot-proxy.githubusercontent.com",
			  "origin-tracker.githubusercontent.com"),
		/*
		 * Secrets, 2026-12-06, from `copilot help environment`
		 * (1.0.102): the GitHub token (COPILOT_GITHUB_TOKEN first)
		 * authenticates to GitHub and the Copilot API; a BYOK key
		 * (COPILOT_PROVIDER_API_KEY) goes to COPILOT_PROVIDER_BASE_URL's
		 * host. Not driven under fs+api: what GitHub answers (a Copilot
		 * session token) is the agent's to read.
		 */
		.secrets = S({ "COPILOT_GITHUB_TOKEN",
			       V("github.com", "api.github.com",
				 "*.githubcopilot.com"),
			       NULL },
			     { "GH_TOKEN",
			       V("github.com", "api.github.com",
				 "*.githubcopilot.com"),
			       NULL },
			     { "GITHUB_TOKEN",
			       V("github.com", "api.github.com",
				 "*.githubcopilot.com"),
			       NULL },
			     { "COPILOT_PROVIDER_API_KEY",
			       V("api.openai.com", "api.anthropic.com"),
			       "COPILOT_PROVIDER_BASE_URL" }),
		.verified = "checked 2026-11-29 against copilot 1.0.102",
	},
	/*
	 * cursor: cursor-agent is not on npm, so it could not be run here.
	 * Flags taken 2026-11-29 from Cursor's docs (cursor.com/docs/cli,
	 * "Using Headless CLI"): `-p, --print`, `--force` (alias `--yolo`),
	 * `--model`, positional prompt, CURSOR_API_KEY. NEEDSWORK: whether it
	 * honours `--` is unverified, so the prompt follows the docs' form.
	 */
	{
		.name = "cursor",
		.command = V("cursor-agent", "-p", "--force", "{prompt}"),
		.model_args = V("--model", "{model}"),
		.env = V("CURSOR_API_KEY"),
		.help_args = V("--help"),
		.check_flags = V("--print", "--force", "--model"),
		.needs_network = true,
		/*
		 * fs+api, checked 2026-12-02 against Cursor's "Network
		 * Configuration" (cursor.com/docs/enterprise): its backend and
		 * authentication are *.cursor.sh; *.cursor-cdn.com (downloads)
		 * and *.cursorapi.com (the editor's extension marketplace) are
		 * not needed by the CLI, so not listed.
		 */
		.allow_hosts = V("*.cursor.sh"),
		.verified =
			"flags from Cursor's CLI docs 2026-11-29 (not on npm)",
	},
};

size_t preset_count(void)
{
	return ARRAY_SIZE(presets);
}

const struct agent_preset *preset_at(size_t i)
{
	return i < ARRAY_SIZE(presets) ? &presets[i] : NULL;
}

const struct agent_preset *preset_find(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(presets); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

void preset_names(struct strbuf *out)
{
	/* Sorted for messages; the table is short, so a selection walk. */
	const char *last = "";

	for (size_t n = 0; n < ARRAY_SIZE(presets); n++) {
		const char *next = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
			if (strcmp(presets[i].name, last) > 0 &&
			    (!next || strcmp(presets[i].name, next) < 0))
				next = presets[i].name;
		if (n)
			strbuf_addstr(out, ", ");
		strbuf_addstr(out, next);
		last = next;
	}
}

bool preset_network_warning(const struct agent_preset *pr, const char *profile,
			    enum sandbox_policy policy, struct strbuf *out)
{
	if (!pr || !pr->needs_network || policy != SANDBOX_FS_NO_NET)
		return false;
	strbuf_addf(
		out,
		"profile '%s' needs its vendor's API but sandbox '%s' gives it no network: it will hang or fail to connect; set sandbox: %s for it",
		profile, sandbox_policy_name(policy),
		sandbox_policy_name(SANDBOX_FS_API));
	return true;
}

const char *const *preset_tool_shell(const struct agent_preset *pr,
				     const char *const *command)
{
	if (!pr)
		return NULL;
	for (size_t i = 1;
	     pr->tool_shell_plain_arg && command && command[0] && command[i];
	     i++)
		if (!strcmp(command[i], pr->tool_shell_plain_arg) &&
		    !strcmp(command[i - 1], "-c"))
			return pr->tool_shell_plain;
	return pr->tool_shell;
}

const char *prompt_via_name(enum prompt_via v)
{
	return v == PROMPT_VIA_STDIN ? "stdin" : "arg";
}
