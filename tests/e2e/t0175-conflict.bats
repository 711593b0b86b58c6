#!/usr/bin/env bats
# Conflict guidance after a failed rebase/merge (reference §3.10): the agent
# is told how to resolve and continue, git's exit status is kept, and a
# git_conflict record is written.
load lib
load shimlib

setup() {
	ag_setup
	ag_bind ag1 feat/a
	commit_file "$WT" README.md "agent line"
	commit_file "$REPO" README.md "operator line"
	cd "$WT"
}

# git's own status for the same operation on an identical copy
real_status() {
	"$REAL_GIT" worktree add -q --detach "$T/copy" feat/a
	local rc=0
	"$REAL_GIT" -C "$T/copy" "$@" >/dev/null 2>&1 || rc=$?
	"$REAL_GIT" -C "$T/copy" "${1}" --abort >/dev/null 2>&1 || true
	echo "$rc"
}

assert_guidance() {
	assert_output --partial "Merge conflict"
	assert_output --partial "git add"
	assert_output --partial -- "--continue"
	assert_output --partial "Do NOT abandon"
	assert_output --partial "README.md"
	refute_security
}

@test "a conflicting rebase prints the guidance and keeps git's status" {
	local want
	want=$(real_status rebase main)
	[ "$want" -ne 0 ]
	run agit rebase main
	assert_equal "$status" "$want"
	assert_guidance
	assert_output --partial "git rebase --continue"
	assert_equal "$(count_of git_conflict)" 1
	assert_last_event git_conflict rebase warn
	run jq -r .reason <<<"$(events)"
	assert_output --partial "resolve"
}

@test "a conflicting merge prints the guidance and keeps git's status" {
	local want
	want=$(real_status merge --no-edit main)
	run agit merge --no-edit main
	assert_equal "$status" "$want"
	assert_guidance
	assert_output --partial "git merge --continue"
	assert_last_event git_conflict merge warn
}

@test "a conflicting cherry-pick from the canonical checkout is guided too" {
	cd "$REPO"
	run agit cherry-pick main
	[ "$status" -ne 0 ]
	assert_guidance
	assert_last_event git_conflict cherry-pick warn
	assert_equal "$(branch_of "$REPO")" main
	run "$REAL_GIT" -C "$REPO" status --porcelain
	assert_output ""
}

@test "a failure without conflicts prints no guidance" {
	run agit merge no-such-branch
	[ "$status" -ne 0 ]
	refute_output --partial "Merge conflict"
	assert_equal "$(count_of git_conflict)" 0
}

@test "a clean merge succeeds quietly" {
	"$REAL_GIT" reset -q --hard HEAD~1
	commit_file "$WT" other.txt
	run agit merge -q --no-edit main
	assert_success
	refute_output --partial "Merge conflict"
	run jq -r .event <<<"$(events)"
	refute_output --partial git_conflict
}
