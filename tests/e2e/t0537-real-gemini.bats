#!/usr/bin/env bats
# The real Gemini CLI (installed by ci/install-agent-clis.sh, with the node
# >= 20 it needs) in a plain session with the gemini preset (issue 16).
# Only Google's API is replaced, by tests/helper/model-server.mjs on
# 127.0.0.1 (the Gemini API, reached through GOOGLE_GEMINI_BASE_URL), whose
# scripted model runs shell commands through Gemini's run_shell_command.
# Gemini 0.61.0 runs every tool command with git config in the environment
# (GIT_CONFIG_COUNT=8: credential.helper=, core.fsmonitor=,
# core.hooksPath=, core.sshCommand=, core.pager=cat, core.editor=, …);
# the shim drops the empty core.hooksPath from the environment it gives
# git, so the session's provenance and reference-transaction hooks run
# (docs/configuration.md), and judges the rest like -c.
# Each test skips, saying why, when gemini or node >= 20 is absent;
# AG_MUST_WORK=1 makes that a failure.
load lib
load sandbox_cases
load real_cli

setup() {
	real_cli_setup gemini
	PATH="$CLIS:$PATH" prereq "node>=20 (gemini-cli needs it; run ci/install-agent-clis.sh)" \
		node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'
}

teardown() {
	real_cli_teardown
}

@test "gemini without a sandbox: checkout denied to its model, commit attributed through the hooks-off config it adds, reset --hard restorable" {
	# with GOOGLE_GEMINI_BASE_URL set, headless gemini starts only when
	# its settings name the auth type; no usage statistics to Google
	mkdir -p "$HOME/.gemini"
	printf '{"security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": false}}\n' \
		>"$HOME/.gemini/settings.json"
	printf '%s\n' 'command -v git' 'env | grep ^GIT_CONFIG_ | sort' >>"$T/model.script"
	write_config gemini none auto
	start_model
	export GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:$MODEL_PORT
	export GEMINI_API_KEY=scripted-test
	run_agent gemini g1
	wt=$AGENTIC_GIT_HOME/worktrees/g1/feat/g1
	# 1-3: the checkout denied, the commit attributed (the session's
	# hooks ran although gemini's environment turns hooks off: the shim
	# drops that entry), reset --hard snapshotted and restored
	assert_guarded_work g1 "$wt"
	launch_event | jq -e '.sandbox_backend == "none" and (.agent_env_keys | index("GOOGLE_GEMINI_BASE_URL"))'
	# 4: its run_shell_command is `bash -c` with the session's PATH
	run tool_result 4
	assert_output --partial "$AGENTIC_GIT_HOME/bin/git"
	# 5: the config gemini puts in every tool command's environment
	run tool_result 5
	assert_output --partial "GIT_CONFIG_KEY_2=core.hooksPath"
	assert_output --partial "GIT_CONFIG_VALUE_2="
}
