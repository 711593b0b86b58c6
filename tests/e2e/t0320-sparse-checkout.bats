#!/usr/bin/env bats
# sparse-checkout is destructive (issue 33): in cone mode git removes a
# directory that leaves the cone with the ignored files left in it
# (conf/prod.env), and no tree can hold an ignored file. Before every
# form that writes, those files are kept in the quarantine (a link or a
# copy, left in place) and `snapshots restore` brings their bytes back.
load lib
load snapshot-lib

setup() {
	snapshot_agent feat/a
	mkdir -p conf deep/er
	echo "app: 1" >conf/app.yml
	echo "x" >deep/er/x.txt
	printf '*.env\n' >.gitignore
	"$REAL_GIT" add -A && "$REAL_GIT" commit -qm "conf"
	head -c 200 /dev/urandom >conf/prod.env
	head -c 100 /dev/urandom >deep/er/local.env
	echo "TOP=1" >top.env
	sha=$(sha256sum <conf/prod.env)
	sha2=$(sha256sum <deep/er/local.env)
}

@test "sparse-checkout set: the ignored file it deletes comes back, byte for byte" {
	run agit sparse-checkout set src
	assert_success
	[ ! -e conf/prod.env ]
	[ ! -e deep/er/local.env ]
	[ -e top.env ]
	ref=$(newest_ref sparse-checkout)
	[ -n "$ref" ] || fail "no sparse-checkout snapshot"
	run "$AG_BIN" snapshots show "$ref"
	assert_output --partial "conf/prod.env"
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_equal "$(sha256sum <conf/prod.env)" "$sha"
	assert_equal "$(sha256sum <deep/er/local.env)" "$sha2"
}

@test "sparse-checkout init and reapply are snapshotted too" {
	run agit sparse-checkout init --cone
	assert_success
	[ ! -e conf/prod.env ]
	ref=$(newest_ref sparse-checkout)
	[ -n "$ref" ] || fail "no snapshot before init"
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_equal "$(sha256sum <conf/prod.env)" "$sha"
	[ -e conf/prod.env ]
	run agit sparse-checkout reapply
	assert_success
	[ ! -e conf/prod.env ]
	ref2=$(newest_ref sparse-checkout)
	[ "$ref2" != "$ref" ] || fail "no snapshot before reapply"
	run "$AG_BIN" snapshots restore "$ref2"
	assert_success
	assert_equal "$(sha256sum <conf/prod.env)" "$sha"
}

@test "sparse-checkout list is a read: no snapshot" {
	run agit sparse-checkout list
	[ -z "$(newest_ref sparse-checkout)" ]
}

@test "when the quarantine cannot be written, sparse-checkout is refused and the file stays" {
	mkdir -p "$AGENTIC_GIT_HOME/quarantine"
	no_links "$AGENTIC_GIT_HOME/quarantine"
	run agit sparse-checkout set src
	allow_links "$AGENTIC_GIT_HOME/quarantine"
	assert_failure
	assert_output --partial "git sparse-checkout refused"
	assert_output --partial "move those ignored files out of them first"
	assert_equal "$(sha256sum <conf/prod.env)" "$sha"
}
