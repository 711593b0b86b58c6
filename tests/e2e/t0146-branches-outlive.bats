#!/usr/bin/env bats
# Branches outlive sessions (issue 33; PRODUCT.md §5): an ended session's
# branch stays protected from other agents until the operator deletes it,
# and every ref deletion or force-move in a session is journaled with its
# old id, the dropped tip kept when no other ref holds it.
load lib

setup() {
	ag_setup
	cd "$REPO"
	# alice's session leaves a commit on feat/a, then ends
	"$AG_BIN" run --agent alice --branch feat/a -- sh -c \
		'echo a >a.txt && git add a.txt && git commit -qm "alice work"' 2>/dev/null
	"$AG_BIN" end --agent alice --force >/dev/null
	TIP_A=$("$REAL_GIT" rev-parse refs/heads/feat/a)
	"$AG_BIN" run --agent bob --branch feat/b -- true 2>/dev/null
	WT=$AGENTIC_GIT_HOME/worktrees/bob/feat/b
	cd "$WT"
}

# as_bob GIT...: bob's git through the shim
as_bob() {
	run env PATH="$AGENTIC_GIT_HOME/bin:$PATH" AGENTIC_GIT_AGENT=bob git "$@"
}

# raw GIT...: real git in bob's worktree, no shim, no agent variables
raw() {
	run env -u AGENTIC_GIT_AGENT -u AGENTIC_GIT_HOME "$REAL_GIT" "$@"
}

ref_events() {
	events | jq -c "select(.event==\"ref_update\" and .ref==\"$1\")"
}

@test "an ended session's branch is kept from other agents, by the shim and by real git" {
	assert_equal "$("$REAL_GIT" rev-parse refs/heads/feat/a)" "$TIP_A"
	as_bob branch -D feat/a
	assert_failure
	assert_output --partial "'feat/a' is the branch of an ended session"
	raw branch -D feat/a
	assert_failure
	assert_output --partial "'feat/a' is the branch of an ended session"
	raw branch -f feat/a main
	assert_failure
	raw update-ref refs/heads/feat/a HEAD
	assert_failure
	raw update-ref -d refs/heads/feat/a
	assert_failure
	assert_equal "$("$REAL_GIT" rev-parse refs/heads/feat/a)" "$TIP_A"
	# the operator deletes it (no session): then the name is free again
	"$REAL_GIT" -C "$REPO" branch -D feat/a
	raw branch feat/a HEAD
	assert_success
}

# scratch_branch NAME: a branch of bob's own with a commit nothing else has
scratch_branch() {
	raw checkout -q -b "$1"
	echo "$1" >"$1.txt"
	raw add "$1.txt"
	raw -c core.hooksPath=/dev/null commit -qm "$1"
	raw checkout -q feat/b
	"$REAL_GIT" rev-parse "refs/heads/$1"
}

# deletion_records REF: the journal's deletions of REF
deletion_records() {
	events | jq -c "select(.event==\"ref_update\" and .ref==\"$1\" and (.new|test(\"^0+\$\")))"
}

@test "a branch deletion is journaled with its old id, its tip kept, undone by the printed command" {
	local tip kept undo
	tip=$(scratch_branch scratch)
	as_bob branch -D scratch
	assert_success
	assert_output --partial "branch 'scratch' was at $tip, which no other ref holds: kept as refs/agentic-git/snapshots/bob/"
	# one journal record, with the old id (git deletes in two transactions)
	run deletion_records refs/heads/scratch
	assert_equal "${#lines[@]}" 1
	assert_equal "$(echo "$output" | jq -r .old)" "$tip"
	kept=$(echo "$output" | jq -r .kept)
	[[ $kept == refs/agentic-git/snapshots/bob/*-branch-delete ]]
	assert_equal "$("$REAL_GIT" rev-parse "$kept^1")" "$tip"
	"$REAL_GIT" cat-file commit "$kept" | grep -qx "Agentic-Snapshot-Kept: refs/heads/scratch"
	undo=$(events | jq -r 'select(.event=="snapshot_taken" and .kept=="refs/heads/scratch") | .ref')
	assert_equal "$undo" "$kept"
}

@test "the command a deletion prints puts the branch back at its old id" {
	local tip cmd
	tip=$(scratch_branch scratch)
	as_bob branch -D scratch
	assert_success
	cmd=$(echo "$output" | sed -n 's/.*to put it back: //p')
	[ -n "$cmd" ]
	(cd / && eval "$cmd")
	assert_equal "$("$REAL_GIT" rev-parse refs/heads/scratch)" "$tip"
}

@test "a force-move is journaled with its old id and its dropped tip kept" {
	local tip
	tip=$(scratch_branch scratch)
	raw branch -f scratch main
	assert_success
	assert_output --partial "branch 'scratch' was at $tip, which no other ref holds now"
	run events
	assert_equal "$(events | jq -r 'select(.event=="ref_update" and .ref=="refs/heads/scratch" and .subcommand=="branch") | .old' | tail -1)" "$tip"
	[[ $(events | jq -r 'select(.event=="ref_update" and .ref=="refs/heads/scratch") | .kept // empty' | tail -1) == *-branch-move ]]
}

@test "a deletion whose commits another ref holds is journaled and keeps nothing" {
	local before tip
	raw branch copy HEAD
	tip=$("$REAL_GIT" rev-parse HEAD)
	before=$("$REAL_GIT" for-each-ref refs/agentic-git/ | wc -l)
	raw branch -D copy
	assert_success
	refute_output --partial "kept as"
	run deletion_records refs/heads/copy
	assert_equal "${#lines[@]}" 1
	assert_equal "$(echo "$output" | jq -r .old)" "$tip"
	assert_equal "$(echo "$output" | jq -r '.kept // "none"')" none
	assert_equal "$("$REAL_GIT" for-each-ref refs/agentic-git/ | wc -l)" "$before"
}

@test "an amend keeps the tip it replaces; a plain commit keeps nothing" {
	local before tip
	raw -c core.hooksPath=/dev/null commit -q --allow-empty -m one
	before=$("$REAL_GIT" for-each-ref refs/agentic-git/ | wc -l)
	raw commit -q --allow-empty -m two
	assert_success
	assert_equal "$("$REAL_GIT" for-each-ref refs/agentic-git/ | wc -l)" "$before"
	tip=$("$REAL_GIT" rev-parse HEAD)
	raw commit -q --amend --allow-empty -m two-again
	assert_success
	assert_output --partial "branch 'feat/b' was at $tip, which no other ref holds now"
	assert_equal "$("$REAL_GIT" for-each-ref refs/agentic-git/ | wc -l)" "$((before + 1))"
}
