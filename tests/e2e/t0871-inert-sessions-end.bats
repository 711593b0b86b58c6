#!/usr/bin/env bats
# Issue 32 point 4: `sessions`, `end` and `run`'s closing summary print a
# session's branch and worktree inert (a branch an agent may have named
# with a bidi override; a worktree path with ESC/BEL/CR); `sessions
# --json` keeps the exact values.
load lib
load inert

setup() {
	ag_setup
	export AGENTIC_GIT_HOME=$T/sess-home
	mkdir -p "$AGENTIC_GIT_HOME/runtime"
	"$TEST_TOOL" key "$AGENTIC_GIT_HOME"
	cd "$REPO"
}

# hostile_session: ag1 bound on feat/h in a worktree whose path holds HOSTILE
hostile_session() {
	WT=$T/wt-$HOSTILE
	"$REAL_GIT" -C "$REPO" worktree add -q -b feat/h "$WT" main
	mkdir -p "$AGENTIC_GIT_HOME/runtime/ag1"
	# JSON's own escaping for the control characters (jq)
	jq -n --arg wt "$WT" --arg repo "$REPO" '{version: 1, agent: "ag1",
		task_id: "task-1", branch: "feat/h", worktree: $wt,
		source_repo: $repo,
		issued_at: "2026-11-29T21:07:02.301397292+00:00"}' \
		>"$AGENTIC_GIT_HOME/runtime/ag1/binding.json"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$AGENTIC_GIT_HOME/runtime/ag1/binding.json"
}

@test "sessions: a hostile worktree path is inert in the table, exact in --json" {
	hostile_session
	run "$AG_BIN" sessions
	assert_success
	assert_shows "$output" "sessions"
	run "$AG_BIN" sessions --json
	assert_success
	assert_equal "$(jq -r '.[0].worktree' <<<"$output")" "$WT"
}

@test "end: the removed worktree and the get-back commands are inert" {
	hostile_session
	"$REAL_GIT" -C "$WT" -c core.hooksPath=/dev/null push -q origin feat/h
	run "$AG_BIN" end --agent ag1
	assert_success
	assert_shows "$output" "end"
	assert_output --partial "removed:   worktree $T/wt-$HOSTILE_SHOWN"
	[ ! -e "$WT" ]
}

@test "run's summary and sessions print a bidi branch name escaped" {
	run "$AG_BIN" run --agent ag1 --branch "feat/$HOSTILE_REF" -- true
	assert_success
	assert_inert "$output" "run's summary"
	assert_output --partial "branch:    feat/$HOSTILE_REF_SHOWN"
	run "$AG_BIN" sessions
	assert_inert "$output" "sessions"
	assert_output --partial "feat/$HOSTILE_REF_SHOWN"
	run "$AG_BIN" sessions --json
	assert_equal "$(jq -r '.[0].branch' <<<"$output")" "feat/$HOSTILE_REF"
	run "$AG_BIN" end --agent ag1 --force
	assert_success
	assert_inert "$output" "end --force"
	assert_output --partial "kept:      branch 'feat/$HOSTILE_REF_SHOWN'"
}
