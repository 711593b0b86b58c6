#!/usr/bin/env bats
# Issue 3, acceptance 1: every destructive operation through the shim is
# undone by `snapshots restore`, byte for byte (modified, staged, untracked,
# force-added ignored and plain ignored files, odd names, an empty
# directory, binaries, an executable).
load lib
load snapshot-lib

setup() {
	snapshot_agent feat/one
}

# roundtrip EXPECT_CHANGE ADDED_FILES OP ARGS…: make work, run the op through
# the shim, restore its snapshot, compare with the state before the op
# (ignoring ADDED_FILES, files the op itself brought in, which restore
# leaves alone by design).
roundtrip() {
	local expect_change=$1 added=$2 before after ref slug
	shift 2
	make_work
	before=$(tree_state .)
	run agit "$@"
	echo "op: $status $output"
	refute_output --partial "snapshot FAILED"
	after=$(tree_state . | without $added)
	if [ "$expect_change" = yes ] && [ "$after" = "$before" ]; then
		fail "the operation '$*' destroyed nothing: the test proves nothing"
	fi
	slug=$1
	ref=$(newest_ref "$slug")
	[ -n "$ref" ] || fail "no $slug snapshot was taken"
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	after=$(tree_state . | without $added)
	assert_equal "$after" "$before"
}

@test "reset --hard is undone" {
	roundtrip yes "" reset --hard
}

# A `--` that is an option's value ends no options: git reads the pathspecs
# from a file named `--` (here empty) and resets hard; the shim saw the
# options end at that `--` and took no snapshot.
@test "reset --pathspec-from-file -- --hard (a file named --) is undone" {
	: >./--
	roundtrip yes "" reset --pathspec-from-file -- --hard
}

@test "reset --merge is undone" {
	roundtrip yes "" reset --merge
}

@test "checkout -- . is undone" {
	roundtrip yes "" checkout -- .
}

@test "checkout -f other-file is undone" {
	roundtrip yes "" checkout -f README.md
}

@test "restore . is undone" {
	roundtrip yes "" restore .
}

@test "switch --discard-changes is undone" {
	roundtrip yes "" switch --discard-changes feat/one
}

@test "clean -fd is undone, the empty directories included" {
	roundtrip yes "" clean -fd
}

@test "clean -fdx is undone, ignored files come back from the quarantine" {
	roundtrip yes "" clean -fdx
	[ "$(cat .env)" = "SECRET=1" ]
	[ -d empty/nested ]
}

@test "clean -fX quarantines only ignored files" {
	roundtrip yes "" clean -fX
}

@test "stash drop is undone: the dropped entry comes back" {
	echo "stash me" >>README.md
	"$REAL_GIT" stash push -q -m keep-me
	local sha
	sha=$("$REAL_GIT" rev-parse stash@{0})
	roundtrip no "" stash drop
	run "$REAL_GIT" stash list --format=%H
	assert_output "$sha"
}

@test "stash clear is undone: every entry comes back in order" {
	echo one >>README.md
	"$REAL_GIT" stash push -q -m one
	echo two >>README.md
	"$REAL_GIT" stash push -q -m two
	local want
	want=$("$REAL_GIT" stash list --format=%H)
	roundtrip no "" stash clear
	run "$REAL_GIT" stash list --format=%H
	assert_output "$want"
}

upstream_commit() {
	(cd "$REPO" && echo "upstream" >upstream.txt &&
		"$REAL_GIT" add upstream.txt && "$REAL_GIT" commit -q -m upstream)
}

# git refuses merge/cherry-pick/rebase over staged work; the snapshot is
# still taken first, and the work is intact after the restore.
@test "merge with work in progress: snapshot taken, work intact" {
	upstream_commit
	roundtrip no "upstream.txt" merge --no-edit main
}

@test "cherry-pick with work in progress: snapshot taken, work intact" {
	upstream_commit
	roundtrip no "upstream.txt" cherry-pick main
}

@test "a merge that runs over untracked and ignored work keeps it restorable" {
	upstream_commit
	echo "untracked notes" >notes.txt
	echo "SECRET=1" >.env
	local before ref
	before=$(tree_state .)
	run agit merge --no-edit main
	assert_success
	[ -f upstream.txt ]
	ref=$(newest_ref merge)
	[ -n "$ref" ]
	rm notes.txt
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_output --partial "Restored "
	[ "$(cat notes.txt)" = "untracked notes" ]
	assert_equal "$(tree_state . | without upstream.txt)" "$before"
}

@test "rebase with work in progress: snapshot taken, work intact" {
	upstream_commit
	roundtrip no "" rebase main
}

@test "clean.requireForce=false: an agent's clean without -f is refused by git, the -f form is snapshotted" {
	ag_bind ag1 feat/cf
	cd "$WT"
	echo "*.env" >.gitignore
	"$REAL_GIT" add .gitignore && "$REAL_GIT" commit -qm ignore
	echo "SECRET=1" >local.env
	echo "scratch" >notes.txt
	"$REAL_GIT" config clean.requireForce false
	run agit clean -dx
	assert_failure
	assert_output --partial "requireForce"
	[ -f local.env ]
	[ -f notes.txt ]
	# the operator's own clean keeps the operator's config
	(unset AGENTIC_GIT_AGENT; "$REAL_GIT" clean -n -dx | grep -q local.env)
	AGENTIC_GIT_SNAPSHOTS=1 run agit clean -dxq -f
	assert_success
	[ ! -e local.env ]
	run "$AG_BIN" snapshots restore --since 1h
	assert_success
	[ "$(cat local.env)" = "SECRET=1" ]
	[ "$(cat notes.txt)" = scratch ]
}

# An ignored file that another tree tracks: git writes that tree's version
# over it without a word, and `add -A` (the capture) never sees it.
# other_tracks_env BRANCH: BRANCH tracks .env ("tracked"), the agent's
# branch ignores it and holds a local .env ("SECRET=1").
other_tracks_env() {
	(cd "$REPO" && "$REAL_GIT" checkout -q -b "$1" main &&
		echo tracked >.env && "$REAL_GIT" add -f .env &&
		"$REAL_GIT" commit -qm "track .env" &&
		"$REAL_GIT" checkout -q main)
	echo ".env" >>.gitignore
	"$REAL_GIT" add .gitignore && "$REAL_GIT" commit -qm "ignore .env"
	echo "SECRET=1" >.env
}

# env_restored SLUG: the newest SLUG snapshot brings the ignored .env's
# unsaved "SECRET=1" back (run at the work tree's top).
env_restored() {
	local ref
	ref=$(newest_ref "$1")
	[ -n "$ref" ] || fail "no $1 snapshot was taken"
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	[ "$(cat .env)" = "SECRET=1" ]
}

# ignored_overwrite_undone SLUG OP ARGS…
ignored_overwrite_undone() {
	local slug=$1
	shift
	run agit "$@"
	echo "op: $status $output"
	assert_success
	[ "$(cat .env)" = tracked ] ||
		fail "'$*' did not overwrite the ignored .env: the test proves nothing"
	env_restored "$slug"
}

@test "checkout <branch> -- <ignored file> is undone" {
	other_tracks_env other
	ignored_overwrite_undone checkout checkout other -- .env
}

@test "checkout <branch> <ignored file> (no --) is undone" {
	other_tracks_env other
	ignored_overwrite_undone checkout checkout other .env
}

@test "checkout <branch> -- . overwrites only what the branch has: the ignored .env is undone" {
	other_tracks_env other
	echo "build output" >big.log
	ignored_overwrite_undone checkout checkout other -- .
}

@test "restore --source=<branch> <ignored file> is undone" {
	other_tracks_env other
	ignored_overwrite_undone restore restore --source=other .env
}

@test "restore -s <branch> (stuck, -sother) <ignored file> is undone" {
	other_tracks_env other
	ignored_overwrite_undone restore restore -sother -- .env
}

# docs/fuzzing.md I27: a tag of the branch's name is what git's revision
# parser takes, while checkout and restore take the branch
@test "checkout and restore from a branch that a tag's name shadows: the ignored .env is undone (I27)" {
	other_tracks_env other
	"$REAL_GIT" tag other main
	ignored_overwrite_undone checkout checkout --no-overlay other -- .
	echo "SECRET=1" >.env
	ignored_overwrite_undone restore restore --source=other --worktree .env
}

@test "reset --hard <commit> over an ignored file is undone" {
	other_tracks_env other
	ignored_overwrite_undone reset reset --hard other
}

@test "an ignored file no operation overwrites stays out of the snapshot" {
	other_tracks_env other
	echo "cache" >local.log
	echo "*.log" >>.gitignore
	"$REAL_GIT" commit -qam "ignore logs"
	run agit checkout other -- .env
	assert_success
	ref=$(newest_ref checkout)
	[ -n "$ref" ]
	run "$REAL_GIT" ls-tree -r --name-only "$ref"
	assert_line .env
	refute_line local.log
}

# git 2.39's merge writes over the ignored file even with
# --no-overwrite-ignore (its ort strategy ignores that option)
@test "a merge that overwrites an ignored file is undone" {
	other_tracks_env other
	ignored_overwrite_undone merge merge --no-edit other
}

@test "a cherry-pick that overwrites an ignored file is undone" {
	other_tracks_env other
	ignored_overwrite_undone cherry-pick cherry-pick other
}

# plain_branch NAME: NAME has one commit of its own off main, no .env
plain_branch() {
	(cd "$REPO" && "$REAL_GIT" checkout -q -b "$1" main &&
		echo "$1" >"$1.txt" && "$REAL_GIT" add "$1.txt" &&
		"$REAL_GIT" commit -qm "$1" && "$REAL_GIT" checkout -q main)
}

# every commit named is asked, not the first only (fuzz run 21, I28)
@test "an octopus merge whose second branch overwrites an ignored file is undone" {
	plain_branch first
	other_tracks_env other
	ignored_overwrite_undone merge merge --no-edit first other
}

@test "a cherry-pick of several commits whose last overwrites an ignored file is undone" {
	plain_branch first
	other_tracks_env other
	ignored_overwrite_undone cherry-pick cherry-pick first other
}

@test "a cherry-pick of a range that brings in an ignored file is undone" {
	other_tracks_env other
	ignored_overwrite_undone cherry-pick cherry-pick main..other
}

@test "merges with nothing ignored in the way, and merge --abort, are unchanged" {
	(cd "$REPO" && echo up >up.txt && "$REAL_GIT" add up.txt &&
		"$REAL_GIT" commit -qm up)
	run agit checkout feat/one
	assert_success
	run agit merge --no-edit main
	assert_success
	[ -f up.txt ]
	run agit merge --abort
	refute_output --partial "expects no arguments"
}

# A command that writes a file where it is told (docs/fuzzing.md I6): the
# output path is an ignored file with unsaved work, which the capture
# (`add -A`) never sees. output_overwrite_undone SLUG OP ARGS…
output_overwrite_undone() {
	local slug=$1
	shift
	echo ".env" >>.gitignore
	"$REAL_GIT" add .gitignore && "$REAL_GIT" commit -qm "ignore .env"
	echo "SECRET=1" >.env
	echo change >>.gitignore
	printf 'From: a <a@b>\nSubject: s\n\nbody\n' >mail.txt
	run agit "$@" <mail.txt
	echo "op: $status $output"
	[ "$(cat .env)" != "SECRET=1" ] ||
		fail "'$*' did not overwrite the ignored .env: the test proves nothing"
	env_restored "$slug"
}

@test "mailinfo <ignored .env> <patch> is undone" {
	output_overwrite_undone mailinfo mailinfo .env patch
}

@test "mailinfo <msg> <ignored .env> is undone" {
	output_overwrite_undone mailinfo mailinfo msg .env
}

@test "diff --output=<ignored .env> is undone" {
	output_overwrite_undone diff diff --output=.env
}

@test "diff --output <ignored .env> (separate value) is undone" {
	output_overwrite_undone diff diff --output .env
}

@test "archive -o<ignored .env> (stuck) is undone" {
	output_overwrite_undone archive archive -o.env HEAD
}

@test "log --output=<ignored .env> from a subdirectory (../.env) is undone" {
	mkdir -p sub && echo x >sub/f && "$REAL_GIT" add sub && "$REAL_GIT" commit -qm sub
	cd sub
	echo ".env" >>../.gitignore
	"$REAL_GIT" add ../.gitignore && "$REAL_GIT" commit -qm "ignore .env"
	echo "SECRET=1" >../.env
	run agit log -1 --output=../.env
	assert_success
	[ "$(cat ../.env)" != "SECRET=1" ]
	cd .. # restore from a subdirectory restores that directory only
	env_restored log
}
