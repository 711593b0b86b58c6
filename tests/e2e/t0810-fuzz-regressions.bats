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

# the YAML library before libyaml leaked on this key (docs/fuzzing.md, 4);
# tests/lsan.supp holds no suppression for it any more
@test "t0810: a config key made of escaped quotes is refused in one line, without a leak" {
	cp "$BATS_TEST_DIRNAME/../fuzz/corpus/config/regress-escaped-quote-key.yaml" "$T/agents.yaml"
	run "$AG_BIN" agents list --config "$T/agents.yaml"
	assert_failure 1
	assert_output --partial "agents.yaml:1:1: config: unknown key"
	refute_output --partial "LeakSanitizer"
	[ "${#lines[@]}" -eq 1 ]
}

# the YAML library before libyaml freed memory twice on an explicit key
# holding `a:<TAB>-` (docs/fuzzing.md, 5); libyaml reads it as a key that is
# a mapping, which no file of ours may have
@test "t0810: a targets file with an explicit key holding a tab and a block is refused in one line" {
	printf 'targets:\n  - repo: /r\n? -e:\t? - r\n' >"$T/targets.yaml"
	run "$AG_BIN" dispatch --targets "$T/targets.yaml" --task resolve-conflicts -- /bin/true
	assert_failure 1
	assert_output --partial "targets.yaml:3:3: invalid YAML: a key must be a scalar, not a mapping"
	[ "${#lines[@]}" -eq 1 ]
}

@test "t0810: a config with an explicit key holding a tab and a block is refused in one line" {
	cp "$BATS_TEST_DIRNAME/../fuzz/corpus/config/regress-explicit-key-tab.yaml" "$T/agents.yaml"
	run "$AG_BIN" agents list --config "$T/agents.yaml"
	assert_failure 1
	assert_output --partial "agents.yaml:3:7: invalid YAML: a key must be a scalar, not a mapping"
	[ "${#lines[@]}" -eq 1 ]
	# an explicit key that is a plain string is a key like any other
	printf '? default_agent\n: codex\n' >"$T/explicit.yaml"
	chmod 600 "$T/explicit.yaml"
	run "$AG_BIN" agents list --config "$T/explicit.yaml"
	assert_success
	assert_output --partial "* codex"
	# a '?' in a block scalar or a quoted string is text, and still loads
	printf 'agents:\n  mybot:  # ? a comment\n    command:\n      - /bin/true\n      - "? {prompt}"\n      - |\n        ? literal\n    prompt_via: arg\n' >"$T/ok.yaml"
	chmod 600 "$T/ok.yaml"
	run "$AG_BIN" agents list --config "$T/ok.yaml"
	assert_success
	assert_output --partial "mybot"
}

# the YAML library before libyaml crashed while it printed the line of this
# error (docs/fuzzing.md, 6); libyaml stops at the first control character
@test "t0810: a config with control characters in a long line is refused in one line, not a crash" {
	cp "$BATS_TEST_DIRNAME/../fuzz/corpus/config/regress-control-chars.yaml" "$T/agents.yaml"
	chmod 600 "$T/agents.yaml"
	run "$AG_BIN" agents list --config "$T/agents.yaml"
	assert_failure 1
	assert_output --partial "agents.yaml:4:19: invalid YAML: control characters are not allowed (U+0001)"
	[ "${#lines[@]}" -eq 1 ]
}
