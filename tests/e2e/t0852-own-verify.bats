#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Issue 32: dispatch's verifier reads the agent's commits in a repository
# agentic-git owns (git/owned-import.h, fleet/verify.h invariant 2), so
# nothing in the workspace's git dir or config blinds it, and the push
# goes from that repository, whose alternates are the operator's clone
# only (fleet/push.h invariant 1). Each hole is replayed from its corpus
# scene (tests/hostile/corpus/regress-W*.scene): the agent plants it in a
# real sandbox, dispatch verifies and pushes, and the checker reads the
# remote with plain git. A scene fails as long as its hole is open.
load lib

HX=$BATS_TEST_DIRNAME/../hostile

setup() {
	T=$BATS_TEST_TMPDIR
	prereq bwrap command -v bwrap
	prereq strace command -v strace
}

replay() {
	local s args=()
	for s in "$@"; do args+=("$HX/corpus/$s.scene"); done
	run "$HX/hostile.sh" -o "$T/hx" --replay "${args[@]}"
	echo "$output"
	assert_success
	refute_output --partial "not ok"
}

@test "t0852 W5: a .git/shallow does not hide a commit adding fleet.yaml from the trust-root scan" {
	replay regress-W5-shallow-blinds-verifier
	grep -q "trust-root file 'fleet.yaml' in the pushed range" "$T"/hx/scenes/*/02-dispatch.run/*.meta.yaml
}

@test "t0852 W6: '* -diff' in .git/info/attributes does not hide conflict markers" {
	replay regress-W6-info-attributes-blinds-verifier
	grep -q "conflict markers in" "$T"/hx/scenes/*/02-dispatch.run/*.meta.yaml
}

@test "t0852 W13: core.bigFileThreshold and core.attributesFile in the workspace's config do not hide markers" {
	replay regress-W13-bigfile-blinds-verifier regress-W13-attributesfile-blinds-verifier
}

@test "t0852 W14: a committed .gitattributes (binary, -diff) does not hide markers" {
	replay regress-W14-committed-attributes-blind-verifier
}

@test "t0852 W9: the workspace's alternates reach no store of the operator's: nothing of it is pushed" {
	replay regress-W9-alternates-exfiltration
	grep -q "cannot read the commits of the workspace" "$T"/hx/scenes/*/02-dispatch.run/*.meta.yaml
}
