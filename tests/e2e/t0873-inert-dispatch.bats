#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Issue 32 point 4 (W12): dispatch's summary.md, which the operator reads
# with cat, holds the agent's verdict line and the names of refs it made
# (the `other refs changed:` detail) inert; dispatch's own output too;
# `--json` keeps the exact verdict line.
bats_require_minimum_version 1.5.0
load lib
load dispatch
load inert

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	dsp_advance_main
	OLD=$(origin_sha feat/a)
	# an agent that resolves, also makes a branch with a bidi override in
	# its name, and says RESOLVED with escape sequences in the line
	HOSTILE_AGENT=$T/hostile-verdict.sh
	cat >"$HOSTILE_AGENT" <<-'SH'
		#!/bin/bash
		"$AGENTS/resolve.sh" >/dev/null
		"${REAL_GIT:-git}" branch -f "stray$HOSTILE_REF" HEAD
		printf 'RESOLVED: done %s\n' "$HOSTILE"
	SH
	chmod +x "$HOSTILE_AGENT"
}

@test "summary.md: the verdict line and another ref's name are inert" {
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$HOSTILE_AGENT"
	[ "$status" -eq 4 ]
	assert_inert "$output" "dispatch's output"
	[ "$(origin_sha feat/a)" = "$OLD" ]
	summary=$(cat "$(run_dir)/summary.md")
	assert_shows "$summary" "summary.md"
	[[ "$summary" == *"RESOLVED: done $HOSTILE_SHOWN"* ]]
	[[ "$summary" == *"other refs changed: refs/heads/stray$HOSTILE_REF_SHOWN"* ]]
}

@test "dispatch --json keeps the agent's verdict line exact" {
	# stdout alone: off a terminal the progress lines go to stderr
	run --separate-stderr dispatch --json --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$HOSTILE_AGENT"
	[ "$status" -eq 4 ]
	assert_equal "$(jq -r '.targets[0].verdict_line' <<<"$output")" "RESOLVED: done $HOSTILE"
}
