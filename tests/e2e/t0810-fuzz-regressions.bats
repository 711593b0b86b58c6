#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# End-to-end regressions for what the fuzzers found (docs/fuzzing.md).
load lib

setup() { ag_setup; }

@test "t0810: a global option's value spelled like -C cannot shift the routed subcommand" {
	ag_bind ag1 feat/one
	cd "$WT"
	echo change >>README.md
	run agit reset --hard
	assert_success
	ref=$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag1/ | head -1)
	[ -n "$ref" ]
	# judged as `status`, so git must run `status`, never update-ref
	run agit --namespace -C status update-ref -d "$ref"
	[ "$status" -ne 0 ]
	run "$REAL_GIT" rev-parse --verify -q "$ref"
	assert_success
	run agit --namespace -C status checkout -b evil
	[ "$(branch_of "$WT")" = feat/one ]
	run "$REAL_GIT" rev-parse --verify -q refs/heads/evil
	assert_failure
	run agit -c --work-tree status
	[ "$(branch_of "$WT")" = feat/one ]
}

@test "t0810: a targets file with invalid UTF-8 is refused, not a hang" {
	printf 'targets:\n  - repo: /r\n%%\x95\n' >"$T/targets.yaml"
	run timeout 20 "$AG_BIN" dispatch --targets "$T/targets.yaml" --task resolve-conflicts -- /bin/true
	[ "$status" -ne 124 ]
	[ "$status" -ne 0 ]
	assert_output --partial "targets.yaml:3:2: not valid UTF-8"
}

@test "t0810: a config key made of escaped quotes is refused in one line (and libfyaml's leak on it is the only one)" {
	cp "$BATS_TEST_DIRNAME/../fuzz/corpus/config/libfyaml-chunk-leak.yaml" "$T/agents.yaml"
	run "$AG_BIN" agents list --config "$T/agents.yaml"
	assert_failure 1
	assert_output --partial "agents.yaml:1:2: config: unknown key"
	refute_output --partial "LeakSanitizer"
	[ "${#lines[@]}" -eq 1 ]
}

# libfyaml 0.7.12 frees memory twice on an explicit key holding `a:<TAB>-`
@test "t0810: a targets file with an explicit key is refused in one line, not a crash" {
	printf 'targets:\n  - repo: /r\n? -e:\t? - r\n' >"$T/targets.yaml"
	run "$AG_BIN" dispatch --targets "$T/targets.yaml" --task resolve-conflicts -- /bin/true
	assert_failure 1
	assert_output --partial "targets.yaml:3:1: explicit keys ('? ') are not supported"
	[ "${#lines[@]}" -eq 1 ]
}

@test "t0810: a config with an explicit key is refused in one line, not a crash" {
	cp "$BATS_TEST_DIRNAME/../fuzz/corpus/config/regress-libfyaml-double-free.yaml" "$T/agents.yaml"
	run "$AG_BIN" agents list --config "$T/agents.yaml"
	assert_failure 1
	assert_output --partial "agents.yaml:3:5: explicit keys ('? ') are not supported"
	[ "${#lines[@]}" -eq 1 ]
	# a '?' in a block scalar or a quoted string is text, and still loads
	printf 'agents:\n  mybot:  # ? a comment\n    command:\n      - /bin/true\n      - "? {prompt}"\n      - |\n        ? literal\n    prompt_via: arg\n' >"$T/ok.yaml"
	chmod 600 "$T/ok.yaml"
	run "$AG_BIN" agents list --config "$T/ok.yaml"
	assert_success
	assert_output --partial "mybot"
}

# libfyaml 0.7.12 crashes while it prints the line of some errors
@test "t0810: a config whose YAML error libfyaml cannot print is refused in one line, not a crash" {
	cp "$BATS_TEST_DIRNAME/../fuzz/corpus/config/regress-libfyaml-diag-display.yaml" "$T/agents.yaml"
	chmod 600 "$T/agents.yaml"
	run "$AG_BIN" agents list --config "$T/agents.yaml"
	assert_failure 1
	assert_output --partial "agents.yaml:10:2596: invalid YAML: invalid multiline plain key"
	[ "${#lines[@]}" -eq 1 ]
}
