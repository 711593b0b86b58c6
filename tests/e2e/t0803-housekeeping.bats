#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# git's housekeeping under the ref-transaction lock (issue 34 point 4):
# gc, pack-refs and maintenance run in a session with other agents' refs,
# are not refused, keep no false "branch-delete" snapshot and are
# journaled as housekeeping; an agent's real move of another's branch is
# still refused after the refs are packed.
load lib
bats_require_minimum_version 1.5.0

setup() {
	ag_setup
	cd "$REPO"
	"$REAL_GIT" tag v1
	for a in ag1 ag2 ag3; do
		"$AG_BIN" run --agent "$a" --branch "feat/$a" -- sh -c \
			'echo x >>f && git add f && git commit -qm "c $0" && echo y >>f && git checkout -- f' "$a" \
			>/dev/null 2>&1
	done
}

@test "t0803: gc, pack-refs and maintenance run in a session among other agents' refs" {
	before=$("$REAL_GIT" for-each-ref --format='%(objectname) %(refname)' refs/heads refs/tags)
	run "$AG_BIN" run --agent ag1 --branch feat/ag1 -- sh -c '
		git pack-refs --all; echo pack-refs=$?
		echo z >>g && git add g && git commit -qm d
		git gc -q; echo gc=$?
		echo w >>g && git commit -qam e
		git maintenance run --task=pack-refs; echo maintenance=$?
		git maintenance run --task=gc; echo maintenance-gc=$?
		echo v >>g && git commit -qam f
		git -c gc.auto=1 -c gc.autoPackLimit=1 gc --auto; echo gc-auto=$?'
	echo "$output"
	assert_success
	assert_output --partial "pack-refs=0"
	assert_output --partial "gc=0"
	assert_output --partial "maintenance=0"
	assert_output --partial "maintenance-gc=0"
	assert_output --partial "gc-auto=0"
	refute_output --partial "refused"
	refute_output --partial "aborted by hook"
	# no tip was dropped: no false keep of a "deleted" branch
	refute_output --partial "which no other ref holds"
	run "$REAL_GIT" for-each-ref --format='%(refname)' 'refs/agentic-git/snapshots/*/*-branch-delete'
	assert_output ""
	# the refs were packed, and every other ref is where it was
	grep -q refs/heads/feat/ag2 "$REPO/.git/packed-refs"
	after=$("$REAL_GIT" for-each-ref --format='%(objectname) %(refname)' refs/heads refs/tags)
	diff <(echo "$before" | grep -v feat/ag1) <(echo "$after" | grep -v feat/ag1)
	[ "$("$REAL_GIT" log --format=%s -1 feat/ag1)" = f ]
	# the pruned loose files are journaled as housekeeping, not deletions
	run jq -r 'select(.event == "ref_update" and .housekeeping == true) | .ref' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output --partial "refs/heads/feat/ag1"
	"$REAL_GIT" fsck --no-progress --no-dangling
}

@test "t0803: after the refs are packed an agent's move of another's branch is still refused" {
	"$REAL_GIT" pack-refs --all
	run "$AG_BIN" run --agent ag1 --branch feat/ag1 -- sh -c '
		git pack-refs --all; echo pack-refs=$?
		GIT_DIR= "$AGENTIC_GIT_REAL_GIT" update-ref refs/heads/feat/ag2 HEAD; echo move=$?
		"$AGENTIC_GIT_REAL_GIT" update-ref -d refs/heads/feat/ag3; echo delete=$?'
	echo "$output"
	assert_output --partial "pack-refs=0"
	assert_output --partial "move=1"
	assert_output --partial "delete=1"
	assert_output --partial "ref update refused for agent 'ag1'"
	[ "$("$REAL_GIT" log --format=%s -1 feat/ag2)" = "c ag2" ]
	[ "$("$REAL_GIT" log --format=%s -1 feat/ag3)" = "c ag3" ]
}
