#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A real agent CLI (installed from npm by ci/install-agent-clis.sh into
# ~/.cache/agentic-git/agent-clis, or $AG_AGENT_CLIS) starts inside the
# sandbox, with its install dir as a read-only bind.
load lib
load sandbox_cases

# Resolved before ag_setup replaces HOME.
: "${AG_AGENT_CLIS:=$(getent passwd "$(id -u)" | cut -d: -f6)/.cache/agentic-git/agent-clis}"

setup() {
	sbx_setup
	prereq agent-clis test -x "$AG_AGENT_CLIS/node_modules/.bin/claude"
}

# version BACKEND POLICY CLI
version() {
	sbx_prereq "$1"
	run "$AG_BIN" sandbox run --backend "$1" --policy "$2" \
		--workspace "$WS" --ro "$AG_AGENT_CLIS" --cache "$T/cache" -- \
		"$AG_AGENT_CLIS/node_modules/.bin/$3" --version
	assert_success
}

@test "claude --version runs under bwrap, both policies" {
	version bwrap fs-only claude
	assert_output --regexp '[0-9]+\.[0-9]+\.[0-9]+ \(Claude Code\)'
	version bwrap fs+no-net claude
	assert_output --partial "(Claude Code)"
}

@test "claude --version runs under landlock, both policies" {
	version landlock fs-only claude
	assert_output --partial "(Claude Code)"
	version landlock fs+no-net claude
	assert_output --partial "(Claude Code)"
}

@test "codex (a node CLI) --version runs in the sandbox" {
	prereq codex test -x "$AG_AGENT_CLIS/node_modules/.bin/codex"
	prereq node test -x /usr/bin/node
	version bwrap fs+no-net codex
	assert_output --partial "codex-cli"
	version landlock fs+no-net codex
	assert_output --partial "codex-cli"
}

@test "control: without the read-only bind the CLI is not reachable" {
	sbx_prereq bwrap
	run "$AG_BIN" sandbox run --backend bwrap --workspace "$WS" -- \
		"$AG_AGENT_CLIS/node_modules/.bin/claude" --version
	assert_failure
	refute_output --partial "(Claude Code)"
}
