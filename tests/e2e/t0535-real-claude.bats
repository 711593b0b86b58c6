#!/usr/bin/env bats
# The real Claude Code CLI (installed by ci/install-agent-clis.sh) doing
# work through agentic-git: `run --profile claude` with the claude preset,
# without a sandbox and under fs-only on bwrap and on Landlock (issue 16).
# Only Anthropic's API is replaced, by tests/helper/model-server.mjs on
# 127.0.0.1, whose scripted model runs shell commands through Claude's
# Bash tool; the server's log holds every request, so the tests read the
# tool results Claude sent back to its model, e.g. the shim's deny text.
# Each test skips, saying why, when claude or node is absent;
# AG_MUST_WORK=1 makes that a failure.
load lib
load sandbox_cases
load real_cli
load dispatch
load secrets

setup() {
	real_cli_setup claude
}

teardown() {
	real_cli_teardown
}

start_claude_model() {
	start_model
	export ANTHROPIC_BASE_URL=http://127.0.0.1:$MODEL_PORT
	export ANTHROPIC_API_KEY=sk-ant-scripted-test
	# no telemetry, error reports or update checks: loopback only
	export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
}

@test "claude without a sandbox: checkout denied to its model, commit attributed, reset --hard restorable" {
	# as root claude takes --dangerously-skip-permissions only with
	# IS_SANDBOX=1; an operator whose container is the sandbox passes it
	export IS_SANDBOX=1
	write_config claude none auto '    env: [ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, IS_SANDBOX]'
	start_claude_model
	run_agent claude c1
	assert_guarded_work c1 "$AGENTIC_GIT_HOME/worktrees/c1/feat/c1"
	launch_event | jq -e '.sandbox_backend == "none"'
}

@test "claude under fs-only on bwrap: the preset alone (toolchain, IS_SANDBOX, config dir)" {
	sbx_prereq bwrap
	write_config claude fs-only bwrap
	start_claude_model
	run_agent claude c2
	assert_guarded_work c2 "$AGENTIC_GIT_HOME/worktrees/c2/feat/c2"
	launch=$(launch_event)
	echo "$launch" | jq -e '.sandbox_backend == "bwrap"'
	# the npm prefix of the resolved binary is bound read-only, unasked
	prefix=$(readlink -f "$CLIS/claude")
	prefix=${prefix%%/node_modules/*}/node_modules
	echo "$launch" | jq -e --arg p "$prefix" '.agent_argv | tostring | contains("\"--ro-bind\",\"" + $p + "\"")'
	echo "$launch" | jq -e '.agent_env_keys | index("IS_SANDBOX") and index("CLAUDE_CONFIG_DIR")'
	# Claude's state persists in the agent's cache, not in the tmpfs HOME
	[ -d "$AGENTIC_GIT_HOME/cache/c2/.claude/projects" ]
}

@test "claude under fs+api on bwrap: its API only through the proxy, nothing else" {
	sbx_prereq bwrap
	start_claude_model
	# the preset switches non-essential traffic off by itself under fs+api
	unset CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC
	write_config claude fs+api bwrap "    allow_hosts: [\"127.0.0.1:$MODEL_PORT\"]"
	run_agent claude c5
	assert_guarded_work c5 "$AGENTIC_GIT_HOME/worktrees/c5/feat/c5"
	launch=$(launch_event)
	echo "$launch" | jq -e '.sandbox_backend == "bwrap"'
	echo "$launch" | jq -e '.agent_env_keys | index("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC")'
	echo "$launch" | jq -e '.agent_argv | index("HTTPS_PROXY")'
	# every request reached the model through the proxy, none elsewhere
	events | jq -e -s --argjson p "$MODEL_PORT" 'map(select(.agent == "c5" and .event == "net_allow")) |
		length >= 1 and all(.host == "127.0.0.1" and .port == $p and .bytes > 0)'
	events | jq -e -s 'map(select(.event == "net_deny")) | length == 0'
}

# PRODUCT.md §7: the key only through `secrets` (a file of the
# operator's), the API over HTTPS; inside, Claude holds a placeholder and
# the proxy, terminating TLS with the session CA its runtime trusts
# (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE), puts the key in
@test "claude under fs+api with its key only in secrets: the API over HTTPS sees it, the cage never does" {
	sbx_prereq bwrap
	start_model_tls
	unset ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN CLAUDE_CODE_OAUTH_TOKEN
	export ANTHROPIC_BASE_URL=https://127.0.0.1:$MODEL_PORT
	printf '%s\n' "$KEY" >"$T/anthropic.key"
	secret_config claude ANTHROPIC_API_KEY "file:$T/anthropic.key"
	run_agent claude c7
	assert_guarded_work c7 "$AGENTIC_GIT_HOME/worktrees/c7/feat/c7"
	assert_key_outside x-api-key "$KEY"
	events | jq -e -s 'map(select(.agent == "c7" and .event == "net_allow" and .secrets == ["ANTHROPIC_API_KEY"])) | length >= 1'
}

@test "claude dispatch under fs+api with an OAuth token (CLAUDE_CODE_OAUTH_TOKEN): the preset's rule keeps it outside" {
	sbx_prereq bwrap
	real_cli_conflict
	start_model_tls
	unset ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN
	KEY=sk-ant-oat01-agtest-$(openssl rand -hex 20)
	export CLAUDE_CODE_OAUTH_TOKEN=$KEY
	# the API moved to the test's host: the preset's rule follows it
	export ANTHROPIC_BASE_URL=https://127.0.0.1:$MODEL_PORT
	write_config claude fs+api bwrap "    allow_hosts: [\"127.0.0.1:$MODEL_PORT\"]"
	sed -i "1i tls_ca_file: $T/ca.pem" "$AGENTIC_GIT_HOME/config.yaml"
	run_dispatch claude
	assert_success
	[ "$(meta repo-feat-a status)" = pushed ]
	[ "$(meta repo-feat-a sandbox)" = "fs+api (bwrap)" ]
	assert_key_outside authorization "Bearer $KEY"
}

@test "claude under fs-only on Landlock" {
	sbx_prereq landlock
	write_config claude fs-only landlock
	start_claude_model
	run_agent claude c3
	assert_guarded_work c3 "$AGENTIC_GIT_HOME/worktrees/c3/feat/c3"
	launch_event | jq -e '.sandbox_backend == "landlock"'
	[ -d "$AGENTIC_GIT_HOME/cache/c3/.claude/projects" ]
}

@test "as root without a sandbox the claude preset refuses in one line, before anything starts" {
	prereq root test "$(id -u)" = 0
	write_config claude none auto
	start_claude_model
	run_agent claude c4
	assert_failure 1
	assert_output "agentic-git: run: agent 'claude' cannot run as root outside a sandbox: claude refuses --dangerously-skip-permissions as root; give the profile 'sandbox: fs-only', or run as a normal user"
	[ ! -e "$AGENTIC_GIT_HOME/worktrees/c4" ]
	[ ! -s "$T/model.log" ]
}

@test "claude dispatch under fs+api on bwrap: a real rebase conflict resolved, verified and pushed" {
	sbx_prereq bwrap
	real_cli_conflict
	start_claude_model
	write_config claude fs+api bwrap "    allow_hosts: [\"127.0.0.1:$MODEL_PORT\"]"
	run_dispatch claude
	assert_success
	[ "$(meta repo-feat-a status)" = pushed ]
	[ "$(meta repo-feat-a sandbox)" = "fs+api (bwrap)" ]
	[ "$(meta repo-feat-a net_deny)" = 0 ]
	[ "$(meta repo-feat-a net_allow)" -ge 1 ]
	"$REAL_GIT" --git-dir="$ORIGIN" merge-base --is-ancestor main feat/a
	"$REAL_GIT" --git-dir="$ORIGIN" show feat/a:CHANGELOG | grep -q "feature feat/a"
	grep -q "network: [0-9]* allowed, 0 refused" "$(run_dir)/summary.md"
}
