#!/usr/bin/env bats
# snapshots restore --since: a burst of destructive commands undone at once.
load lib

setup() {
	ag_setup
	ag_bind ag1 feat/one
	cd "$WT"
	echo "*.env" >.gitignore && "$REAL_GIT" add .gitignore && "$REAL_GIT" commit -qm ignore
}

@test "reset --hard then clean -fdx: one restore --since brings tracked, untracked and ignored work back" {
	echo "edited" >README.md
	echo "new" >new.txt
	echo "SECRET=1" >local.env
	sum() { (cd "$WT" && sha256sum README.md new.txt local.env); }
	before=$(sum)
	AGENTIC_GIT_SNAPSHOTS=1 agit reset -q --hard
	AGENTIC_GIT_SNAPSHOTS=1 agit clean -fdxq
	[ ! -e new.txt ]
	[ ! -e local.env ]
	[ "$(cat README.md)" = hello ]
	run "$AG_BIN" snapshots restore --repo "$WT" --since 1h
	assert_success
	[ "$(sum)" = "$before" ]
	# another agent's snapshots are never part of the window
	run env AGENTIC_GIT_AGENT=ag2 "$AG_BIN" snapshots restore --repo "$WT" --since 1h
	assert_failure
	assert_output --partial "no snapshots to restore from"
}

@test "restore --since rejects a bad window and a named ref" {
	for w in 1 1x m -1m 1mm ""; do
		run "$AG_BIN" snapshots restore --repo "$WT" --since "$w"
		assert_failure 2
	done
	run "$AG_BIN" snapshots restore refs/agentic-git/snapshots/ag1/x --repo "$WT" --since 1h
	assert_failure 2
	assert_output --partial "do not name a ref"
}
