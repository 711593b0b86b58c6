#!/usr/bin/env bats
# `agentic-git check -- <git argv…>`: the shim's verdict without running it.
load lib
load shimlib

setup() {
	ag_setup
	ag_bind ag1 feat/a
	cd "$WT"
}

@test "check prints a deny verdict with the message and exits 1, running nothing" {
	run "$AG_BIN" check -- checkout main
	assert_equal "$status" 1
	assert_line "verdict: deny"
	assert_line "subcommand: checkout"
	assert_line "binding: bound"
	assert_line "event: deny"
	assert_output --partial "cross-branch"
	assert_output --partial "'main'"
	assert_equal "$(branch_of "$WT")" feat/a
	assert_events 0
}

@test "check prints a route verdict with the exec line and exits 0" {
	cd "$REPO"
	run "$AG_BIN" check -- commit -m x
	assert_success
	assert_line "verdict: route"
	assert_line "exec: git -C $WT commit -m x"
	assert_equal "$(head_of "$WT")" "$(head_of "$REPO")"
}

@test "check --json is one JSON object" {
	run "$AG_BIN" check --json -- push -f origin feat/a
	assert_equal "$status" 1
	run jq -r '.verdict, .event, .subcommand, .binding' <<<"$output"
	assert_success
	assert_output $'deny\ndeny_force_no_lease\npush\nbound'
	run "$AG_BIN" check --json -- status
	assert_success
	run jq -r '.verdict, (.args | join(" "))' <<<"$output"
	assert_output $'route\n-C '"$WT"$' status'
}

@test "check for the operator and an unbound agent" {
	unset AGENTIC_GIT_AGENT
	run "$AG_BIN" check -- reset --hard
	assert_success
	assert_line "verdict: pass"
	assert_line "binding: no agent"
	export AGENTIC_GIT_AGENT=ag9
	cd "$REPO"
	run "$AG_BIN" check -- commit -m x
	assert_equal "$status" 1
	assert_output --partial "unbound"
	run "$AG_BIN" check -- log
	assert_success
	assert_line "verdict: pass"
}

@test "check usage errors exit 2" {
	run "$AG_BIN" check
	assert_equal "$status" 2
	assert_output --partial "missing '--'"
	run "$AG_BIN" check status
	assert_equal "$status" 2
	run "$AG_BIN" check --bogus -- status
	assert_equal "$status" 2
	assert_output --partial "unknown option"
	run "$AG_BIN" check --help
	assert_success
	assert_output --partial "usage: agentic-git check"
}
