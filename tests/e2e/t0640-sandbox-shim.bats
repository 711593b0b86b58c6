#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The shim inside the sandbox: a bound agent in its private workspace, with
# agentic-git's bin dir, its binding and the key bound read-only, gets the
# shim's deny matrix and snapshots from within the cage.
load lib
load sandbox_cases

setup() {
	sbx_setup
	sbx_feature_repo
	"$AG_BIN" sandbox workspace --from "$REPO" --head feat --base main "$T/pws"
	ag_write_binding a1 feat "$T/pws"
}

# in_sandbox BACKEND SCRIPT
in_sandbox() {
	sbx_as_agent "$1" a1 "$T/pws" "$2"
}

shim_case() {
	in_sandbox "$1" 'command -v git
		echo work >work.txt && git add work.txt && git commit -qm inside &&
		git log -1 --format=%s
		git checkout main; echo "checkout-rc=$?"
		echo unsaved >>work.txt; git reset -q --hard; cat work.txt'
	assert_line "$AGENTIC_GIT_HOME/bin/git"
	assert_line inside
	assert_output --partial "git checkout denied"
	assert_line "checkout-rc=1"
	assert_equal "$(branch_of "$T/pws")" feat
	refute_output --partial unsaved
	# the destructive reset was snapshotted: the lost edit is recoverable
	run "$REAL_GIT" -C "$T/pws" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/a1/
	assert_output --partial "refs/agentic-git/snapshots/a1/"
	run "$REAL_GIT" -C "$T/pws" show "$output:work.txt"
	assert_output --partial unsaved
}

@test "bwrap: the shim guards git inside the sandbox" {
	shim_case bwrap
}

@test "landlock: the shim guards git inside the sandbox" {
	shim_case landlock
}
