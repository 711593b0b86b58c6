#!/usr/bin/env bats
# A submodule's unsaved work lives in its own repository: the
# superproject's snapshot holds a gitlink at most. Before `git rm` of a
# submodule (forced, or not: its ignored files go with its work tree) and
# `git submodule update --force`, the submodule's changed, untracked and
# ignored files are kept in the quarantine (issue 33), and `snapshots
# restore` brings back what is gone, byte for byte.
load lib
load snapshot-lib

setup() {
	snapshot_agent feat/a
	SUB=$T/subrepo
	"$REAL_GIT" init -q "$SUB"
	(
		cd "$SUB"
		echo "committed" >a.txt
		printf '*.env\n' >.gitignore
		"$REAL_GIT" add -A && "$REAL_GIT" commit -qm sub
	)
	"$REAL_GIT" submodule add -q "$SUB" sub
	"$REAL_GIT" commit -qm "add sub"
	head -c 150 /dev/urandom >sub/.env
	env_sha=$(sha256sum <sub/.env)
}

# qdir: the quarantine the newest snapshot of OP used, from restore's words
restore_qdir() {
	sed -n 's/.* left in \(.*\) because they exist again/\1/p' <<<"$output"
}

@test "rm -rf of a submodule: its changed, untracked and ignored files come back" {
	echo "my change" >>sub/a.txt
	echo "notes" >sub/notes.txt
	a_sha=$(sha256sum <sub/a.txt)
	run agit rm -q -rf sub
	assert_success
	[ ! -e sub/a.txt ]
	ref=$(newest_ref rm)
	[ -n "$ref" ] || fail "no rm snapshot"
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_equal "$(sha256sum <sub/a.txt)" "$a_sha"
	assert_equal "$(cat sub/notes.txt)" "notes"
	assert_equal "$(sha256sum <sub/.env)" "$env_sha"
	# its .git file came back too: the directory is a checkout again
	run "$REAL_GIT" -C sub status --porcelain
	assert_success
	assert_output --partial "notes.txt"
}

@test "an unforced rm of a clean submodule still deletes its ignored files: kept" {
	run agit rm -q -r sub
	assert_success
	[ ! -e sub/.env ]
	ref=$(newest_ref rm)
	[ -n "$ref" ] || fail "no rm snapshot"
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_equal "$(sha256sum <sub/.env)" "$env_sha"
}

@test "submodule update --force: the overwritten change is kept in the quarantine" {
	echo "my change" >>sub/a.txt
	a_sha=$(sha256sum <sub/a.txt)
	run agit submodule update --force
	assert_success
	assert_equal "$(cat sub/a.txt)" "committed"
	ref=$(newest_ref submodule)
	[ -n "$ref" ] || fail "no submodule snapshot"
	run "$AG_BIN" snapshots show "$ref"
	assert_output --partial "sub/a.txt"
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	q=$(restore_qdir)
	[ -n "$q" ] || fail "restore named no quarantine: $output"
	assert_equal "$(sha256sum <"$q/sub/a.txt")" "$a_sha"
	assert_equal "$(sha256sum <sub/.env)" "$env_sha"
}

@test "rm of a plain file in a repository with a submodule keeps nothing of it" {
	echo "notes" >sub/notes.txt
	echo "more" >>README.md
	run agit rm -q --cached README.md
	assert_success
	ref=$(newest_ref rm)
	[ -n "$ref" ] || fail "no rm snapshot"
	run "$AG_BIN" snapshots show "$ref"
	refute_output --partial "sub/notes.txt"
	[ -e sub/notes.txt ]
}

@test "when the quarantine cannot be written, rm of a submodule with work is refused and the work stays" {
	echo "notes" >sub/notes.txt
	mkdir -p "$AGENTIC_GIT_HOME/quarantine"
	no_links "$AGENTIC_GIT_HOME/quarantine"
	run agit rm -q -rf sub
	allow_links "$AGENTIC_GIT_HOME/quarantine"
	assert_failure
	assert_output --partial "git rm refused"
	assert_output --partial "commit the submodule's work"
	assert_equal "$(cat sub/notes.txt)" "notes"
	assert_equal "$(sha256sum <sub/.env)" "$env_sha"
}

@test "reset --recurse-submodules --hard: the submodule's change is kept (invariant fuzzer, seed 77)" {
	echo "my change" >>sub/a.txt
	a_sha=$(sha256sum <sub/a.txt)
	run agit reset -q --recurse-submodules --hard
	assert_success
	assert_equal "$(cat sub/a.txt)" "committed"
	ref=$(newest_ref reset)
	[ -n "$ref" ] || fail "no reset snapshot"
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	q=$(restore_qdir)
	[ -n "$q" ] || fail "restore named no quarantine: $output"
	assert_equal "$(sha256sum <"$q/sub/a.txt")" "$a_sha"
}
