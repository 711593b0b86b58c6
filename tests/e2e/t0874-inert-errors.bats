#!/usr/bin/env bats
# Issue 32 point 4: every error, warning and die message is inert
# (base/die.c): an argument's control characters made visible, and a
# newline one carries never starts a line of its own.
load lib
load inert

setup() {
	ag_setup
	cd "$REPO"
}

@test "an error naming the caller's string prints it escaped, on one line" {
	run "$AG_BIN" snapshots show "refs/agentic-git/snapshots/x$HOSTILE"
	assert_equal "$status" 2
	assert_shows "$output" "the error"
	assert_equal "${#lines[@]}" 1
	run "$AG_BIN" events --since "$HOSTILE"
	assert_equal "$status" 2
	assert_shows "$output" "the usage error"
	run "$AG_BIN" end --agent "a$HOSTILE"
	assert_equal "$status" 2
	assert_shows "$output" "end's refusal"
}

@test "a newline in an argument continues the message, indented" {
	run "$AG_BIN" snapshots list --repo $'/nonexistent\nagentic-git: all good'
	assert_failure
	assert_inert "$output"
	assert_line --partial "agentic-git: snapshots list: '/nonexistent"
	# the injected text only ever continues a message, indented: no line
	# of agentic-git's own starts with it
	assert_line --partial "    agentic-git: all good"
	refute_line --regexp '^agentic-git: all good'
}
