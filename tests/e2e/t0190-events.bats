#!/usr/bin/env bats
# Issue 2 acceptance item 4: an agent's commands produce exactly the
# fleet_events.jsonl records the contract names — one per deny, with the six
# envelope fields, and none for allowed commands.
load lib
load shimlib

setup() {
	ag_setup
	"$REAL_GIT" -C "$REPO" branch other
	ag_bind_two
	commit_file "$WT" work.txt
	cd "$WT"
}

# only_event EVENT SUB DISPOSITION: the log holds exactly one record, that one.
only_event() {
	assert_events 1
	assert_last_event "$@"
	local rec
	rec=$(events)
	# the envelope is complete and the extra fields are there
	assert_equal "$(jq -r 'keys_unsorted | map(select(. == "kind" or . == "event" or . == "disposition" or . == "agent" or . == "subcommand" or . == "timestamp")) | length' <<<"$rec")" 6
	rm -f "$AGENTIC_GIT_HOME/fleet_events.jsonl"
}

@test "each deny kind writes exactly one record with its event name" {
	run agit checkout main
	only_event deny checkout
	run agit branch -D main
	only_event deny_protected_ref branch
	run agit push origin HEAD:other
	only_event deny_cross_branch_push push
	run agit push -f origin feat/a
	only_event deny_force_no_lease push
	run agit push origin HEAD:refs/agentic-git/x
	only_event deny_snapshot_ref_push push
	commit_file "$WT" fleet.yaml
	run agit push origin feat/a
	only_event deny_trust_root push
	cd "$WT2"
	run agit status
	only_event deny_cross_agent_sibling status
	cd "$WT"
	AGENTIC_GIT_BYPASS=1 run agit -C "$WT" branch -f master HEAD
	only_event bypass_mutating_op branch warn
}

@test "a deny record carries target_branch null and the reason" {
	run agit checkout main
	run jq -r '(.target_branch | tostring), .reason' <<<"$(events)"
	assert_line --index 0 null
	assert_line --index 1 --partial "cross-branch — assigned to 'feat/a', cannot switch to 'main'"
}

@test "the sibling record names both agents and the target" {
	cd "$WT2"
	run agit log -1
	run jq -r .reason <<<"$(events)"
	assert_output "caller=ag1 target_agent=ag2 target=$WT2"
}

@test "a conflict writes git_conflict" {
	commit_file "$WT" README.md "agent line"
	commit_file "$REPO" README.md "operator line"
	run agit merge --no-edit main
	assert_equal "$(count_of git_conflict)" 1
	assert_last_event git_conflict merge warn
}

@test "unbound, global-option and forbidden denies are plain deny records" {
	run agit --frob status
	only_event deny status
	run agit credential fill </dev/null
	only_event deny credential
	run agit submodule--helper list
	only_event deny submodule--helper
	run agit worktree add ../x
	only_event deny worktree
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	run agit -C "$REPO" -c user.name=x clean -fd
	only_event deny clean
}

@test "allowed commands produce no record" {
	run agit status
	run agit log -1
	run agit diff
	run agit add -A
	run agit commit --allow-empty -q -m ok
	run agit branch topic
	run agit tag v1
	run agit fetch -q origin
	run agit push -q origin feat/a
	assert_success
	run agit -C "$REPO" status
	run agit switch feat/a
	run agit config user.name x
	assert_events 0
}

@test "no record for the operator, and none when AGENTIC_GIT_HOME is empty" {
	unset AGENTIC_GIT_AGENT
	run agit -C "$REPO" commit --allow-empty -q -m operator
	assert_success
	assert_events 0
	export AGENTIC_GIT_AGENT=ag1
	local bin=$AGENTIC_GIT_HOME/bin
	AGENTIC_GIT_HOME="" PATH="$bin:$PATH" run git checkout main
	assert_denied unbound
	assert_events 0
}
