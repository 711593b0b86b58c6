#!/usr/bin/env bats
# revert writes back what a commit changed as its parent had it: a file
# the commit stopped tracking comes back over the ignored file in its
# place, and git says nothing (issue 33). The snapshot before the revert
# holds the ignored file, byte for byte.
load lib
load snapshot-lib

setup() {
	snapshot_agent feat/a
	echo "TEMPLATE=x" >.env
	"$REAL_GIT" add .env && "$REAL_GIT" commit -qm "env template"
	"$REAL_GIT" rm -q --cached .env
	echo .env >.gitignore
	"$REAL_GIT" add .gitignore && "$REAL_GIT" commit -qm "stop tracking .env"
	head -c 300 /dev/urandom >.env
	sha=$(sha256sum <.env)
}

@test "revert over an ignored file: the snapshot holds it and restore brings its bytes back" {
	run agit revert --no-edit HEAD
	assert_success
	assert_equal "$(cat .env)" "TEMPLATE=x"
	ref=$(newest_ref revert)
	[ -n "$ref" ] || fail "no revert snapshot"
	run "$AG_BIN" snapshots show "$ref"
	assert_output --partial ".env"
	rm .env
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_equal "$(sha256sum <.env)" "$sha"
}

@test "a revert of a range: each commit's parent is asked" {
	echo "other" >other.txt
	"$REAL_GIT" add other.txt && "$REAL_GIT" commit -qm other
	run agit revert --no-edit HEAD~2..HEAD
	assert_success
	ref=$(newest_ref revert)
	[ -n "$ref" ] || fail "no revert snapshot"
	rm .env
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_equal "$(sha256sum <.env)" "$sha"
}
