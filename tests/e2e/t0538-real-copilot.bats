#!/usr/bin/env bats
# The real GitHub Copilot CLI (installed by ci/install-agent-clis.sh) doing
# work through agentic-git with the copilot preset in a plain session
# (issue 16). No GitHub account: its own-provider mode
# (COPILOT_PROVIDER_BASE_URL, type "anthropic", COPILOT_OFFLINE=true) is
# pointed at tests/helper/model-server.mjs on 127.0.0.1, whose scripted
# model runs shell commands through Copilot's "bash" tool.
# Each test skips, saying why, when copilot or node is absent;
# AG_MUST_WORK=1 makes that a failure.
load lib
load sandbox_cases
load real_cli

setup() {
	real_cli_setup copilot
}

teardown() {
	real_cli_teardown
}

@test "copilot without a sandbox: checkout denied to its model, commit attributed, reset --hard restorable" {
	echo 'command -v git' >>"$T/model.script"
	write_config copilot none auto
	start_model
	export COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:$MODEL_PORT
	export COPILOT_PROVIDER_TYPE=anthropic COPILOT_PROVIDER_API_KEY=sk-scripted-test
	export COPILOT_MODEL=claude-sonnet-4.5 COPILOT_OFFLINE=true
	run_agent copilot p1
	assert_guarded_work p1 "$AGENTIC_GIT_HOME/worktrees/p1/feat/p1"
	# 4: its bash tool keeps the session's PATH
	run tool_result 4
	assert_output --partial "$AGENTIC_GIT_HOME/bin/git"
	launch_event | jq -e '.sandbox_backend == "none" and (.agent_env_keys | index("COPILOT_PROVIDER_BASE_URL"))'
}
