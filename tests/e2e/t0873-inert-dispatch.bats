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

@test "an escalation note is salvaged inert, its lines and backslashes kept" {
	ESC_AGENT=$T/hostile-escalate.sh
	cat >"$ESC_AGENT" <<-'SH'
		#!/bin/bash
		printf 'status: ESCALATED\nwhy: %s\npath: C:\\tmp\n' "$HOSTILE" >ESCALATION.md
		printf 'ESCALATED: %s\n' "$HOSTILE"
	SH
	chmod +x "$ESC_AGENT"
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$ESC_AGENT"
	[ "$status" -eq 3 ]
	assert_inert "$output" "dispatch's output"
	note=$(cat "$(run_dir)/escalations/repo-feat-a.md")
	assert_shows "$note" "the salvaged escalation note"
	assert_equal "$(sed -n 3p <<<"$note")" 'path: C:\tmp'
	assert_shows "$(cat "$(run_dir)/summary.md")" "summary.md"
}

@test "summarize prints an agent's answer inert, its lines and backslashes kept" {
	cat >"$T/answer.sh" <<-'SH'
		#!/bin/bash
		cat >/dev/null
		printf 'triage: %s\n' "$HOSTILE"
		printf '%s\n' 'path C:\tmp'
	SH
	chmod +x "$T/answer.sh"
	echo "input" >"$T/in.txt"
	run "$AG_BIN" summarize --input "$T/in.txt" -- "$T/answer.sh"
	assert_success
	assert_shows "$output" "summarize's answer"
	assert_line --index 0 "triage: $HOSTILE_SHOWN"
	assert_line --index 1 'path C:\tmp'
}
