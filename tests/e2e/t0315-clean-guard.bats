#!/usr/bin/env bats
# A bound agent's git clean is read by clean's own grammar, and what it
# deletes that the snapshot's tree cannot hold is in the quarantine, in
# every spelling (docs/fuzzing.md I17, the review after it): a translated
# git, --no-dry-run, an -e value spelled "--", patterns and config that
# un-ignore files, --end-of-options, -n, -i, and a forged quarantine line.
load lib
load snapshot-lib

setup() {
	snapshot_agent feat/a
	printf '*.log\n' >.gitignore
	"$REAL_GIT" add .gitignore && "$REAL_GIT" commit -qm ignore
	echo "only here" >secret.log
	echo u >u.txt
	"$REAL_GIT" init -q nested && echo n >nested/n.txt
}

# quarantined PATH: the newest clean snapshot's quarantine holds PATH
quarantined() {
	local ref
	ref=$(newest_ref clean)
	[ -n "$ref" ] || fail "no clean snapshot"
	run "$AG_BIN" snapshots show "$ref"
	assert_output --partial "$1"
}

@test "a translated git does not blind the dry run (LANGUAGE, LC_ALL)" {
	LANGUAGE=de LC_ALL=C.UTF-8 run agit clean -ffdx
	assert_success
	[ ! -e nested ]
	[ ! -e secret.log ]
	quarantined "nested/.git/"
	quarantined "secret.log"
}

@test "--no-dry-run does not make the dry run delete" {
	run agit clean -ffdx --no-dry-run
	assert_success
	[ ! -e nested ]
	[ ! -e secret.log ]
	quarantined "nested/n.txt"
	quarantined "secret.log"
}

@test "an -e value spelled -- hides no option: the clean is snapshotted" {
	before=$(tree_state .)
	run agit clean -e -- -ffdx
	assert_success
	[ ! -e u.txt ]
	[ ! -e secret.log ]
	[ ! -e nested ]
	run "$AG_BIN" snapshots restore "$(newest_ref clean)"
	assert_success
	assert_equal "$(tree_state .)" "$before"
}

@test "files the clean's own pattern or config un-ignores are quarantined" {
	run agit clean -f -e '!*.log'
	assert_success
	[ ! -e secret.log ]
	quarantined "secret.log"
	mkdir -p "$HOME/.config/git" && echo '*.secret' >"$HOME/.config/git/ignore"
	echo "key" >api.secret
	run agit -c core.excludesFile=/dev/null clean -f
	assert_success
	[ ! -e api.secret ]
	quarantined "api.secret"
}

@test "after --end-of-options every word is a path, in the dry run too" {
	echo k >-nkeys.log
	run agit clean -fx --end-of-options -nkeys.log
	assert_success
	[ ! -e ./-nkeys.log ]
	[ -e secret.log ]
	quarantined "-nkeys.log"
	run agit clean -fx --end-of-options -n
	assert_success
	[ -e secret.log ]
	[ -e u.txt ]
}

@test "a dry run moves nothing; an interactive clean is denied" {
	before=$(tree_state .)
	run agit clean -fnx
	assert_success
	assert_line "Would remove secret.log"
	assert_equal "$(tree_state .)" "$before"
	[ -z "$(newest_ref clean)" ]
	run agit clean -fi -x </dev/null
	assert_failure 1
	assert_output --partial "git clean -i waits for a person"
	assert_equal "$(tree_state .)" "$before"
}

@test "restore leaves a quarantine that is not its snapshot's alone" {
	mkdir -p "$T/victim/sub" && echo "private" >"$T/victim/sub/id_rsa"
	local tree commit ref
	tree=$("$REAL_GIT" rev-parse 'HEAD^{tree}')
	commit=$(printf 'clean snapshot\n\nAgentic-Snapshot-Op: clean\nAgentic-Snapshot-Agent: ag1\nAgentic-Snapshot-Worktree: %s\nAgentic-Snapshot-Quarantine: %s\n' \
		"$WT" "$T/victim" | "$REAL_GIT" commit-tree "$tree" -p HEAD)
	ref=refs/agentic-git/snapshots/ag1/20260101T000000Z-0-clean
	"$REAL_GIT" update-ref "$ref" "$commit"
	# nothing else to restore: the foreign directory counts for nothing
	run "$AG_BIN" snapshots restore "$ref"
	assert_output --partial "nothing to restore"
	[ -f "$T/victim/sub/id_rsa" ]
	[ ! -e "$WT/sub/id_rsa" ]
	# a restore that runs leaves it where it is, and says so
	echo "changed" >>README.md
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_output --partial "quarantine '$T/victim' is not this snapshot's"
	[ -f "$T/victim/sub/id_rsa" ]
	[ ! -e "$WT/sub/id_rsa" ]
}
