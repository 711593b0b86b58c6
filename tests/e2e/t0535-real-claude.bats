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

MODEL_SERVER=$BATS_TEST_DIRNAME/../helper/model-server.mjs

setup() {
	CLIS=${AG_CLIS_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/agentic-git/agent-clis}/node_modules/.bin
	ag_setup
	"$REAL_GIT" config --global user.name Tester
	"$REAL_GIT" config --global user.email tester@example.com
	prereq "agent-cli-claude (run ci/install-agent-clis.sh; looked in $CLIS)" test -x "$CLIS/claude"
	prereq node command -v node
	# the model: leave the branch, commit, lose an edit, then finish
	printf '%s\n' 'git checkout main' \
		'echo claude-work >claude.txt && git add -A && git commit -q -m "claude: add claude.txt" && echo COMMITTED' \
		'echo precious-edit >>README.md && git reset -q --hard && echo RESET' \
		>"$T/model.script"
	cd "$REPO"
}

teardown() {
	# closing the pipe stops the model server
	[ -z "${MODEL_FD:-}" ] || exec {MODEL_FD}>&-
}

# start_model: the scripted model server on a loopback port of its own
# choosing, and the claude environment that points at it.
start_model() {
	exec {MODEL_FD}> >(exec node "$MODEL_SERVER" --script "$T/model.script" \
		--log "$T/model.log" --port-file "$T/model.port" --lifetime 90 \
		>"$T/model.out" 2>&1 3>&-)
	for _ in $(seq 200); do
		[ -s "$T/model.port" ] && break
		sleep 0.05
	done
	[ -s "$T/model.port" ] || fail "model server did not start: $(cat "$T/model.out")"
	export ANTHROPIC_BASE_URL=http://127.0.0.1:$(cat "$T/model.port")
	export ANTHROPIC_API_KEY=sk-ant-scripted-test
	# no telemetry, error reports or update checks: loopback only
	export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
}

write_config() { # sandbox backend [extra profile lines]
	{
		printf 'sandbox_backend: %s\nagents:\n  claude:\n    sandbox: %s\n' "$2" "$1"
		[ -z "${3:-}" ] || printf '%s\n' "$3"
	} >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

# run_claude AGENT: the preset claude in a session for AGENT (bounded: the
# CLI retries an unreachable API for minutes).
run_claude() {
	PATH="$CLIS:$PATH" run timeout -k 5 100 "$AG_BIN" run --agent "$1" \
		--branch "feat/$1" --profile claude --prompt "do the scripted task"
}

# tool_result N: what Claude sent its model as the result of step N.
tool_result() {
	jq -rs --arg id "toolu_step$1" '[.[] | select(.body.messages?) | .body.messages[] |
		select(.role == "user" and (.content | type) == "array") | .content[] |
		select(.type == "tool_result" and .tool_use_id == $id) |
		if (.content | type) == "string" then .content else ([.content[].text] | join("")) end] |
		first // ""' "$T/model.log"
}

# the three steps as the model saw them and as the repository shows them
assert_guarded_work() {
	local agent=$1 wt=$2
	assert_success
	assert_output --partial "RESOLVED: done"
	# 1: the shim denied leaving the branch, and the model read why
	run tool_result 1
	assert_output --partial "agentic-git: ERROR git checkout denied"
	assert_output --partial "cannot switch to 'main'"
	assert_equal "$(branch_of "$wt")" "feat/$agent"
	# Claude's start-up probe (`git -c core.hooksPath=/dev/null -c
	# core.fsmonitor= ls-files …`) is no deny: the checkout is the only one
	events | jq -e -s --arg a "$agent" 'map(select(.agent == $a and .disposition == "deny")) |
		length == 1 and .[0].subcommand == "checkout"'
	# 2: the commit is on the session's branch, attributed
	run tool_result 2
	assert_output --partial "COMMITTED"
	run "$REAL_GIT" -C "$REPO" log -1 --format=%B "feat/$agent"
	assert_output --partial "claude: add claude.txt"
	assert_output --partial "Agentic-Agent: $agent"
	assert_output --partial "Agentic-Task: "
	"$REAL_GIT" -C "$REPO" show "feat/$agent:claude.txt" | grep -qx claude-work
	# 3: reset --hard was snapshotted, and the edit comes back
	run tool_result 3
	assert_output --partial "RESET"
	refute_output --partial "denied"
	! grep -q precious-edit "$wt/README.md"
	run "$AG_BIN" snapshots restore --repo "$wt" --since 1h
	assert_success
	grep -qx precious-edit "$wt/README.md"
}

@test "claude without a sandbox: checkout denied to its model, commit attributed, reset --hard restorable" {
	# as root claude takes --dangerously-skip-permissions only with
	# IS_SANDBOX=1; an operator whose container is the sandbox passes it
	export IS_SANDBOX=1
	write_config none auto '    env: [ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, IS_SANDBOX]'
	start_model
	run_claude c1
	assert_guarded_work c1 "$AGENTIC_GIT_HOME/worktrees/c1/feat/c1"
	events | jq -e -s 'map(select(.event == "agent_launch")) | .[0].sandbox_backend == "none"'
}

@test "claude under fs-only on bwrap: the preset alone (toolchain, IS_SANDBOX, config dir)" {
	sbx_prereq bwrap
	write_config fs-only bwrap
	start_model
	run_claude c2
	assert_guarded_work c2 "$AGENTIC_GIT_HOME/worktrees/c2/feat/c2"
	launch=$(events | jq -c 'select(.event == "agent_launch")')
	echo "$launch" | jq -e '.sandbox_backend == "bwrap"'
	# the npm prefix of the resolved binary is bound read-only, unasked
	prefix=$(dirname "$(dirname "$(readlink -f "$CLIS/claude")")")
	prefix=${prefix%/@anthropic-ai*}
	echo "$launch" | jq -e --arg p "$prefix" '.agent_argv | tostring | contains("\"--ro-bind\",\"" + $p + "\"")'
	echo "$launch" | jq -e '.agent_env_keys | index("IS_SANDBOX") and index("CLAUDE_CONFIG_DIR")'
	# Claude's state persists in the agent's cache, not in the tmpfs HOME
	[ -d "$AGENTIC_GIT_HOME/cache/c2/.claude/projects" ]
}

@test "claude under fs-only on Landlock" {
	sbx_prereq landlock
	write_config fs-only landlock
	start_model
	run_claude c3
	assert_guarded_work c3 "$AGENTIC_GIT_HOME/worktrees/c3/feat/c3"
	events | jq -e -s 'map(select(.event == "agent_launch")) | .[0].sandbox_backend == "landlock"'
	[ -d "$AGENTIC_GIT_HOME/cache/c3/.claude/projects" ]
}

@test "as root without a sandbox the claude preset refuses in one line, before anything starts" {
	prereq root test "$(id -u)" = 0
	write_config none auto
	start_model
	run_claude c4
	assert_failure 1
	assert_output "agentic-git: run: agent 'claude' cannot run as root outside a sandbox: claude refuses --dangerously-skip-permissions as root; give the profile 'sandbox: fs-only', or run as a normal user"
	[ ! -e "$AGENTIC_GIT_HOME/worktrees/c4" ]
	[ ! -s "$T/model.log" ]
}
