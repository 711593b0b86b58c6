#!/usr/bin/env bats
# agents list / show: resolution, the resolved invocation, --model, JSON.
load lib

setup() {
	T=$BATS_TEST_TMPDIR
	export HOME=$T/home AGENTIC_GIT_HOME=$T/aghome
	mkdir -p "$HOME" "$AGENTIC_GIT_HOME" "$T/bin"
	printf '#!/bin/sh\nexit 0\n' >"$T/bin/claude"
	printf '#!/bin/sh\nexit 0\n' >"$T/bin/gemini"
	chmod 755 "$T/bin/"*
	export PATH="$T/bin:/usr/bin:/bin"
	CFG=$AGENTIC_GIT_HOME/config.yaml
}

cfg() {
	cat >"$CFG"
	chmod 600 "$CFG"
}

@test "show prints the resolved invocation with a placeholder prompt" {
	run "$AG_BIN" agents show claude
	assert_success
	assert_line "profile:    claude (preset)"
	assert_line "binary:     $T/bin/claude (pinned)"
	assert_line "argv:       $T/bin/claude -p --dangerously-skip-permissions -- '<prompt>'"
	assert_line "model:      (none: the CLI's default)"
	assert_line "timeout:    1800s (default)"
	assert_line "            allowlist: ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN CLAUDE_CODE_OAUTH_TOKEN ANTHROPIC_BASE_URL ANTHROPIC_CUSTOM_HEADERS ANTHROPIC_MODEL ANTHROPIC_SMALL_FAST_MODEL CLAUDE_CONFIG_DIR CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"
	assert_line "sandbox:    none"
	assert_line --partial "flags:      checked 2026-11-29 against claude-code"
	refute_output --partial WARNING
}

@test "--model adds the model arguments; the config's model applies otherwise" {
	run "$AG_BIN" agents show gemini --model gemini-2.5-pro
	assert_success
	assert_line "argv:       $T/bin/gemini --yolo --skip-trust '--prompt=<prompt>' --model gemini-2.5-pro"
	cfg <<'EOF'
agents:
  gemini:
    model: gemini-2.5-flash
EOF
	run "$AG_BIN" agents show gemini
	assert_line "argv:       $T/bin/gemini --yolo --skip-trust '--prompt=<prompt>' --model gemini-2.5-flash"
	assert_line --regexp "^profile:    gemini \(preset\+config, $CFG:2:3\)$"
	run "$AG_BIN" agents show gemini --model other
	assert_line "argv:       $T/bin/gemini --yolo --skip-trust '--prompt=<prompt>' --model other"
}

@test "a preset that is not installed is shown, with the reason it cannot run" {
	run "$AG_BIN" agents show cursor
	assert_success
	assert_line "binary:     cursor-agent (NOT FOUND in PATH)"
	assert_line "argv:       (cannot plan: agent 'cursor': binary 'cursor-agent' not found in PATH (install it, or set agents.cursor.command to an absolute path))"
	run "$AG_BIN" agents list
	assert_line --regexp '^  cursor +preset +none +allowlist +cursor-agent \(not found\)$'
}

@test "list marks the default agent and shows custom profiles" {
	cfg <<EOF
default_agent: mine
agents:
  mine:
    command: ["$T/bin/gemini", "{prompt}"]
EOF
	run "$AG_BIN" agents list
	assert_success
	assert_line --index 0 --regexp '^  NAME +SOURCE +SANDBOX +ENV +BINARY$'
	assert_line --regexp "^\* mine +custom +none +INHERIT +$T/bin/gemini$"
	assert_line --regexp "^  claude +preset "
	run "$AG_BIN" agents list --json
	run jq -r '.[] | select(.default) | .name' <<<"$output"
	assert_output mine
}

@test "show --json has the profile, the argv and the inherit warning" {
	cfg <<EOF
agents:
  open:
    command: ["$T/bin/gemini", run, "{prompt}"]
    timeout: 90
EOF
	run "$AG_BIN" agents show open --json
	assert_success
	run jq -r '"\(.argv|join("|")) \(.profile.env) \(.profile.timeout) \(.warning|test("inherits your whole environment"))"' <<<"$output"
	assert_output "$T/bin/gemini|run|<prompt> null 90 true"
}

@test "an unknown profile name is an error listing the presets" {
	must_fail "$AG_BIN" agents show nosuch
	assert_output "agentic-git: unknown agent 'nosuch': not defined under 'agents:' and not a built-in preset (claude, codex, copilot, cursor, gemini)"
	must_fail "$AG_BIN" agents show
	assert_output "agentic-git: agents show: missing NAME (see 'agentic-git agents list')"
	must_fail "$AG_BIN" agents list --model x
	assert_output "agentic-git: agents list: unknown option '--model' (see agentic-git agents list --help)"
}

@test "agents --help and a bad config stop every verb" {
	run "$AG_BIN" agents --help
	assert_success
	assert_line --index 0 "usage: agentic-git agents list [--json] [--config FILE]"
	run "$AG_BIN" help agents
	assert_success
	cfg <<'EOF'
agents:
  claude:
    command: "claude -p {prompt}"
EOF
	for verb in list "show claude" check "exec claude --prompt x"; do
		# shellcheck disable=SC2086
		must_fail "$AG_BIN" agents $verb
		# 3:14, the opening quote: where libyaml says a quoted scalar starts
		assert_output --partial "$CFG:3:14: agents.claude.command: must be a list of argv tokens, not a single string (a string would imply a shell, which agentic-git never uses)"
	done
}

@test "show plans codex's own sandbox flag from ours" {
	printf '#!/bin/sh\nexit 0\n' >"$T/bin/codex"
	chmod 755 "$T/bin/codex"
	run "$AG_BIN" agents show codex
	assert_line "argv:       $T/bin/codex exec -c allow_login_shell=false --sandbox workspace-write"
	assert_line "prompt via: stdin"
	cfg <<'EOF'
agents:
  codex:
    sandbox: fs+no-net
EOF
	run "$AG_BIN" agents show codex
	assert_line "argv:       $T/bin/codex exec -c allow_login_shell=false --sandbox danger-full-access"
	assert_line "sandbox:    fs+no-net"
}
