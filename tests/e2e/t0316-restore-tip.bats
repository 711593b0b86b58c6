#!/usr/bin/env bats
# Restore covers the tip (issue 33; PRODUCT.md §5): a restore says where
# the snapshot's branch was and prints the command that puts it back;
# `restore --head` does, and its undo covers the branch too. A dropped
# stash comes back under its own message.
load lib
load snapshot-lib

setup() {
	snapshot_agent feat/a
	echo one >one.txt
	"$REAL_GIT" add one.txt
	"$REAL_GIT" -c core.hooksPath=/dev/null commit -qm one
	echo two >two.txt
	"$REAL_GIT" add two.txt
	"$REAL_GIT" -c core.hooksPath=/dev/null commit -qm two
	TWO=$("$REAL_GIT" rev-parse HEAD)
	echo "unsaved" >>README.md
	# the agent drops its last commit and the edit with it
	agit reset -q --hard HEAD~1
	ONE=$("$REAL_GIT" rev-parse HEAD)
	SNAP=$(newest_ref reset)
	[ -n "$SNAP" ]
}

# as_operator CMD…: the operator's shell, anywhere
as_operator() {
	(cd / && env -u AGENTIC_GIT_AGENT "$@")
}

@test "a snapshot records the branch it was taken on" {
	"$REAL_GIT" cat-file commit "$SNAP" | grep -qx "Agentic-Snapshot-Branch: refs/heads/feat/a"
	"$REAL_GIT" cat-file commit "$SNAP" | grep -qx "Agentic-Snapshot-Head: $TWO"
}

@test "restore --since says the branch moved and prints the command that puts it back" {
	run as_operator "$AG_BIN" snapshots restore --repo "$WT" --since 1h
	assert_success
	assert_output --partial "the branch 'feat/a' is at $ONE now; the snapshot was taken at $TWO"
	# the files came back, the branch did not move
	grep -q unsaved "$WT/README.md"
	assert_equal "$("$REAL_GIT" rev-parse feat/a)" "$ONE"
	local cmd
	cmd=$(echo "$output" | grep -A1 "To put it back there too" | tail -1)
	[[ $cmd == *"agentic-git snapshots restore --repo $WT --head $SNAP" ]]
	run as_operator "$AG_BIN" ${cmd#*agentic-git }
	assert_success
	assert_equal "$("$REAL_GIT" rev-parse feat/a)" "$TWO"
	# the restored state: the commit back, the edit unstaged on top
	assert_equal "$("$REAL_GIT" status --porcelain)" " M README.md"
	[ -f two.txt ]
}

@test "restore --head puts the branch back, and its printed undo moves it back too" {
	run as_operator "$AG_BIN" snapshots restore --repo "$WT" --head "$SNAP"
	assert_success
	assert_output --partial "branch 'feat/a' is back at $TWO (it was at $ONE)"
	assert_equal "$("$REAL_GIT" rev-parse feat/a)" "$TWO"
	grep -q unsaved README.md
	# the branch's move is journaled with its old id
	assert_equal "$(events | jq -r 'select(.event=="ref_update" and .subcommand=="restore") | .old')" "$ONE"
	local undo
	undo=$(echo "$output" | sed -n 's/^ *agentic-git snapshots restore //p' | tail -1)
	[[ $undo == "--repo $WT --head refs/agentic-git/snapshots/noagent/"*-restore ]]
	run as_operator "$AG_BIN" snapshots restore $undo
	assert_success
	assert_equal "$("$REAL_GIT" rev-parse feat/a)" "$ONE"
}

@test "restore --since --head puts the branch where the oldest step found it" {
	agit clean -fdq # a second destructive command: nothing to lose here
	run as_operator "$AG_BIN" snapshots restore --repo "$WT" --since 1h --head
	assert_success
	assert_equal "$("$REAL_GIT" rev-parse feat/a)" "$TWO"
	assert_output --partial "undo all of it with:"
	assert_output --partial "--head refs/agentic-git/snapshots/noagent/"
}

@test "restore --head is refused when the work tree is on another branch, and changes nothing" {
	"$REAL_GIT" -c core.hooksPath=/dev/null switch -q -c other
	local before
	before=$(tree_state .)
	run as_operator "$AG_BIN" snapshots restore --repo "$WT" --head "$SNAP"
	assert_failure
	assert_output --partial "--head refused: the snapshot was taken on 'feat/a', and this work tree is on 'other'; nothing was changed"
	assert_equal "$("$REAL_GIT" rev-parse feat/a)" "$ONE"
	assert_equal "$(tree_state .)" "$before"
	"$REAL_GIT" -c core.hooksPath=/dev/null switch -q --detach
	run as_operator "$AG_BIN" snapshots restore --repo "$WT" --head "$SNAP"
	assert_failure
	assert_output --partial "this work tree is on a detached HEAD"
}

@test "restore --head is refused for a branch checked out in another work tree" {
	# feat/a moves to a second work tree: the snapshot's branch is there
	"$REAL_GIT" -c core.hooksPath=/dev/null switch -q --detach
	"$REAL_GIT" worktree add -q "$T/elsewhere" feat/a
	run as_operator "$AG_BIN" snapshots restore --repo "$T/elsewhere" --any-worktree --head "$SNAP"
	assert_success # there it is the checked-out branch: it moves
	assert_equal "$("$REAL_GIT" rev-parse feat/a)" "$TWO"
	"$REAL_GIT" -C "$T/elsewhere" -c core.hooksPath=/dev/null reset -q --hard "$ONE"
	run as_operator "$AG_BIN" snapshots restore --repo "$WT" --head "$SNAP"
	assert_failure
	assert_output --partial "'feat/a' is checked out in work tree '$T/elsewhere'"
	assert_equal "$("$REAL_GIT" rev-parse feat/a)" "$ONE"
}

@test "a deleted branch's tip-only snapshot: restore prints the command, --head recreates it" {
	"$AG_BIN" end --agent ag1 --force >/dev/null 2>&1 || true
	cd "$REPO"
	"$AG_BIN" run --agent ag2 --branch feat/b -- true 2>/dev/null
	local wt2=$AGENTIC_GIT_HOME/worktrees/ag2/feat/b tip kept
	cd "$wt2"
	"$REAL_GIT" checkout -q -b scratch
	echo s >s.txt
	"$REAL_GIT" add s.txt
	"$REAL_GIT" -c core.hooksPath=/dev/null commit -qm scratch
	tip=$("$REAL_GIT" rev-parse HEAD)
	"$REAL_GIT" checkout -q feat/b
	"$REAL_GIT" branch -q -D scratch
	kept=$("$REAL_GIT" for-each-ref --format='%(refname)' 'refs/agentic-git/snapshots/ag2/*-branch-delete')
	[ -n "$kept" ]
	run as_operator "$AG_BIN" snapshots show --repo "$wt2" "$kept"
	assert_success
	assert_output --partial "kept        refs/heads/scratch at $tip"
	refute_output --partial "changes saved"
	run as_operator "$AG_BIN" snapshots restore --repo "$wt2" "$kept"
	assert_success
	assert_output --partial "the branch 'scratch' no longer exists; it was at $tip"
	run as_operator "$AG_BIN" snapshots restore --repo "$wt2" --head "$kept"
	assert_success
	assert_equal "$("$REAL_GIT" rev-parse refs/heads/scratch)" "$tip"
	assert_equal "$("$REAL_GIT" rev-parse HEAD)" "$("$REAL_GIT" rev-parse feat/b)"
}

@test "a dropped stash comes back under its own message" {
	echo "stash me" >>README.md
	agit stash push -q -m "my precious work"
	echo "stash me too" >>README.md
	agit stash push -q
	local before
	before=$(agit stash list --format=%gs)
	[ -n "$before" ]
	agit stash clear
	[ -z "$(agit stash list)" ]
	run as_operator "$AG_BIN" snapshots restore --repo "$WT" "$(newest_ref stash)"
	assert_success
	assert_equal "$("$REAL_GIT" stash list --format=%gs)" "$before"
	"$REAL_GIT" stash list | grep -q "On feat/a: my precious work"
}
