#!/usr/bin/env bats
# The cross-branch fence (PRODUCT.md §4, docs/policy.md checkout/switch row):
# every spelling of a branch move is denied; file checkouts are allowed.
load lib
load shimlib

setup() {
	ag_setup
	(
		cd "$REPO"
		"$REAL_GIT" branch other
		"$REAL_GIT" tag v1
		# a branch that exists only on the remote (git would DWIM-create it)
		"$REAL_GIT" push -q origin main:refs/heads/remote-only
		"$REAL_GIT" fetch -q origin
	)
	ag_bind ag1 feat/a
	WT_HEAD=$(head_of "$WT")
	cd "$WT"
}

assert_fenced() {
	assert_denied bound
	assert_output --partial "cross-branch"
	assert_output --partial "assigned to 'feat/a'"
	assert_equal "$(branch_of "$WT")" feat/a
	assert_equal "$(head_of "$WT")" "$WT_HEAD"
}

@test "checkout main is denied and names 'main'" {
	run agit checkout main
	assert_fenced
	assert_output --partial "'main'"
	assert_output --partial "ERROR git checkout denied"
}

@test "flag-first checkout -q <other> is denied" {
	run agit checkout -q other
	assert_fenced
	assert_output --partial "'other'"
}

@test "checkout -f <other> is denied" {
	run agit checkout -f other
	assert_fenced
}

@test "checkout --quiet --force other (long flags first) is denied" {
	run agit checkout --quiet --force other
	assert_fenced
}

@test "checkout -b / -B / --orphan <new> are denied and create nothing" {
	local f
	for f in -b -B --orphan; do
		run agit checkout "$f" newbr
		assert_fenced
	done
	run "$REAL_GIT" rev-parse -q --verify refs/heads/newbr
	assert_failure
}

@test "checkout -b <new> <start-point> is denied" {
	run agit checkout -b newbr main
	assert_fenced
}

@test "switch <other> and switch main are denied" {
	run agit switch other
	assert_fenced
	run agit switch main
	assert_fenced
}

@test "switch -c / -C / --create / --orphan <new> are denied" {
	local f
	for f in -c -C --create --force-create --orphan; do
		run agit switch "$f" newbr
		assert_fenced
	done
	run agit switch --create=newbr
	assert_fenced
}

@test "checkout --detach and switch --detach / -d are denied" {
	run agit checkout --detach
	assert_fenced
	run agit checkout --detach HEAD~0
	assert_fenced
	run agit switch --detach HEAD
	assert_fenced
	run agit switch -d HEAD
	assert_fenced
}

@test "checkout <tag> and checkout <sha> (detaching) are denied" {
	run agit checkout v1
	assert_fenced
	run agit checkout "$WT_HEAD"
	assert_fenced
	run agit checkout HEAD~0
	assert_fenced
}

@test "checkout - / @{-1} and switch - are denied" {
	run agit checkout -
	assert_fenced
	run agit checkout @{-1}
	assert_fenced
	run agit switch -
	assert_fenced
}

@test "a remote-only branch name (DWIM create) is denied" {
	run agit checkout remote-only
	assert_fenced
	run agit switch remote-only
	assert_fenced
	run "$REAL_GIT" rev-parse -q --verify refs/heads/remote-only
	assert_failure
}

@test "a name that is neither path nor ref is denied (fail-closed)" {
	run agit checkout no-such-thing
	assert_fenced
}

@test "a name that is both a branch and a path is a branch move" {
	mkdir -p "$WT/other"
	echo x >"$WT/other/f"
	run agit checkout other
	assert_fenced
}

@test "checkout from the canonical checkout is fenced too" {
	cd "$REPO"
	run agit checkout other
	assert_fenced
	assert_equal "$(branch_of "$REPO")" main
	run agit -C "$REPO" checkout -q other
	assert_fenced
	assert_equal "$(branch_of "$REPO")" main
}

@test "checkout -- <path> restores a file" {
	echo "dirty" >>README.md
	run agit checkout -- README.md
	assert_success
	run "$REAL_GIT" status --porcelain
	assert_output ""
}

@test "checkout <rev> -- <path> and checkout <branch> -- <path> are allowed" {
	commit_file "$REPO" README.md "from main"
	run agit checkout main -- README.md
	assert_success
	assert_equal "$(cat README.md)" "from main"
	assert_equal "$(branch_of "$WT")" feat/a
	run agit checkout HEAD -- README.md
	assert_success
	assert_equal "$(cat README.md)" "hello"
}

@test "checkout <rev> <path> (no --) is a file checkout" {
	commit_file "$REPO" README.md "from main"
	run agit checkout main README.md
	assert_success
	assert_equal "$(cat README.md)" "from main"
	assert_equal "$(branch_of "$WT")" feat/a
}

@test "checkout <path> when the path is not a ref is allowed" {
	echo "dirty" >>README.md
	run agit checkout README.md
	assert_success
	assert_equal "$(cat README.md)" "hello"
	echo "x" >>src/main.c
	cd src
	run agit checkout main.c
	assert_success
	run "$REAL_GIT" status --porcelain
	assert_output ""
}

@test "checkout --pathspec-from-file is a file checkout" {
	echo "dirty" >>README.md
	echo README.md >"$T/list"
	run agit checkout --pathspec-from-file="$T/list"
	assert_success
	assert_equal "$(cat README.md)" "hello"
}

@test "restore <path> is allowed" {
	echo "dirty" >>README.md
	run agit restore README.md
	assert_success
	assert_equal "$(cat README.md)" "hello"
}

@test "checkout <assigned>, checkout -B <assigned> <start>, bare checkout, checkout -f" {
	run agit checkout feat/a
	assert_success
	run agit checkout -q -B feat/a HEAD
	assert_success
	run agit switch feat/a
	assert_success
	run agit checkout
	assert_success
	run agit checkout -f
	assert_success
	assert_equal "$(branch_of "$WT")" feat/a
	assert_no_deny_events
}

@test "every fence deny records one deny event with subcommand checkout/switch" {
	run agit checkout -q other
	assert_events 1
	assert_last_event deny checkout
	run agit switch -c x
	assert_events 2
	assert_last_event deny switch
}

# Invariant fuzzer, seed 31, command 12392: refs/heads/@ is a valid ref, and
# with it `git switch @` switches to that branch, not to HEAD.
@test "a branch named @ or HEAD is a branch: switching to it is fenced" {
	"$REAL_GIT" -C "$REPO" update-ref refs/heads/@ "$WT_HEAD"
	run agit switch @
	assert_fenced
	run agit checkout @
	assert_fenced
	"$REAL_GIT" -C "$REPO" update-ref -d refs/heads/@
	# with no such branch, `checkout @` detaches at HEAD's commit, as
	# `checkout --detach` does; `checkout HEAD` moves nothing
	run agit checkout HEAD
	assert_success
	assert_equal "$(branch_of "$WT")" feat/a
	run agit checkout --detach
	local detach=$status
	"$REAL_GIT" -C "$WT" checkout -q feat/a
	run agit checkout @
	assert_equal "$status" "$detach"
}
