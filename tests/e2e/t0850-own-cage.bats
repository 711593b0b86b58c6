#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Issue 32 point 1, the boundary rule (docs/sandbox.md "The boundary
# rule", agents/owned-cage.h): every git agentic-git runs over a
# repository a caged agent could write runs in a cage of its own. Each
# hole the hostile-workspace fuzzer found is replayed from its corpus
# scene (tests/hostile/corpus/regress-W*.scene): the agent plants it in a
# real sandbox, the operator's commands run over it, and the checker
# watches every exec (strace), the canaries, $HOME, the clone and the
# remote. A scene fails as long as its hole is open.
load lib

HX=$BATS_TEST_DIRNAME/../hostile

setup() {
	T=$BATS_TEST_TMPDIR
	prereq bwrap command -v bwrap
	prereq strace command -v strace
}

# replay SCENE…: the fuzzer's replay passes (TAP "ok", exit 0)
replay() {
	local s args=()
	for s in "$@"; do args+=("$HX/corpus/$s.scene"); done
	run "$HX/hostile.sh" -o "$T/hx" --replay "${args[@]}"
	echo "$output"
	assert_success
	refute_output --partial "not ok"
}

@test "t0850 W1: a submodule's filter never runs outside a cage (sessions, snapshots diff/restore, end, end --force; both backends)" {
	replay regress-W1-submodule-filter-bwrap regress-W1-submodule-filter-landlock
}
