#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The boundary rule's other half (agents/owned-cage.h invariants 2 and 4,
# git/gitcmd.h invariant 5): a host that can cage nothing runs none of
# agentic-git's own git over an agent's repository, and says why in one
# line; a `.git` file cannot hand the cage another repository to write.
load lib

setup() {
	T=$BATS_TEST_TMPDIR
	export AGENTIC_GIT_HOME=$T/aghome
	"$REAL_GIT" init -q "$T/r"
	echo a >"$T/r/a"
	"$REAL_GIT" -C "$T/r" add a
	"$REAL_GIT" -C "$T/r" -c user.name=t -c user.email=t@t commit -qm one
}

@test "t0851: no sandbox on the host: snapshots refuses with the reason and runs no git" {
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock run "$AG_BIN" snapshots list --repo "$T/r"
	assert_failure
	assert_output --partial "agentic-git's own git was not run: this host can sandbox nothing"
	[ "$(grep -c "own git was not run" <<<"$output")" -eq 1 ]
}

@test "t0851: with either backend alone, the same listing works" {
	prereq bwrap command -v bwrap
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=landlock run "$AG_BIN" snapshots list --repo "$T/r"
	assert_success
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap run "$AG_BIN" snapshots list --repo "$T/r"
	assert_success
}

@test "t0851: a work tree whose .git file names another repository is refused" {
	mkdir "$T/ws"
	echo "gitdir: $T/r/.git" >"$T/ws/.git"
	run "$AG_BIN" snapshots list --repo "$T/ws"
	assert_failure
	assert_output --partial "lies outside it"
}
