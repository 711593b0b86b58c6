#!/usr/bin/env bats
# Issue 35, point 7: the frictions of a new user's trial, each fixed here
# with a test that failed before.
load lib

setup() {
	ag_setup
	cd "$REPO"
}

@test "the force-push deny advises a lease push that is itself allowed" {
	"$AG_BIN" run --agent fp --branch feat/fp -- true 2>/dev/null
	wt=$AGENTIC_GIT_HOME/worktrees/fp/feat/fp
	cd "$wt"
	export AGENTIC_GIT_AGENT=fp
	run "$AG_BIN" check -- push --force origin main
	assert_equal "$status" 1
	assert_output --partial "git fetch origin feat/fp && git push --force-with-lease origin feat/fp"
	refute_output --partial "--force-with-lease origin main"
	# the advice, as given, passes the guard
	run "$AG_BIN" check -- push --force-with-lease origin feat/fp
	assert_success
	refute_line "verdict: deny"
}

@test "two sessions started in the same second get distinct Agentic-Task trailers" {
	"$AG_BIN" run --agent t1 --branch feat/t1 -- true 2>/dev/null &
	"$AG_BIN" run --agent t2 --branch feat/t2 -- true 2>/dev/null &
	wait
	a=$(jq -r .task_id "$AGENTIC_GIT_HOME/runtime/t1/binding.json")
	b=$(jq -r .task_id "$AGENTIC_GIT_HOME/runtime/t2/binding.json")
	[[ "$a" =~ ^run-session-[0-9]+-[0-9a-f]{8}$ ]]
	[ "$a" != "$b" ]
	# the trailer is the task
	"$AG_BIN" run --agent t1 --branch feat/t1 -- sh -c 'echo x >x && git add x && git commit -qm x' 2>/dev/null
	assert_equal "$("$REAL_GIT" log -1 --format='%(trailers:key=Agentic-Task,valueonly)' feat/t1)" "$a"
}

@test "check uses the default home (~/.agentic-git) like every other command" {
	export AGENTIC_GIT_HOME=$HOME/.agentic-git
	"$AG_BIN" run --agent dh --branch feat/dh -- true 2>/dev/null
	cd "$AGENTIC_GIT_HOME/worktrees/dh/feat/dh"
	unset AGENTIC_GIT_HOME
	AGENTIC_GIT_AGENT=dh run "$AG_BIN" check -- status
	assert_success
	assert_line "binding: bound"
	refute_output --partial "AGENTIC_GIT_HOME is not set"
}

@test "sessions does not list agentic-git's own state (net, sandbox-probe); run refuses those names" {
	"$AG_BIN" run --agent real --branch feat/real -- true 2>/dev/null
	mkdir -p "$AGENTIC_GIT_HOME/runtime/net" "$AGENTIC_GIT_HOME/runtime/sandbox-probe"
	run "$AG_BIN" sessions --json
	assert_success
	assert_equal "$(jq -r '[.[].agent] | join(",")' <<<"$output")" real
	run "$AG_BIN" sessions
	refute_output --partial "net "
	refute_output --partial "sandbox-probe"
	run "$AG_BIN" run --agent net -- true
	assert_equal "$status" 2
	assert_output --partial "invalid agent name 'net': reserved"
}

@test "one exit-code ladder: bare agentic-git and an unknown event are bad usage (2)" {
	run "$AG_BIN"
	assert_equal "$status" 2
	assert_output --partial "usage:"
	run "$AG_BIN" events --event nosuchevent
	assert_equal "$status" 2
	assert_output --partial "events: unknown event 'nosuchevent' (known: "
	assert_output --partial "snapshot_taken"
	assert_output --partial "deny_force_no_lease"
	run "$AG_BIN" events --event snapshot_taken,ref_update
	assert_success
	run "$AG_BIN" dispatch --nope
	assert_equal "$status" 2
}

@test "one duration syntax: every --since takes s, m, h, d and w" {
	"$AG_BIN" run --agent ds --branch feat/ds -- sh -c 'echo x >>README.md && git stash -q' 2>/dev/null
	wt=$AGENTIC_GIT_HOME/worktrees/ds/feat/ds
	for w in 30s 10m 2h 3d 1w; do
		run "$AG_BIN" events --since "$w"
		assert_success
		run "$AG_BIN" snapshots restore --repo "$wt" --since "$w" --agent ds
		[ "$status" -ne 2 ] || { echo "$output"; false; }
	done
	run "$AG_BIN" snapshots restore --repo "$wt" --since 1x
	assert_equal "$status" 2
	assert_output --partial "neither an age (30s, 10m, 2h, 3d, 1w) nor an RFC 3339 time"
}

@test "the shipped config.yaml.example shows fs+api, the policy the docs recommend" {
	mkdir -p "$T/cfg"
	cp "$BATS_TEST_DIRNAME/../../docs/config.yaml.example" "$T/cfg/c.yaml"
	chmod 600 "$T/cfg/c.yaml"
	mkdir -p "$T/pathbin"
	printf '#!/bin/sh\nexit 0\n' >"$T/pathbin/mytool"
	chmod 755 "$T/pathbin/mytool"
	PATH="$T/pathbin:$PATH" run "$AG_BIN" agents show claude --config "$T/cfg/c.yaml" --json
	assert_success
	assert_equal "$(jq -r .profile.sandbox <<<"$output")" fs+api
	grep -q 'fs+api' <(grep -n 'none | fs-only' "$T/cfg/c.yaml")
}

@test "run warns when the operator's uncommitted edits stay behind; not when clean" {
	run "$AG_BIN" run --agent w0 --branch feat/w0 -- true
	assert_success
	refute_output --partial "uncommitted change"
	echo edit >>README.md
	run "$AG_BIN" run --agent w1 --branch feat/w1 -- true
	assert_success
	assert_output --partial "warning: run: $REPO has 1 uncommitted change(s) that the session does not carry: it starts from the last commit of main"
	# the session indeed starts without them; the checkout keeps them
	assert_equal "$("$REAL_GIT" -C "$AGENTIC_GIT_HOME/worktrees/w1/feat/w1" diff --stat)" ""
	assert_equal "$("$REAL_GIT" status --porcelain)" " M README.md"
}
