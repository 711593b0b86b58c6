#!/usr/bin/env bats
# Issue 3, acceptance 2 and 3: agents never see or restore each other's
# snapshots, same-second snapshots are ordered, a restore can be undone,
# and an agent cannot delete, move or push snapshot refs.
load lib
load snapshot-lib

setup() {
	ag_setup
	export AGENTIC_GIT_SNAPSHOTS=1
}

@test "two agents on one repository never see or restore each other's snapshots" {
	ag_bind ag2 feat/two
	local wt2=$WT
	ag_bind ag1 feat/one
	(cd "$wt2" && echo "two's work" >>README.md &&
		AGENTIC_GIT_AGENT=ag2 PATH="$AGENTIC_GIT_HOME/bin:$PATH" git reset -q --hard)
	cd "$WT"
	echo "one's work" >>README.md
	agit reset -q --hard
	run "$AG_BIN" snapshots list --json
	assert_success
	assert_equal "$(echo "$output" | jq -r '.[].agent' | sort -u)" "ag1"
	assert_equal "$(echo "$output" | jq length)" 1
	# other agents and --all are out of an agent's reach
	must_fail "$AG_BIN" snapshots list --all
	assert_output --partial "may only see its own snapshots"
	must_fail "$AG_BIN" snapshots list --agent ag2
	local ref2
	ref2=$(AGENTIC_GIT_AGENT= "$AG_BIN" snapshots list --repo "$wt2" --agent ag2 --json | jq -r '.[0].ref')
	[[ "$ref2" == refs/agentic-git/snapshots/ag2/* ]]
	must_fail "$AG_BIN" snapshots restore "$ref2"
	assert_output --partial "belongs to agent 'ag2'"
	must_fail "$AG_BIN" snapshots show "$ref2"
	[ "$(tail -1 README.md)" = "hello" ]
	# the default restore picks ag1's own snapshot
	run "$AG_BIN" snapshots restore
	assert_success
	[ "$(tail -1 README.md)" = "one's work" ]
	# the operator sees everything
	run env AGENTIC_GIT_AGENT= "$AG_BIN" snapshots list --all --json
	assert_equal "$(echo "$output" | jq -r '.[].agent' | sort -u | tr '\n' ' ')" "ag1 ag2 "
}

@test "restore without a ref only considers the caller's work tree" {
	ag_bind ag1 feat/one
	cd "$WT"
	echo "in the worktree" >>README.md
	agit reset -q --hard
	cd "$REPO"
	must_fail "$AG_BIN" snapshots restore
	assert_output --partial "no snapshots to restore from"
}

stamp_of() { basename "$1" | cut -d- -f1; }
seq_of() { basename "$1" | cut -d- -f2; }

@test "same-second snapshots are ordered by creation, whatever their op" {
	local a b tries=0
	cd "$REPO"
	export AGENTIC_GIT_AGENT=solo
	while :; do
		echo "first $tries" >first.txt
		"$TEST_TOOL" snapshot "$REPO" reset
		echo "second $tries" >first.txt
		"$TEST_TOOL" snapshot "$REPO" clean -f
		a=$("$AG_BIN" snapshots list --json | jq -r '.[0].ref')
		b=$("$AG_BIN" snapshots list --json | jq -r '.[1].ref')
		[ "$(stamp_of "$a")" = "$(stamp_of "$b")" ] && break
		tries=$((tries + 1))
		[ $tries -lt 5 ] || skip "could not take two snapshots within one second"
	done
	# "clean" sorts before "reset" by name; the seq says clean is newer
	# (a retry may have left an earlier snapshot in the same second: the
	# seqs then start above 0)
	[[ "$a" == *-clean ]]
	[[ "$b" == *-reset ]]
	[ "$(seq_of "$a")" -eq "$(($(seq_of "$b") + 1))" ]
	rm first.txt
	run "$AG_BIN" snapshots restore --yes
	assert_success
	assert_output --partial "$a"
	[ "$(cat first.txt)" = "second $tries" ]
}

@test "several snapshots: restore refuses to guess without --yes" {
	cd "$REPO"
	echo one >a.txt
	"$TEST_TOOL" snapshot "$REPO" reset
	echo two >a.txt
	"$TEST_TOOL" snapshot "$REPO" checkout
	run "$AG_BIN" snapshots restore
	assert_equal "$status" 2
	assert_output --partial "2 snapshots exist — refusing to guess."
	assert_output --partial "--yes"
}

@test "a restore can itself be undone" {
	ag_bind ag1 feat/one
	cd "$WT"
	make_work
	local work_a work_b ref undo
	work_a=$(tree_state .)
	agit reset -q --hard
	ref=$(newest_ref reset)
	echo "work b" >b-only.txt
	echo "b edit" >>README.md
	work_b=$(tree_state .)
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_output --partial "undo with:"
	undo=$(echo "$output" | sed -n 's/^ *agentic-git snapshots restore //p')
	[[ "$undo" == "--repo $WT refs/agentic-git/snapshots/ag1/"*-restore ]]
	# the restore is non-destructive: b-only.txt (newer) is still there
	[ -f b-only.txt ]
	# the undo hint works as printed, from any directory
	cd "$T"
	# shellcheck disable=SC2086
	run "$AG_BIN" snapshots restore $undo
	cd "$WT"
	assert_success
	# forced.log came back with the first restore and, restores being
	# non-destructive, the undo leaves it
	assert_equal "$(tree_state . | without forced.log)" "$work_b"
	[ "$(tail -1 README.md)" = "b edit" ]
}

@test "restore --staged leaves the paths staged, the default unstaged" {
	cd "$REPO"
	echo "edit" >>README.md
	"$TEST_TOOL" snapshot "$REPO" reset
	"$REAL_GIT" reset -q --hard
	run "$AG_BIN" snapshots restore
	assert_success
	assert_output --partial "left unstaged"
	[ -z "$("$REAL_GIT" diff --cached --name-only)" ]
	"$REAL_GIT" reset -q --hard
	run "$AG_BIN" snapshots restore --yes --staged
	assert_success
	assert_output --partial "left staged in the index"
	assert_equal "$("$REAL_GIT" diff --cached --name-only)" "README.md"
}

@test "the pre-restore save is fail-closed: nothing changes when it fails" {
	cd "$REPO"
	echo "saved" >>README.md
	"$TEST_TOOL" snapshot "$REPO" reset
	echo "unsaved" >README.md
	# the save can neither link the index in .git nor copy it to TMPDIR
	prereq "a directory that takes no new names" no_links .git
	TMPDIR=/nonexistent/dir run "$AG_BIN" snapshots restore
	allow_links .git
	assert_equal "$status" 1
	assert_output --partial "could not save the current state before restoring"
	[ "$(cat README.md)" = "unsaved" ]
}

@test "an agent cannot delete, move or push snapshot refs" {
	ag_bind ag1 feat/one
	cd "$WT"
	echo "work" >>README.md
	agit reset -q --hard
	local ref sha
	ref=$(newest_ref reset)
	sha=$("$REAL_GIT" rev-parse "$ref")
	must_fail agit update-ref -d "$ref"
	must_fail agit update-ref "$ref" HEAD
	must_fail agit update-ref refs/agentic-git/snapshots/ag1/moved "$ref"
	must_fail agit push origin "$ref"
	must_fail agit push origin "$ref:refs/heads/stolen"
	must_fail agit push origin "refs/agentic-git/*:refs/agentic-git/*"
	must_fail agit push --mirror origin
	must_fail agit symbolic-ref "$ref" refs/heads/main
	must_fail agit reflog expire --expire=now --all
	assert_equal "$("$REAL_GIT" rev-parse "$ref")" "$sha"
	run "$REAL_GIT" -C "$ORIGIN" for-each-ref refs/agentic-git/ refs/heads/stolen
	assert_output ""
}
